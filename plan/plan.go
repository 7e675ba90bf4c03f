// Package plan is the stage between the type checker and the code generator:
// from a checked program it decides what the emitted optimiser holds, as plain
// data, and raises the language errors that depend on those decisions, with
// the position of the statement that causes them. Code generation then
// emits from the plan and reports nothing to the user; `boc check` runs the
// plan too, so that it accepts exactly the files `boc gen` accepts.
//
// The plan holds the model's and the acquisition's descriptions (their
// plugins' Spec hooks: how input distributions are represented, inflation,
// joint or unscented scores), the layout of the learned values (the kernel's
// hyperparameters, the model's own, the observation-noise variance), the
// draws of the input noise, every predicate the code generator branches on,
// the runtime packages the program links, and a memory estimate; it
// enforces the runtime's limits (values a refit learns, base uniforms per
// draw, memory). Fprint renders it, for `boc check --dump plan`.
package plan

import (
	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
	_ "github.com/bocdev/boc/stdlib" // the built-in plugins
	"github.com/bocdev/boc/stdlib/registry"
)

// Optimizer is the plan of one problem's optimiser.
type Optimizer struct {
	Program *ir.Program
	// Hyper lays out the model's learned values.
	Hyper Hyper
	// Noise is the learned observation-noise variance, or nil when the
	// noise is declared, reported or absent.
	Noise *NoiseLearn
	// Draws lays out the base uniforms of one draw of the input noise, or is
	// nil when the optimiser never draws it.
	Draws *Draws
	// Memory estimates the bytes the optimiser's arrays take at its budget.
	Memory float64
	// Local is the number of observations a local model is conditioned on
	// (runtime/subset), or 0 for the exact GP over every observation.
	Local int

	// Model and Acquisition are their plugins' descriptions of the calls.
	Model       registry.ModelSpec
	Acquisition registry.AcquisitionSpec
	// GaussianNoise reports whether every input-noise distribution is
	// Gaussian, so that its moments describe it.
	GaussianNoise bool
	// NoiseVariance is the variance of the declared observation noise; 0
	// when it is not declared.
	NoiseVariance float64
	// Safety is the plan of a safe acquisition, nil for the others.
	Safety *Safety
	// Outcomes are the Gaussian processes of the outcome constraints
	// (require), in declaration order.
	Outcomes []OutputModel
	// Objectives are the Gaussian processes of several objectives, in
	// declaration order; nil for one. Acquisition.Pareto scores them.
	Objectives []OutputModel
}

// Build plans the optimiser of p, a program the checker accepted, and
// reports every error that planning finds. The plan is nil when there are
// errors.
func Build(p *ir.Program) (*Optimizer, dsl.Diagnostics) {
	b := &builder{o: &Optimizer{Program: p}}
	b.distributions()
	b.specs()
	b.additive()
	b.categorical()
	b.objectives()
	b.mean()
	b.hyper()
	b.noise()
	b.draws()
	b.safety()
	b.outcomes()
	b.warp()
	b.localModel()
	b.trustRegion()
	b.sweeps()
	b.limits()
	b.diags.Sort()
	if b.diags.HasErrors() {
		return nil, b.diags
	}
	return b.o, b.diags
}

// NumFit is the number of values a refit learns: the model's, then the
// noise variance's.
func (o *Optimizer) NumFit() int {
	if o.Noise != nil {
		return o.Hyper.Size + 1
	}
	return o.Hyper.Size
}

// builder holds one Build.
type builder struct {
	o     *Optimizer
	diags dsl.Diagnostics
	// additiveLearns says a kernel of the model averages over components
	// and learns its hyperparameters (additive), which noise then follows.
	additiveLearns bool
}

func (b *builder) report(d dsl.Diagnostic) { b.diags = append(b.diags, d) }
