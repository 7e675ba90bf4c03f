package plan

import (
	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
)

// sweeps refuses a search's coordinate sweeps (runtime/search/sweep.go)
// where the search does not maximise over the box, so that none would run
// (noBox).
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
	if where := b.o.noBox(); where != "" {
		b.report(dsl.Errorf(a.Span, "%s's sweeps have nothing to sweep %s", name(p.Search), where).
			WithHint("leave sweeps out"))
	}
}
