package codegen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
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
			out, diags := generate(t, checkSource(t, tt.src), Options{})
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
		{"candidate set without points", Options{}, func(p *ir.Program) {
			p.Candidates = &ir.Candidates{Span: at, Call: call("candidates.uniform_ball")}
		}, "internal error in boc: a candidate set without points reached code generation"},
		{"invalid package name", Options{Package: "my-pkg"}, func(*ir.Program) {}, `"my-pkg" cannot name the optimiser's Go package`},
		{"package main", Options{Package: "main"}, func(*ir.Program) {}, `"main" cannot name the optimiser's Go package`},
		{"hook of the wrong type", Options{}, func(p *ir.Program) {
			p.Model.Args[0].Value = call("kernel.test_wrong_hook_type")
		}, "internal error in boc: plugin kernel.test_wrong_hook_type has an Emit hook of type int"},
		{"domain-dependent index", Options{}, func(p *ir.Program) {
			v := &ir.VarExpr{Dim: &ir.Dim{Name: "q", Vector: true, Size: 2}}
			p.Objective.Binding.Expr = &ir.IndexExpr{At: at, X: v, Index: &ir.VarExpr{At: at, Dim: p.Dims[0]}, Typ: dsl.RealType}
		}, "internal error in boc: an index over the domain into a vec[2] that is not constant"},
		{"missing model", Options{}, func(p *ir.Program) { p.Model = nil }, "internal error in boc: the IR lacks a plugin call"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := quickstartIR()
			tt.edit(p)
			_, diags := generate(t, p, tt.opt)
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
	registry.Register(&registry.Plugin{Kind: registry.Kernel, Name: "test_cauchy",
		Doc:    "a Cauchy kernel 1/(1 + r²) with unit lengthscale, for tests",
		Params: []registry.Param{{Name: "scale", Type: registry.RealParam, Default: registry.Real(1), Learnable: true}},
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
	out, diags := generate(t, p, Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	want := "\td := a[0] - b[0]\n\td1 := a[1] - b[1]\n\treturn 2.0 / (1.0 + d*d + d1*d1)\n"
	if !strings.Contains(string(out.Library[0].Content), want) {
		t.Errorf("the kernel is not emitted through its hook; want\n%s\nin\n%s", want, out.Library[0].Content)
	}
}
