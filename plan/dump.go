package plan

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
)

// choicesLine describes the categorical dimensions, "" without any:
// "catalyst 4 levels, solvent 3 levels; 12 combinations".
func choicesLine(p *ir.Program) string {
	var parts []string
	combinations := 1.0
	for _, d := range p.Dims {
		if d.Categorical() {
			parts = append(parts, fmt.Sprintf("%s %d levels", d.Name, len(d.Levels)))
			combinations *= float64(len(d.Levels))
		}
	}
	if parts == nil {
		return ""
	}
	return fmt.Sprintf("%s; %g combinations", strings.Join(parts, ", "), combinations)
}

// Fprint writes o in a stable, line-oriented form, for
// `boc check --dump plan` and golden tests.
func Fprint(w io.Writer, o *Optimizer) {
	p := o.Program
	fmt.Fprintf(w, "plan %s\n", p.Name)
	fmt.Fprintf(w, "model %s\n", modelLine(o))
	fmt.Fprintf(w, "acquisition %s\n", acquisitionLine(o))
	fmt.Fprintf(w, "features %s\n", strings.Join(features(o), " "))
	var linked []string
	for _, path := range o.Runtime() {
		linked = append(linked, strings.TrimPrefix(path, "github.com/bocdev/boc/"))
	}
	fmt.Fprintf(w, "links %s\n", strings.Join(linked, " "))
	if choices := choicesLine(p); choices != "" {
		fmt.Fprintf(w, "choices %s\n", choices)
	}
	fmt.Fprintf(w, "learned %d values (kernel %d, model %d)\n", o.Hyper.Size, o.Hyper.Kernel, o.Hyper.Size-o.Hyper.Kernel)
	for _, s := range o.Hyper.Slots {
		at := fmt.Sprint(s.Index)
		if s.Size > 1 {
			at = fmt.Sprintf("%d..%d", s.Index, s.Index+s.Size-1)
		}
		fmt.Fprintf(w, "  h[%s] %s.%s in [%g, %g] from %s%s\n", at, name(s.Call), s.Param, s.Lo, s.Hi, numbers(s.Init), position(s.Call))
	}
	if v := o.Hyper.ValueOnly; v != nil {
		fmt.Fprintf(w, "  kernel %s has no derivatives%s\n", name(v), position(v))
	}
	switch n := o.Noise; {
	case n == nil:
		fmt.Fprintln(w, "noise variance not learned")
	case n.Implied != "":
		fmt.Fprintf(w, "noise variance learned in [%g, %g] from %g, %s\n", n.Lo, n.Hi, n.Init, n.Implied)
	default:
		fmt.Fprintf(w, "noise variance learned in [%g, %g] from %g\n", n.Lo, n.Hi, n.Init)
	}
	fmt.Fprintf(w, "refit learns %d values\n", o.NumFit())
	if d := o.Draws; d != nil {
		fmt.Fprintf(w, "input noise drawn from %d base uniforms\n", d.BaseLen)
		for i, n := range p.InputNoise {
			fmt.Fprintf(w, "  %s from uniform %d%s\n", name(n.Dist), d.Offsets[i], position(n.Dist))
		}
	} else {
		fmt.Fprintln(w, "input noise not drawn")
	}
	if s := o.Safety; s != nil {
		fprintSafety(w, s)
	}
	for i, c := range o.Objectives {
		out := o.Program.Objective.Outputs[i]
		learned, noise := c.describe()
		sense := "minimize"
		if out.Maximize {
			sense = "maximize"
		}
		threshold := "reference inferred from the front"
		if !math.IsNaN(out.Threshold) {
			threshold = fmt.Sprintf("reference %g", out.Threshold)
		}
		mean := "the average"
		if c.WorstMean {
			mean = "its worst value observed"
		}
		fmt.Fprintf(w, "objective %s %s, %s: %s variance %g lengthscale %s alpha %g%s, learns %s with its refits, %s, prior mean %s\n",
			sense, c.Name, threshold, c.Family, c.Variance, numbers(c.Lengthscales), c.Alpha, position(c.Kernel), learned, noise, mean)
	}
	if len(o.Outcomes) > 0 {
		rule := "weight the acquisition's log score by the log probability of meeting them"
		switch {
		case o.Safety != nil:
			rule = "restrict the objective's choices among the certified points to those where they are more likely met than not"
		case !o.Acquisition.LogScore:
			rule = "restrict the search to the points where they are more likely met than not"
		}
		fmt.Fprintf(w, "requirements %s\n", rule)
	}
	for _, c := range o.Outcomes {
		cmp := comparison(c.Constraint)
		learned, noise := c.describe()
		fmt.Fprintf(w, "require %s %s %g with confidence %g: %s variance %g lengthscale %s alpha %g%s, learns %s with the objective's refits, %s\n",
			c.Constraint.Name, cmp, c.Constraint.Threshold, c.Constraint.Confidence, c.Family, c.Variance, numbers(c.Lengthscales), c.Alpha,
			position(c.Kernel), learned, noise)
	}
	fmt.Fprintf(w, "memory about %s\n", bytes(o.Memory))
}

