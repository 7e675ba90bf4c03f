package stdlib

import (
	"fmt"
	"slices"
	"strings"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
)

// Safe acquisitions keep every evaluation inside the set of points certified
// safe for every unknown safety constraint (MATH.md §6). They choose among
// a finite set of points (the candidates, or what the plan makes of a
// continuous domain: a grid, or a pool grown by certified local search)
// with runtime/safe's Explorer, so their hooks describe it and emit no
// score. Their β follows the papers' convention: intervals are μ ± √β σ.

// SGP-UCB's first phases, the values of safe_ucb's phase1.
const (
	phase1Random      = "random"
	phase1Uncertainty = "uncertainty"
	phase1None        = "none"
)

var phase1Choices = []string{phase1Random, phase1Uncertainty, phase1None}

var (
	safeDelta = registry.Param{Name: "delta", Type: registry.RealParam, Default: registry.Real(0.01), Range: unit,
		Doc: "failure probability δ of Theorem 1's β_t = 2 log(2|D| t² π² / (6δ))"}
	safeBeta = registry.Param{Name: "beta", Type: registry.RealParam, Default: registry.Real(0), Range: nonNegative,
		Doc: "0 follows Theorem 1's β_t; a positive β fixes it (intervals μ ± √β σ: β multiplies the variance) and voids the guarantee"}
	safeWindow = registry.Param{Name: "window", Type: registry.IntParam, Default: registry.Int(20), Range: atLeastOne,
		Doc: "the first phase ends once the safe set has not grown for this many rounds"}
	safeCap = registry.Param{Name: "cap", Type: registry.IntParam, Default: registry.Int(0), Range: nonNegative,
		Doc: "the first phase ends after this many rounds at most; 0: a quarter of the budget, at most 100"}
	safeLipschitz = registry.Param{Name: "lipschitz", Type: registry.RealParam, Default: registry.Real(0), Range: nonNegative,
		Doc: "0 finds expanders by the GP-optimistic rule of Sui et al.; a positive L by the Lipschitz rule u(x) − L·d(x, x′) ≥ h (units of each constraint per unit of the unit-cube distance)"}
)

