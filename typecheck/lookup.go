package typecheck

import (
	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ast"
	"github.com/bocdev/boc/dsl/ir"
)

// A lookup table: a constant vector or matrix indexed by an int expression
// over integer dimensions (w[k], m[k - 1] with k in 1..3). The checker
// bounds the index's whole range and checks it against the length, so every
// lookup the optimiser makes is in range.

// lookup checks x[i] for an index i over the domain, checked already.
func (c *checker) lookup(e *ast.IndexExpr, x, i ir.Expr) ir.Expr {
	if isInvalid(x) {
		return invalid(e.Pos)
	}
	t := x.Type()
	elem, ok := c.elemType(e, t)
	if !ok {
		return invalid(e.Pos)
	}
	if it := i.Type(); it.Kind != dsl.Int {
		c.errorHint(e.Index.Span(), "index with an integer dimension, e.g. k in 0..2",
			"an index must be an int, got %s", it)
		return invalid(e.Pos)
	}
	if _, ok := constOf(x); !ok {
		c.errorHint(e.Pos, "index a let's constant vector or matrix, or use a constant index",
			"an index over the domain needs a constant %s to look up", t)
		return invalid(e.Pos)
	}
	lo, hi, ok := intRange(i)
	if !ok {
		c.errorHint(e.Index.Span(), "use an integer dimension, plus, minus or times a constant, e.g. w[k - 1]",
			"cannot bound the values of this index")
		return invalid(e.Pos)
	}
	if lo < 0 || hi >= float64(t.Rows) {
		c.errorHint(e.Index.Span(), "narrow the integer dimension's range or lengthen the table",
			"the index takes values %s to %s, out of range for %s (valid: 0 to %d)", fmtNum(lo), fmtNum(hi), t, t.Rows-1)
		return invalid(e.Pos)
	}
	return &ir.IndexExpr{At: e.Pos, X: x, Index: i, Typ: elem}
}

// intRange bounds an int expression over integer dimensions (valueRange).
func intRange(e ir.Expr) (lo, hi float64, ok bool) {
	if e.Type().Kind != dsl.Int {
		return 0, 0, false
	}
	return valueRange(e)
}
