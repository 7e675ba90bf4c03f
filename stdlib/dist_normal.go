package stdlib

import (
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

func init() {
	registry.Register(distribution(normalEmit, "normal", "Gaussian N(mean, sd²) on one component", fixed(1),
		distParam("mean", registry.Real(0), nil, "mean"), distParam("sd", registry.Value{}, positive, "standard deviation")))
}

// normalEmit is the normal distribution's hooks.
var normalEmit = registry.DistributionEmit{
	Variance: func(a *registry.Args) float64 { return sq(a.Real("sd")) },
	Sample: func(a *registry.Args, rand jen.Code) jen.Code {
		return shifted(a.Real("mean"), jen.Lit(a.Real("sd")).Op("*").Add(rand).Dot("NormFloat64").Call())
	},
	BaseLen: one,
	Draw: func(g *registry.DrawGen) (stmts, elems []jen.Code) {
		z := quantile("Normal", g.Uniform(0))
		return nil, []jen.Code{param(g, "mean").plus(param(g, "sd").times(z)).expr()}
	},
	Moments: func(g *registry.DrawGen) (stmts, mean, cov []jen.Code) {
		sd := param(g, "sd")
		return nil, []jen.Code{param(g, "mean").expr()}, []jen.Code{sd.times(sd).expr()}
	},
	Gaussian: always(true),
}
