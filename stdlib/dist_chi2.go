package stdlib

import (
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

func init() {
	registry.Register(distribution(chi2Emit, "chi2", "chi-squared with df degrees of freedom, times scale", fixed(1),
		distParam("df", registry.Value{}, positive, "degrees of freedom"), scaleParam))
}

// chi2Emit is the chi2 distribution's hooks.
var chi2Emit = registry.DistributionEmit{
	Variance: func(a *registry.Args) float64 { return sq(a.Real("scale")) * 2 * a.Real("df") },
	Sample: func(a *registry.Args, rand jen.Code) jen.Code {
		return scaled(a.Real("scale"), jen.Qual(distuv, "ChiSquared").Values(jen.Dict{
			jen.Id("K"): jen.Lit(a.Real("df")), jen.Id("Src"): rand,
		}).Dot("Rand").Call())
	},
	BaseLen: one,
	Draw: func(g *registry.DrawGen) (stmts, elems []jen.Code) {
		x := quantile("Chi2", param(g, "df").expr(), g.Uniform(0))
		return nil, []jen.Code{param(g, "scale").times(x).expr()}
	},
	Moments: func(g *registry.DrawGen) (stmts, mean, cov []jen.Code) {
		df, scale := param(g, "df"), param(g, "scale")
		variance := constant(2).times(scale).times(scale).times(df)
		return nil, []jen.Code{scale.times(df).expr()}, []jen.Code{variance.expr()}
	},
	Gaussian: always(false),
}
