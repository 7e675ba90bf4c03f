package plan

import (
	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
)

// sweeps refuses a search's coordinate sweeps (runtime/search/sweep.go)
// where the search does not maximise over the box, so that none would run:
// over candidates, a finite decision set, and with a safe acquisition,
// which searches its own.
func (b *builder) sweeps() {
	p := b.o.Program
	if p.Search == nil {
		return
	}
	a := p.Search.Arg("sweeps")
	if a == nil {
		return
	}
	if v, ok := a.Value.(*ir.ConstExpr); !ok || v.Value.Float() == 0 {
		return
	}
	var where string
	switch {
	case b.o.Acquisition.Safe != nil:
		where = "with a safe acquisition, which searches its own decision set"
	case b.o.Finite():
		where = "over candidates, a finite decision set"
	default:
		return
	}
	b.report(dsl.Errorf(a.Span, "%s's sweeps have nothing to sweep %s", name(p.Search), where).
		WithHint("leave sweeps out"))
}
