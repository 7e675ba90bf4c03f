// Package typecheck resolves and checks a parsed .bo file and produces the IR.
//
// The checker reports every problem of a file in one run, sorted by position.
// An expression or call that failed to check is carried on as invalid, and
// nothing further is reported about it, so one mistake gives one message.
// Plugins are found by kind and name in the registry the checker is given
// (Config.Plugins): it has no knowledge of particular kernels, models or
// distributions, and imports no plugin package.
//
// Choices where LANGUAGE.md is silent:
//   - a missing required statement is reported at the first statement of the
//     file (1:1 when the file is empty), with an example line as the hint;
//   - lets are visible to every statement wherever they are written, but a let
//     may use only the lets above it; a let over domain variables is a
//     derived quantity, substituted where it is used (where the point is
//     known), never a dimension; true and false are predefined besides
//     pi and e; lets and dimensions share one namespace, and may not take the
//     name of a predefined constant or a built-in function;
//   - arithmetic is element-wise on vectors and matrices of equal shape, with
//     a scalar broadcast (as in NumPy); `/` always gives a real (1/2 is 0.5);
//     int ^ int is an int only for a constant non-negative exponent;
//   - slice bounds must be constant, and an index constant or an int
//     expression of integer dimensions into a constant table whose whole
//     range the checker bounds, so every access is checked
//     against the length; only vectors can be sliced;
//   - integer ranges may be log-scaled (lo ≥ 1);
//   - constant sub-expressions are folded everywhere; a fault while folding
//     (division by zero, log of a negative number, overflow) is an error;
//   - an objective that uses no domain variable, a known constraint that is
//     always satisfied, and a constant stop condition are warnings; a known
//     constraint that can never be satisfied is an error; an unused let is a
//     warning unless it had errors;
//   - go bindings take import paths (not directories); main packages and
//     unexported functions are rejected;
//   - a candidates file is CSV (at most 16 MiB): one point per row, an optional
//     header row naming the components in order, # comments;
//   - the problem name must be a lowercase Go package name other than main
//     (the generated program's package);
//   - "did you mean" prefers, among equally close names, the plugins used as
//     defaults (matern42 suggests matern52).
package typecheck

import (
	"path/filepath"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ast"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
)

// Config says where the file lives, for resolving Go bindings.
type Config struct {
	// Dir is the directory go/packages resolves `go "import/path"` bindings
	// from (the directory of the .bo file); "" means the current directory.
	// Candidate files are read relative to it too.
	Dir string
	// Plugins is the plugin set the file may use; nil means
	// registry.Default, which holds the plugins of the packages the program
	// imports (the driver imports stdlib).
	Plugins *registry.Registry
	// StatementsOnly checks each statement on its own, without the plugins'
	// rules that span statements (mmd needs input noise): a study uses it to
	// tell a misspelt model from one the file cannot use.
	StatementsOnly bool
}

// Check checks f and returns its IR, or nil when there are errors, along with
// every diagnostic (errors and warnings) in source order.
func Check(f *ast.File, cfg Config) (*ir.Program, dsl.Diagnostics) {
	c := newChecker(f, cfg)
	c.run()
	c.diags.Sort()
	if c.diags.HasErrors() {
		return nil, c.diags
	}
	return c.prog, c.diags
}

// checker holds the state of one Check.
type checker struct {
	file    *ast.File
	cfg     Config
	plugins *registry.Registry
	prog    *ir.Program
	diags   dsl.Diagnostics

	stmts statements // the file's statements by kind
	scope scope

	// domainOK is true when every dimension checked cleanly, so that D and the
	// component layout can be relied on. Checks that depend on them are skipped
	// otherwise: the domain's own errors explain the problem.
	domainOK bool
	// budgetOK is true when the budget is known.
	budgetOK bool

	goPkgs goPackages // Go packages of go bindings, loaded once per Check

	pluginChecks []pluginCheck // Check hooks to run on the whole program

	// stmtSpan is the statement being checked: the place to report a node the
	// parser left out (it reported why).
	stmtSpan dsl.Span
}

func newChecker(f *ast.File, cfg Config) *checker {
	if f == nil {
		f = &ast.File{}
	}
	source := ""
	if f.Name != "" {
		source = filepath.Base(f.Name)
	}
	plugins := cfg.Plugins
	if plugins == nil {
		plugins = registry.Default
	}
	return &checker{
		file:    f,
		cfg:     cfg,
		plugins: plugins,
		prog:    &ir.Program{Source: source},
		scope:   newScope(),
	}
}

// run checks the statements in dependency order: names first, then lets and
// the domain that other statements refer to, then everything else.
func (c *checker) run() {
	c.collect()
	c.checkProblem()
	c.checkLets()
	c.checkDomain()
	c.checkDerivedLets()
	c.checkConditions()
	c.checkBudget()
	c.checkSeed()
	c.loadGoPackages()
	c.checkObjective()
	c.checkCandidates()
	c.checkInputNoise()
	c.checkObservationNoise()
	c.checkConstraints()
	c.checkPluginStmt("acquisition", &c.prog.Acquisition)
	c.checkObjectivesAcquisition()
	c.checkSafety()
	c.checkLanding()
	c.checkModel()
	c.checkPluginStmt("search", &c.prog.Search)
	c.checkInit()
	c.checkStop()
	c.runPluginChecks()
	c.reportMissing()
	c.reportUnusedLets()
}

func (c *checker) report(d dsl.Diagnostic) { c.diags = append(c.diags, d) }

// errorf reports an error at span.
func (c *checker) errorf(span dsl.Span, format string, args ...any) {
	c.report(dsl.Errorf(span, format, args...))
}

// errorHint reports an error with a hint ("" for none).
func (c *checker) errorHint(span dsl.Span, hint, format string, args ...any) {
	d := dsl.Errorf(span, format, args...)
	d.Hint = hint
	c.report(d)
}

// fileStart is where problems of the whole file are reported: the first
// statement, or line 1 of an empty file.
func (c *checker) fileStart() dsl.Span {
	for _, s := range c.file.Stmts {
		if !isNil(s) && s.Span().Start.IsValid() {
			return dsl.Span{Start: s.Span().Start, End: s.Span().Start}
		}
	}
	p := dsl.Pos{File: c.file.Name, Line: 1, Col: 1}
	return dsl.Span{Start: p, End: p}
}

// noSource is the span of IR built from defaults rather than from the file.
func (c *checker) noSource() dsl.Span {
	return dsl.Span{Start: dsl.Pos{File: c.file.Name}, End: dsl.Pos{File: c.file.Name}}
}

// incomplete reports a node the parser left out. The parser has reported the
// syntax error; this keeps a partial tree from ever producing IR.
func (c *checker) incomplete(what string) {
	sp := c.stmtSpan
	if !sp.Start.IsValid() {
		sp = c.fileStart()
	}
	c.errorf(sp, "incomplete %s", what)
}
