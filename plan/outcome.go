package plan

import (
	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
)

// outcomes plans the outcome constraints (require): a Gaussian process each
// (runtime/outcome), planned as a safety constraint's is. Their probability
// of being met weights an acquisition scored as the log of an improvement
// (registry.AcquisitionSpec.LogScore), by adding its log to the score; any
// other (ucb, hedge's arms, uei) restricts its search to the points where
// they are plausibly met, and a safe acquisition its objective's choices
// among the certified points.
// What neither can serve is refused at its line with the reason.
func (b *builder) outcomes() {
	p := b.o.Program
	var first dsl.Span
	if p.Model == nil {
		return // the checker reported it
	}
	modelKernel := false
	if a := p.Model.Arg("kernel"); a != nil {
		_, modelKernel = a.Value.(*ir.Call)
	}
	for _, c := range p.Constraints {
		switch {
		case !c.Outcome:
			continue
		case c.Kernel == nil && !modelKernel:
			b.report(dsl.Errorf(c.Span, "require %s has no kernel: model %s has none for it to take", c.Name, name(p.Model)).
				WithHint("give it one: require %s: ... { kernel matern52 }", c.Name))
			continue
		}
		k, own := c.Kernel, c.Kernel != nil
		if !own {
			k = p.Model.Arg("kernel").Value.(*ir.Call)
		}
		span := c.Span
		if own {
			span = k.Span
		}
		if !b.modelsOutput(k, "requirement "+c.Name, span, "give it a kernel of its own: require "+c.Name+": ... { kernel matern52 }") {
			continue
		}
		if len(b.o.Outcomes) == 0 {
			first = c.Span
		}
		b.o.Outcomes = append(b.o.Outcomes, b.constraintModelOf(c))
	}
	if len(b.o.Outcomes) == 0 || p.Acquisition == nil || p.Objective.Outputs != nil {
		return // several objectives refuse what they do not combine with
	}
	switch {
	case b.o.InputModel():
		b.report(dsl.Errorf(p.Model.Span, "require with model %s, over input distributions, is not built in this version of boc", name(p.Model)).
			WithHint("use model gp"))
	case b.o.Finite():
		b.report(dsl.Errorf(first, "require with candidates is not built in this version of boc").
			WithHint("search the domain instead of a candidates list"))
	case b.o.ReportedNoise():
		b.report(dsl.Errorf(p.ObsNoise.Span, "reported observation noise with require is not built in this version of boc").
			WithHint("declare the noise (observation noise ~ normal(0, sd)) or learn it"))
	}
}
