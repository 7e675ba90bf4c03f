package stdlib

import (
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

func init() {
	registry.Register(distribution(betaEmit, "beta", "beta(a, b) times scale on one component (support [0, scale])", fixed(1),
		distParam("a", registry.Value{}, positive, "first shape"), distParam("b", registry.Value{}, positive, "second shape"), scaleParam))
}

// betaEmit is the beta distribution's hooks.
var betaEmit = registry.DistributionEmit{
	Variance: func(a *registry.Args) float64 {
		p, q := a.Real("a"), a.Real("b")
		return sq(a.Real("scale")) * p * q / (sq(p+q) * (p + q + 1))
	},
	Sample: func(a *registry.Args, rand jen.Code) jen.Code {
		return scaled(a.Real("scale"), jen.Qual(distuv, "Beta").Values(jen.Dict{
			jen.Id("Alpha"): jen.Lit(a.Real("a")), jen.Id("Beta"): jen.Lit(a.Real("b")), jen.Id("Src"): rand,
		}).Dot("Rand").Call())
	},
	BaseLen: one,
	Draw: func(g *registry.DrawGen) (stmts, elems []jen.Code) {
		x := quantile("Beta", param(g, "a").expr(), param(g, "b").expr(), g.Uniform(0))
		return nil, []jen.Code{param(g, "scale").times(x).expr()}
	},
	Moments: func(g *registry.DrawGen) (stmts, mean, cov []jen.Code) {
		a, b, scale := param(g, "a"), param(g, "b"), param(g, "scale")
		sum := a.plus(b)
		variance := scale.times(scale).times(a).times(b).over(sum.times(sum).times(sum.plus(constant(1))))
		return nil, []jen.Code{scale.times(a).over(sum).expr()}, []jen.Code{variance.expr()}
	},
	Gaussian: always(false),
}
