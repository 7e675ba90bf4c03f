package codegen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/runtime/design"
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

// checkSource parses and checks a .bo source, failing on its errors.
func checkSource(t *testing.T, src string) *ir.Program {
	t.Helper()
	path := filepath.Join(t.TempDir(), "case.bo")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return checkFile(t, path)
}

// problemWith is a small valid problem with extra statements.
func problemWith(lines ...string) string {
	return "problem demo\ndomain {\n    x in [0, 1]\n    y in [0, 1]\n}\nobjective minimize sphere(x, y)\nbudget 10\n" + strings.Join(lines, "\n") + "\n"
}

type wantDiag struct {
	line, col int
	message   string // the exact message
	hint      string // a substring of the hint
}

// TestUnsupportedDiagnostics: what this version cannot emit is reported at
// the IR's span, every problem of a file in one run, in source order.
func TestUnsupportedDiagnostics(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []wantDiag
	}{
		{"model not built", problemWith("model test_unbuilt"),
			[]wantDiag{{8, 7, "model test_unbuilt is not available in this version of boc", "available model plugins: erbf, gp, mmd, skl, ugp"}}},
		{"uei without the gradient search", problemWith("input noise x ~ normal(0, 0.05)", "acquisition uei", "search pattern"),
			[]wantDiag{{9, 13, "acquisition uei needs the lbfgs search", "search lbfgs"}}},
		{"uei on a model over input distributions", problemWith("input noise x ~ normal(0, 0.05)", "model ugp", "acquisition uei"),
			[]wantDiag{{10, 13, "acquisition uei averages over the input noise, which model ugp already models", "model gp"}}},
		{"inflation without input noise", problemWith(`model gp(kernel = se, input_noise = "inflate")`),
			[]wantDiag{{8, 7, "model gp inflates its noise by the input noise, but none is declared", "input noise x ~ normal(0, 0.05)"}}},
		{"model over input distributions without input noise", problemWith("model ugp"),
			[]wantDiag{{8, 7, "model ugp models input noise, but none is declared", "input noise x ~ normal(0, 0.05)"}}},
		{"kernel not built", problemWith("model gp(kernel = se + test_unbuilt)"),
			[]wantDiag{{8, 24, "kernel test_unbuilt is not available in this version of boc", "matern52"}}},
		{"acquisition not built", problemWith("acquisition safe_ucb"),
			[]wantDiag{{8, 13, "acquisition safe_ucb is not available in this version of boc", "ei, ei_noisy, pi, ucb, uei"}}},
		{"unscented acquisition without input noise", problemWith("acquisition uei"),
			[]wantDiag{{8, 13, "acquisition uei averages over the input noise, but none is declared", "input noise x ~ normal(0, 0.05)"}}},
		{"search not built", problemWith("search test_unbuilt"),
			[]wantDiag{{8, 8, "search test_unbuilt is not available in this version of boc", "lbfgs, pattern"}}},
		{"learn in a kernel without derivatives", problemWith("model gp(kernel = test_cauchy(scale = learn))"),
			[]wantDiag{{8, 31, "kernel test_cauchy cannot learn its hyperparameters: give a fixed value, e.g. scale = 1", ""}}},
		{"learn beside a kernel without derivatives", problemWith("model gp(kernel = se + test_cauchy)"),
			[]wantDiag{{8, 24, "kernel test_cauchy has no derivatives, so no hyperparameter of the kernel it is part of can be learned", "fixed values"}}},
		{"unknown safety constraint", problemWith(`constraint heat: exec "sensor" <= 80`),
			[]wantDiag{{8, 1, "unknown safety constraint heat is not supported in this version of boc", "known constraints"}}},
		{"every error in source order", problemWith(
			"acquisition safe_ucb",
			"model gp(kernel = matern32(lengthscale = 0.2, variance = 1) * test_cauchy(scale = learn))"),
			[]wantDiag{
				{8, 13, "acquisition safe_ucb is not available in this version of boc", ""},
				{9, 75, "kernel test_cauchy cannot learn its hyperparameters: give a fixed value, e.g. scale = 1", ""},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := checkSource(t, tt.src)
			out, diags := Generate(p, Options{ImportPath: "example.com/demo"})
			if out != nil {
				t.Errorf("Generate returned output along with errors")
			}
			errs := diags.Errors()
			if len(errs) != len(tt.want) {
				t.Fatalf("got %d errors, want %d:\n%s", len(errs), len(tt.want), render(diags, []byte(tt.src)))
			}
			for i, w := range tt.want {
				d := errs[i]
				if d.Span.Start.Line != w.line || d.Span.Start.Col != w.col || d.Message != w.message || !strings.Contains(d.Hint, w.hint) {
					t.Errorf("error %d: got %d:%d %q (hint %q)\nwant %d:%d %q (hint containing %q)",
						i, d.Span.Start.Line, d.Span.Start.Col, d.Message, d.Hint, w.line, w.col, w.message, w.hint)
				}
			}
		})
	}
}

