package stdlib

import (
	"math"

	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
	"gonum.org/v1/gonum/mat"
)

// runtimeNoise holds the quantile functions input-noise draws push their base
// uniforms through.
const runtimeNoise = "github.com/bocdev/boc/runtime/noise"

// distributionEmits holds the hooks of every distribution, keyed by name.
// Observation noise uses Variance and Sample, which only the one-dimensional
// distributions have: their variances are the textbook moments, and their
// samplers draw from the distribution as declared (mean and scale included).
// Input noise uses BaseLen, Draw, Moments and Gaussian, which all have.
var distributionEmits = map[string]registry.DistributionEmit{
	"normal": {
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
	},
	"uniform": {
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
	},
	"beta": {
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
	},
	"chi2": {
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
	},
	"circle": {
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
	},
	"mvnormal": {
		BaseLen: func(g *registry.DrawGen) int { return len(constNumbers(g, "mean")) },
		Draw: func(g *registry.DrawGen) (stmts, elems []jen.Code) {
			return gaussianDraw(g, constants(constNumbers(g, "mean")), 0)
		},
		Moments: func(g *registry.DrawGen) (stmts, mean, cov []jen.Code) {
			return nil, literals(constNumbers(g, "mean")), literals(constNumbers(g, "cov"))
		},
		Gaussian: always(true),
	},
	"gmm": {
		BaseLen: func(g *registry.DrawGen) int { return 1 + gmmDim(g) },
		Draw:    gmmDraw,
		Moments: func(g *registry.DrawGen) (stmts, mean, cov []jen.Code) {
			m, c := gmmMoments(constNumbers(g, "weights"), constNumbers(g, "means"), constNumbers(g, "cov"))
			return nil, literals(m), literals(c)
		},
		Gaussian: always(false),
	},
	"concat": {
		BaseLen: func(g *registry.DrawGen) int {
			n := 0
			for _, p := range distParts(g) {
				n += p.hooks.BaseLen(g.Sub(p.call, n))
			}
			return n
		},
		Draw: func(g *registry.DrawGen) (stmts, elems []jen.Code) {
			offset := 0
			for _, p := range distParts(g) {
				sub := g.Sub(p.call, offset)
				s, e := p.hooks.Draw(sub)
				stmts, elems = append(stmts, s...), append(elems, e...)
				offset += p.hooks.BaseLen(sub)
			}
			return stmts, elems
		},
		Moments: func(g *registry.DrawGen) (stmts, mean, cov []jen.Code) {
			var blocks []moments
			for _, p := range distParts(g) {
				s, m, c := p.hooks.Moments(g.Sub(p.call, 0))
				stmts = append(stmts, s...)
				blocks = append(blocks, moments{m, c})
			}
			mean, cov = blockDiagonal(blocks)
			return stmts, mean, cov
		},
		Gaussian: func(g *registry.DrawGen) bool {
			for _, p := range distParts(g) {
				if !p.hooks.Gaussian(g.Sub(p.call, 0)) {
					return false
				}
			}
			return true
		},
	},
	"iid": {
		BaseLen: func(g *registry.DrawGen) int {
			d, ok := iidPart(g)
			if !ok {
				return 0
			}
			return g.Int("n") * d.hooks.BaseLen(g.Sub(d.call, 0))
		},
		Draw: func(g *registry.DrawGen) (stmts, elems []jen.Code) {
			d, ok := iidPart(g)
			if !ok {
				return nil, nil
			}
			step := d.hooks.BaseLen(g.Sub(d.call, 0))
			for i := range g.Int("n") {
				s, e := d.hooks.Draw(g.Sub(d.call, i*step))
				stmts, elems = append(stmts, s...), append(elems, e...)
			}
			return stmts, elems
		},
		Moments: func(g *registry.DrawGen) (stmts, mean, cov []jen.Code) {
			d, ok := iidPart(g)
			if !ok {
				return nil, nil, nil
			}
			stmts, m, c := d.hooks.Moments(g.Sub(d.call, 0))
			blocks := make([]moments, g.Int("n"))
			for i := range blocks {
				blocks[i] = moments{m, c}
			}
			mean, cov = blockDiagonal(blocks)
			return stmts, mean, cov
		},
		Gaussian: func(g *registry.DrawGen) bool {
			d, ok := iidPart(g)
			return ok && d.hooks.Gaussian(g.Sub(d.call, 0))
		},
	},
}

