package plan

import (
	"slices"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
)

// TrustRegion reports whether the search is confined to a trust region
// (search turbo), which the optimiser tells every observation.
func (o *Optimizer) TrustRegion() bool {
	if o.Program.Search == nil || o.Safety != nil {
		return false
	}
	p, ok := registry.ByID(o.Program.Search.Plugin)
	return ok && p.TrustRegion
}

// noBox says where the optimiser searches no box of the domain, so that a
// search's trust region or sweeps have nothing to work on ("" where it
// does): a safe acquisition's decision set, candidates.
func (o *Optimizer) noBox() string {
	switch {
	case o.Acquisition.Safe != nil:
		return "with a safe acquisition, which searches its own decision set"
	case o.Finite():
		return "over candidates, a finite decision set"
	}
	return ""
}

// trustRegion refuses a trust-region search where it is not built: where
// the optimiser does not search the domain box (a safe acquisition's
// decision set, candidates), where a box says nothing of some components
// (categorical ones), where the observations reach the optimiser another
// way (a model over input distributions), and beyond 3 objectives, whose
// hypervolume (which tells the region of several objectives its successes,
// runtime/multi) is not computed without allocating.
func (b *builder) trustRegion() {
	p := b.o.Program
	if p.Search == nil {
		return
	}
	plugin, ok := registry.ByID(p.Search.Plugin)
	if !ok || !plugin.TrustRegion {
		return
	}
	if regions := p.Search.Arg("regions"); regions != nil {
		if v, ok := regions.Value.(*ir.ConstExpr); ok && v.Value.Float() > 1 {
			b.severalRegions(regions)
		}
	}
	where := b.o.noBox()
	switch {
	case where != "":
	case slices.ContainsFunc(p.Dims, (*ir.Dim).Categorical):
		where = "over a domain with categorical dimensions"
	case len(b.o.Objectives) > 3:
		where = "with more than 3 objectives"
	case b.o.InputModel():
		where = "with a model over input distributions"
	default:
		return
	}
	b.report(dsl.Errorf(p.Search.Span, "search %s is not built %s in this version of boc", plugin.Name, where).
		WithHint("use search lbfgs"))
}

// severalRegions refuses several trust regions where one model does not
// serve them all: a local model holds the observations around one centre,
// and the region of several objectives (runtime/multi) is one.
func (b *builder) severalRegions(regions *ir.Arg) {
	var where, hint string
	switch {
	case b.o.Local > 0:
		where, hint = "with a local model", "a local model holds the observations around one centre: use turbo(regions = 1), TuRBO-1, or model gp(approx = \"exact\")"
	case len(b.o.Objectives) > 1:
		where, hint = "with several objectives", "use turbo(regions = 1), one region around the front"
	default:
		return
	}
	b.report(dsl.Errorf(regions.Span, "several trust regions are not built %s in this version of boc", where).WithHint("%s", hint))
}
