package stdlib

import (
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

func init() {
	raw := registry.Param{Name: "raw", Type: registry.IntParam, Default: registry.Int(1024), Range: atLeastOne,
		Doc: "quasi-random candidates scored before refinement"}
	restarts := registry.Param{Name: "restarts", Type: registry.IntParam, Default: registry.Int(4), Range: atLeastOne,
		Doc: "best candidates refined by local search"}
	registry.Register(&registry.Plugin{Kind: registry.Search, Name: "pattern", Runtime: []string{runtimeSearch},
		Doc:    "Sobol candidates, the best refined by a bounded compass (pattern) search",
		Params: []registry.Param{raw, restarts}, Emit: patternEmit})
	registry.Register(&registry.Plugin{Kind: registry.Search, Name: "lbfgs", Runtime: []string{runtimeSearch},
		Doc: "Sobol candidates, the best refined by projected L-BFGS-B with analytic gradients, " +
			"restarts in parallel on min(GOMAXPROCS, restarts) goroutines",
		Params: []registry.Param{restarts, raw}, UsesGradient: true, Emit: lbfgsEmit})
}

// lbfgsEmit holds runtime/search's gradient-based search; the code generator
// gives it the acquisition's gradient.
var lbfgsEmit registry.SearchEmit = func(g *registry.SearchGen) registry.SearchCode {
	return registry.SearchCode{
		Type: jen.Op("*").Qual(runtimeSearch, "LBFGS"),
		New:  jen.Qual(runtimeSearch, "NewLBFGS").Call(jen.Lit(g.D), jen.Lit(g.Int("raw")), jen.Lit(g.Int("restarts"))),
	}
}

// patternEmit holds runtime/search's pattern search.
var patternEmit registry.SearchEmit = func(g *registry.SearchGen) registry.SearchCode {
	return registry.SearchCode{
		Type: jen.Op("*").Qual(runtimeSearch, "Pattern"),
		New:  jen.Qual(runtimeSearch, "NewPattern").Call(jen.Lit(g.D), jen.Lit(g.Int("raw")), jen.Lit(g.Int("restarts"))),
	}
}
