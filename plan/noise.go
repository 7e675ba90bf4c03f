package plan

import (
	"math"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
)

// Default bounds of a learned observation-noise variance, in standardised
// units (the variance of the observations is 1).
const noiseLearnLo, noiseLearnHi = 1e-6, 1.0

// NoiseLearn is a learned observation-noise variance: fitted on a log scale
// within [Lo, Hi] from Init, in standardised units.
type NoiseLearn struct {
	Lo, Hi, Init float64
	// Implied says why the plan learns it when the file does not ask for
	// it (impliedByInputNoise, impliedByAdditive); "" when the file does.
	Implied string
}

// Why a noise variance is learned that the file does not ask for.
const (
	// Input noise is declared and the model neither inflates its noise by
	// it nor is told the observation noise.
	impliedByInputNoise = "for the input noise"
	// A kernel averages over components and learns its hyperparameters:
	// the residual variance takes what a sum of one-component effects
	// leaves out.
	impliedByAdditive = "for what the additive kernel leaves out"
)

// noise decides whether the observation-noise variance is learned.
func (b *builder) noise() {
	p := b.o.Program
	switch {
	case p.ObsNoise.Kind == ir.ObsNoiseLearn:
		b.noiseLearn(p.ObsNoise.Learn, p.ObsNoise.Span)
	case p.ObsNoise.Kind == ir.ObsNoiseNone && len(p.InputNoise) > 0 && !b.o.Inflates():
		// Where the query lands varies, so the values measured at one target
		// vary too: the model learns that spread as noise rather than
		// interpolating every landing as if it were the target's value (an
		// inflating model accounts for it by its inflation instead).
		b.noiseLearn(nil, p.ObsNoise.Span)
		b.o.Noise.Implied = impliedByInputNoise
	case p.ObsNoise.Kind == ir.ObsNoiseNone && b.additiveLearns:
		// A sum of one-component effects cannot follow how the components
		// interact; interpolating it anyway bends the model everywhere. A
		// learned residual variance gives the misfit somewhere to go: on
		// Levy and Ackley in 20 and 30 dimensions it made the additive
		// kernel's regret half to a third of the trust region's
		// (docs/quality.md, "High dimensions"). The acquisition's default
		// stays that of an exact objective: the values are not noisy.
		b.noiseLearn(nil, p.ObsNoise.Span)
		b.o.Noise.Implied = impliedByAdditive
	}
}

func (b *builder) noiseLearn(l *ir.Learn, span dsl.Span) {
	n := &NoiseLearn{Lo: noiseLearnLo, Hi: noiseLearnHi}
	if l != nil && l.HasBounds {
		n.Lo, n.Hi = l.Lo, l.Hi
	}
	if !(n.Lo > 0 && n.Lo < n.Hi) || math.IsInf(n.Hi, 0) {
		b.report(dsl.Errorf(span, "the learned noise variance needs positive, finite bounds"))
	}
	n.Init = math.Sqrt(n.Lo * n.Hi)
	if l != nil && l.HasInit && len(l.Init) > 0 {
		n.Init = l.Init[0]
	}
	n.Init = min(max(n.Init, n.Lo), n.Hi)
	b.o.Noise = n
}

// inflates reports whether model m inflates its observation noise by the
// input noise.
func inflates(m *ir.Call) bool {
	if m == nil {
		return false
	}
	p, ok := registry.ByID(m.Plugin)
	return ok && p.Inflates != nil && p.Inflates(m)
}

// Draws lays out the base uniforms of one draw of the whole input noise:
// each declaration takes its distribution's BaseLen, from Offsets[i] on.
type Draws struct {
	BaseLen int
	Offsets []int
}

// draws lays out the input noise's base uniforms when the optimiser draws
// the noise: for a model over input distributions, an acquisition averaged
// over it, an inflating model, or to simulate it on an expression objective.
func (b *builder) draws() {
	p := b.o.Program
	if len(p.InputNoise) == 0 {
		return
	}
	if !b.o.SimulatesInputNoise() && !b.o.InputModel() && !b.o.Unscented() && !b.o.Inflates() {
		return
	}
	d := &Draws{}
	for _, n := range p.InputNoise {
		d.Offsets = append(d.Offsets, d.BaseLen)
		if h, _ := registry.DistributionHooks(n.Dist); h.BaseLen != nil {
			d.BaseLen += h.BaseLen(registry.PlanDraw(n.Dist))
		}
	}
	b.o.Draws = d
}
