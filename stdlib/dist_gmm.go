package stdlib

import (
	"math"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

func init() {
	p := distribution(gmmEmit, "gmm", "mixture of Gaussians with shared covariance", matCols(1),
		registry.Param{Name: "weights", Type: registry.VecParam, Range: nonNegative, Doc: "mixture weights (sum to 1)"},
		registry.Param{Name: "means", Type: registry.MatParam, Doc: "one mean per row"},
		registry.Param{Name: "cov", Type: registry.MatParam, Doc: "shared covariance, symmetric positive definite"})
	p.Check = checkGMM
	p.Example = "gmm([0.3, 0.7], [[0, 0], [0.05, -0.05]], [[0.01, 0], [0, 0.01]])" // the shapes of its arguments must agree
	registry.Register(p)
}

// gmmEmit is the gmm distribution's hooks.
var gmmEmit = registry.DistributionEmit{
	BaseLen: func(g *registry.DrawGen) int { return 1 + gmmDim(g) },
	Draw:    gmmDraw,
	Moments: func(g *registry.DrawGen) (stmts, mean, cov []jen.Code) {
		m, c := gmmMoments(constNumbers(g, "weights"), constNumbers(g, "means"), constNumbers(g, "cov"))
		return nil, literals(m), literals(c)
	},
	Gaussian: always(false),
}

func checkGMM(ctx *registry.CheckContext) {
	wa, w := constArg(ctx.Call, "weights")
	ma, means := constArg(ctx.Call, "means")
	if w != nil {
		sum := 0.0
		for _, x := range w.Numbers {
			sum += x
		}
		if math.Abs(sum-1) > 1e-9 {
			ctx.Report(dsl.Errorf(wa.Span, "mixture weights sum to %g, not 1", sum))
		}
		if means != nil && means.Type.Rows != w.Type.Rows {
			ctx.Report(dsl.Errorf(ma.Span, "means has %d rows but there are %d weights", means.Type.Rows, w.Type.Rows).
				WithHint("give one mean per row, one row per mixture component"))
		}
	}
	n := -1
	if means != nil {
		n = means.Type.Cols
	}
	checkCovariance(ctx, "cov", n)
}

// gmmDim is the dimension of a gmm: the columns of its means.
func gmmDim(g *registry.DrawGen) int {
	v, _ := g.Const("means")
	return v.Type.Cols
}

// gmmDraw picks component k with the first base uniform, then draws
// N(means[k], cov) with the others. The weights and means are local arrays,
// which stay on the stack because noise.Pick does not retain its slice.
func gmmDraw(g *registry.DrawGen) (stmts, elems []jen.Code) {
	weights, means, n := constNumbers(g, "weights"), constNumbers(g, "means"), gmmDim(g)
	if n == 0 || len(means) != len(weights)*n {
		return nil, nil // reading them recorded the problem
	}
	rows := make([]jen.Code, len(weights))
	for k := range rows {
		rows[k] = jen.Values(literals(means[k*n : (k+1)*n])...)
	}
	w, mu, k := g.Fresh("weights"), g.Fresh("means"), g.Fresh("component")
	stmts = []jen.Code{
		jen.Id(w).Op(":=").Index(jen.Lit(len(weights))).Float64().Values(literals(weights)...),
		jen.Id(mu).Op(":=").Index(jen.Lit(len(weights))).Index(jen.Lit(n)).Float64().Values(rows...),
		jen.Id(k).Op(":=").Qual(runtimeNoise, "Pick").Call(jen.Id(w).Index(jen.Op(":")), g.Uniform(0)),
	}
	mean := make([]term, n)
	for i := range mean {
		mean[i] = code(jen.Id(mu).Index(jen.Id(k)).Index(jen.Lit(i)))
	}
	s, elems := gaussianDraw(g, mean, 1)
	return append(stmts, s...), elems
}

// gmmMoments returns the mean Σ w_k μ_k and the covariance
// Σ + Σ w_k (μ_k − m)(μ_k − m)ᵀ of a mixture with shared covariance (the
// law of total covariance; equal to Σ + Σ w_k μ_k μ_kᵀ − m mᵀ, without its
// cancellation).
func gmmMoments(weights, means, cov []float64) (mean, total []float64) {
	if len(weights) == 0 {
		return nil, nil
	}
	n := len(means) / len(weights)
	mean = make([]float64, n)
	for k, w := range weights {
		for i := range n {
			mean[i] += w * means[k*n+i]
		}
	}
	total = append([]float64(nil), cov...)
	for k, w := range weights {
		for i := range n {
			for j := range n {
				total[i*n+j] += w * (means[k*n+i] - mean[i]) * (means[k*n+j] - mean[j])
			}
		}
	}
	return mean, total
}
