package stdlib

import (
	"math"

	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

func init() {
	registry.Register(distribution(circleEmit, "circle", "uniform on the circle of the given radius in R²", fixed(2),
		distParam("radius", registry.Value{}, positive, "radius")))
}

// circleEmit is the circle distribution's hooks.
var circleEmit = registry.DistributionEmit{
	BaseLen: one,
	Draw: func(g *registry.DrawGen) (stmts, elems []jen.Code) {
		sin, cos := g.Fresh("sin"), g.Fresh("cos")
		angle := constant(2 * math.Pi).times(code(g.Uniform(0)))
		r := param(g, "radius")
		return []jen.Code{jen.List(jen.Id(sin), jen.Id(cos)).Op(":=").Qual("math", "Sincos").Call(angle.expr())},
			[]jen.Code{r.times(code(jen.Id(cos))).expr(), r.times(code(jen.Id(sin))).expr()}
	},
	Moments: func(g *registry.DrawGen) (stmts, mean, cov []jen.Code) {
		r := param(g, "radius")
		half := r.times(r).times(constant(0.5))
		zero := constant(0).expr()
		return nil, []jen.Code{zero, zero}, []jen.Code{half.expr(), zero, zero, half.expr()}
	},
	Gaussian: always(false),
}
