package stdlib

import "github.com/bocdev/boc/stdlib/registry"

// DefaultSearch is the search used when a problem has no `search` statement.
const DefaultSearch = "pattern"

func init() {
	raw := registry.Param{Name: "raw", Type: registry.IntParam, Default: "1024", Range: atLeastOne,
		Doc: "quasi-random candidates scored before refinement"}
	restarts := registry.Param{Name: "restarts", Type: registry.IntParam, Default: "4", Range: atLeastOne,
		Doc: "best candidates refined by local search"}
	registry.Register(&registry.Plugin{Kind: registry.Search, Name: "pattern",
		Doc:    "Sobol candidates, the best refined by a bounded compass (pattern) search",
		Params: []registry.Param{raw, restarts}, Emit: patternEmit})
	registry.Register(&registry.Plugin{Kind: registry.Search, Name: "lbfgs",
		Doc:    "Sobol candidates, the best refined by projected L-BFGS-B with analytic gradients",
		Params: []registry.Param{restarts, raw}})
}
