package stdlib

import (
	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
)

// Rules that span statements: a plugin's Check hook reads the rest of the
// program (registry.CheckContext.Program) once every statement checked.

// inputNoiseExample is the hint of every rule that asks for input noise.
const inputNoiseExample = "declare it, e.g. input noise x ~ normal(0, 0.05)"

// checkInputModel is the Check hook of a model over input distributions: it
// needs declared input noise, and a model that assumes Gaussian noise warns
// when it is not.
func checkInputModel(gaussianOnly bool, local func(*registry.CheckContext)) func(*registry.CheckContext) {
	return func(ctx *registry.CheckContext) {
		if local != nil {
			local(ctx)
		}
		if !ctx.Complete {
			return
		}
		name := pluginName(ctx.Call)
		p := ctx.Program
		if len(p.InputNoise) == 0 {
			ctx.Report(dsl.Errorf(ctx.Call.Span, "model %s models input noise, but none is declared", name).
				WithHint(inputNoiseExample + ", or use model gp"))
			return
		}
		if gaussianOnly && !registry.GaussianInputNoise(p) {
			ctx.Report(dsl.Warningf(ctx.Call.Span, "model %s assumes Gaussian input noise: the declared noise is replaced by the Gaussian with its mean and covariance", name).
				WithHint("model mmd or ugp use the noise as declared"))
		}
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

// pluginName is the name a plugin has in .bo source: "mmd" for "model.mmd".
func pluginName(c *ir.Call) string {
	p, ok := registry.ByID(c.Plugin)
	if !ok {
		return c.Plugin
	}
	return p.Name
}