func init() {
	registry.Register(&registry.Plugin{Kind: registry.Acquisition, Name: "safe_ucb", Safe: true,
		Doc: "SGP-UCB (Amani et al.): explore the seed points until the safe set stops growing, then UCB over the certified safe set",
		Params: []registry.Param{safeDelta, safeBeta,
			{Name: "phase1", Type: registry.StringParam, Default: registry.String(phase1Random),
				Doc: `how the first phase plays the seeds: "random" (§4), "uncertainty" (the least certain seed, App. G) or "none" (naive SGP-UCB: each seed once)`},
			safeWindow, safeCap},
		Runtime: []string{runtimeSafe}, Check: checkSafe,
		Emit: registry.AcquisitionHooks{Spec: func(a *registry.Args) registry.AcquisitionSpec {
			first := map[string]string{phase1Random: "RandomSeeds", phase1Uncertainty: "UncertainSeeds", phase1None: "NoFirstPhase"}
			return registry.AcquisitionSpec{Safe: &registry.SafeSpec{Method: "SGPUCB", FirstPhase: first[a.Choice("phase1", phase1Choices...)],
				Window: a.Int("window"), Cap: a.Int("cap"), Delta: a.Real("delta"), Beta: a.Real("beta")}}
		}}})
	registry.Register(&registry.Plugin{Kind: registry.Acquisition, Name: "safeopt", Safe: true,
		Doc: "SafeOpt (Sui et al. 2015): the widest interval among the safe set's possible maximisers and expanders; with epsilon, the safe maximiser of the objective's lower bound once they are all that narrow",
		Params: []registry.Param{safeDelta, safeBeta, safeLipschitz,
			{Name: "epsilon", Type: registry.RealParam, Default: registry.Real(0), Range: nonNegative,
				Doc: "the accuracy ε of Sui et al.'s Theorem 1, in the objective's units: once every possible maximiser and expander has intervals no wider than ε, play the safe maximiser of the objective's lower bound (SafeOpt-MC after t*, as the SGP-UCB paper ran it); 0 explores to the end"}},
		Runtime: []string{runtimeSafe}, Check: checkSafe,
		Emit: registry.AcquisitionHooks{Spec: func(a *registry.Args) registry.AcquisitionSpec {
			return registry.AcquisitionSpec{Safe: &registry.SafeSpec{Method: "SafeOpt", FirstPhase: "NoFirstPhase",
				Window: 1, Cap: 1, Delta: a.Real("delta"), Beta: a.Real("beta"), Lipschitz: a.Real("lipschitz"), Accuracy: a.Real("epsilon")}}
		}}})
	registry.Register(&registry.Plugin{Kind: registry.Acquisition, Name: "oracle_ucb", Safe: true,
		Doc:     "for studies: GP-UCB over the true safe set, known from the simulated constraints (the SGP-UCB paper's oracle)",
		Params:  []registry.Param{safeDelta, safeBeta},
		Runtime: []string{runtimeSafe}, Check: checkBaseline(true),
		Emit: registry.AcquisitionHooks{Spec: func(a *registry.Args) registry.AcquisitionSpec {
			return registry.AcquisitionSpec{Safe: &registry.SafeSpec{Method: "Oracle", FirstPhase: "NoFirstPhase",
				Window: 1, Cap: 1, Delta: a.Real("delta"), Beta: a.Real("beta")}}
		}}})
	registry.Register(&registry.Plugin{Kind: registry.Acquisition, Name: "unsafe_ucb", Safe: true,
		Doc:     "for studies: GP-UCB over every point, ignoring the unknown constraints (what safety costs)",
		Params:  []registry.Param{safeDelta, safeBeta},
		Runtime: []string{runtimeSafe}, Check: checkBaseline(false),
		Emit: registry.AcquisitionHooks{Spec: func(a *registry.Args) registry.AcquisitionSpec {
			return registry.AcquisitionSpec{Safe: &registry.SafeSpec{Method: "Unsafe", FirstPhase: "NoFirstPhase",
				Window: 1, Cap: 1, Delta: a.Real("delta"), Beta: a.Real("beta")}}
		}}})
	registry.Register(&registry.Plugin{Kind: registry.Acquisition, Name: "stageopt", Safe: true,
		Doc:     "StageOpt (Sui et al. 2018): expand the safe set until it stops growing, then UCB over it",
		Params:  []registry.Param{safeDelta, safeBeta, safeLipschitz, safeWindow, safeCap},
		Runtime: []string{runtimeSafe}, Check: checkSafe,
		Emit: registry.AcquisitionHooks{Spec: func(a *registry.Args) registry.AcquisitionSpec {
			return registry.AcquisitionSpec{Safe: &registry.SafeSpec{Method: "StageOpt", FirstPhase: "NoFirstPhase",
				Window: a.Int("window"), Cap: a.Int("cap"), Delta: a.Real("delta"), Beta: a.Real("beta"), Lipschitz: a.Real("lipschitz")}}
		}}})
}

// runtimeSafe is the import path of the safe-exploration runtime.
const runtimeSafe = "github.com/bocdev/boc/runtime/safe"

