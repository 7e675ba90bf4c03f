package stdlib

import (
	"errors"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/stdlib/registry"
)

func init() {
	param := func(name string, def registry.Value, r *registry.Range, doc string) registry.Param {
		return registry.Param{Name: name, Type: registry.RealParam, Default: def, Range: r, DomainDependent: true, Doc: doc}
	}
	scale := param("scale", registry.Real(1), positive, "multiplies each draw")
	fixed := func(n int) func([]registry.Operand) (dsl.Type, error) {
		return func([]registry.Operand) (dsl.Type, error) { return dsl.DistOf(n), nil }
	}
	checks := map[string]func(*registry.CheckContext){"uniform": checkUniform, "mvnormal": checkMVNormal, "gmm": checkGMM}
	examples := map[string]string{
		"mvnormal": "mvnormal([0, 0], [[0.01, 0.002], [0.002, 0.02]])",
		"gmm":      "gmm([0.3, 0.7], [[0, 0], [0.05, -0.05]], [[0.01, 0], [0, 0.01]])",
	}
	dist := func(name, doc string, result func([]registry.Operand) (dsl.Type, error), params ...registry.Param) {
		registry.Register(&registry.Plugin{Kind: registry.Distribution, Name: name, Doc: doc, Params: params, Result: result,
			Check: checks[name], Example: examples[name], Emit: distributionEmit(name)})
	}

	dist("normal", "Gaussian N(mean, sd²) on one component", fixed(1),
		param("mean", registry.Real(0), nil, "mean"), param("sd", registry.Value{}, positive, "standard deviation"))
	dist("uniform", "uniform on [lo, hi] on one component", fixed(1),
		param("lo", registry.Value{}, nil, "lower end"), param("hi", registry.Value{}, nil, "upper end"))
	dist("beta", "beta(a, b) times scale on one component (support [0, scale])", fixed(1),
		param("a", registry.Value{}, positive, "first shape"), param("b", registry.Value{}, positive, "second shape"), scale)
	dist("chi2", "chi-squared with df degrees of freedom, times scale", fixed(1),
		param("df", registry.Value{}, positive, "degrees of freedom"), scale)
	dist("circle", "uniform on the circle of the given radius in R²", fixed(2),
		param("radius", registry.Value{}, positive, "radius"))
	dist("mvnormal", "multivariate Gaussian N(mean, cov)", vecLength(0),
		registry.Param{Name: "mean", Type: registry.VecParam, Doc: "mean vector"},
		registry.Param{Name: "cov", Type: registry.MatParam, Doc: "covariance, symmetric positive definite"})
	dist("gmm", "mixture of Gaussians with shared covariance", matCols(1),
		registry.Param{Name: "weights", Type: registry.VecParam, Range: nonNegative, Doc: "mixture weights (sum to 1)"},
		registry.Param{Name: "means", Type: registry.MatParam, Doc: "one mean per row"},
		registry.Param{Name: "cov", Type: registry.MatParam, Doc: "shared covariance, symmetric positive definite"})
	dist("concat", "independent blocks: the product of the given distributions", concatDim,
		registry.Param{Name: "parts", Type: registry.DistParam, Variadic: true, Doc: "the blocks, in component order"})
	dist("iid", "n independent copies of a one-dimensional distribution", iidDim,
		registry.Param{Name: "d", Type: registry.DistParam, Doc: "a dist[1]"},
		registry.Param{Name: "n", Type: registry.IntParam, Range: atLeastOne, Doc: "number of copies"})
}

func vecLength(i int) func([]registry.Operand) (dsl.Type, error) {
	return func(ops []registry.Operand) (dsl.Type, error) { return dsl.DistOf(ops[i].Type.Rows), nil }
}

func matCols(i int) func([]registry.Operand) (dsl.Type, error) {
	return func(ops []registry.Operand) (dsl.Type, error) { return dsl.DistOf(ops[i].Type.Cols), nil }
}

func concatDim(ops []registry.Operand) (dsl.Type, error) {
	n := 0
	for _, op := range ops {
		n += op.Type.Rows
	}
	return dsl.DistOf(n), nil
}

func iidDim(ops []registry.Operand) (dsl.Type, error) {
	if ops[0].Type.Rows != 1 {
		return dsl.Type{}, errors.New("iid repeats a one-dimensional distribution, got " + ops[0].Type.String())
	}
	if ops[1].Const == nil {
		return dsl.Type{}, errors.New("iid's n must be a constant")
	}
	return dsl.DistOf(int(ops[1].Const.Float())), nil
}
