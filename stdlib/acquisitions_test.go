package stdlib

import (
	"slices"
	"strings"
	"testing"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

func stringArg(name, v string) *ir.Arg {
	return &ir.Arg{Name: name, Value: &ir.ConstExpr{Value: dsl.Value{Type: dsl.StringType, Text: v}}}
}

// ucbCall is a ucb call with every argument, as the checker fills defaults:
// schedule and the arguments named in explicit are given, the others are
// defaults.
func ucbCall(schedule string, explicit ...string) *ir.Call {
	c := &ir.Call{Plugin: "acquisition.ucb", Args: []*ir.Arg{
		realArg("beta", 2.5), stringArg("schedule", schedule), realArg("delta", 0.05), realArg("rkhs_bound", 3),
	}}
	for _, a := range c.Args {
		a.Default = a.Name != "schedule" && !slices.Contains(explicit, a.Name)
	}
	return c
}

// renderOptional is render, or "" for nil.
func renderOptional(c jen.Code) string {
	if c == nil {
		return ""
	}
	return render(c)
}

// TestAcquisitionHooks checks the code each acquisition hook emits: the
// score the search maximises (log space for EI, PI and noisy EI), the
// gradient call, the conversion back to natural units, the per-suggestion
// setting of UCB's schedules (√β_t for Srinivas et al., β_t as it is for
// IGP-UCB) and whether the joint posterior with the incumbent is needed.
func TestAcquisitionHooks(t *testing.T) {
	tests := []struct {
		name                            string
		call                            *ir.Call
		score, gradient, value, setting string
		joint                           bool
	}{
		{"ucb fixed", ucbCall("fixed"), "acq.UCB(mean, sd, 2.5)", "acq.UCBGrad(mean, sd, 2.5)", "", "", false},
		{"ucb srinivas", ucbCall("srinivas"), "acq.UCB(mean, sd, setting)", "acq.UCBGrad(mean, sd, setting)", "",
			"acq.SrinivasWeight(t, 3, 0.05)", false},
		{"ucb igp", ucbCall("igp"), "acq.UCB(mean, sd, setting)", "acq.UCBGrad(mean, sd, setting)", "",
			"acq.IGPUCBBeta(model.InformationGain(), model.NoiseSD(), 3.0, 0.05)", false},
		{"ei", &ir.Call{Plugin: "acquisition.ei", Args: []*ir.Arg{realArg("xi", 0.01)}},
			"acq.LogEI(mean, sd, best, 0.01)", "acq.LogEIGrad(mean, sd, best, 0.01)", "math.Exp(score)", "", false},
		{"pi", &ir.Call{Plugin: "acquisition.pi", Args: []*ir.Arg{realArg("xi", 0)}},
			"acq.LogPI(mean, sd, best, 0.0)", "acq.LogPIGrad(mean, sd, best, 0.0)", "math.Exp(score)", "", false},
		{"ei_noisy", &ir.Call{Plugin: "acquisition.ei_noisy"},
			"acq.LogNoisyEI(mean, sd, best, bestSD, cov)", "acq.LogNoisyEIGrad(mean, sd, best, bestSD, cov)", "math.Exp(score)", "", true},
		{"pi_noisy", &ir.Call{Plugin: "acquisition.pi_noisy", Args: []*ir.Arg{realArg("xi", 0.5)}},
			"acq.LogNoisyPI(mean, sd, best, bestSD, cov, 0.5)", "acq.LogNoisyPIGrad(mean, sd, best, bestSD, cov, 0.5)", "math.Exp(score)", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, ok := registry.ByID(tt.call.Plugin)
			if !ok {
				t.Fatalf("no plugin %s", tt.call.Plugin)
			}
			g := &registry.AcquisitionGen{
				Args: registry.Args{Call: tt.call},
				Mean: jen.Id("mean"), SD: jen.Id("sd"), Best: jen.Id("best"), BestSD: jen.Id("bestSD"), Cov: jen.Id("cov"),
				Setting: jen.Id("setting"), T: jen.Id("t"), D: 3, Model: jen.Id("model"), Score: jen.Id("score"),
			}
			hooks := p.Emit.(registry.AcquisitionHooks)
			code := hooks.Code(g)
			if err := g.Err(); err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct{ what, got, want string }{
				{"score", renderOptional(code.Score), tt.score},
				{"gradient", renderOptional(code.Gradient), tt.gradient},
				{"value", renderOptional(code.Value), tt.value},
				{"setting", renderOptional(code.Setting), tt.setting},
			} {
				if c.got != c.want {
					t.Errorf("%s: %q, want %q", c.what, c.got, c.want)
				}
			}
			if spec := hooks.Spec(&g.Args); spec.Joint != tt.joint {
				t.Errorf("joint %v, want %v", spec.Joint, tt.joint)
			}
		})
	}
}

