package stdlib

import (
	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

func init() {
	registry.Register(&registry.Plugin{Kind: registry.Acquisition, Name: "uei", UsesInputNoise: true,
		Doc: "unscented expected improvement (Nogueira et al.): EI averaged over the sigma points of the input noise at the candidate",
		Params: []registry.Param{xiParam, {Name: "kappa", Type: registry.RealParam, Default: registry.Real(1), Range: nonNegative,
			Doc: "κ of the unscented transform: the centre's weight is κ/(d+κ), the 2d others' 1/(2(d+κ)), at ±√((d+κ)Σ)"}},
		Runtime: []string{runtimeAcq},
		Check:   checkUnscented, Emit: registry.AcquisitionHooks{Code: ueiEmit,
			Spec: func(a *registry.Args) registry.AcquisitionSpec {
				return registry.AcquisitionSpec{Unscented: &registry.Unscented{Kappa: a.Real("kappa")}}
			}}})
}

// ueiEmit is expected improvement per sigma point, averaged by the code
// generator in log space (runtime/acq.LogWeightedSum).
var ueiEmit registry.AcquisitionEmit = func(g *registry.AcquisitionGen) registry.AcquisitionCode {
	return logSpace(g, "LogEI", g.Mean, g.SD, g.Best, jen.Lit(g.Real("xi")))
}

// checkUnscented is the Check hook of an acquisition averaged over the sigma
// points of the input noise (uei): it needs input noise, a point model (a
// model over input distributions accounts for the noise already) and a
// gradient search.
func checkUnscented(ctx *registry.CheckContext) {
	if !ctx.Complete {
		return
	}
	p, name := ctx.Program, pluginName(ctx.Call)
	switch {
	case len(p.InputNoise) == 0:
		ctx.Report(dsl.Errorf(ctx.Call.Span, "acquisition %s averages over the input noise, but none is declared", name).
			WithHint(inputNoiseExample))
		return
	case modelsInputNoise(p.Model):
		ctx.Report(dsl.Errorf(ctx.Call.Span, "acquisition %s averages over the input noise, which model %s already models", name, pluginName(p.Model)).
			WithHint("use it with model gp, or use ucb or ei with this model"))
		return
	case !usesGradient(p.Search):
		ctx.Report(dsl.Errorf(ctx.Call.Span, "acquisition %s needs a gradient search", name).
			WithHint("remove the search statement or use search lbfgs"))
		return
	}
	if !registry.GaussianInputNoise(p) {
		ctx.Report(dsl.Warningf(ctx.Call.Span, "acquisition %s uses the input noise's mean and covariance only: its sigma points describe a Gaussian", name))
	}
}

// modelsInputNoise reports whether model m is a model over input
// distributions.
func modelsInputNoise(m *ir.Call) bool {
	p, ok := registry.ByID(m.Plugin)
	return ok && p.UsesInputNoise
}

// usesGradient reports whether search s maximises with the acquisition's
// gradient.
func usesGradient(s *ir.Call) bool {
	p, ok := registry.ByID(s.Plugin)
	return ok && p.UsesGradient
}
