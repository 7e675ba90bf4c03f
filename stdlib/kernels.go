package stdlib

import "github.com/bocdev/boc/stdlib/registry"

func init() {
	stationary := func(name, doc string, emit registry.KernelEmit) *registry.Plugin {
		return &registry.Plugin{Kind: registry.Kernel, Name: name, Doc: doc,
			Params: []registry.Param{lengthscale, variance}, Emit: emit}
	}
	registry.Register(stationary("se", "squared exponential (RBF): s² exp(−r²/2)", seEmit))
	registry.Register(stationary("matern12", "Matérn ν=1/2 (exponential): s² exp(−r)", matern12Emit))
	registry.Register(stationary("matern32", "Matérn ν=3/2: s² (1+√3 r) exp(−√3 r)", matern32Emit))
	registry.Register(stationary("matern52", "Matérn ν=5/2: s² (1+√5 r+5r²/3) exp(−√5 r)", matern52Emit))
	registry.Register(&registry.Plugin{Kind: registry.Kernel, Name: "rq",
		Doc: "rational quadratic: s² (1 + r²/(2a))^(−a)",
		Params: []registry.Param{lengthscale, variance,
			{Name: "alpha", Type: registry.RealParam, Default: "1", Range: positive, Learnable: true, Doc: "shape a; large a approaches se"}}})
	registry.Register(&registry.Plugin{Kind: registry.Kernel, Name: "rqmix",
		Doc:    "AIRBO's mixture of rational quadratics over a ∈ {0.2, 0.5, 1, 2, 5}",
		Params: []registry.Param{lengthscale, variance}})
	registry.Register(&registry.Plugin{Kind: registry.Kernel, Name: "linear",
		Doc: "linear (dot-product): s² xᵀx' + c",
		Params: []registry.Param{variance,
			{Name: "offset", Type: registry.RealParam, Default: "0", Range: nonNegative, Learnable: true, Doc: "constant c added to the dot product"}}})
}