// distuv is gonum's package of distributions, whose samplers take a
// math/rand/v2 source.
const distuv = "gonum.org/v1/gonum/stat/distuv"

// shifted is offset + draw, leaving out a zero offset.
func shifted(offset float64, draw *jen.Statement) jen.Code {
	if offset == 0 {
		return draw
	}
	return jen.Lit(offset).Op("+").Add(draw)
}

// scaled is factor·draw, leaving out a unit factor.
func scaled(factor float64, draw *jen.Statement) jen.Code {
	if factor == 1 {
		return draw
	}
	return jen.Lit(factor).Op("*").Add(draw)
}

func sq(x float64) float64 { return x * x }

// distributionEmit returns the Emit value of distribution name: its hooks,
// or nil when this version cannot emit it.
func distributionEmit(name string) any {
	if e, ok := distributionEmits[name]; ok {
		return e
	}
	return nil
}

func one(*registry.DrawGen) int { return 1 }

func always(gaussian bool) func(*registry.DrawGen) bool {
	return func(*registry.DrawGen) bool { return gaussian }
}

// quantile calls the runtime/noise quantile function fn, the
// reparameterisation of a draw from its base uniform.
func quantile(fn string, args ...jen.Code) term {
	return code(jen.Qual(runtimeNoise, fn).Call(args...))
}

// term is a float64 of emitted code that folds at compile time while it is a
// known constant, so that constant parameters give literals, not arithmetic
// the emitted program would redo on every draw.
type term struct {
	code  jen.Code // a primary expression; nil when the value is known
	value float64
}

func constant(v float64) term    { return term{value: v} }
func code(c jen.Code) term       { return term{code: c} }
func (t term) known() bool       { return t.code == nil }
func (t term) is(v float64) bool { return t.known() && t.value == v }

// expr is t as a primary expression: negative literals are parenthesised so
// that a caller may negate or subtract them.
func (t term) expr() jen.Code {
	switch {
	case !t.known():
		return t.code
	case t.value < 0 || math.Signbit(t.value):
		return jen.Parens(jen.Lit(t.value))
	}
	return jen.Lit(t.value)
}

func (t term) binary(op string, u term, fold func(x, y float64) float64) term {
	if t.known() && u.known() {
		return constant(fold(t.value, u.value))
	}
	return code(jen.Parens(jen.Add(t.expr()).Op(op).Add(u.expr())))
}

func (t term) plus(u term) term {
	switch {
	case t.is(0):
		return u
	case u.is(0):
		return t
	}
	return t.binary("+", u, func(x, y float64) float64 { return x + y })
}

func (t term) minus(u term) term {
	if u.is(0) {
		return t
	}
	return t.binary("-", u, func(x, y float64) float64 { return x - y })
}

func (t term) times(u term) term {
	switch {
	case t.is(1):
		return u
	case u.is(1):
		return t
	}
	return t.binary("*", u, func(x, y float64) float64 { return x * y })
}

func (t term) over(u term) term {
	if u.is(1) {
		return t
	}
	return t.binary("/", u, func(x, y float64) float64 { return x / y })
}

// param is the scalar parameter name: its constant value when it has one,
// otherwise its (possibly domain-dependent) expression.
func param(g *registry.DrawGen, name string) term {
	v := g.Param(name)
	switch {
	case v.Const != nil && len(v.Const.Numbers) == 1:
		return constant(v.Const.Numbers[0])
	case len(v.Elems) == 1:
		return code(v.Elems[0])
	}
	g.Real(name) // records that the parameter is not a scalar
	return constant(0)
}

// constNumbers is the constant vec or mat parameter name, row-major; the
// checker requires the vector and matrix parameters of distributions to be
// constant.
func constNumbers(g *registry.DrawGen, name string) []float64 {
	v, _ := g.Const(name)
	return v.Numbers
}

func constants(xs []float64) []term {
	out := make([]term, len(xs))
	for i, x := range xs {
		out[i] = constant(x)
	}
	return out
}

func literals(xs []float64) []jen.Code {
	out := make([]jen.Code, len(xs))
	for i, x := range xs {
		out[i] = constant(x).expr()
	}
	return out
}

