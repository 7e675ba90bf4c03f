package stdlib

import (
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

func init() {
	registry.Register(&registry.Plugin{Kind: registry.Model, Name: "ugp", UsesInputNoise: true,
		Doc: "uGP (Oliveira et al.): GP over input distributions with the integral kernel",
		Params: []registry.Param{modelKernel(registry.Call("se")), samplesParam,
			inflateParam("model", `"model" (the noise as declared or learned), or "inflate": add Prop. 3's σ_E² to it, uGP-UCB's σ_ν² = σ_E² + σ_ζ² (Thm 5; se kernel)`),
			rkhsBoundParam},
		Check: checkInputModel(false, checkInflation("model")), Emit: ugpEmit, Inflates: inflates, Runtime: inputModelRuntime})
}

// ugpEmit is Oliveira et al.'s integral kernel ∫∫ k dP dQ: in closed form
// (Eq. 80) when the kernel is se and the input noise Gaussian, by Monte Carlo
// over the samples otherwise. k̂(P, P) is then the mean over all pairs of
// P's samples (the V-statistic), which makes the Gram matrix that of the
// samples' empirical embeddings, positive semi-definite; the unbiased
// U-statistic can make it indefinite. The V-statistic exceeds it by
// (k(u, u) − Ê k(u, u'))/m, which acts as a small input-dependent noise.
var ugpEmit = withInflation(inputModel(ugpSpec, func(g *registry.ModelGen) *registry.InputModel {
	if g.Spec.Inputs.Rep == registry.MomentRep {
		return gaussianModel(func(ig *registry.InputGen, a, b registry.RepNames) jen.Code {
			return uncertainCall("IntegralSE", jen.Id("variance"), jen.Id("ls").Index(jen.Empty().Op(":")), a.Mean, a.Cov, b.Mean, b.Cov, ig.Work)
		}, false)
	}
	return &registry.InputModel{
		Stat: vStatistic,
		Self: func(ig *registry.InputGen) jen.Code { return ig.A.Stat },
		Pair: func(ig *registry.InputGen) jen.Code {
			return uncertainCall("MeanKernel", ig.Base, ig.A.Samples, ig.B.Samples, jen.Lit(ig.D))
		}}
}))

// ugpSpec represents input distributions by their moments when the integral
// kernel has a closed form (se kernel, Gaussian noise), by samples otherwise.
func ugpSpec(a *registry.Args, gaussianNoise bool) registry.InputSpec {
	if k := a.Nested("kernel"); k != nil && k.Plugin == "kernel.se" && gaussianNoise {
		return registry.InputSpec{Rep: registry.MomentRep}
	}
	return registry.InputSpec{Rep: registry.SampleRep, Samples: a.Int("samples")}
}