// checkSafe is the Check hook of the safe acquisitions: their own
// arguments, and what they need of the rest of the program.
func checkSafe(ctx *registry.CheckContext) {
	name := pluginName(ctx.Call)
	if a, v := constArg(ctx.Call, "phase1"); v != nil && v.Type.Kind == dsl.String && !slices.Contains(phase1Choices, v.Text) {
		ctx.Report(unknownChoice(a, v, "first phase", phase1Choices))
	}
	if a, v := constArg(ctx.Call, "beta"); v != nil && !a.Default && v.Float() > 0 {
		ctx.Report(dsl.Warningf(a.Span, "a fixed beta voids Theorem 1's guarantee that every evaluation is safe with probability 1 − δ").
			WithHint("leave beta out to follow Theorem 1's β_t"))
	}
	if _, w := constArg(ctx.Call, "window"); w != nil {
		if a, c := constArg(ctx.Call, "cap"); c != nil && c.Float() > 0 && w.Float() > c.Float() {
			ctx.Report(dsl.Errorf(a.Span, "cap %s is below window %s: the first phase would always end at the cap", c, w))
		}
	}
	if !ctx.Complete {
		return
	}
	unknown := checkProgram(ctx)
	if unknown == nil || !checkRandomSeeds(ctx, unknown) {
		return
	}
	p := ctx.Program
	for _, c := range unknown {
		if !checkLipschitz(ctx, c) {
			return
		}
		if c.Landing.OffAim() && name != "safe_ucb" {
			ctx.Report(dsl.Errorf(c.Landing.Span, "constraint %s: landing %s with acquisition %s is not supported in this version of boc", c.Name, c.Landing.Mode, name).
				WithHint("use acquisition safe_ucb"))
			return
		}
		if len(c.Seeds) == 0 && c.RandomSeeds == 0 {
			ctx.Report(dsl.Errorf(c.Span, "constraint %s has no seed points, and acquisition %s starts from known-safe points", c.Name, name).
				WithHint("add the points known to be safe: constraint %s: ... { seed [[...]] }", c.Name))
			return
		}
	}
	if unknown[0].RandomSeeds == 0 && len(p.Seeds()) == 0 {
		ctx.Report(dsl.Errorf(unknown[len(unknown)-1].Span, "no seed point is known safe for every constraint").
			WithHint("a seed is a point every constraint lists in its seed option"))
	}
}

// checkBaseline is the Check hook of the studies' baselines: the oracle
// needs the truth of every constraint; neither needs seeds.
func checkBaseline(oracle bool) func(*registry.CheckContext) {
	return func(ctx *registry.CheckContext) {
		if !ctx.Complete {
			return
		}
		unknown := checkProgram(ctx)
		if unknown == nil || !checkRandomSeeds(ctx, unknown) || !oracle {
			return
		}
		for _, c := range unknown {
			if c.Measured.Kind != ir.ExprBinding {
				ctx.Report(dsl.Errorf(c.Span, "acquisition %s plays the true safe set, but constraint %s is measured, not simulated", pluginName(ctx.Call), c.Name).
					WithHint("simulate it for a study: constraint %s: simulated EXPR ...", c.Name))
				return
			}
		}
		if ctx.Program.Candidates == nil {
			ctx.Report(dsl.Errorf(ctx.Call.Span, "acquisition %s plays the true safe set of a finite decision set: give candidates", pluginName(ctx.Call)))
		}
	}
}

// stopsOnAcquisition is the first use of the name acquisition in stop
// condition e, or nil.
func stopsOnAcquisition(e ir.Expr) ir.Expr {
	var use ir.Expr
	ir.Inspect(e, func(x ir.Expr) {
		if n, ok := x.(*ir.NameExpr); ok && n.Name == "acquisition" && use == nil {
			use = n
		}
	})
	return use
}

