package stdlib

import (
	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/runtime/search"
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

func init() {
	raw := registry.Param{Name: "raw", Type: registry.IntParam, Default: registry.Int(1024), Range: atLeastOne,
		Doc: "quasi-random candidates scored before refinement"}
	restarts := registry.Param{Name: "restarts", Type: registry.IntParam, Default: registry.Int(4), Range: atLeastOne,
		Doc: "best candidates refined by local search"}
	sweeps := registry.Param{Name: "sweeps", Type: registry.IntParam, Default: registry.Int(0), Range: nonNegative,
		Doc: "coordinate sweeps of the best refined point: each continuous component in turn set to the best of " +
			"64 values across the box, then one more refinement (for additive kernels; 0: none)"}
	registry.Register(&registry.Plugin{Kind: registry.Search, Name: "pattern", Runtime: []string{runtimeSearch},
		Doc:    "Sobol candidates, the best refined by a bounded compass (pattern) search",
		Params: []registry.Param{raw, restarts}, Emit: patternEmit})
	registry.Register(&registry.Plugin{Kind: registry.Search, Name: "lbfgs", Runtime: []string{runtimeSearch},
		Doc: "Sobol candidates and candidates near the best points so far, the best refined by projected L-BFGS-B " +
			"with analytic gradients, restarts in parallel on min(GOMAXPROCS, restarts) goroutines",
		Params: []registry.Param{restarts, raw, sweeps,
			{Name: "near_best", Type: registry.RealParam, Default: registry.Real(0.5), Range: fraction,
				Doc: "share of the raw candidates made near the best points so far (the incumbent, the front's points): " +
					"each with a random subset of its continuous components, each with probability min(1, 20/D), " +
					"moved uniformly within ±near_width (0: every candidate quasi-random over the box)"},
			{Name: "near_width", Type: registry.RealParam, Default: registry.Real(0.1), Range: positive,
				Doc: "how far the candidates near the best points move each component, in units of the cube"},
		},
		UsesGradient: true, Emit: nearEmit})
	registry.Register(&registry.Plugin{Kind: registry.Search, Name: "turbo", Runtime: []string{runtimeSearch},
		Doc: "lbfgs confined to TuRBO's trust regions: each a box around its best point, sized by the lengthscales, " +
			"doubled after successes and halved after failures in a row, restarted when it collapses",
		Params: []registry.Param{restarts, raw, sweeps,
			{Name: "regions", Type: registry.IntParam, Default: registry.Int(1), Range: atLeastOne,
				Doc: "trust regions, each searched at every suggestion, the best point of all taken (TuRBO-m; 1: TuRBO-1)"},
			{Name: "length", Type: registry.RealParam, Default: registry.Real(0.8), Range: positive,
				Doc: "the box's initial side, in units of the cube, for lengthscales at their geometric mean"},
			{Name: "min_length", Type: registry.RealParam, Default: registry.Real(0.0078125), Range: positive,
				Doc: "the side below which the region restarts (2⁻⁷)"},
			{Name: "max_length", Type: registry.RealParam, Default: registry.Real(1.6), Range: positive,
				Doc: "the largest side"},
			{Name: "success", Type: registry.IntParam, Default: registry.Int(3), Range: atLeastOne,
				Doc: "improvements in a row that double the side"},
			{Name: "failure", Type: registry.IntParam, Default: registry.Int(0), Range: nonNegative,
				Doc: "evaluations in a row without improvement that halve the side; 0: the dimension, at least 4 (TuRBO's)"},
		},
		UsesGradient: true, TrustRegion: true, Emit: turboEmit, Check: checkTurbo})
}

// turboEmit is lbfgsEmit with a runtime/search.TrustRegion.
var turboEmit registry.SearchEmit = func(g *registry.SearchGen) registry.SearchCode {
	code := lbfgsEmit(g)
	failure := g.Int("failure")
	if failure == 0 {
		failure = max(4, g.D)
	}
	args := []jen.Code{jen.Lit(g.Real("length")), jen.Lit(g.Real("min_length")), jen.Lit(g.Real("max_length")),
		jen.Lit(g.Int("success")), jen.Lit(failure)}
	code.Region = jen.Qual(runtimeSearch, "NewTrustRegion").Call(args...)
	code.Regions = jen.Qual(runtimeSearch, "NewRegions").Call(append([]jen.Code{jen.Lit(g.Int("regions")), jen.Id("Dim")}, args...)...)
	return code
}

// checkTurbo requires min_length <= length <= max_length.
func checkTurbo(ctx *registry.CheckContext) {
	length, l := constArg(ctx.Call, "length")
	_, lo := constArg(ctx.Call, "min_length")
	_, hi := constArg(ctx.Call, "max_length")
	if l == nil || lo == nil || hi == nil {
		return
	}
	if !(lo.Float() <= l.Float() && l.Float() <= hi.Float()) {
		ctx.Report(dsl.Errorf(length.Span, "turbo's length %g must lie in [min_length, max_length] = [%g, %g]", l.Float(), lo.Float(), hi.Float()).
			WithHint("length = 0.8, min_length = 0.0078125, max_length = 1.6 are TuRBO's"))
	}
}

// nearEmit is lbfgsEmit with candidates near the best points
// (search.LBFGS.WithNearBest), which a trust region has already.
var nearEmit registry.SearchEmit = func(g *registry.SearchGen) registry.SearchCode {
	code := lbfgsEmit(g)
	if share := g.Real("near_best"); share > 0 {
		code.New = jen.Add(code.New).Dot("WithNearBest").Call(jen.Lit(share), jen.Lit(g.Real("near_width")))
	}
	return code
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
	memory := searchMemory(g, registry.EstimatedSearchWorkers)
	if n := g.Int("sweeps"); n > 0 {
		newSearch = jen.Add(newSearch).Dot("WithSweeps").Call(jen.Lit(n))
		memory += 8 * search.SweepPoints * float64(g.D)
	}
	return registry.SearchCode{
		Type:   jen.Op("*").Qual(runtimeSearch, "LBFGS"),
		New:    newSearch,
		Memory: memory,
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

// searchMemory estimates a search's arrays: its raw candidates and starts
// (raw + restarts points), the refined points, and per worker a ranking of
// the restarts (an index and a value each).
func searchMemory(g *registry.SearchGen, workers float64) float64 {
	raw, restarts, d := float64(g.Int("raw")), float64(g.Int("restarts")), float64(g.D)
	return 8 * ((raw+restarts)*d + restarts*(2*d+3) + min(workers, restarts)*2*restarts)
}
