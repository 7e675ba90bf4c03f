package plan

import (
	"slices"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
)

// specs asks the model's and the acquisition's plugins what their calls
// are, and checks that the descriptions agree with the plugins' data.
func (b *builder) specs() {
	p := b.o.Program
	b.o.GaussianNoise = registry.GaussianInputNoise(p)
	if m := p.Model; m != nil {
		if h, ok := hooks[registry.ModelHooks](b, m); ok {
			b.o.Model = h.Spec(&registry.Args{Call: m}, b.o.GaussianNoise)
			plugin, _ := registry.ByID(m.Plugin)
			switch {
			case b.o.Model.Kernel == nil:
				b.internal(m.Span, "model %s names no kernel", m.Plugin)
			case (b.o.Model.Inputs != nil) != plugin.UsesInputNoise:
				b.internal(m.Span, "model %s's spec and its UsesInputNoise disagree", m.Plugin)
			case (b.o.Model.Inflation != nil) != inflates(m):
				b.internal(m.Span, "model %s's spec and its Inflates disagree", m.Plugin)
			}
		}
	}
	if a := p.Acquisition; a != nil {
		if h, ok := hooks[registry.AcquisitionHooks](b, a); ok {
			b.o.Acquisition = h.Spec(&registry.Args{Call: a})
			if plugin, _ := registry.ByID(a.Plugin); (b.o.Acquisition.Unscented != nil) != plugin.UsesInputNoise {
				b.internal(a.Span, "acquisition %s's spec and its UsesInputNoise disagree", a.Plugin)
			}
		}
	}
	if n := p.ObsNoise; n.Kind == ir.ObsNoiseDist {
		if h, _ := registry.DistributionHooks(n.Dist); h.Variance != nil {
			b.o.NoiseVariance = h.Variance(&registry.Args{Call: n.Dist})
		}
	}
}

// hooks returns call c's plugin's hooks as a T; the checker has vetted the
// plugin, so anything else is a bug in boc or the plugin.
func hooks[T any](b *builder, c *ir.Call) (T, bool) {
	var zero T
	p, ok := registry.ByID(c.Plugin)
	if !ok {
		b.internal(c.Span, "no plugin %s is registered", c.Plugin)
		return zero, false
	}
	h, ok := p.Emit.(T)
	if !ok {
		b.internal(c.Span, "plugin %s has hooks of type %T, want %T", c.Plugin, p.Emit, zero)
	}
	return h, ok
}

// internal reports a bug in boc or a plugin rather than in the user's file.
func (b *builder) internal(span dsl.Span, format string, args ...any) {
	b.report(dsl.Errorf(span, "internal error in boc: "+format, args...).
		WithHint("this is a bug in boc or one of its plugins; please report it with the .bo file"))
}

// InputModel reports whether the model is over input distributions.
func (o *Optimizer) InputModel() bool { return o.Model.Inputs != nil }

// Rep is the representation of input distributions; 0 for a point model.
func (o *Optimizer) Rep() registry.InputRep {
	if o.Model.Inputs == nil {
		return 0
	}
	return o.Model.Inputs.Rep
}

// Inflates reports whether the model inflates its noise by the input noise.
func (o *Optimizer) Inflates() bool { return o.Model.Inflation != nil }

// Unscented reports whether the acquisition is averaged over the sigma
// points of the input noise.
func (o *Optimizer) Unscented() bool { return o.Acquisition.Unscented != nil }

// SimulatesInputNoise reports whether Run simulates the input noise: an
// expression objective is evaluated where the query lands. Any other
// objective meets the noise in the world.
func (o *Optimizer) SimulatesInputNoise() bool {
	return len(o.Program.InputNoise) > 0 && o.Program.Objective.Binding.Kind == ir.ExprBinding
}

// Measures reports whether every value the optimiser observes comes from
// the world: the objective is computed by Go code or a command, and so is
// every unknown safety constraint. The program can then evaluate trials
// one by one for a journalled run; a simulated one draws its noise in Run.
func (o *Optimizer) Measures() bool {
	switch o.Program.Objective.Binding.Kind {
	case ir.GoBinding, ir.ExecBinding:
	default:
		return false
	}
	for _, c := range o.Measured() {
		if c.Constraint.Measured.Kind == ir.ExprBinding {
			return false
		}
	}
	return true
}