// checkRandomSeeds checks `seed random(n)`: every constraint simulated,
// with the same n, and candidates to draw from. It reports whether the
// seeds are usable.
func checkRandomSeeds(ctx *registry.CheckContext, unknown []*ir.Constraint) bool {
	n := unknown[0].RandomSeeds
	for _, c := range unknown {
		if c.RandomSeeds != n {
			ctx.Report(dsl.Errorf(c.Span, "seed random(n) draws the seeds of every constraint at once: all must give it, with the same n").
				WithHint("give every constraint seed random(n = %d)", max(n, c.RandomSeeds)))
			return false
		}
	}
	if n > 0 && ctx.Program.Candidates == nil {
		ctx.Report(dsl.Errorf(unknown[0].Span, "seed random(n) draws the seeds among the candidates: give candidates").
			WithHint("e.g. candidates uniform_ball(n = 100, radius = 1)"))
		return false
	}
	if n > 0 && n > len(ctx.Program.Candidates.Points) {
		ctx.Report(dsl.Errorf(unknown[0].Span, "seed random(n = %d) asks for more seeds than the %d candidates", n, len(ctx.Program.Candidates.Points)))
		return false
	}
	return true
}

// checkProgram checks what every acquisition over unknown constraints
// needs of the program, and returns its unknown constraints, or nil after
// reporting why there are none.
func checkProgram(ctx *registry.CheckContext) []*ir.Constraint {
	p, name := ctx.Program, pluginName(ctx.Call)
	var unknown []*ir.Constraint
	for _, c := range p.Constraints {
		if c.Safety() {
			unknown = append(unknown, c)
		}
	}
	if len(unknown) == 0 {
		ctx.Report(dsl.Errorf(ctx.Call.Span, "acquisition %s keeps to unknown safety constraints, but none is declared", name).
			WithHint("declare one, e.g. constraint temperature: reported <= 80 { seed [[...]] }, or use ucb"))
		return nil
	}
	if p.Init.Span.Start.IsValid() {
		ctx.Report(dsl.Errorf(p.Init.Span, "acquisition %s evaluates the seed points first: an initial design could leave the safe set", name).
			WithHint("remove the init statement"))
	}
	if p.Search.Span.Start.IsValid() {
		ctx.Report(dsl.Warningf(p.Search.Span, "acquisition %s chooses among a finite set of points: the search is not used", name))
	}
	switch {
	case stopsOnAcquisition(p.Stop) != nil:
		ctx.Report(dsl.Errorf(stopsOnAcquisition(p.Stop).Span(), "acquisition %s has no value for a stop condition to use", name).
			WithHint("stop on best and evaluations, e.g. stop when best <= 1.2"))
	case p.ObsNoise.Kind == ir.ObsNoiseReported:
		ctx.Report(dsl.Errorf(p.ObsNoise.Span, "reported observation noise with a safe acquisition is not supported in this version of boc").
			WithHint("declare the noise (observation noise ~ normal(0, sd)) or learn it"))
	}
	for _, c := range unknown {
		checkConstraintKernel(ctx, c)
		checkReported(ctx, c)
	}
	if p.Candidates != nil {
		for _, c := range unknown {
			for i, s := range c.Seeds {
				if !containsPoint(p.Candidates.Points, s) {
					ctx.Report(dsl.Errorf(c.Span, "seed point %d of constraint %s, %s, is not one of the candidates", i, c.Name, formatPoint(s)).
						WithHint("a safe acquisition chooses among the candidates: seeds must be candidates"))
					break
				}
			}
		}
	}
	return unknown
}

// checkReported reports a constraint the objective's evaluation should
// report but cannot: an expression objective has only its own value. (The
// type checker holds a Go objective to returning a field for each.)
func checkReported(ctx *registry.CheckContext, c *ir.Constraint) {
	if c.Measured.Kind != ir.ExternalBinding {
		return
	}
	if ctx.Program.Objective.Binding.Kind == ir.ExprBinding {
		ctx.Report(dsl.Errorf(c.Measured.Span, "constraint %s is reported by the objective, but an expression objective measures only its own value", c.Name).
			WithHint("compute the constraint from the domain with simulated EXPR, e.g. constraint %s: simulated x + y <= 1", c.Name))
	}
}

