package stdlib

import (
	"math"

	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
	"gonum.org/v1/gonum/mat"
)

// runtimeNoise holds the quantile functions input-noise draws push their base
// uniforms through.
const runtimeNoise = "github.com/bocdev/boc/runtime/noise"

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
