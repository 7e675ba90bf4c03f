package plan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
)

// objectives plans several objectives: a Gaussian process each
// (runtime/outcome, outputs without a limit, before the requirements'),
// the model's kernel and the observation noise shared out to each unless a
// line has its own, scored by the acquisition's runtime/pareto method in
// runtime/multi's optimiser; beside unknown safety constraints, with
// SGP-UCB's safe exploration at safe_ucb's defaults (the Safety plan).
// What that optimiser cannot serve yet is refused at its line with the
// reason.
func (b *builder) objectives() {
	p := b.o.Program
	outs := p.Objective.Outputs
	if outs == nil || p.Model == nil {
		return
	}
	if b.o.Acquisition.Pareto == nil {
		b.internal(p.Acquisition.Span, "acquisition %s reached the plan of several objectives", p.Acquisition.Plugin)
		return
	}
	k, _ := p.Model.Arg("kernel").Value.(*ir.Call)
	lends := slices.ContainsFunc(outs, func(out ir.Output) bool { return out.Kernel == nil })
	switch {
	case !lends:
	case k == nil:
		b.report(dsl.Errorf(p.Model.Span, "several objectives need a kernel: model %s has none to lend them", name(p.Model)).
			WithHint("use model gp(kernel = matern52)"))
		return
	case !b.modelsOutput(k, "the objectives' Gaussian processes", p.Model.Span, "give the model one of them: model gp(kernel = matern52)"):
		return
	}
	if slices.ContainsFunc(p.Constraints, (*ir.Constraint).Safety) {
		// SGP-UCB's exploration, its defaults (acq_safe.go), keeps to them.
		b.o.Acquisition.Safe = &registry.SafeSpec{Method: "SGPUCB", FirstPhase: "RandomSeeds", Window: 20, Delta: 0.01}
	}
	for _, out := range outs {
		if out.Kernel != nil && !b.modelsOutput(out.Kernel, "objective "+out.Name, out.Kernel.Span, "give it one of them: { kernel matern52 }") {
			return
		}
		m := b.outputModel(out.Name, out.Kernel, out.Noise, p.Objective.Binding.Kind == ir.ExprBinding)
		if out.Noise == nil && p.ObsNoise.Kind == ir.ObsNoiseNone {
			m.NoiseVariance = 0 // measured exactly, as one objective's model takes it
		}
		b.o.Objectives = append(b.o.Objectives, m)
	}
	b.refuseBesideObjectives()
}

// refuseBesideObjectives reports what several objectives do not combine
// with in this version of boc.
func (b *builder) refuseBesideObjectives() {
	p := b.o.Program
	notBuilt := func(span dsl.Span, what, hint string) {
		b.report(dsl.Errorf(span, "%s with several objectives is not built in this version of boc", what).WithHint("%s", hint))
	}
	for _, c := range p.Constraints {
		switch {
		case c.Safety() && p.D > maxGridDims:
			notBuilt(c.Span, fmt.Sprintf("an unknown safety constraint over more than %d components", maxGridDims),
				"if breaking it during the search is harmless, make it a requirement: require "+c.Name+": ...")
		case c.Safety() && c.RandomSeeds > 0:
			notBuilt(c.Span, "seed random(n)", "give the seed points: seed [[...]]")
		case c.Outcome && (c.Measured.Kind == ir.GoBinding || c.Measured.Kind == ir.ExecBinding):
			notBuilt(c.Measured.Span, "a requirement measured by a binding of its own", "report it with the objectives: require "+c.Name+": reported ...")
		}
	}
	if len(p.InputNoise) > 0 {
		notBuilt(p.InputNoise[0].Span, "input noise", "optimise the objectives at the aimed points: leave the input noise out")
	}
	if !strings.HasSuffix(p.Model.Plugin, ".gp") {
		notBuilt(p.Model.Span, "model "+name(p.Model), "use model gp")
	}
	if p.Candidates != nil {
		notBuilt(p.Candidates.Span, "a candidates list", "search the domain instead")
	}
	if b.o.ReportedNoise() {
		notBuilt(p.ObsNoise.Span, "reported observation noise", "declare the noise (observation noise ~ normal(0, sd)) or learn it")
	}
	if p.Stop != nil {
		notBuilt(p.Stop.Span(), "stop when", "set the budget instead")
	}
	if sp, ok := registry.ByID(p.Search.Plugin); ok && !sp.UsesGradient {
		notBuilt(p.Search.Span, "search "+name(p.Search), "use search lbfgs")
	}
}

// modelsOutput reports whether kernel k is one an output's Gaussian
// process (runtime/kernel's families) evaluates, and otherwise reports at
// span that whose cannot take it, with hint.
func (b *builder) modelsOutput(k *ir.Call, whose string, span dsl.Span, hint string) bool {
	if p, ok := registry.ByID(k.Plugin); ok && p.Family != "" {
		return true
	}
	var families []string
	for _, id := range registry.Names(registry.Kernel) {
		if q, ok := registry.Lookup(registry.Kernel, id); ok && q.Family != "" {
			families = append(families, id)
		}
	}
	b.report(dsl.Errorf(span, "kernel %s cannot model %s: they take one of %s", name(k), whose, strings.Join(families, ", ")).
		WithHint("%s", hint))
	return false
}