// checkConstraintKernel reports a constraint kernel, or a model kernel a
// constraint defaults to, that its Gaussian process cannot evaluate.
func checkConstraintKernel(ctx *registry.CheckContext, c *ir.Constraint) {
	k, own := c.Kernel, c.Kernel != nil
	if !own {
		if a := ctx.Program.Model.Arg("kernel"); a != nil {
			k, _ = a.Value.(*ir.Call)
		}
		if k == nil {
			ctx.Report(dsl.Errorf(c.Span, "constraint %s needs a kernel: model %s has none to lend it", c.Name, pluginName(ctx.Program.Model)).
				WithHint("give one: constraint %s: ... { kernel matern52 }", c.Name))
			return
		}
	}
	p, ok := registry.ByID(k.Plugin)
	if ok && p.Family != "" {
		warnLearnedLengthscale(ctx, c, k, own)
		return
	}
	var families []string
	for _, id := range registry.Names(registry.Kernel) {
		if q, ok := registry.Lookup(registry.Kernel, id); ok && q.Family != "" {
			families = append(families, id)
		}
	}
	d := dsl.Errorf(k.Span, "kernel %s cannot model safety constraint %s: its Gaussian process takes one of %s", pluginName(k), c.Name, strings.Join(families, ", "))
	if !own {
		d = dsl.Errorf(c.Span, "constraint %s takes the model's kernel %s, which cannot model a safety constraint", c.Name, pluginName(k)).
			WithHint("give it one of %s: constraint %s: ... { kernel matern52 }", strings.Join(families, ", "), c.Name)
	}
	ctx.Report(d)
}

// checkLipschitz checks what a constraint whose safety rests on a Lipschitz
// bound needs, and reports whether it has it.
func checkLipschitz(ctx *registry.CheckContext, c *ir.Constraint) bool {
	if c.Lipschitz == 0 {
		return true
	}
	p := ctx.Program
	switch {
	case c.Landing.OffAim():
		ctx.Report(dsl.Errorf(c.LipschitzSpan, "constraint %s: lipschitz certifies the aimed point, and landing %s asks for more", c.Name, c.Landing.Mode).
			WithHint("use landing aim, or leave out lipschitz"))
		return false
	case c.Noise == nil && p.ObsNoise.Kind != ir.ObsNoiseDist && !(p.ObsNoise.Kind == ir.ObsNoiseNone && c.Measured.Kind == ir.ExprBinding):
		ctx.Report(dsl.Errorf(c.LipschitzSpan, "constraint %s: lipschitz certifies from each reading less three noise sds, so the noise must be declared, not learned", c.Name).
			WithHint("declare it: constraint %s: ... { noise ~ normal(0, 0.1) }", c.Name))
		return false
	}
	return true
}

// warnLearnedLengthscale warns that constraint c's kernel k learns its
// lengthscale: from the first phase's seed readings alone, which cannot say
// how far the constraint keeps their values.
func warnLearnedLengthscale(ctx *registry.CheckContext, c *ir.Constraint, k *ir.Call, own bool) {
	a := k.Arg("lengthscale")
	if a == nil || c.Lipschitz > 0 {
		return
	}
	if _, learned := a.Value.(*ir.Learn); !learned {
		return
	}
	span := c.Span
	if own && !a.Default {
		span = a.Span
	}
	ctx.Report(dsl.Warningf(span, "safety constraint %s learns its kernel's lengthscale from the seed readings alone, which cannot say how far the constraint keeps their values", c.Name).
		WithHint("boc caps it at the spread of the points read, widening it as they spread, and corrects it when a measurement contradicts it; "+
			"a lengthscale known from earlier experiments is safer and grows the safe set faster: constraint %s: ... { kernel matern52(lengthscale = 0.2) }", c.Name))
}

func containsPoint(points [][]float64, p []float64) bool {
	return slices.ContainsFunc(points, func(q []float64) bool { return slices.Equal(q, p) })
}

func formatPoint(p []float64) string {
	parts := make([]string, len(p))
	for i, x := range p {
		parts[i] = fmt.Sprint(x)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
