package plan

import (
	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
)

// distributions reports distributions used where their plugin has no hook
// for the use: observation noise needs a variance, and a sampler to be
// simulated on an expression objective; input noise needs draws and
// moments.
func (b *builder) distributions() {
	p := b.o.Program
	if n := p.ObsNoise; n.Kind == ir.ObsNoiseDist {
		h, _ := registry.DistributionHooks(n.Dist)
		switch {
		case h.Variance == nil:
			b.report(dsl.Errorf(n.Dist.Span, "%s is not available as observation noise in this version of boc", name(n.Dist)).
				WithHint("use normal(0, sd)"))
		case h.Sample == nil && p.Objective.Binding.Kind == ir.ExprBinding:
			b.report(dsl.Errorf(n.Dist.Span, "%s cannot simulate observation noise on an expression objective in this version of boc", name(n.Dist)).
				WithHint("use normal(0, sd)"))
		}
	}
	for _, n := range p.InputNoise {
		h, _ := registry.DistributionHooks(n.Dist)
		if h.BaseLen == nil || h.Draw == nil || h.Moments == nil || h.Gaussian == nil {
			b.report(dsl.Errorf(n.Dist.Span, "%s cannot be used as input noise in this version of boc", name(n.Dist)).
				WithHint("use normal, mvnormal or another distribution list-plugins shows"))
		}
	}
}