// lowerCholesky returns the lower Cholesky factor of the n×n covariance cov,
// row-major, built from cov's lower triangle as the checker's factorisation
// is (checks.go). ok is false when cov has the wrong size, which only happens
// when reading it already recorded a problem in the call's Args. A covariance
// the checker accepted and this rejects would be a bug of boc, so that panics.
func lowerCholesky(cov []float64, n int) (l []float64, ok bool) {
	if n == 0 || len(cov) != n*n {
		return nil, false
	}
	sym := mat.NewSymDense(n, nil)
	for i := range n {
		for j := range i + 1 {
			sym.SetSym(i, j, cov[i*n+j])
		}
	}
	var chol mat.Cholesky
	if !chol.Factorize(sym) {
		panic("stdlib: a covariance the checker accepted is not positive definite")
	}
	var tri mat.TriDense
	chol.LTo(&tri)
	l = make([]float64, n*n)
	for i := range n {
		for j := range i + 1 {
			l[i*n+j] = tri.At(i, j)
		}
	}
	return l, true
}

// gaussianDraw draws N(mean, cov) for the call's constant "cov" as mean + L·z,
// with L the lower Cholesky factor and z_j = Φ⁻¹(u_{first+j}).
func gaussianDraw(g *registry.DrawGen, mean []term, first int) (stmts, elems []jen.Code) {
	n := len(mean)
	l, ok := lowerCholesky(constNumbers(g, "cov"), n)
	if !ok {
		return nil, nil
	}
	z := make([]term, n)
	for j := range z {
		name := g.Fresh("z")
		stmts = append(stmts, jen.Id(name).Op(":=").Add(quantile("Normal", g.Uniform(first+j)).expr()))
		z[j] = code(jen.Id(name))
	}
	elems = make([]jen.Code, n)
	for i := range elems {
		e := mean[i]
		for j := range i + 1 {
			if l[i*n+j] != 0 {
				e = e.plus(constant(l[i*n+j]).times(z[j]))
			}
		}
		elems[i] = e.expr()
	}
	return stmts, elems
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

// moments are the emitted mean and row-major covariance of one block.
type moments struct{ mean, cov []jen.Code }

// blockDiagonal joins the moments of independent blocks: the means in order,
// the covariances on the diagonal of a zero matrix.
func blockDiagonal(blocks []moments) (mean, cov []jen.Code) {
	for _, b := range blocks {
		mean = append(mean, b.mean...)
	}
	n := len(mean)
	zero := constant(0).expr()
	cov = make([]jen.Code, n*n)
	for i := range cov {
		cov[i] = zero
	}
	at := 0
	for _, b := range blocks {
		m := len(b.mean)
		for i := range m {
			for j := range m {
				cov[(at+i)*n+at+j] = b.cov[i*m+j]
			}
		}
		at += m
	}
	return mean, cov
}

// distPart is a nested distribution and its hooks.
type distPart struct {
	call  *ir.Call
	hooks registry.DistributionEmit
}

// distParts resolves concat's parts. A malformed argument (a bug of the
// checker or of this plugin's signature) is recorded in g's Args.
func distParts(g *registry.DrawGen) []distPart {
	values := partsArg(&g.Args)
	parts := make([]distPart, 0, len(values))
	for _, v := range values {
		if p, ok := nestedDist(g, v); ok {
			parts = append(parts, p)
		}
	}
	return parts
}

// iidPart resolves iid's repeated distribution.
func iidPart(g *registry.DrawGen) (distPart, bool) {
	if c := g.Nested("d"); c != nil {
		return nestedDist(g, c)
	}
	return distPart{}, false
}

// nestedDist resolves a distribution nested in g's call. A nested plugin
// without input-noise hooks is skipped: the code generator, which resolves
// every nested distribution with g.Sub, reports it.
func nestedDist(g *registry.DrawGen, v ir.Value) (distPart, bool) {
	c, ok := v.(*ir.Call)
	if !ok {
		g.Nested("parts") // records that the argument is malformed
		return distPart{}, false
	}
	h, ok := registry.DistributionHooks(c)
	if !ok || h.Draw == nil {
		return distPart{}, false
	}
	return distPart{c, h}, true
}
