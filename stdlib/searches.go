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
// Over categorical components it alternates L-BFGS-B with changes of level
// (search.NewMixedLBFGS).
var lbfgsEmit registry.SearchEmit = func(g *registry.SearchGen) registry.SearchCode {
	newSearch := jen.Qual(runtimeSearch, "NewLBFGS").Call(jen.Lit(g.D), jen.Lit(g.Int("raw")), jen.Lit(g.Int("restarts")))
	if g.Levels != nil {
		levels := make([]jen.Code, len(g.Levels))
		for i, l := range g.Levels {
			levels[i] = jen.Lit(l)
		}
		newSearch = jen.Qual(runtimeSearch, "NewMixedLBFGS").Call(jen.Lit(g.D), jen.Lit(g.Int("raw")), jen.Lit(g.Int("restarts")),
			jen.Index().Int().Values(levels...))
	}
	return registry.SearchCode{
		Type:   jen.Op("*").Qual(runtimeSearch, "LBFGS"),
		New:    newSearch,
		Memory: searchMemory(g, lbfgsWorkers),
	}
}

// patternEmit holds runtime/search's pattern search.
var patternEmit registry.SearchEmit = func(g *registry.SearchGen) registry.SearchCode {
	return registry.SearchCode{
		Type:   jen.Op("*").Qual(runtimeSearch, "Pattern"),
		New:    jen.Qual(runtimeSearch, "NewPattern").Call(jen.Lit(g.D), jen.Lit(g.Int("raw")), jen.Lit(g.Int("restarts"))),
		Memory: searchMemory(g, 1),
	}
}

// lbfgsWorkers is how many workers the memory estimate of lbfgs assumes:
// it runs min(GOMAXPROCS, restarts), each with its own ranking.
const lbfgsWorkers = 16

// searchMemory estimates a search's arrays: its raw candidates and starts
// (raw + restarts points), the refined points, and per worker a ranking of
// the restarts (an index and a value each).
func searchMemory(g *registry.SearchGen, workers float64) float64 {
	raw, restarts, d := float64(g.Int("raw")), float64(g.Int("restarts")), float64(g.D)
	return 8 * ((raw+restarts)*d + restarts*(2*d+3) + min(workers, restarts)*2*restarts)
}
