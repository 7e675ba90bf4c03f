package stdlib

import (
	"slices"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
)

// Acquisitions of several objectives score a point by how much it is
// expected to add to the Pareto front of the evaluated points, each
// objective modelled by its own Gaussian process (runtime/multi with
// runtime/pareto's Acquirer), so their hooks describe the method and emit
// no score.

// runtimeMulti is the import path of the optimiser of several objectives.
const runtimeMulti = "github.com/bocdev/boc/runtime/multi"

// exactObjectives is the most objectives whose expected hypervolume
// improvement runtime/pareto computes exactly (a box decomposition).
const exactObjectives = 3

func init() {
	registry.Register(&registry.Plugin{Kind: registry.Acquisition, Name: "ehvi", Pareto: true,
		Doc:     "expected hypervolume improvement over the front of the evaluated points' posterior means (Emmerich et al.; exact for 2 or 3 objectives, by box decomposition)",
		Runtime: []string{runtimeMulti}, Check: checkEHVI,
		Emit: registry.AcquisitionHooks{Spec: func(*registry.Args) registry.AcquisitionSpec {
			return registry.AcquisitionSpec{Pareto: &registry.ParetoSpec{Method: "EHVI"}, LogScore: true}
		}}})
	registry.Register(&registry.Plugin{Kind: registry.Acquisition, Name: "parego", Pareto: true,
		Doc:     "ParEGO (Knowles 2006): expected improvement of an augmented Chebyshev scalarisation of the objectives, its weights drawn anew at every suggestion; any number of objectives",
		Runtime: []string{runtimeMulti}, Check: checkBesideSafety,
		Emit: registry.AcquisitionHooks{Spec: func(*registry.Args) registry.AcquisitionSpec {
			return registry.AcquisitionSpec{Pareto: &registry.ParetoSpec{Method: "ParEGO"}, LogScore: true}
		}}})
}

// checkEHVI refuses more objectives than the exact computation takes.
func checkEHVI(ctx *registry.CheckContext) {
	if n := len(ctx.Program.Objective.Outputs); n > exactObjectives {
		ctx.Report(dsl.Errorf(ctx.Call.Span, "acquisition ehvi is exact for 2 or %d objectives; this problem has %d", exactObjectives, n).
			WithHint("use acquisition parego, which takes any number"))
	}
	checkBesideSafety(ctx)
}

// checkBesideSafety checks, beside unknown safety constraints, what a safe
// acquisition needs: the optimiser of several objectives keeps to them
// with SGP-UCB's safe exploration, from their seeds.
func checkBesideSafety(ctx *registry.CheckContext) {
	if ctx.Complete && slices.ContainsFunc(ctx.Program.Constraints, (*ir.Constraint).Safety) {
		checkSafe(ctx)
	}
}
