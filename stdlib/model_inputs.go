package stdlib

import (
	"math"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

// inputModelRuntime are the runtime packages a model over input
// distributions calls: the GP and the kernels over distributions.
var inputModelRuntime = []string{runtimeGP, runtimeUncertain}

// modelKernel is a model's kernel parameter, with default def.
func modelKernel(def registry.Value) registry.Param {
	return registry.Param{Name: "kernel", Type: registry.KernelParam, Default: def, Doc: "covariance function over the inputs"}
}

// samplesParam is the number of draws that represent an input distribution.
var samplesParam = registry.Param{Name: "samples", Type: registry.IntParam, Default: registry.Int(100), Range: &registry.Range{Lo: 2, Hi: math.Inf(1)},
	Doc: "samples m drawn from each input distribution"}

// The models over input distributions. Each is the exact GP of runtime/gp
// whose kernel vectors hold a kernel between the points' input
// distributions, computed by runtime/uncertain from the representation the
// model chooses (registry.InputModel). Rules that span statements, such as
// that they need declared input noise, read the rest of the program in
// their Check hooks (registry.CheckContext.Program).

// runtimeUncertain is the import path of the kernels over distributions.
const runtimeUncertain = "github.com/bocdev/boc/runtime/uncertain"

func uncertainCall(name string, args ...jen.Code) *jen.Statement {
	return jen.Qual(runtimeUncertain, name).Call(args...)
}

// inputModel is the GP of runtime/gp over input distributions: spec says
// how they are represented, kernel gives the kernel between two
// representations.
func inputModel(spec func(a *registry.Args, gaussianNoise bool) registry.InputSpec, kernel func(g *registry.ModelGen) *registry.InputModel) registry.ModelHooks {
	return registry.ModelHooks{
		Spec: func(a *registry.Args, gaussianNoise bool) registry.ModelSpec {
			s := gpSpec(a, gaussianNoise)
			in := spec(a, gaussianNoise)
			s.Inputs = &in
			return s
		},
		Code: func(g *registry.ModelGen) registry.ModelCode {
			code := gpCode(g)
			code.Inputs = kernel(g)
			return code
		},
	}
}

// momentSpec represents input distributions by their mean and covariance.
func momentSpec(*registry.Args, bool) registry.InputSpec {
	return registry.InputSpec{Rep: registry.MomentRep}
}

// vStatistic is the mean of the kernel over all pairs of a point's samples,
// the norm² of their empirical embedding.
func vStatistic(ig *registry.InputGen) jen.Code {
	return uncertainCall("MeanKernel", ig.Base, ig.A.Samples, ig.A.Samples, jen.Lit(ig.D))
}

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
