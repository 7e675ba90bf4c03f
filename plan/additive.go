package plan

import (
	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
)

// A stationary kernel with groups = "components" averages one kernel per
// component, each over that component alone, and its interaction λ weighs
// the kernel over all components against that average: a first-order
// additive kernel plus the full one (Duvenaud et al. 2011). In many
// dimensions whose effects add, such as Levy's or a controller's separate
// gains, it learns from a few observations per component what the full
// kernel needs exponentially many for.

// byComponent reports whether stationary kernel c averages over its
// components.
func byComponent(c *ir.Call) bool {
	a := c.Arg("groups")
	if a == nil {
		return false
	}
	v, ok := a.Value.(*ir.ConstExpr)
	return ok && v.Value.Type.Kind == dsl.String && v.Value.Text == registry.GroupsComponents
}

// additiveInteractionLo is the lower bound of a learned interaction of a
// kernel that averages over components, unless the program gives bounds.
// The mixture over choices keeps the interaction's 0.05; here the average
// alone must be within reach: on Levy 20 (5 seeds, docs/quality.md, "High
// dimensions") the median regret fell from 4.62 to 2.13 and on Ackley 20
// from 1.48 to 1.35 when the bound fell from 0.05 to 0.001.
const additiveInteractionLo = 0.001

// additive learns the interaction of every kernel of the model that
// averages over components and leaves the interaction out, when the kernel
// learns its other hyperparameters, and makes it 0 (the average alone)
// otherwise; the plan decides it, as it does the mixture over choices. A
// learned interaction without bounds is learned in [additiveInteractionLo,
// 1]. A model over input distributions, whose kernel sums run on
// runtime/kernel.Block, has only the kernel over all components. A kernel
// that averages over components and learns also makes the plan learn a
// residual variance (noise).
func (b *builder) additive() {
	k := b.o.Model.Kernel
	if k == nil {
		return
	}
	learned := learns(k) // before any interaction is made learned below
	kernelTree(k, func(c *ir.Call) {
		if !byComponent(c) {
			return
		}
		if b.o.InputModel() {
			b.report(dsl.Errorf(c.Arg("groups").Span, `%s's groups = "components" is not built for a model over input distributions (its kernel sums know only the kernel over all components)`, name(c)).
				WithHint("leave groups out"))
			return
		}
		b.additiveLearns = b.additiveLearns || learned
		a := c.Arg("interaction")
		if a == nil {
			return
		}
		if a.Default {
			a.Value = &ir.Learn{}
			if !learned {
				a.Value = &ir.ConstExpr{At: a.Span, Value: dsl.RealValue(0)}
			}
		}
		if l, ok := a.Value.(*ir.Learn); ok && !l.HasBounds {
			l.HasBounds, l.Lo, l.Hi = true, additiveInteractionLo, 1
		}
		if v, ok := a.Value.(*ir.ConstExpr); ok && v.Value.Float() == 1 {
			b.report(dsl.Warningf(a.Span, `%s's interaction 1 leaves out the average over components that groups = "components" asks for`, name(c)).
				WithHint("leave interaction out to learn it, or set it below 1"))
		}
	})
}

// refuseAdditive reports kernel k of output whose if it averages over
// components: an output's Gaussian process evaluates runtime/kernel's
// families over all components together.
func (b *builder) refuseAdditive(k *ir.Call, whose string) {
	kernelTree(k, func(c *ir.Call) {
		if byComponent(c) {
			b.report(dsl.Errorf(c.Arg("groups").Span, `the Gaussian process of %s takes its kernel over all components together: groups = "components" is not built there`, whose).
				WithHint("give it a kernel of its own without groups"))
		}
	})
}
