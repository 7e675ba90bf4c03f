package stdlib

import (
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

func init() {
	n := registry.Param{Name: "n", Type: registry.IntParam, Range: atLeastOne, Doc: "number of initial points"}
	registry.Register(&registry.Plugin{Kind: registry.Init, Name: "sobol", Runtime: []string{runtimeDesign},
		Doc: "the first n points of a scrambled Sobol sequence", Params: []registry.Param{n}, Emit: sobolEmit})
	registry.Register(&registry.Plugin{Kind: registry.Init, Name: "random", Runtime: []string{runtimeDesign},
		Doc: "n independent uniform points", Params: []registry.Param{n}, Emit: randomEmit})
	registry.Register(&registry.Plugin{Kind: registry.Init, Name: "lhs", Runtime: []string{runtimeDesign},
		Doc: "a Latin hypercube of n points", Params: []registry.Param{n}, Emit: lhsEmit})
}

// designEmit calls a runtime/design generator func(n, dim int, seed uint64,
// out []float64), returning its error when it has one.
func designEmit(name string, returnsError bool) registry.InitEmit {
	return func(g *registry.InitGen) []jen.Code {
		call := jen.Qual(runtimeDesign, name).Call(jen.Lit(g.N), jen.Lit(g.D), g.Seed, g.Out)
		if !returnsError {
			return []jen.Code{call}
		}
		return []jen.Code{jen.If(jen.Id("err").Op(":=").Add(call), jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Id("err")))}
	}
}

var (
	sobolEmit  = designEmit("SobolDesign", true)
	lhsEmit    = designEmit("LHS", false)
	randomEmit = designEmit("Random", false)
)