// fprintSafety writes a safe acquisition's plan.
func fprintSafety(w io.Writer, s *Safety) {
	sp := s.Spec
	beta := "Theorem 1's β_t"
	if sp.Beta > 0 {
		beta = fmt.Sprintf("β = %g (fixed)", sp.Beta)
	}
	expanders := "GP-optimistic expanders"
	switch {
	case sp.Lipschitz > 0:
		expanders = fmt.Sprintf("Lipschitz expanders (L = %g)", sp.Lipschitz)
	case (sp.Method == "SafeOpt" || sp.Method == "StageOpt") && !s.expandsByCovariance():
		expanders = "Lipschitz expanders (each constraint's own bound)"
	}
	if sp.Accuracy > 0 {
		expanders += fmt.Sprintf(", the lower bound's safe maximiser once every maximiser and expander is within ε = %g", sp.Accuracy)
	}
	fmt.Fprintf(w, "safety %s, first phase %s (window %d, cap %d), δ = %g, %s, %s\n", sp.Method, sp.FirstPhase, sp.Window, sp.Cap, sp.Delta, beta, expanders)
	if s.Grid != nil {
		dims := make([]string, len(s.Grid))
		for i, m := range s.Grid {
			dims[i] = fmt.Sprint(m)
		}
		fmt.Fprintf(w, "  decision set: a grid of %s points and %d seeds (%d points)\n", strings.Join(dims, "×"), len(s.Seeds), s.Points)
	} else if s.Pool > 0 {
		fmt.Fprintf(w, "  decision set: a pool of %d points grown by certified local search from %d seeds\n", s.Pool, len(s.Seeds))
	} else {
		fmt.Fprintf(w, "  decision set: %d candidates, %d of them seeds\n", s.Points, len(s.Seeds))
	}
	switch {
	case s.DrawSeeds > 0:
		fmt.Fprintf(w, "  seeds: %d drawn among the truly safe candidates\n", s.DrawSeeds)
	case s.TrueSafeSet:
		fmt.Fprintln(w, "  safe set: the truly safe candidates (oracle)")
	}
	for _, c := range s.Constraints {
		cmp := comparison(c.Constraint)
		learned, noise := c.describe()
		landing := ""
		switch l := c.Constraint.Landing; {
		case l == nil:
		case l.Mode == "mean":
			landing = fmt.Sprintf(", certifies E[g(x + ε)] over %d landing points", s.LandingDraws)
		case l.Mode == "chance":
			landing = fmt.Sprintf(", certifies P(limit kept at x + ε) ≥ %g over %d landing points", 1-l.Alpha, s.LandingDraws)
		default:
			landing = ", certifies the aimed point only"
		}
		if c.Constraint.Lipschitz > 0 {
			landing += fmt.Sprintf(", certified by its readings and the Lipschitz bound %g, not by its Gaussian process", c.Constraint.Lipschitz)
		}
		fmt.Fprintf(w, "  constraint %s %s %g: %s variance %g lengthscale %s alpha %g%s, learns %s from the first phase, standardised %v, %s%s\n",
			c.Constraint.Name, cmp, c.Constraint.Threshold, c.Family, c.Variance, numbers(c.Lengthscales), c.Alpha, position(c.Kernel),
			learned, c.Standardise, noise, landing)
	}
}

// comparison is a measured constraint's, as the dump writes it.
func comparison(c *ir.Constraint) string {
	if c.AtLeast {
		return ">="
	}
	return "<="
}

// describe is what an output's model learns and its noise, as the dump
// writes them.
func (c OutputModel) describe() (learned, noise string) {
	var values []string
	for i, l := range c.Learned {
		if l {
			values = append(values, fmt.Sprintf("θ%d in [%g, %g]", i, c.Lower[i], c.Upper[i]))
		}
	}
	learned = "nothing"
	if len(values) > 0 {
		learned = strings.Join(values, ", ")
	}
	noise = fmt.Sprintf("noise variance %g", c.NoiseVariance)
	if c.NoiseVariance < 0 {
		noise = fmt.Sprintf("noise variance learned in [%g, %g]", c.NoiseLower, c.NoiseUpper)
	}
	return learned, noise
}