// TestUCBScheduleCheck: the schedule must be one of the three, with a hint
// for a misspelling, and arguments given explicitly that the schedule
// ignores are warned about; the hook records a schedule the check would
// reject.
func TestUCBScheduleCheck(t *testing.T) {
	p, _ := registry.ByID("acquisition.ucb")
	for _, tt := range []struct {
		schedule string
		explicit []string
		want     string
	}{
		{"fixed", []string{"beta"}, ""},
		{"srinivas", []string{"delta"}, ""},
		{"igp", []string{"delta", "rkhs_bound"}, ""},
		{"fixed", []string{"delta"}, `warning: delta is ignored with schedule "fixed"`},
		{"srinivas", []string{"beta", "rkhs_bound"},
			`warning: beta is ignored with schedule "srinivas"; warning: rkhs_bound is ignored with schedule "srinivas"`},
		{"igp", []string{"beta"}, `warning: beta is ignored with schedule "igp"`},
		{"srinivass", nil, `error: unknown UCB schedule "srinivass": want "fixed", "srinivas" or "igp" (did you mean "srinivas"?)`},
		{"gp-ucb", nil, `error: unknown UCB schedule "gp-ucb": want "fixed", "srinivas" or "igp"`},
	} {
		var got []string
		ctx := &registry.CheckContext{Call: ucbCall(tt.schedule, tt.explicit...), Dim: 2, Report: func(d dsl.Diagnostic) {
			msg := d.Severity.String() + ": " + d.Message
			if d.Hint != "" {
				msg += " (" + d.Hint + ")"
			}
			got = append(got, msg)
		}}
		p.Check(ctx)
		if strings.Join(got, "; ") != tt.want {
			t.Errorf("schedule %q with %v: reported %q, want %q", tt.schedule, tt.explicit, got, tt.want)
		}
		g := &registry.AcquisitionGen{Args: registry.Args{Call: ucbCall(tt.schedule)}, Mean: jen.Id("m"), SD: jen.Id("s"),
			Setting: jen.Id("w"), T: jen.Id("t"), Model: jen.Id("model"), Score: jen.Id("score")}
		p.Emit.(registry.AcquisitionHooks).Code(g)
		if wantErr := strings.HasPrefix(tt.want, "error"); (g.Err() != nil) != wantErr {
			t.Errorf("schedule %q: hook error %v", tt.schedule, g.Err())
		}
	}
}

// TestIncumbent: ei and pi improve on the best value observed by default and
// on the best posterior mean when told "mean"; another incumbent is refused,
// with a hint for a misspelling.
func TestIncumbent(t *testing.T) {
	for _, name := range []string{"ei", "pi"} {
		p, _ := registry.ByID("acquisition." + name)
		for _, tt := range []struct {
			incumbent string
			rule      registry.IncumbentRule
			want      string
		}{
			{"mean", registry.BestMean, ""},
			{"observed", registry.BestObserved, ""},
			{"observd", registry.BestObserved, `error: unknown incumbent "observd": want "observed" or "mean" (did you mean "observed"?)`},
		} {
			call := &ir.Call{Plugin: "acquisition." + name, Args: []*ir.Arg{realArg("xi", 0), stringArg("incumbent", tt.incumbent)}}
			var got []string
			p.Check(&registry.CheckContext{Call: call, Dim: 2, Report: func(d dsl.Diagnostic) {
				msg := d.Severity.String() + ": " + d.Message
				if d.Hint != "" {
					msg += " (" + d.Hint + ")"
				}
				got = append(got, msg)
			}})
			if strings.Join(got, "; ") != tt.want {
				t.Errorf("%s(incumbent = %q): reported %q, want %q", name, tt.incumbent, got, tt.want)
			}
			if tt.want != "" {
				continue
			}
			if spec := p.Emit.(registry.AcquisitionHooks).Spec(&registry.Args{Call: call}); spec.Incumbent != tt.rule {
				t.Errorf("%s(incumbent = %q): rule %v, want %v", name, tt.incumbent, spec.Incumbent, tt.rule)
			}
		}
		for _, param := range p.Params {
			if param.Name == "incumbent" && param.Default.Text != "observed" {
				t.Errorf("%s: incumbent defaults to %q, want the best value observed", name, param.Default.Text)
			}
		}
	}
}
