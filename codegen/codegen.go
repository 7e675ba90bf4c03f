// Package codegen emits the Go optimiser for a checked problem.
package codegen

import (
	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
)

// Options controls code generation.
type Options struct {
	// Package is the library package name; "" means the problem name.
	Package string
	// ImportPath is the import path under which the library package will live;
	// the program's main package imports it from there.
	ImportPath string
}

// File is one generated Go file; Name is relative to the output directory.
type File struct {
	Name    string
	Content []byte
}

// Output is what Generate produces: the library package (the optimiser) and
// the program's main package, which imports the library from ImportPath.
type Output struct {
	Library []File
	Main    []File
}

// Generate emits Go code for p. Plugins this version cannot emit are reported
// as diagnostics at the call's position.
func Generate(p *ir.Program, opt Options) (*Output, dsl.Diagnostics) {
	panic("TODO(codegen helper): replace")
}
