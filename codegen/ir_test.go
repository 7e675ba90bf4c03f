package codegen

import (
	"testing"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/plan"
	_ "github.com/bocdev/boc/stdlib" // registers the plugins
)

// Builders of hand-made IR for unit tests that do not go through the parser
// and the type checker.

func realConst(x float64) *ir.ConstExpr { return &ir.ConstExpr{Value: dsl.RealValue(x)} }

func vecConst(xs ...float64) *ir.ConstExpr {
	return &ir.ConstExpr{Value: dsl.Value{Type: dsl.VecOf(len(xs)), Numbers: xs}}
}

func arg(name string, v ir.Value) *ir.Arg { return &ir.Arg{Name: name, Value: v} }

func call(id string, args ...*ir.Arg) *ir.Call { return &ir.Call{Plugin: id, Args: args} }

func kernelCall(name string, lengthscale ir.Value, variance float64) *ir.Call {
	return call("kernel."+name, arg("lengthscale", lengthscale), arg("variance", realConst(variance)))
}

func fn(id string, typ dsl.Type, args ...ir.Expr) *ir.CallExpr {
	return &ir.CallExpr{Plugin: id, Args: args, Typ: typ}
}

func bin(op string, typ dsl.Type, x, y ir.Expr) *ir.BinaryExpr {
	return &ir.BinaryExpr{Op: op, X: x, Y: y, Typ: typ}
}

// scalarDims returns real dimensions named names, each on [lo, hi].
func scalarDims(lo, hi float64, names ...string) []*ir.Dim {
	dims := make([]*ir.Dim, len(names))
	for i, n := range names {
		dims[i] = &ir.Dim{Name: n, Size: 1, Offset: i, Lo: lo, Hi: hi}
	}
	return dims
}

// program returns a problem over dims with the defaults the type checker
// fills in: gp(matern52(0.2)), ei(0), pattern(1024, 4), sobol(n).
func program(name string, dims []*ir.Dim, objective ir.Expr, maximize bool) *ir.Program {
	d := 0
	for _, dim := range dims {
		d += dim.Size
	}
	return &ir.Program{
		Name: name, Source: name + ".bo", Dims: dims, D: d,
		Objective: ir.Objective{Maximize: maximize, Binding: ir.Binding{Kind: ir.ExprBinding, Expr: objective}},
		Model: call("model.gp", arg("kernel", kernelCall("matern52", realConst(0.2), 1)),
			arg("input_noise", &ir.ConstExpr{Value: dsl.Value{Type: dsl.Type{Kind: dsl.String}, Text: "ignore"}}), arg("rkhs_bound", realConst(1))),
		Acquisition: call("acquisition.ei", arg("xi", realConst(0))),
		Search:      call("search.pattern", arg("raw", realConst(1024)), arg("restarts", realConst(4))),
		Budget:      20,
		Init:        ir.Init{Call: call("init.sobol", arg("n", realConst(4)))},
		Seed:        1,
	}
}

// quickstartIR is examples/quickstart.bo: Branin, minimised.
func quickstartIR() *ir.Program {
	dims := []*ir.Dim{
		{Name: "x1", Size: 1, Offset: 0, Lo: -5, Hi: 10},
		{Name: "x2", Size: 1, Offset: 1, Lo: 0, Hi: 15},
	}
	obj := fn("benchmark.branin", dsl.RealType, &ir.VarExpr{Dim: dims[0]}, &ir.VarExpr{Dim: dims[1]})
	p := program("quickstart", dims, obj, false)
	p.Budget = 30
	p.Init = ir.Init{Call: call("init.sobol", arg("n", realConst(6)))}
	return p
}

// generate plans p, failing the test on the plan's errors, and emits it.
func generate(t *testing.T, p *ir.Program, opt Options) (*Output, dsl.Diagnostics) {
	t.Helper()
	o, diags := plan.Build(p)
	if diags.HasErrors() {
		t.Fatalf("planning %s: %v", p.Name, diags)
	}
	return Generate(o, opt)
}
