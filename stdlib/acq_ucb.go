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
	registry.Register(&registry.Plugin{Kind: registry.Acquisition, Name: "ucb",
		Doc: "upper confidence bound μ + w σ, with w = β fixed or following a schedule",
		Params: []registry.Param{
			withDoc(betaParam, `weight w = β of σ in μ + β σ with schedule "fixed" (β multiplies σ directly, as in uGP-UCB and AIRBO)`),
			{Name: "schedule", Type: registry.StringParam, Default: registry.String(scheduleFixed),
				Doc: `"fixed" (w = beta), "srinivas" (w = √β_t, β_t = 2 log(t^{d/2+2} π²/(3δ)), Srinivas et al.) or ` +
					`"igp" (w = B + σ_ν √(2(γ_{t−1} + 1 + ln(1/δ))), IGP-UCB, γ the information gain)`},
			{Name: "delta", Type: registry.RealParam, Default: registry.Real(0.1), Range: unit,
				Doc: `failure probability δ of the "srinivas" and "igp" schedules`},
			{Name: "rkhs_bound", Type: registry.RealParam, Default: registry.Real(1), Range: positive,
				Doc: `bound B on the RKHS norm of the standardised objective, for the "igp" schedule`},
		},
		Check: checkUCB, Runtime: []string{runtimeAcq},
		Emit: registry.AcquisitionHooks{Code: ucbEmit,
			Spec: func(*registry.Args) registry.AcquisitionSpec {
				return registry.AcquisitionSpec{Pending: registry.Hallucinate} // optimistic in σ
			}}})
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
		ctx.Report(unknownChoice(a, v, "UCB schedule", ucbSchedules))
		return
	}
	for _, arg := range ctx.Call.Args {
		if !arg.Default && arg.Name != "schedule" && !slices.Contains(used, arg.Name) {
			ctx.Report(dsl.Warningf(arg.Span, "%s is ignored with schedule %s", arg.Name, v))
		}
	}
}

var ucbEmit registry.AcquisitionEmit = func(g *registry.AcquisitionGen) registry.AcquisitionCode {
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
