package stdlib

import "github.com/bocdev/boc/stdlib/registry"

func init() {
	n := registry.Param{Name: "n", Type: registry.IntParam, Range: atLeastOne, Doc: "number of initial points"}
	registry.Register(&registry.Plugin{Kind: registry.Init, Name: "sobol",
		Doc: "the first n points of a scrambled Sobol sequence", Params: []registry.Param{n}, Emit: sobolEmit})
	registry.Register(&registry.Plugin{Kind: registry.Init, Name: "random",
		Doc: "n independent uniform points", Params: []registry.Param{n}, Emit: randomEmit})
	registry.Register(&registry.Plugin{Kind: registry.Init, Name: "lhs",
		Doc: "a Latin hypercube of n points", Params: []registry.Param{n}, Emit: lhsEmit})
}
