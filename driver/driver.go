// Package driver runs boc's pipeline on one .bo file: parse → check → plan →
// generate, and builds the generated program. It is the one place that wires
// the stages together; the command line, the study, the benchmarks and the
// tests of the examples, the docs and the golden optimisers all go through it,
// as go/types users go through one Config.
//
// Each stage runs only when the one before it reported no error, so every
// diagnostic follows from the file rather than from an earlier failure.
// Diagnostics accumulate on the Unit in stage order, each stage's sorted by
// position.
package driver

import (
	"os"
	"path/filepath"

	"github.com/bocdev/boc/codegen"
	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ast"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/parser"
	"github.com/bocdev/boc/plan"
	_ "github.com/bocdev/boc/stdlib" // the built-in plugins, in registry.Default
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/bocdev/boc/typecheck"
)

// Options says how a file is compiled.
type Options struct {
	// Dir is the directory Go bindings and candidate files are resolved
	// from; "" means the directory of the file's path.
	Dir string
	// StatementsOnly checks each statement on its own and stops before the
	// plan: the rules that span statements are not applied
	// (typecheck.Config.StatementsOnly).
	StatementsOnly bool
}

// Unit is one .bo file on its way through the compiler.
type Unit struct {
	Path   string // as given; positions name it
	Source []byte
	// Tree is the syntax tree, nil when the file has syntax errors.
	Tree *ast.File
	// Program is the checked IR, nil when the file has errors.
	Program *ir.Program
	// Plan is the planned optimiser, nil when the file has errors.
	Plan *plan.Optimizer
	// Diagnostics holds every diagnostic reported so far.
	Diagnostics dsl.Diagnostics

	dir string
}

// Load reads the file at path and compiles it.
func Load(path string, opt Options) (*Unit, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Compile(path, src, opt), nil
}

// Compile parses, checks and plans src, the text of the file at path. It
// stops after the first stage with errors: running the next on a partial
// result would only add errors that follow from them.
func Compile(path string, src []byte, opt Options) *Unit {
	u := &Unit{Path: path, Source: src, dir: opt.Dir}
	if u.dir == "" {
		u.dir = filepath.Dir(path)
	}
	tree, diags := parser.ParseFile(path, src)
	if !u.add(diags) {
		return u
	}
	u.Tree = tree
	prog, diags := typecheck.Check(tree, typecheck.Config{Dir: u.dir, Plugins: registry.Default, StatementsOnly: opt.StatementsOnly})
	if !u.add(diags) || opt.StatementsOnly {
		return u
	}
	o, diags := plan.Build(prog)
	if !u.add(diags) {
		return u
	}
	u.Program, u.Plan = prog, o
	return u
}

// add records diags and reports whether the stage succeeded.
func (u *Unit) add(diags dsl.Diagnostics) bool {
	u.Diagnostics = append(u.Diagnostics, diags...)
	return !diags.HasErrors()
}

// OK reports whether the file compiled without errors so far.
func (u *Unit) OK() bool { return u.Plan != nil && !u.Diagnostics.HasErrors() }

// Dir is the directory the file's Go bindings and candidate files resolve from.
func (u *Unit) Dir() string { return u.dir }

// Generate emits the Go code of a unit that compiled, the program keeping
// the unit's source text unless opt gives another. Its diagnostics are
// added to the unit's and returned; the output is nil when one is an error.
// Every language error was reported by Compile, so an error here is a bad
// package name in opt or a bug in boc.
func (u *Unit) Generate(opt codegen.Options) (*codegen.Output, dsl.Diagnostics) {
	if !u.OK() {
		return nil, nil
	}
	if opt.Package != "" {
		if err := codegen.CheckPackage(opt.Package); err != nil {
			diags := dsl.Diagnostics{dsl.Errorf(dsl.Span{}, "%v", err)}
			u.add(diags)
			return nil, diags
		}
	}
	if opt.Text == "" {
		opt.Text = string(u.Source)
	}
	out, diags := codegen.Generate(u.Plan, opt)
	if !u.add(diags) {
		return nil, diags
	}
	return out, diags
}
