package typecheck

import (
	"math"
	"strings"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
)

// valueRange bounds a scalar expression over the domain by interval
// arithmetic: constants, scalar dimensions and components of vector ones,
// negation, + - * /, powers, if-then-else and the monotone functions. The
// bounds hold wherever the expression is defined, though they may be wider
// than its true range; ok is false for what it cannot bound.
func valueRange(e ir.Expr) (lo, hi float64, ok bool) {
	switch e := e.(type) {
	case *ir.ConstExpr:
		if k := e.Value.Type.Kind; (k == dsl.Int || k == dsl.Real) && len(e.Value.Numbers) == 1 {
			return e.Value.Float(), e.Value.Float(), true
		}
	case *ir.VarExpr:
		if !e.Dim.Vector {
			return e.Dim.Lo, e.Dim.Hi, true
		}
	case *ir.IndexExpr:
		if v, isVar := e.X.(*ir.VarExpr); isVar && v.Dim.Vector {
			return v.Dim.Lo, v.Dim.Hi, true
		}
	case *ir.UnaryExpr:
		if l, h, ok := valueRange(e.X); ok && e.Op == "-" {
			return -h, -l, true
		}
	case *ir.CondExpr:
		tl, th, tok := valueRange(e.Then)
		el, eh, eok := valueRange(e.Else)
		if tok && eok {
			return math.Min(tl, el), math.Max(th, eh), true
		}
	case *ir.BinaryExpr:
		return binaryRange(e)
	case *ir.CallExpr:
		if len(e.Args) == 1 {
			if l, h, ok := valueRange(e.Args[0]); ok {
				return callRange(strings.TrimPrefix(e.Plugin, "function."), l, h)
			}
		}
	}
	return 0, 0, false
}

// binaryRange bounds x OP y.
func binaryRange(e *ir.BinaryExpr) (lo, hi float64, ok bool) {
	xl, xh, xok := valueRange(e.X)
	yl, yh, yok := valueRange(e.Y)
	if !xok || !yok {
		return 0, 0, false
	}
	switch e.Op {
	case "+":
		return xl + yl, xh + yh, true
	case "-":
		return xl - yh, xh - yl, true
	case "*":
		return hull(xl*yl, xl*yh, xh*yl, xh*yh)
	case "/":
		if yl > 0 || yh < 0 {
			return hull(xl/yl, xl/yh, xh/yl, xh/yh)
		}
	case "^":
		if yl == yh && yl == math.Trunc(yl) && yl >= 0 { // x^n
			n := yl
			if math.Mod(n, 2) == 1 || xl >= 0 {
				return hull(math.Pow(xl, n), math.Pow(xh, n))
			}
			if xh <= 0 {
				return hull(math.Pow(xl, n), math.Pow(xh, n))
			}
			return 0, math.Max(math.Pow(xl, n), math.Pow(xh, n)), true
		}
		if xl > 0 { // a positive base: monotone in each argument
			return hull(math.Pow(xl, yl), math.Pow(xl, yh), math.Pow(xh, yl), math.Pow(xh, yh))
		}
	}
	return 0, 0, false
}

// callRange bounds a one-argument function over [l, h].
func callRange(name string, l, h float64) (lo, hi float64, ok bool) {
	switch name {
	case "exp":
		return math.Exp(l), math.Exp(h), true
	case "sqrt":
		if l >= 0 {
			return math.Sqrt(l), math.Sqrt(h), true
		}
	case "log":
		if l > 0 {
			return math.Log(l), math.Log(h), true
		}
	case "abs":
		switch {
		case l >= 0:
			return l, h, true
		case h <= 0:
			return -h, -l, true
		}
		return 0, math.Max(-l, h), true
	}
	return 0, 0, false
}

// hull is the smallest interval holding xs; ok is false when one is NaN.
func hull(xs ...float64) (lo, hi float64, ok bool) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, x := range xs {
		if math.IsNaN(x) {
			return 0, 0, false
		}
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	return lo, hi, true
}
