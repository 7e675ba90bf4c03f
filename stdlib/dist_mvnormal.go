package stdlib

import (
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

func init() {
	p := distribution(mvnormalEmit, "mvnormal", "multivariate Gaussian N(mean, cov)", vecLength(0),
		registry.Param{Name: "mean", Type: registry.VecParam, Doc: "mean vector"},
		registry.Param{Name: "cov", Type: registry.MatParam, Doc: "covariance, symmetric positive definite"})
	p.Check = checkMVNormal
	p.Example = "mvnormal([0, 0], [[0.01, 0.002], [0.002, 0.02]])" // the shapes of its arguments must agree
	registry.Register(p)
}

// mvnormalEmit is the mvnormal distribution's hooks.
var mvnormalEmit = registry.DistributionEmit{
	BaseLen: func(g *registry.DrawGen) int { return len(constNumbers(g, "mean")) },
	Draw: func(g *registry.DrawGen) (stmts, elems []jen.Code) {
		return gaussianDraw(g, constants(constNumbers(g, "mean")), 0)
	},
	Moments: func(g *registry.DrawGen) (stmts, mean, cov []jen.Code) {
		return nil, literals(constNumbers(g, "mean")), literals(constNumbers(g, "cov"))
	},
	Gaussian: always(true),
}

func checkMVNormal(ctx *registry.CheckContext) {
	_, mean := constArg(ctx.Call, "mean")
	n := -1
	if mean != nil {
		n = mean.Type.Rows
	}
	checkCovariance(ctx, "cov", n)
}