// modelLine describes the model: its kernel, and how it sees input noise.
func modelLine(o *Optimizer) string {
	if o.Program.Model == nil || o.Model.Kernel == nil {
		return "none"
	}
	s := name(o.Program.Model) + " with kernel " + name(o.Model.Kernel)
	switch o.Model.Warp {
	case "power":
		s += ", values warped by a power transform refitted with the hyperparameters"
	case "worse_tail":
		s += ", values warped by a power transform that compresses only the worse values, refitted with the hyperparameters"
	case "auto":
		s += ", values warped by a power transform where it gains, refitted with the hyperparameters"
	}
	if o.Model.Mean == registry.MeanWorst {
		s += ", prior mean the worst value observed"
	}
	if o.Local > 0 {
		s += fmt.Sprintf(", local: conditioned on %d of the observations once there are more", o.Local)
	}
	if in := o.Model.Inputs; in != nil {
		switch in.Rep {
		case registry.SampleRep:
			s += fmt.Sprintf(", input distributions as %d samples", in.Samples)
			if in.Landmarks > 0 {
				s += fmt.Sprintf(" (Nyström over %d landmarks)", in.Landmarks)
			}
		case registry.EmbeddingRep:
			s += fmt.Sprintf(", input distributions as embeddings of %d samples over %d shared landmarks", in.Samples, in.Landmarks)
		case registry.MomentRep:
			s += ", input distributions as their mean and covariance"
		}
		if in.Fresh {
			s += ", drawn afresh for every point"
		}
		if o.Samples() {
			sums := "pair by pair"
			if o.BlockKernel() {
				sums = "a row at a time (runtime/kernel.Block)"
			}
			s += ", base kernel summed " + sums
		}
	}
	if inf := o.Model.Inflation; inf != nil {
		s += fmt.Sprintf(", noise inflated by the input noise with B = %g", inf.Bound)
	}
	return s
}

// acquisitionLine describes the acquisition.
func acquisitionLine(o *Optimizer) string {
	if o.Program.Acquisition == nil {
		return "none"
	}
	s := name(o.Program.Acquisition)
	if o.Acquisition.Joint {
		s += ", under the joint posterior of candidate and incumbent"
	}
	switch {
	case o.Acquisition.LatentDraws > 0:
		s += fmt.Sprintf(", averaged over %d samples of the evaluated points' latent values", o.Acquisition.LatentDraws)
	case o.Acquisition.Lookahead:
		s += ", looking one observation ahead at the evaluated points"
	}
	if a := o.Acquisition.Arms; a > 0 {
		s += fmt.Sprintf(", a portfolio of %d arms drawn with η = %g", a, o.Acquisition.Eta)
	}
	if u := o.Acquisition.Unscented; u != nil {
		s += fmt.Sprintf(", averaged over the sigma points of the input noise with κ = %g", u.Kappa)
	}
	if o.Acquisition.Incumbent != registry.BestMean {
		s += "; improving on " + o.Acquisition.Incumbent.String()
	}
	switch {
	case o.Acquisition.Pareto != nil:
		s += fmt.Sprintf(", runtime/pareto's %s over %d objectives; pending points believed at their posterior means", o.Acquisition.Pareto.Method, len(o.Objectives))
	case o.Acquisition.Safe == nil:
		s += "; pending points " + o.Acquisition.Pending.String()
	}
	return s
}

// features lists the predicates code generation branches on that hold.
func features(o *Optimizer) []string {
	var out []string
	for _, f := range []struct {
		name string
		on   bool
	}{
		{"finite", o.Finite()}, {"explores", o.Explores()}, {"replicates", o.Replicates()},
		{"learning", o.Learning()}, {"gradient-search", o.GradientSearch()}, {"trust-region", o.TrustRegion()}, {"component-sweeps", o.SweptByComponent()}, {"difference-search", o.DifferenceSearch()},
		{"simulates-input-noise", o.SimulatesInputNoise()}, {"moments", o.EmitsMoments()}, {"localises", o.Localises()}, {"measures", o.Measures()},
		{"gaussian-input-noise", len(o.Program.InputNoise) > 0 && o.GaussianNoise}, {"reported-noise", o.ReportedNoise()},
		{"new-can-fail", o.NewCanFail()}, {"safe", o.Safety != nil}, {"local-model", o.Local > 0}, {"batched-search", o.BatchedSearch()},
	} {
		if f.on {
			out = append(out, f.name)
		}
	}
	if len(out) == 0 {
		return []string{"none"}
	}
	return out
}

// numbers renders xs as "0.3" or "[0.3, 0.4]".
func numbers(xs []float64) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprintf("%g", x)
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// position renders " @line:col" for a call from the source, "" for one the
// checker made from a default.
func position(c *ir.Call) string {
	if !c.Span.Start.IsValid() || c.Span.Start.Line == 0 {
		return " (default)"
	}
	return fmt.Sprintf(" @%d:%d", c.Span.Start.Line, c.Span.Start.Col)
}
