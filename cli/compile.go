package cli

import (
	"os"
	"path/filepath"

	"github.com/bocdev/boc/codegen"
	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ast"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/parser"
	_ "github.com/bocdev/boc/stdlib" // registers the built-in plugins
	"github.com/bocdev/boc/typecheck"
)

// unit is one .bo file on its way through the compiler.
type unit struct {
	path string // as given on the command line; positions use it
	src  []byte
	tree *ast.File   // nil if the file could not be read or has syntax errors
	prog *ir.Program // nil if the file has errors
}

// dir is the directory Go bindings are resolved from.
func (u *unit) dir() string { return filepath.Dir(u.path) }

// report renders diags against the unit's source to stderr and reports
// whether any of them is an error.
func (u *unit) report(e *env, diags dsl.Diagnostics) bool {
	diags.Render(e.stderr, u.src)
	return diags.HasErrors()
}

// compile reads, parses and checks the .bo file at path, printing every
// diagnostic. It stops after syntax errors: checking a partial tree would only
// add errors that follow from them. ok is false if the file has errors; the
// returned unit then holds whatever stages succeeded.
func compile(e *env, path string) (u *unit, ok bool) {
	src, err := os.ReadFile(path)
	if err != nil {
		e.failf("%v", err)
		return &unit{path: path}, false
	}
	return compileSource(e, path, src)
}

// compileSource is compile for the source src of the file at path.
func compileSource(e *env, path string, src []byte) (u *unit, ok bool) {
	u = &unit{path: path, src: src}
	tree, diags := parser.ParseFile(path, src)
	if u.report(e, diags) {
		return u, false
	}
	u.tree = tree
	prog, diags := typecheck.Check(tree, typecheck.Config{Dir: u.dir()})
	if u.report(e, diags) {
		return u, false
	}
	u.prog = prog
	return u, true
}

// generate compiles the file at path to Go code, printing every diagnostic.
func generate(e *env, path string, opt codegen.Options) (*unit, *codegen.Output, bool) {
	u, ok := compile(e, path)
	if !ok {
		return u, nil, false
	}
	out, diags := codegen.Generate(u.prog, opt)
	if u.report(e, diags) {
		return u, nil, false
	}
	return u, out, true
}
