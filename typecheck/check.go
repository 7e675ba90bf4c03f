// Package typecheck resolves and checks a parsed .bo file and produces the IR.
package typecheck

import (
	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ast"
	"github.com/bocdev/boc/dsl/ir"
)

// Config says where the file lives, for resolving Go bindings.
type Config struct {
	// Dir is the directory go/packages resolves `go "import/path"` bindings
	// from (the directory of the .bo file); "" means the current directory.
	Dir string
}

// Check checks f and returns its IR, or nil when there are errors, along with
// every diagnostic (errors and warnings) in source order.
func Check(f *ast.File, cfg Config) (*ir.Program, dsl.Diagnostics) {
	panic("TODO(typecheck helper): replace")
}
