package stdlib

import (
	"fmt"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

// benchmarkDims says which input dimensions a benchmark accepts.
type benchmarkDims struct {
	fixed int // exactly this many, or 0 for any
	least int // for any: at least this many (Powell: 4)
}

func (b benchmarkDims) accepts(n int) bool {
	if b.fixed > 0 {
		return n == b.fixed
	}
	return n >= max(b.least, 1)
}

func (b benchmarkDims) String() string {
	switch {
	case b.fixed > 0:
		return fmt.Sprintf("%d", b.fixed)
	case b.least > 1:
		return fmt.Sprintf("at least %d", b.least)
	}
	return "any number of"
}

func init() {
	bench := func(name, doc string, dims benchmarkDims) {
		registry.Register(&registry.Plugin{Kind: registry.Benchmark, Name: name, Runtime: []string{runtimeBench}, Doc: doc,
			Result: benchmarkResult(name, dims), Emit: benchmarkEmit(name)})
	}
	bench("branin", "Branin-Hoo, 2-D; usual box x1 in [-5, 10], x2 in [0, 15]; minimum 0.397887", benchmarkDims{fixed: 2})
	bench("hartmann3", "Hartmann 3-D on [0,1]^3; minimum -3.86278", benchmarkDims{fixed: 3})
	bench("hartmann6", "Hartmann 6-D on [0,1]^6; minimum -3.32237", benchmarkDims{fixed: 6})
	bench("michalewicz", "Michalewicz (m = 10) on [0, pi]^d", benchmarkDims{})
	bench("sphere", "sum of squares; minimum 0 at the origin", benchmarkDims{})
	bench("levy", "Levy; minimum 0 at (1, ..., 1)", benchmarkDims{})
	bench("griewank", "Griewank; minimum 0 at the origin", benchmarkDims{})
	bench("powell", "Powell, d >= 4: a term per block of four inputs, the last d mod 4 inputs unused (BoTorch's convention, the corrected-EI paper's d = 5); minimum 0 where the used inputs are 0", benchmarkDims{least: 4})
	bench("ackley", "Ackley (a=20, b=0.2, c=2π); minimum 0 at the origin", benchmarkDims{})
	bench("rkhs1d", "AIRBO's 1-D RKHS function on [0, 1] (maximise); narrow global peak at 0.892", benchmarkDims{fixed: 1})
	bench("double_peak", "AIRBO's 1-D double-peak function on [0, 1] (maximise)", benchmarkDims{fixed: 1})
	registry.Register(&registry.Plugin{Kind: registry.Benchmark, Name: "gp_sample", Runtime: []string{runtimeBench},
		Doc:    "gp_sample(x, lengthscale, seed): a function drawn from a GP prior with the se kernel (unit variance) at the point x (a vector or a real), the same for the same seed",
		Result: gpSampleResult, Emit: registry.CallEmit(gpSampleEmit)})
}

// gpSampleResult accepts gp_sample(x, lengthscale, seed): a point, a
// positive constant lengthscale and a constant non-negative int seed.
func gpSampleResult(ops []registry.Operand) (dsl.Type, error) {
	switch {
	case len(ops) != 3:
		return dsl.Type{}, fmt.Errorf("gp_sample takes (x, lengthscale, seed), got %d arguments", len(ops))
	case ops[0].Type.Kind != dsl.Vec && !ops[0].Type.IsNumeric():
		return dsl.Type{}, fmt.Errorf("gp_sample's x must be a vector or a real, got %s", ops[0].Type)
	case ops[1].Const == nil || !ops[1].Type.IsNumeric() || !(ops[1].Const.Float() > 0):
		return dsl.Type{}, fmt.Errorf("gp_sample's lengthscale must be a positive constant")
	case ops[2].Const == nil || ops[2].Type.Kind != dsl.Int || ops[2].Const.Float() < 0:
		return dsl.Type{}, fmt.Errorf("gp_sample's seed must be a constant non-negative int")
	}
	return dsl.RealType, nil
}

// gpSampleEmit calls runtime/bench.GPSample.
func gpSampleEmit(args []registry.ExprValue) (registry.ExprValue, error) {
	return realValue(jen.Qual(runtimeBench, "GPSample").Call(inputSlice(args[:1]),
		jen.Lit(args[1].Const.Float()), jen.Uint64().Call(jen.Lit(int64(args[2].Const.Float()))))), nil
}

// benchmarkResult accepts the input as one vector or as its scalar components.
func benchmarkResult(name string, dims benchmarkDims) func([]registry.Operand) (dsl.Type, error) {
	return func(ops []registry.Operand) (dsl.Type, error) {
		n := 0
		if len(ops) == 1 && ops[0].Type.Kind == dsl.Vec {
			n = ops[0].Type.Rows
		} else {
			for _, op := range ops {
				if !op.Type.IsNumeric() {
					return dsl.Type{}, fmt.Errorf("%s takes one vector or real components, got %s", name, op.Type)
				}
			}
			n = len(ops)
		}
		if !dims.accepts(n) {
			return dsl.Type{}, fmt.Errorf("%s takes %s inputs, got %d", name, dims, n)
		}
		return dsl.RealType, nil
	}
}

// benchmarkFuncs names the runtime/bench function of each benchmark.
var benchmarkFuncs = map[string]string{
	"branin":      "Branin",
	"hartmann3":   "Hartmann3",
	"hartmann6":   "Hartmann6",
	"michalewicz": "Michalewicz",
	"sphere":      "Sphere",
	"levy":        "Levy",
	"griewank":    "Griewank",
	"powell":      "Powell",
	"ackley":      "Ackley",
	"rkhs1d":      "RKHS1D",
	"double_peak": "DoublePeak",
}

// benchmarkEmit returns the Emit value of benchmark name: a call of its
// runtime/bench function on the input as one slice, or nil when there is none.
func benchmarkEmit(name string) any {
	fn, ok := benchmarkFuncs[name]
	if !ok {
		return nil
	}
	return registry.CallEmit(func(args []registry.ExprValue) (registry.ExprValue, error) {
		return realValue(jen.Qual(runtimeBench, fn).Call(inputSlice(args))), nil
	})
}

// inputSlice is a []float64 expression for a benchmark's input, which is
// given as one vector or as its components.
func inputSlice(args []registry.ExprValue) jen.Code {
	if len(args) == 1 && args[0].Type.Kind == dsl.Vec {
		return args[0].Slice
	}
	elems := make([]jen.Code, len(args))
	for i, a := range args {
		elems[i] = a.Elems[0]
	}
	return jen.Index().Float64().Values(elems...)
}