// Measured are the Gaussian processes of the measured constraints: a safe
// acquisition's safety constraints, then the outcome constraints, the order
// of the values an evaluation measures.
func (o *Optimizer) Measured() []OutputModel {
	if o.Safety == nil {
		return o.Outcomes
	}
	return append(slices.Clip(o.Safety.Constraints), o.Outcomes...)
}

// EmitsMoments reports whether the optimiser uses the input noise's moments:
// for a model over them, an unscented acquisition or an inflation.
func (o *Optimizer) EmitsMoments() bool {
	return o.Unscented() || o.Inflates() || o.Rep() == registry.MomentRep
}

// Embeds reports whether the model embeds distributions over shared landmarks.
func (o *Optimizer) Embeds() bool { return o.Rep() == registry.EmbeddingRep }

// Samples reports whether the model represents distributions by draws.
func (o *Optimizer) Samples() bool { return o.InputModel() && o.Rep() != registry.MomentRep }

// BlockKernel reports whether the sample sums of a model over input
// distributions evaluate its base kernel a row at a time, as the
// runtime/kernel.Block its plugin's Block hook emits: the model represents
// distributions by draws and its kernel is one with such a form (not a
// composition).
func (o *Optimizer) BlockKernel() bool {
	if !o.Samples() || o.Model.Kernel == nil {
		return false
	}
	p, ok := registry.ByID(o.Model.Kernel.Plugin)
	return ok && p.Block != nil
}

// UsesNystrom reports whether the model estimates MMD by Nyström, with
// landmarks per point.
func (o *Optimizer) UsesNystrom() bool {
	return o.Rep() == registry.SampleRep && o.Model.Inputs.Landmarks > 0
}

// ReportedNoise reports whether every observation comes with its noise sd.
func (o *Optimizer) ReportedNoise() bool { return o.Program.ObsNoise.Kind == ir.ObsNoiseReported }

// Localises reports whether the optimiser takes localisation estimates with
// observations (ObserveLocalised): a model over input distributions, whose
// values come without a reported sd.
func (o *Optimizer) Localises() bool { return o.InputModel() && !o.ReportedNoise() }

// DifferenceSearch reports whether the gradient search takes the
// acquisition's derivatives by central differences, not through the
// kernel's analytic gradient.
func (o *Optimizer) DifferenceSearch() bool { return o.InputModel() || o.Unscented() }

// GradientSearch reports whether the search maximises with gradients: never
// with a safe acquisition, which has no search, nor without a search (the
// kernel probe's programs).
func (o *Optimizer) GradientSearch() bool {
	if o.Acquisition.Safe != nil || o.Program.Search == nil {
		return false
	}
	p, ok := registry.ByID(o.Program.Search.Plugin)
	return ok && p.UsesGradient
}

// BatchedSearch reports whether the search scores its raw candidates in
// batches (search.MaximizeBatch, gp.PredictBatch): a gradient search over
// the domain whose acquisition and exploration score a point from its own
// posterior mean and sd alone, over a point model. The acquisitions that
// look at covariances with the incumbent or the evaluated points,
// portfolios, requirements and input distributions score one point at a
// time.
func (o *Optimizer) BatchedSearch() bool {
	a := o.Acquisition
	return o.GradientSearch() && !o.Finite() && !o.DifferenceSearch() && len(o.Outcomes) == 0 &&
		!a.Joint && !a.Lookahead && a.Arms == 0
}

// Finite reports whether the decision set is a finite list of candidates.
func (o *Optimizer) Finite() bool { return o.Program.Candidates != nil }

// Learning reports whether the optimiser refits anything.
func (o *Optimizer) Learning() bool { return o.NumFit() > 0 }

// Replicates reports whether Suggest may return an evaluated point of a
// continuous search again: when the declared, learned or reported
// observation noise, or the input noise, makes a second value there
// informative. Noise-free, a repeat teaches the model nothing, so Suggest
// explores instead. Without this, noisy problems stopped early: under noise
// the acquisition's maximiser and the most uncertain point often both sit on
// an evaluated corner of the box.
func (o *Optimizer) Replicates() bool {
	return o.NoiseVariance > 0 || o.Noise != nil || o.ReportedNoise() || len(o.Program.InputNoise) > 0
}

