package stdlib

import "github.com/bocdev/boc/stdlib/registry"

func init() {
	stationary := func(name, doc string, emit registry.KernelDiffEmit, extra ...registry.Param) *registry.Plugin {
		return &registry.Plugin{Kind: registry.Kernel, Name: name, Doc: doc,
			Params: append([]registry.Param{lengthscale, variance}, extra...), Emit: emit}
	}
	registry.Register(stationary("se", "squared exponential (RBF): s² exp(−r²/2)", seEmit))
	registry.Register(stationary("matern12", "Matérn ν=1/2 (exponential): s² exp(−r)", matern12Emit))
	registry.Register(stationary("matern32", "Matérn ν=3/2: s² (1+√3 r) exp(−√3 r)", matern32Emit))
	registry.Register(stationary("matern52", "Matérn ν=5/2: s² (1+√5 r+5r²/3) exp(−√5 r)", matern52Emit))
	registry.Register(stationary("rq", "rational quadratic: s² (1 + r²/(2a))^(−a)", rqEmit,
		registry.Param{Name: "alpha", Type: registry.RealParam, Default: registry.Real(1), Range: positive, Learnable: true,
			LearnBounds: [2]float64{0.05, 20}, Doc: "shape a; large a approaches se"}))
	registry.Register(stationary("rqmix",
		"AIRBO's mixture of rational quadratics (Eq. 32): s² Σ_a (1 + r²/(2a))^(−a), a ∈ {0.2, 0.5, 1, 2, 5}", rqmixEmit))
	registry.Register(&registry.Plugin{Kind: registry.Kernel, Name: "linear",
		Doc: "linear (dot-product) on unit coordinates: s² xᵀx' + c", Emit: linearEmit,
		Params: []registry.Param{variance,
			{Name: "offset", Type: registry.RealParam, Default: registry.Real(0), Range: nonNegative, Learnable: true,
				LearnBounds: [2]float64{1e-3, 10}, Doc: "constant c added to the dot product"}}})

	// Kernel algebra: the type checker turns k1 + k2, k1 * k2 and c * k into
	// calls of these combinators.
	registry.Register(&registry.Plugin{Kind: registry.Kernel, Name: "sum", Emit: sumEmit,
		Doc:    "sum of kernels, k1 + k2 + ...",
		Params: []registry.Param{{Name: "parts", Type: registry.KernelParam, Variadic: true, Doc: "the kernels added"}}})
	registry.Register(&registry.Plugin{Kind: registry.Kernel, Name: "product", Emit: productEmit,
		Doc:    "product of kernels, k1 * k2 * ...",
		Params: []registry.Param{{Name: "parts", Type: registry.KernelParam, Variadic: true, Doc: "the kernels multiplied"}}})
	registry.Register(&registry.Plugin{Kind: registry.Kernel, Name: "scale", Emit: scaleEmit,
		Doc: "a kernel times a positive constant, c * k",
		Params: []registry.Param{
			{Name: "factor", Type: registry.RealParam, Range: positive, Doc: "the constant c"},
			{Name: "kernel", Type: registry.KernelParam, Doc: "the kernel scaled"}}})
}
