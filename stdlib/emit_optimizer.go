package stdlib

import (
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

// Import paths of the runtime packages emitted code calls.
const (
	runtimeGP     = "github.com/bocdev/boc/runtime/gp"
	runtimeAcq    = "github.com/bocdev/boc/runtime/acq"
	runtimeDesign = "github.com/bocdev/boc/runtime/design"
	runtimeSearch = "github.com/bocdev/boc/runtime/search"
	runtimeBench  = "github.com/bocdev/boc/runtime/bench"
)

// gpEmit holds the exact GP of runtime/gp with the model's kernel.
var gpEmit registry.ModelEmit = func(g *registry.ModelGen) registry.ModelCode {
	return registry.ModelCode{
		Type:   jen.Op("*").Qual(runtimeGP, "GP"),
		New:    jen.Qual(runtimeGP, "New").Call(g.Capacity),
		Kernel: g.Nested("kernel"),
	}
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

// patternEmit holds runtime/search's pattern search.
var patternEmit registry.SearchEmit = func(g *registry.SearchGen) registry.SearchCode {
	return registry.SearchCode{
		Type: jen.Op("*").Qual(runtimeSearch, "Pattern"),
		New:  jen.Qual(runtimeSearch, "NewPattern").Call(jen.Lit(g.D), jen.Lit(g.Int("raw")), jen.Lit(g.Int("restarts"))),
	}
}
