package typecheck

import (
	"fmt"
	"math"

	"github.com/bocdev/boc/dsl"
)

// foldUnary computes -v or not v on a constant the checker already typed.
func foldUnary(op string, v dsl.Value) dsl.Value {
	if op == "not" {
		return dsl.Value{Type: dsl.BoolType, Truth: !v.Truth}
	}
	out := dsl.Value{Type: v.Type, Numbers: make([]float64, len(v.Numbers))}
	for i, x := range v.Numbers {
		out.Numbers[i] = -x
	}
	return out
}

func boolValue(b bool) dsl.Value { return dsl.Value{Type: dsl.BoolType, Truth: b} }

// foldBinary computes x op y on constants of result type typ, or says why the
// result has no value (division by zero, overflow, a root of a negative
// number).
func foldBinary(op string, x, y dsl.Value, typ dsl.Type) (dsl.Value, string) {
	switch op {
	case "and":
		return boolValue(x.Truth && y.Truth), ""
	case "or":
		return boolValue(x.Truth || y.Truth), ""
	case "==", "!=":
		equal := x.Float() == y.Float()
		switch x.Type.Kind {
		case dsl.Bool:
			equal = x.Truth == y.Truth
		case dsl.String:
			equal = x.Text == y.Text
		}
		return boolValue(equal == (op == "==")), ""
	case "<":
		return boolValue(x.Float() < y.Float()), ""
	case "<=":
		return boolValue(x.Float() <= y.Float()), ""
	case ">":
		return boolValue(x.Float() > y.Float()), ""
	case ">=":
		return boolValue(x.Float() >= y.Float()), ""
	}
	// Arithmetic: element-wise, a scalar (one number) broadcast.
	n := max(len(x.Numbers), len(y.Numbers))
	out := dsl.Value{Type: typ, Numbers: make([]float64, n)}
	for i := range out.Numbers {
		a, b := x.Numbers[i%len(x.Numbers)], y.Numbers[i%len(y.Numbers)]
		r, fault := arith(op, a, b)
		if fault != "" {
			return dsl.Value{}, fault
		}
		if typ.Kind == dsl.Int && math.Abs(r) > maxExactInt {
			return dsl.Value{}, fmt.Sprintf("%s %s %s overflows the int range (2^53)", operand(a), op, operand(b))
		}
		out.Numbers[i] = r
	}
	return out, ""
}

// arith computes a op b for one element.
func arith(op string, a, b float64) (float64, string) {
	var r float64
	switch op {
	case "+":
		r = a + b
	case "-":
		r = a - b
	case "*":
		r = a * b
	case "/":
		if b == 0 {
			return 0, "division by zero"
		}
		r = a / b
	case "^":
		r = math.Pow(a, b)
		if math.IsNaN(r) {
			return 0, fmt.Sprintf("%s ^ %s is not a real number", operand(a), operand(b))
		}
	}
	if math.IsInf(r, 0) || math.IsNaN(r) {
		return 0, fmt.Sprintf("%s %s %s is not a finite number", operand(a), op, operand(b))
	}
	return r, ""
}

// fmtNum renders a number as .bo source would.
func fmtNum(x float64) string { return dsl.RealValue(x).String() }

// operand renders a number as an operand in a message, negative ones in
// parentheses: (-8) ^ 0.5.
func operand(x float64) string {
	if x < 0 {
		return "(" + fmtNum(x) + ")"
	}
	return fmtNum(x)
}
