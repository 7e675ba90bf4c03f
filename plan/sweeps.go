package plan

import (
	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/runtime/kernel"
	"github.com/bocdev/boc/stdlib/registry"
)

// sweeps refuses a search's coordinate sweeps (runtime/search/sweep.go)
// where the search does not maximise over the box, so that none would run
// (noBox).
func (b *builder) sweeps() {
	p := b.o.Program
	a := sweepsArg(p)
	if a == nil {
		return
	}
	if where := b.o.noBox(); where != "" {
		b.report(dsl.Errorf(a.Span, "%s's sweeps have nothing to sweep %s", name(p.Search), where).
			WithHint("leave sweeps out"))
	}
}

// SweptByComponent reports whether the search's coordinate sweeps score the
// values of each component through runtime/kernel.Components, which keeps
// the kernel's terms from the sweep's point to every evaluated one and
// changes one component's per value, rather than as rows of a whole point
// each (runtime/search.Sweep): 64 values of one component in 100 dimensions
// cost a hundredth of the kernel's work. It holds where the model's kernel
// is one stationary kernel over the components one by one (groups =
// "components") of a family Components evaluates, the search scores in
// batches (BatchedSearch), and every component is a continuous one that is
// always there: an integer's snapping, a choice's levels and a conditional's
// zeroing would change a point beyond the swept component.
func (o *Optimizer) SweptByComponent() bool {
	p := o.Program
	if sweepsArg(p) == nil || !o.BatchedSearch() || o.Model.Kernel == nil || !byComponent(o.Model.Kernel) {
		return false
	}
	if k, ok := registry.ByID(o.Model.Kernel.Plugin); !ok || !kernel.ComponentFamily(k.Family) {
		return false
	}
	for _, d := range p.Dims {
		if d.Integer || d.Categorical() || d.When != nil {
			return false
		}
	}
	return true
}

// sweepsArg is the search's sweeps argument when it asks for some; nil
// otherwise.
func sweepsArg(p *ir.Program) *ir.Arg {
	if p.Search == nil {
		return nil
	}
	a := p.Search.Arg("sweeps")
	if a == nil {
		return nil
	}
	if v, ok := a.Value.(*ir.ConstExpr); !ok || v.Value.Float() == 0 {
		return nil
	}
	return a
}
