package stdlib

import (
	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

func init() {
	registry.Register(&registry.Plugin{Kind: registry.Acquisition, Name: "kg",
		Doc: "knowledge gradient (Scott, Frazier, Powell): the expected rise of the best posterior mean at an evaluated point " +
			"after one more noisy observation at the candidate; EI against the best posterior mean without noise",
		Runtime: []string{runtimeAcq}, Check: checkLookahead,
		Emit: registry.AcquisitionHooks{Code: kgEmit,
			Spec: func(*registry.Args) registry.AcquisitionSpec {
				return registry.AcquisitionSpec{Lookahead: true, LogScore: true}
			}}})
}

// kgEmit scores log KG (runtime/acq.LogKG).
var kgEmit registry.AcquisitionEmit = func(g *registry.AcquisitionGen) registry.AcquisitionCode {
	args := []jen.Code{g.Means, g.Covs, g.Mean, g.SD, g.Noise, g.Lines}
	return registry.AcquisitionCode{
		Score:    acqCall("LogKG", args...),
		Gradient: acqCall("LogKGGrad", append(args, g.DCovs)...),
		Value:    jen.Qual("math", "Exp").Call(g.Score),
	}
}

// checkLookahead is the Check hook of an acquisition that looks one
// observation ahead in the model's posterior over points: a model over
// input distributions has no such posterior at the evaluated points.
func checkLookahead(ctx *registry.CheckContext) {
	if !ctx.Complete {
		return
	}
	if p := ctx.Program; modelsInputNoise(p.Model) {
		ctx.Report(dsl.Errorf(ctx.Call.Span, "acquisition %s needs a model over points, not model %s", pluginName(ctx.Call), pluginName(p.Model)).
			WithHint("use it with model gp, or use ucb or ei with this model"))
	}
}
