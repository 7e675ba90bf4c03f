package stdlib

import (
	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

func init() {
	p := distribution(uniformEmit, "uniform", "uniform on [lo, hi] on one component", fixed(1),
		distParam("lo", registry.Value{}, nil, "lower end"), distParam("hi", registry.Value{}, nil, "upper end"))
	p.Check = checkUniform
	registry.Register(p)
}

// uniformEmit is the uniform distribution's hooks.
var uniformEmit = registry.DistributionEmit{
	Variance: func(a *registry.Args) float64 { return sq(a.Real("hi")-a.Real("lo")) / 12 },
	Sample: func(a *registry.Args, rand jen.Code) jen.Code {
		lo := a.Real("lo")
		return shifted(lo, jen.Lit(a.Real("hi")-lo).Op("*").Add(rand).Dot("Float64").Call())
	},
	BaseLen: one,
	Draw: func(g *registry.DrawGen) (stmts, elems []jen.Code) {
		lo := param(g, "lo")
		return nil, []jen.Code{lo.plus(param(g, "hi").minus(lo).times(code(g.Uniform(0)))).expr()}
	},
	Moments: func(g *registry.DrawGen) (stmts, mean, cov []jen.Code) {
		lo, hi := param(g, "lo"), param(g, "hi")
		width := hi.minus(lo)
		return nil, []jen.Code{lo.plus(hi).times(constant(0.5)).expr()}, []jen.Code{width.times(width).over(constant(12)).expr()}
	},
	Gaussian: always(false),
}

func checkUniform(ctx *registry.CheckContext) {
	_, lo := constArg(ctx.Call, "lo")
	ha, hi := constArg(ctx.Call, "hi")
	if lo != nil && hi != nil && !(lo.Float() < hi.Float()) {
		ctx.Report(dsl.Errorf(ha.Span, "uniform needs lo < hi, got lo = %g, hi = %g", lo.Float(), hi.Float()))
	}
}