// TestSupportedVariants: accepted features that the golden cases do not
// show generate without errors, with what makes them different in the code.
func TestSupportedVariants(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string // a fragment of optimizer.go
	}{
		{"input noise ignored by gp", problemWith("input noise x ~ normal(0, 0.05)"), "func kernel(h *hyperparameters, a, b *[Dim]float64) float64"},
		{"learned noise", problemWith("observation noise learn"), "noiseVar float64"},
		{"fixed kernel", problemWith("model gp(kernel = se(lengthscale = 0.3, variance = 2))"), "const numHyper = 0"},
		{"kernel without derivatives", problemWith("model gp(kernel = test_cauchy)"), "by central differences"},
		{"beta observation noise", problemWith("observation noise ~ beta(2, 2, scale = 0.2)"), "const noiseVariance = 0.002"},
		{"uniform observation noise", problemWith("observation noise ~ uniform(-0.3, 0.3)"), "const noiseVariance = 0.03"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, diags := Generate(checkSource(t, tt.src), Options{})
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			if out.Main != nil {
				t.Errorf("a main package without an import path")
			}
			if !strings.Contains(string(out.Library[0].Content), tt.want) {
				t.Errorf("optimizer.go lacks %q:\n%s", tt.want, out.Library[0].Content)
			}
		})
	}
}

// TestIRDiagnostics covers what only hand-made IR reaches.
func TestIRDiagnostics(t *testing.T) {
	at := dsl.Span{Start: dsl.Pos{File: "x.bo", Line: 3, Col: 2}}
	tests := []struct {
		name    string
		opt     Options
		edit    func(p *ir.Program)
		message string
	}{
		{"candidate generator", Options{}, func(p *ir.Program) {
			p.Candidates = &ir.Candidates{Span: at, Call: call("candidates.uniform_ball")}
		}, "candidate generators are not supported in this version of boc"},
		{"invalid package name", Options{Package: "my-pkg"}, func(*ir.Program) {}, `"my-pkg" cannot name the optimiser's Go package`},
		{"package main", Options{Package: "main"}, func(*ir.Program) {}, `"main" cannot name the optimiser's Go package`},
		{"hook of the wrong type", Options{}, func(p *ir.Program) {
			p.Model.Args[0].Value = call("kernel.test_wrong_hook_type")
		}, "internal error in boc: plugin kernel.test_wrong_hook_type has an Emit hook of type int"},
		{"domain-dependent index", Options{}, func(p *ir.Program) {
			v := &ir.VarExpr{Dim: &ir.Dim{Name: "q", Vector: true, Size: 2}}
			p.Objective.Binding.Expr = &ir.IndexExpr{At: at, X: v, Index: &ir.VarExpr{At: at, Dim: p.Dims[0]}, Typ: dsl.RealType}
		}, "an index that depends on the domain is not supported in this version of boc"},
		{"missing model", Options{}, func(p *ir.Program) { p.Model = nil }, "internal error in boc: the IR lacks a plugin call"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := quickstartIR()
			tt.edit(p)
			_, diags := Generate(p, tt.opt)
			if !diags.HasErrors() || !strings.Contains(diags.Error(), tt.message) {
				t.Errorf("diagnostics %v, want one containing %q", diags, tt.message)
			}
		})
	}
}

// A plugin registered from outside stdlib is emitted through its hook: the
// code generator has no list of kernels.
func init() {
	registry.Register(&registry.Plugin{Kind: registry.Kernel, Name: "test_wrong_hook_type", Emit: 42})
	registry.Register(&registry.Plugin{Kind: registry.Kernel, Name: "test_unbuilt", Doc: "a kernel without an Emit hook, for tests"})
	registry.Register(&registry.Plugin{Kind: registry.Search, Name: "test_unbuilt", Doc: "a search without an Emit hook, for tests"})
	registry.Register(&registry.Plugin{Kind: registry.Model, Name: "test_unbuilt", Doc: "a model without an Emit hook, for tests"})
	registry.Register(&registry.Plugin{Kind: registry.Kernel, Name: "test_cauchy",
		Doc:    "a Cauchy kernel 1/(1 + r²) with unit lengthscale, for tests",
		Params: []registry.Param{{Name: "scale", Type: registry.RealParam, Default: "1", Learnable: true}},
		Emit: registry.KernelEmit(func(g *registry.KernelGen) ([]jen.Code, jen.Code) {
			var stmts []jen.Code
			sum := jen.Lit(1.0)
			for i := 0; i < g.D; i++ {
				d := g.Fresh("d")
				stmts = append(stmts, jen.Id(d).Op(":=").Id(g.A).Index(jen.Lit(i)).Op("-").Id(g.B).Index(jen.Lit(i)))
				sum = sum.Op("+").Id(d).Op("*").Id(d)
			}
			return stmts, jen.Lit(g.Real("scale")).Op("/").Parens(sum)
		})})
}

func TestPluginFromOutsideStdlib(t *testing.T) {
	p := checkSource(t, problemWith("model gp(kernel = test_cauchy(scale = 2))"))
	out, diags := Generate(p, Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	want := "\td := a[0] - b[0]\n\td1 := a[1] - b[1]\n\treturn 2.0 / (1.0 + d*d + d1*d1)\n"
	if !strings.Contains(string(out.Library[0].Content), want) {
		t.Errorf("the kernel is not emitted through its hook; want\n%s\nin\n%s", want, out.Library[0].Content)
	}
}

// The dimension limit is the runtime's: the search draws Sobol points.
func TestDimensionLimit(t *testing.T) {
	if maxComponents != design.MaxSobolDim {
		t.Errorf("maxComponents = %d, runtime/design.MaxSobolDim = %d", maxComponents, design.MaxSobolDim)
	}
	p := program("wide", []*ir.Dim{{Name: "p", Vector: true, Size: maxComponents + 1, Lo: 0, Hi: 1}},
		fn("benchmark.sphere", dsl.RealType, &ir.VarExpr{Dim: &ir.Dim{Name: "p", Vector: true, Size: maxComponents + 1}}), false)
	if _, diags := Generate(p, Options{}); !strings.Contains(diags.Error(), "supports 1 to 1024") {
		t.Errorf("a domain of %d components: %v", maxComponents+1, diags)
	}
}