// Explores reports whether Suggest falls back on the point where the model
// is least certain when the acquisition's maximiser was evaluated before: in
// a continuous search whose observations are noise-free.
func (o *Optimizer) Explores() bool { return !o.Finite() && !o.Replicates() }

// NewCanFail reports whether New can fail (making the initial design or the
// input noise's draws), so that the optimiser keeps the error for Suggest.
func (o *Optimizer) NewCanFail() bool {
	return o.Program.Init.Call != nil || o.InputModel() || len(o.Measured()) > 0
}

// DeclaredNoise reports whether the observation noise is a declared
// distribution (NoiseVariance is its variance).
func (o *Optimizer) DeclaredNoise() bool { return o.Program.ObsNoise.Kind == ir.ObsNoiseDist }

// Runtime lists the runtime packages the optimiser's code calls, sorted:
// its plugins' (registry.Plugin.Runtime) and those of the parts every
// optimiser of its kind has: refits, the input noise's draws and moments,
// commands run as the objective.
func (o *Optimizer) Runtime() []string {
	const runtime = "github.com/bocdev/boc/runtime/"
	set := map[string]bool{}
	add := func(c *ir.Call) {
		if c == nil {
			return
		}
		if p, ok := registry.ByID(c.Plugin); ok {
			for _, path := range p.Runtime {
				set[path] = true
			}
		}
	}
	p := o.Program
	calls := []*ir.Call{p.Model, p.Acquisition}
	switch {
	case len(o.Objectives) > 0: // runtime/multi models, and searches with the search's code
		calls = []*ir.Call{p.Acquisition, p.Init.Call, p.Search}
		set[runtime+"pareto"] = true // its Method
		if o.Safety != nil {
			set[runtime+"safe"] = true
			calls = calls[:1] // the explorer starts from the seeds and searches its decision set
		}
	case o.Safety == nil: // a safe acquisition has no search and no initial design
		calls = append(calls, p.Search, p.Init.Call)
	}
	for _, c := range calls {
		add(c)
	}
	callsIn := func(e ir.Expr) {
		ir.Inspect(e, func(x ir.Expr) {
			if c, ok := x.(*ir.CallExpr); ok {
				add(&ir.Call{Plugin: c.Plugin})
			}
		})
	}
	callsIn(p.Objective.Binding.Expr)
	for _, out := range p.Objective.Outputs {
		callsIn(out.Expr)
	}
	for _, c := range p.Constraints {
		callsIn(c.G)
	}
	callsIn(p.Stop)
	if o.Learning() && len(o.Objectives) == 0 {
		set[runtime+"fit"] = true
	}
	if o.SweptByComponent() {
		set[runtime+"kernel"] = true // its Components
	}
	if o.Model.Warp != "" {
		set[runtime+"warp"] = true
	}
	if o.Local > 0 {
		set[runtime+"subset"] = true
	}
	if slices.ContainsFunc(o.Objectives, func(m OutputModel) bool { return m.WorstMean }) {
		set[runtime+"gp"] = true // its PriorMean
	}
	if slices.ContainsFunc(p.Dims, (*ir.Dim).Categorical) {
		set[runtime+"kernel"] = true // its LevelDistance, in the kernel's code
	}
	if o.Draws != nil {
		set[runtime+"noise"] = true
	}
	if o.EmitsMoments() || o.Localises() {
		set[runtime+"uncertain"] = true
	}
	if p.Objective.Binding.Kind == ir.ExecBinding {
		set[runtime+"command"] = true
	}
	if len(o.Measured()) > 0 || o.BlockKernel() || len(o.Objectives) > 0 {
		set[runtime+"kernel"] = true
	}
	if len(o.Outcomes) > 0 || len(o.Objectives) > 0 {
		set[runtime+"outcome"] = true
	}
	for _, c := range o.Measured() {
		callsIn(c.Constraint.Measured.Expr)
		if c.Constraint.Measured.Kind == ir.ExecBinding {
			set[runtime+"command"] = true
		}
	}
	out := make([]string, 0, len(set))
	for path := range set {
		out = append(out, path)
	}
	slices.Sort(out)
	return out
}
