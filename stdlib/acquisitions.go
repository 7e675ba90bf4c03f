package stdlib

import (
	"slices"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

// UCB's exploration schedules, the values of its schedule parameter.
const (
	scheduleFixed    = "fixed"
	scheduleSrinivas = "srinivas"
	scheduleIGP      = "igp"
)

// ucbSchedules lists the schedules in the order messages name them.
var ucbSchedules = []string{scheduleFixed, scheduleSrinivas, scheduleIGP}

func init() {
	beta := registry.Param{Name: "beta", Type: registry.RealParam, Default: registry.Real(2), Range: nonNegative,
		Doc: "exploration weight β in μ + β σ (β multiplies σ directly, as in uGP-UCB and AIRBO)"}
	xi := registry.Param{Name: "xi", Type: registry.RealParam, Default: registry.Real(0), Range: nonNegative,
		Doc: "required improvement ξ, in the objective's units"}
	registry.Register(&registry.Plugin{Kind: registry.Acquisition, Name: "ucb",
		Doc: "upper confidence bound μ + w σ, with w = β fixed or following a schedule",
		Params: []registry.Param{
			withDoc(beta, `weight w = β of σ in μ + β σ with schedule "fixed" (β multiplies σ directly, as in uGP-UCB and AIRBO)`),
			{Name: "schedule", Type: registry.StringParam, Default: registry.String(scheduleFixed),
				Doc: `"fixed" (w = beta), "srinivas" (w = √β_t, β_t = 2 log(t^{d/2+2} π²/(3δ)), Srinivas et al.) or ` +
					`"igp" (w = B + σ_ν √(2(γ_{t−1} + 1 + ln(1/δ))), IGP-UCB, γ the information gain)`},
			{Name: "delta", Type: registry.RealParam, Default: registry.Real(0.1), Range: unit,
				Doc: `failure probability δ of the "srinivas" and "igp" schedules`},
			{Name: "rkhs_bound", Type: registry.RealParam, Default: registry.Real(1), Range: positive,
				Doc: `bound B on the RKHS norm of the standardised objective, for the "igp" schedule`},
		},
		Check: checkUCB, Emit: ucbEmit})
	registry.Register(&registry.Plugin{Kind: registry.Acquisition, Name: "ei",
		Doc: "expected improvement over the best posterior mean at an evaluated point", Params: []registry.Param{xi}, Emit: eiEmit})
	registry.Register(&registry.Plugin{Kind: registry.Acquisition, Name: "pi",
		Doc: "probability of improvement over the best posterior mean at an evaluated point", Params: []registry.Param{xi}, Emit: piEmit})
	registry.Register(&registry.Plugin{Kind: registry.Acquisition, Name: "ei_noisy",
		Doc:  "corrected noisy expected improvement (Zhou, Ma, Blaschko, Eq. 7) over the incumbent, under the joint posterior",
		Emit: eiNoisyEmit})
	registry.Register(&registry.Plugin{Kind: registry.Acquisition, Name: "uei", UsesInputNoise: true,
		Doc: "unscented expected improvement (Nogueira et al.): EI averaged over the sigma points of the input noise at the candidate",
		Params: []registry.Param{xi, {Name: "kappa", Type: registry.RealParam, Default: registry.Real(1), Range: nonNegative,
			Doc: "κ of the unscented transform: the centre's weight is κ/(d+κ), the 2d others' 1/(2(d+κ)), at ±√((d+κ)Σ)"}},
		Check: checkUnscented, Emit: ueiEmit})
	registry.Register(&registry.Plugin{Kind: registry.Acquisition, Name: "safe_ucb",
		Doc: "SGP-UCB: UCB restricted to the estimated safe set, after a safe exploration phase",
		Params: []registry.Param{beta,
			{Name: "delta", Type: registry.RealParam, Default: registry.Real(0.01), Range: unit, Doc: "failure probability δ"}}})
}

// withDoc returns p documented for one plugin's use of it.
func withDoc(p registry.Param, doc string) registry.Param {
	p.Doc = doc
	return p
}

// ucbScheduleParams are the parameters each UCB schedule uses.
var ucbScheduleParams = map[string][]string{
	scheduleFixed:    {"beta"},
	scheduleSrinivas: {"delta"},
	scheduleIGP:      {"delta", "rkhs_bound"},
}

// checkUCB reports a schedule that is not one of ucbSchedules, and warns
// about arguments given explicitly that the schedule ignores.
func checkUCB(ctx *registry.CheckContext) {
	a, v := constArg(ctx.Call, "schedule")
	if v == nil || v.Type.Kind != dsl.String {
		return
	}
	used, ok := ucbScheduleParams[v.Text]
	if !ok {
		d := dsl.Errorf(a.Span, "unknown UCB schedule %s: want %q, %q or %q", v, scheduleFixed, scheduleSrinivas, scheduleIGP)
		if hint := dsl.DidYouMean(v.Text, ucbSchedules); hint != "" {
			d = d.WithHint("%s", hint)
		}
		ctx.Report(d)
		return
	}
	for _, arg := range ctx.Call.Args {
		if !arg.Default && arg.Name != "schedule" && !slices.Contains(used, arg.Name) {
			ctx.Report(dsl.Warningf(arg.Span, "%s is ignored with schedule %s", arg.Name, v))
		}
	}
}

// Acquisition hooks. They call runtime/acq, which uses the same maximisation
// convention. EI, PI and corrected noisy EI are searched in log space, where
// they never underflow to a flat 0 (the maximiser is the same), and
// converted back with exp for `stop when acquisition < κ`.
var (
	ucbEmit registry.AcquisitionEmit = func(g *registry.AcquisitionGen) registry.AcquisitionCode {
		var weight, setting jen.Code
		switch g.Choice("schedule", ucbSchedules...) {
		case scheduleFixed:
			weight = jen.Lit(g.Real("beta"))
		case scheduleSrinivas:
			weight, setting = g.Setting, acqCall("SrinivasWeight", g.T, jen.Lit(g.D), jen.Lit(g.Real("delta")))
		case scheduleIGP:
			weight, setting = g.Setting, acqCall("IGPUCBBeta", jen.Add(g.Model).Dot("InformationGain").Call(),
				jen.Add(g.Model).Dot("NoiseSD").Call(), jen.Lit(g.Real("rkhs_bound")), jen.Lit(g.Real("delta")))
		}
		return registry.AcquisitionCode{
			Score:    acqCall("UCB", g.Mean, g.SD, weight),
			Gradient: acqCall("UCBGrad", g.Mean, g.SD, weight),
			Setting:  setting,
		}
	}
	eiEmit registry.AcquisitionEmit = func(g *registry.AcquisitionGen) registry.AcquisitionCode {
		return logSpace(g, "LogEI", false, g.Mean, g.SD, g.Best, jen.Lit(g.Real("xi")))
	}
	// ueiEmit is expected improvement per sigma point, averaged by the code
	// generator in log space (runtime/acq.LogWeightedSum).
	ueiEmit registry.AcquisitionEmit = func(g *registry.AcquisitionGen) registry.AcquisitionCode {
		code := logSpace(g, "LogEI", false, g.Mean, g.SD, g.Best, jen.Lit(g.Real("xi")))
		code.Unscented = &registry.Unscented{Kappa: g.Real("kappa")}
		return code
	}
	piEmit registry.AcquisitionEmit = func(g *registry.AcquisitionGen) registry.AcquisitionCode {
		return logSpace(g, "LogPI", false, g.Mean, g.SD, g.Best, jen.Lit(g.Real("xi")))
	}
	eiNoisyEmit registry.AcquisitionEmit = func(g *registry.AcquisitionGen) registry.AcquisitionCode {
		return logSpace(g, "LogNoisyEI", true, g.Mean, g.SD, g.Best, g.BestSD, g.Cov)
	}
)

// logSpace is the code of an acquisition whose score is its logarithm,
// runtime/acq's function name and name+"Grad" called with args.
func logSpace(g *registry.AcquisitionGen, name string, joint bool, args ...jen.Code) registry.AcquisitionCode {
	return registry.AcquisitionCode{
		Score:    acqCall(name, args...),
		Gradient: acqCall(name+"Grad", args...),
		Value:    jen.Qual("math", "Exp").Call(g.Score),
		Joint:    joint,
	}
}

// acqCall is a call of runtime/acq's function name.
func acqCall(name string, args ...jen.Code) jen.Code { return jen.Qual(runtimeAcq, name).Call(args...) }
