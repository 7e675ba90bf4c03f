package stdlib

import (
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

func init() {
	registry.Register(&registry.Plugin{Kind: registry.Model, Name: "erbf", UsesInputNoise: true,
		Doc:    "expected RBF kernel baseline; assumes Gaussian input noise",
		Params: []registry.Param{modelKernel(registry.Call("se"))}, Check: checkInputModel(true, checkSEKernel), Emit: erbfEmit, Runtime: inputModelRuntime})
	registry.Register(&registry.Plugin{Kind: registry.Model, Name: "skl", UsesInputNoise: true,
		Doc:    "symmetric-KL kernel baseline; assumes Gaussian input noise",
		Params: []registry.Param{modelKernel(registry.Call("se"))}, Check: checkInputModel(true, checkSEKernel), Emit: sklEmit, Runtime: inputModelRuntime})
}

// erbfEmit is the expected RBF kernel: the integral kernel between the
// Gaussians matching the input noise's moments, with the kernel's variance
// for a point with itself (the expectation of k(x̃, x̃)).
var erbfEmit = inputModel(momentSpec, func(*registry.ModelGen) *registry.InputModel {
	return gaussianModel(func(ig *registry.InputGen, a, b registry.RepNames) jen.Code {
		return uncertainCall("IntegralSE", jen.Id("variance"), jen.Id("ls").Index(jen.Empty().Op(":")), a.Mean, a.Cov, b.Mean, b.Cov, ig.Work)
	}, true)
})

// sklEmit is the symmetric-KL kernel between the Gaussians matching the input
// noise's moments (runtime/uncertain.SymmetricKLSE).
var sklEmit = inputModel(momentSpec, func(*registry.ModelGen) *registry.InputModel {
	return gaussianModel(func(ig *registry.InputGen, a, b registry.RepNames) jen.Code {
		return uncertainCall("SymmetricKLSE", jen.Id("variance"), jen.Id("ls").Index(jen.Empty().Op(":")), a.Mean, a.Cov, b.Mean, b.Cov, ig.Work)
	}, true)
})

// gaussianModel is a model over the input noise's first two moments with an
// se kernel: pair(g, a, b) is its kernel, over the locals ls (the
// lengthscales) and variance; selfIsVariance makes k̂(P, P) the kernel's
// variance instead of pair(P, P).
func gaussianModel(pair func(ig *registry.InputGen, a, b registry.RepNames) jen.Code, selfIsVariance bool) *registry.InputModel {
	m := &registry.InputModel{
		Prelude: func(ig *registry.InputGen) []jen.Code {
			ls := make([]jen.Code, ig.D)
			for i := range ls {
				ls[i] = ig.Hyper(ig.Kernel, "lengthscale", i).Code
			}
			return []jen.Code{
				jen.Id("ls").Op(":=").Index(jen.Lit(ig.D)).Float64().Values(ls...),
				jen.Id("variance").Op(":=").Add(ig.Hyper(ig.Kernel, "variance", 0).Code),
			}
		},
		Pair: func(ig *registry.InputGen) jen.Code { return pair(ig, ig.A, ig.B) },
		Self: func(ig *registry.InputGen) jen.Code { return pair(ig, ig.A, ig.A) },
	}
	if selfIsVariance {
		m.Self = func(*registry.InputGen) jen.Code { return jen.Id("variance") }
	}
	return m
}

// checkSEKernel reports a model whose closed forms need the se kernel but
// that was given another.
func checkSEKernel(ctx *registry.CheckContext) {
	requireSE(ctx, "has closed forms")
}
