package stdlib

import (
	"slices"
	"strings"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

func init() {
	registry.Register(&registry.Plugin{Kind: registry.Model, Name: "gp",
		Doc: "exact Gaussian process on the target points; ignores input noise, or inflates the observation noise by it (IGP-UCB)",
		Params: []registry.Param{modelKernel(registry.Call("matern52")),
			inflateParam("ignore", `"ignore", or "inflate": IGP-UCB's GP, adding Oliveira et al.'s σ_E² = B²·ℓ_k²·tr Σ_x (Prop. 3) to each observation's noise (se kernel)`),
			rkhsBoundParam, warpParam, approxParam, localSizeParam, meanParam},
		Check: func(ctx *registry.CheckContext) {
			checkInflation("ignore")(ctx)
			checkInflates(ctx)
			checkWarp(ctx)
			checkMean(ctx)
			checkApprox(ctx)
		},
		Emit: gpModelEmit, Inflates: inflates, Runtime: []string{runtimeGP}})
}

// inflateParam is input_noise, whose values are other (the default) and
// "inflate"; doc says what they do.
func inflateParam(other, doc string) registry.Param {
	return registry.Param{Name: "input_noise", Type: registry.StringParam, Default: registry.String(other), Doc: doc}
}

// rkhsBoundParam is B of an inflating model.
var rkhsBoundParam = registry.Param{Name: "rkhs_bound", Type: registry.RealParam, Default: registry.Real(1), Range: positive,
	Doc: `B, a bound on the objective's RKHS norm (standardised), for "inflate"`}

// requireSE reports a kernel argument other than se; what says why the
// model needs it.
func requireSE(ctx *registry.CheckContext, what string) {
	a := ctx.Call.Arg("kernel")
	if a == nil {
		return
	}
	if c, ok := a.Value.(*ir.Call); ok && c.Plugin != "kernel.se" {
		_, model, _ := strings.Cut(ctx.Call.Plugin, ".")
		_, got, _ := strings.Cut(c.Plugin, ".")
		ctx.Report(dsl.Errorf(a.Span, "model %s %s for the se kernel only, got %s", model, what, got).
			WithHint("use kernel = se(lengthscale = learn), or model mmd for other kernels"))
	}
}

// checkInflation returns the Check hook of a model whose input_noise is
// other or "inflate": it reports any other value, a kernel other than se with
// "inflate", and an rkhs_bound given without it.
func checkInflation(other string) func(ctx *registry.CheckContext) {
	choices := []string{other, "inflate"}
	return func(ctx *registry.CheckContext) {
		a, v := constArg(ctx.Call, "input_noise")
		if v == nil || v.Type.Kind != dsl.String {
			return
		}
		switch v.Text {
		case "inflate":
			requireSE(ctx, `inflates the noise (input_noise = "inflate")`)
		case other:
			if b := ctx.Call.Arg("rkhs_bound"); b != nil && !b.Default {
				ctx.Report(dsl.Warningf(b.Span, `rkhs_bound is ignored unless input_noise = "inflate"`))
			}
		default:
			ctx.Report(unknownChoice(a, v, "input_noise", choices))
		}
	}
}

// inflates reports whether a model call inflates its noise by the input noise.
func inflates(c *ir.Call) bool {
	_, v := constArg(c, "input_noise")
	return v != nil && v.Type.Kind == dsl.String && v.Text == "inflate"
}

// withInflation is h, inflating the observation noise by the input noise
// when the model's input_noise is "inflate" (checkInflation has vetted it),
// with the se kernel's ℓ_k² = s²/min_i ℓ_i²: Oliveira et al.'s σ_E² (Prop. 3),
// which IGP-UCB (Thm 2) and uGP-UCB (Thm 5) add to the noise.
func withInflation(h registry.ModelHooks) registry.ModelHooks {
	return registry.ModelHooks{
		Spec: func(a *registry.Args, gaussianNoise bool) registry.ModelSpec {
			s := h.Spec(a, gaussianNoise)
			if inflates(a.Call) {
				s.Inflation = &registry.InflationSpec{Bound: a.Real("rkhs_bound")}
			}
			return s
		},
		Code: func(g *registry.ModelGen) registry.ModelCode {
			code := h.Code(g)
			if g.Spec.Inflation != nil {
				code.Curvature = seCurvature
			}
			return code
		},
	}
}

// seCurvature is the se kernel's ℓ_k² = s²/min_i ℓ_i².
func seCurvature(hyper func(string, int) registry.Hyper, d int) jen.Code {
	squares := make([]jen.Code, d)
	for i := range squares {
		l := hyper("lengthscale", i).Code
		squares[i] = jen.Add(l).Op("*").Add(l)
	}
	denominator := jen.Parens(squares[0])
	if d > 1 {
		denominator = jen.Min(squares...)
	}
	return jen.Parens(jen.Add(hyper("variance", 0).Code).Op("/").Add(denominator))
}

// gpModelEmit is the gp model: the GP on the target points, inflated when
// asked (IGP-UCB's baseline).
var gpModelEmit = withInflation(registry.ModelHooks{Spec: gpSpec, Code: gpCode})

// gpSpec is a GP on the target points with the model's kernel.
func gpSpec(a *registry.Args, _ bool) registry.ModelSpec {
	spec := registry.ModelSpec{Kernel: a.Nested("kernel"), Warp: a.Choice("warp", warpChoices...),
		Mean: a.Choice("mean", meanChoices...), Approx: a.Choice("approx", approxChoices...), LocalSize: a.Int("local_size")}
	if spec.Warp == "none" {
		spec.Warp = ""
	}
	return spec
}

// approxChoices are gp's approx values: the plan's rule, the exact GP over
// every observation, or the local one (registry.ModelSpec.Approx).
var approxChoices = []string{registry.ApproxAuto, registry.ApproxExact, registry.ApproxLocal}

// approxParam and localSizeParam choose gp's form at large n.
var (
	approxParam = registry.Param{Name: "approx", Type: registry.StringParam, Default: registry.String(registry.ApproxAuto),
		Doc: `"exact": condition on every observation; "local": once there are more than local_size, on local_size of them: half nearest the best point (the trust region's centre under turbo), a quarter the latest, a quarter spread over the domain, so that the cost per evaluation stays flat; "auto": local where the budget exceeds 1000 and the optimiser supports it`}
	localSizeParam = registry.Param{Name: "local_size", Type: registry.IntParam, Default: registry.Int(256), Range: &registry.Range{Lo: 16, Hi: 4096},
		Doc: `the number of observations a local model is conditioned on`}
)

// checkApprox reports an approx other than its choices, and a local_size
// given to a model that is never local.
func checkApprox(ctx *registry.CheckContext) {
	a, v := constArg(ctx.Call, "approx")
	if v == nil || v.Type.Kind != dsl.String {
		return
	}
	if !slices.Contains(approxChoices, v.Text) {
		ctx.Report(unknownChoice(a, v, "approx", approxChoices))
		return
	}
	if b := ctx.Call.Arg("local_size"); v.Text == registry.ApproxExact && b != nil && !b.Default {
		ctx.Report(dsl.Warningf(b.Span, `local_size is ignored with approx = "exact"`))
	}
}

// warpChoices are gp's warp values (registry.ModelSpec.Warp, "none" for "").
var warpChoices = []string{"none", "power", "worse_tail", "auto"}

// warpParam is gp's output warping.
var warpParam = registry.Param{Name: "warp", Type: registry.StringParam, Default: registry.String("none"),
	Doc: `"none", "power": model Yeo-Johnson's power transform of the values, fitted by maximum likelihood with the hyperparameters (heavy-tailed objectives), "worse_tail": the same transform kept to compressing the worse values' tail, never the better's, or "auto": the power transform only where it raises the values' log-likelihood by more than warp.AutoGain`}

// checkWarp reports a warp other than its choices.
func checkWarp(ctx *registry.CheckContext) {
	a, v := constArg(ctx.Call, "warp")
	if v == nil || v.Type.Kind != dsl.String || slices.Contains(warpChoices, v.Text) {
		return
	}
	d := unknownChoice(a, v, "warp", warpChoices)
	if d.Hint == "" {
		d = d.WithHint(`warp = "power" learns a power transform of the values`)
	}
	ctx.Report(d)
}

// meanChoices are gp's mean values (registry.ModelSpec.Mean).
var meanChoices = []string{registry.MeanAuto, registry.MeanAverage, registry.MeanWorst}

// meanParam is gp's constant prior mean.
var meanParam = registry.Param{Name: "mean", Type: registry.StringParam, Default: registry.String(registry.MeanAuto),
	Doc: `the constant prior mean, which the model returns to far from the data: "average", the values' mean; "worst", the worst value observed, ` +
		`so that the acquisition expects the worst where nothing is known and explores less (De Ath et al. 2020); ` +
		`"auto": "worst" for the objectives of a problem with several, "average" otherwise`}

// checkMean reports a mean that is not one of meanChoices.
func checkMean(ctx *registry.CheckContext) {
	if a, v := constArg(ctx.Call, "mean"); v != nil && v.Type.Kind == dsl.String && !slices.Contains(meanChoices, v.Text) {
		ctx.Report(unknownChoice(a, v, "mean", meanChoices))
	}
}

// gpCode holds the exact GP of runtime/gp.
func gpCode(g *registry.ModelGen) registry.ModelCode {
	return registry.ModelCode{
		Type: jen.Op("*").Qual(runtimeGP, "GP"),
		New:  jen.Qual(runtimeGP, "New").Call(g.Capacity),
	}
}

// checkInflates reports a model that inflates its noise by input noise that
// is not declared.
func checkInflates(ctx *registry.CheckContext) {
	if ctx.Complete && inflates(ctx.Call) && len(ctx.Program.InputNoise) == 0 {
		ctx.Report(dsl.Errorf(ctx.Call.Span, "model %s inflates its noise by the input noise, but none is declared", pluginName(ctx.Call)).
			WithHint(inputNoiseExample))
	}
}
