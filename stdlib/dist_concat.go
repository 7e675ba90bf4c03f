package stdlib

import (
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

func init() {
	registry.Register(distribution(concatEmit, "concat", "independent blocks: the product of the given distributions", concatDim,
		registry.Param{Name: "parts", Type: registry.DistParam, Variadic: true, Doc: "the blocks, in component order"}))
}

// concatEmit is the concat distribution's hooks.
var concatEmit = registry.DistributionEmit{
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
