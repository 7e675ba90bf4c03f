package stdlib

import (
	"fmt"
	"math"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

func init() {
	fn := func(name, doc string, result func([]registry.Operand) (dsl.Type, error)) {
		registry.Register(&registry.Plugin{Kind: registry.Function, Name: name, Doc: doc, Result: result, Fold: folds[name],
			Emit: functionEmit(name)})
	}
	for _, name := range []string{"sin", "cos", "tan", "exp", "log", "sqrt", "abs", "floor", "ceil"} {
		fn(name, name+" of a real", scalar(name))
	}
	fn("min", "smallest of its real arguments, or of a vector's elements", extremum("min"))
	fn("max", "largest of its real arguments, or of a vector's elements", extremum("max"))
	fn("sum", "sum of a vector's elements", vectorToReal("sum", 1))
	fn("norm", "Euclidean norm of a vector", vectorToReal("norm", 1))
	fn("dot", "dot product of two vectors of equal length", vectorToReal("dot", 2))
	fn("zeros", "zeros(n): the vector of n zeros", constantVec("zeros"))
	fn("ones", "ones(n): the vector of n ones", constantVec("ones"))
	fn("eye", "eye(n): the n×n identity matrix", constantVec("eye"))
}

func arity(name string, ops []registry.Operand, n int) error {
	if len(ops) != n {
		return fmt.Errorf("%s takes %d argument(s), got %d", name, n, len(ops))
	}
	return nil
}

func scalar(name string) func([]registry.Operand) (dsl.Type, error) {
	return func(ops []registry.Operand) (dsl.Type, error) {
		if err := arity(name, ops, 1); err != nil {
			return dsl.Type{}, err
		}
		if !ops[0].Type.IsNumeric() {
			return dsl.Type{}, fmt.Errorf("%s takes a real, got %s", name, ops[0].Type)
		}
		return dsl.RealType, nil
	}
}

func extremum(name string) func([]registry.Operand) (dsl.Type, error) {
	return func(ops []registry.Operand) (dsl.Type, error) {
		if len(ops) == 1 && ops[0].Type.Kind == dsl.Vec {
			return dsl.RealType, nil
		}
		if len(ops) < 2 {
			return dsl.Type{}, fmt.Errorf("%s takes a vector or two or more reals", name)
		}
		allInt := true
		for _, op := range ops {
			if !op.Type.IsNumeric() {
				return dsl.Type{}, fmt.Errorf("%s takes reals, got %s", name, op.Type)
			}
			allInt = allInt && op.Type.Kind == dsl.Int
		}
		if allInt {
			return dsl.IntType, nil
		}
		return dsl.RealType, nil
	}
}

func vectorToReal(name string, n int) func([]registry.Operand) (dsl.Type, error) {
	return func(ops []registry.Operand) (dsl.Type, error) {
		if err := arity(name, ops, n); err != nil {
			return dsl.Type{}, err
		}
		for _, op := range ops {
			if op.Type.Kind != dsl.Vec {
				return dsl.Type{}, fmt.Errorf("%s takes vectors, got %s", name, op.Type)
			}
		}
		if n == 2 && ops[0].Type.Rows != ops[1].Type.Rows {
			return dsl.Type{}, fmt.Errorf("%s needs vectors of equal length, got %s and %s", name, ops[0].Type, ops[1].Type)
		}
		return dsl.RealType, nil
	}
}

func constantVec(name string) func([]registry.Operand) (dsl.Type, error) {
	return func(ops []registry.Operand) (dsl.Type, error) {
		if err := arity(name, ops, 1); err != nil {
			return dsl.Type{}, err
		}
		if ops[0].Type.Kind != dsl.Int || ops[0].Const == nil || ops[0].Const.Float() < 1 {
			return dsl.Type{}, fmt.Errorf("%s takes a positive constant int", name)
		}
		n := int(ops[0].Const.Float())
		if name == "eye" {
			return dsl.MatOf(n, n), nil
		}
		return dsl.VecOf(n), nil
	}
}

// Folding: constant calls are computed at compile time.

// folds evaluates built-in functions on constant arguments, keyed by function
// name. The arguments have already passed the function's Result hook, so their
// count and types are right.
var folds = map[string]func([]dsl.Value) (dsl.Value, error){
	"sin":   foldScalar("sin", math.Sin, nil),
	"cos":   foldScalar("cos", math.Cos, nil),
	"tan":   foldScalar("tan", math.Tan, nil),
	"exp":   foldScalar("exp", math.Exp, nil),
	"log":   foldScalar("log", math.Log, positiveArg),
	"sqrt":  foldScalar("sqrt", math.Sqrt, nonNegativeArg),
	"abs":   foldScalar("abs", math.Abs, nil),
	"floor": foldScalar("floor", math.Floor, nil),
	"ceil":  foldScalar("ceil", math.Ceil, nil),
	"min":   foldExtremum(math.Min),
	"max":   foldExtremum(math.Max),
	"sum":   foldSum,
	"norm":  foldNorm,
	"dot":   foldDot,
	"zeros": foldFilled("zeros", 0),
	"ones":  foldFilled("ones", 1),
	"eye":   foldEye,
}

func positiveArg(x float64) string {
	if x > 0 {
		return ""
	}
	return "needs a positive number"
}

func nonNegativeArg(x float64) string {
	if x >= 0 {
		return ""
	}
	return "needs a non-negative number"
}

// foldScalar applies f to a real, after the argument check valid (which
// returns what is wrong, or "").
func foldScalar(name string, f func(float64) float64, valid func(float64) string) func([]dsl.Value) (dsl.Value, error) {
	return func(args []dsl.Value) (dsl.Value, error) {
		x := args[0].Float()
		if valid != nil {
			if msg := valid(x); msg != "" {
				return dsl.Value{}, fmt.Errorf("%s(%s) is undefined: %s %s", name, args[0], name, msg)
			}
		}
		return finite(name, args, f(x))
	}
}

// finite returns y as a real value, or an error when it overflowed.
func finite(name string, args []dsl.Value, y float64) (dsl.Value, error) {
	if math.IsInf(y, 0) || math.IsNaN(y) {
		return dsl.Value{}, fmt.Errorf("%s(%s) is not a finite number", name, args[0])
	}
	return dsl.RealValue(y), nil
}

// foldExtremum reduces a vector, or two or more scalars; the result is an int
// when every scalar argument is an int, as the Result hook types it.
func foldExtremum(pick func(a, b float64) float64) func([]dsl.Value) (dsl.Value, error) {
	return func(args []dsl.Value) (dsl.Value, error) {
		xs := args[0].Numbers
		allInt := false
		if args[0].Type.Kind != dsl.Vec {
			xs = make([]float64, len(args))
			allInt = true
			for i, a := range args {
				xs[i] = a.Float()
				allInt = allInt && a.Type.Kind == dsl.Int
			}
		}
		m := xs[0]
		for _, x := range xs[1:] {
			m = pick(m, x)
		}
		if allInt {
			return dsl.IntValue(int(m)), nil
		}
		return dsl.RealValue(m), nil
	}
}

func foldSum(args []dsl.Value) (dsl.Value, error) {
	s := 0.0
	for _, x := range args[0].Numbers {
		s += x
	}
	return finite("sum", args, s)
}

func foldNorm(args []dsl.Value) (dsl.Value, error) {
	s := 0.0
	for _, x := range args[0].Numbers {
		s = math.Hypot(s, x)
	}
	return finite("norm", args, s)
}

func foldDot(args []dsl.Value) (dsl.Value, error) {
	s := 0.0
	for i, x := range args[0].Numbers {
		s += x * args[1].Numbers[i]
	}
	return finite("dot", args, s)
}

// maxFoldElements bounds the constants zeros, ones and eye build, so that a
// typo such as zeros(1e9) is an error rather than gigabytes of memory.
const maxFoldElements = 1 << 20

func checkSize(name string, n, elements float64) error {
	if elements > maxFoldElements {
		return fmt.Errorf("%s(%g) would have %g elements; the limit is %d", name, n, elements, maxFoldElements)
	}
	return nil
}

// foldFilled returns the vector of n copies of c (zeros, ones).
func foldFilled(name string, c float64) func([]dsl.Value) (dsl.Value, error) {
	return func(args []dsl.Value) (dsl.Value, error) {
		if err := checkSize(name, args[0].Float(), args[0].Float()); err != nil {
			return dsl.Value{}, err
		}
		n := int(args[0].Float())
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = c
		}
		return dsl.Value{Type: dsl.VecOf(n), Numbers: xs}, nil
	}
}

func foldEye(args []dsl.Value) (dsl.Value, error) {
	if err := checkSize("eye", args[0].Float(), args[0].Float()*args[0].Float()); err != nil {
		return dsl.Value{}, err
	}
	n := int(args[0].Float())
	xs := make([]float64, n*n)
	for i := 0; i < n; i++ {
		xs[i*n+i] = 1
	}
	return dsl.Value{Type: dsl.MatOf(n, n), Numbers: xs}, nil
}

// Emitting: calls over the domain become Go.

func realValue(c jen.Code) registry.ExprValue {
	return registry.ExprValue{Type: dsl.RealType, Elems: []jen.Code{c}}
}

// mathCall emits a one-argument function of package math.
func mathCall(fn string) registry.CallEmit {
	return func(args []registry.ExprValue) (registry.ExprValue, error) {
		return realValue(jen.Qual("math", fn).Call(args[0].Elems[0])), nil
	}
}

// extremumEmit emits min or max, Go's built-ins, over several scalars or a
// vector's elements. The result is an int when every argument is.
func extremumEmit(builtin func(...jen.Code) *jen.Statement) registry.CallEmit {
	return func(args []registry.ExprValue) (registry.ExprValue, error) {
		typ := dsl.IntType
		var elems []jen.Code
		for _, a := range args {
			elems = append(elems, a.Elems...)
			if a.Type.Kind != dsl.Int {
				typ = dsl.RealType
			}
		}
		return registry.ExprValue{Type: typ, Elems: []jen.Code{builtin(elems...)}}, nil
	}
}

// plus joins terms with +.
func plus(terms []jen.Code) *jen.Statement {
	s := jen.Add(terms[0])
	for _, t := range terms[1:] {
		s = s.Op("+").Add(t)
	}
	return s
}

// filledEmit emits zeros(n) or ones(n): a vector of the constant n elements.
func filledEmit(fill float64) registry.CallEmit {
	return func(args []registry.ExprValue) (registry.ExprValue, error) {
		n, err := constCount(args[0])
		if err != nil {
			return registry.ExprValue{}, err
		}
		elems := make([]jen.Code, n)
		for i := range elems {
			elems[i] = jen.Lit(fill)
		}
		return registry.ExprValue{Type: dsl.VecOf(n), Elems: elems}, nil
	}
}

func constCount(a registry.ExprValue) (int, error) {
	if a.Const == nil || a.Const.Float() < 1 {
		return 0, fmt.Errorf("the size must be a positive constant")
	}
	return int(a.Const.Float()), nil
}

var functionEmits = map[string]registry.CallEmit{
	"sin":   mathCall("Sin"),
	"cos":   mathCall("Cos"),
	"tan":   mathCall("Tan"),
	"exp":   mathCall("Exp"),
	"log":   mathCall("Log"),
	"sqrt":  mathCall("Sqrt"),
	"abs":   mathCall("Abs"),
	"floor": mathCall("Floor"),
	"ceil":  mathCall("Ceil"),
	"min":   extremumEmit(jen.Min),
	"max":   extremumEmit(jen.Max),
	"sum": func(args []registry.ExprValue) (registry.ExprValue, error) {
		if len(args[0].Elems) == 1 {
			return realValue(args[0].Elems[0]), nil
		}
		return realValue(jen.Parens(plus(args[0].Elems))), nil
	},
	"norm": func(args []registry.ExprValue) (registry.ExprValue, error) {
		squares := make([]jen.Code, len(args[0].Elems))
		for i, e := range args[0].Elems {
			squares[i] = jen.Add(e).Op("*").Add(e)
		}
		return realValue(jen.Qual("math", "Sqrt").Call(plus(squares))), nil
	},
	"dot": func(args []registry.ExprValue) (registry.ExprValue, error) {
		products := make([]jen.Code, len(args[0].Elems))
		for i := range products {
			products[i] = jen.Add(args[0].Elems[i]).Op("*").Add(args[1].Elems[i])
		}
		return realValue(jen.Parens(plus(products))), nil
	},
	"zeros": filledEmit(0),
	"ones":  filledEmit(1),
	"eye": func(args []registry.ExprValue) (registry.ExprValue, error) {
		n, err := constCount(args[0])
		if err != nil {
			return registry.ExprValue{}, err
		}
		elems := make([]jen.Code, n*n)
		for i := range elems {
			elems[i] = jen.Lit(0.0)
			if i/n == i%n {
				elems[i] = jen.Lit(1.0)
			}
		}
		return registry.ExprValue{Type: dsl.MatOf(n, n), Elems: elems}, nil
	},
}

// functionEmit returns the Emit value of built-in function name, or nil when
// this version cannot emit it.
func functionEmit(name string) any {
	if e, ok := functionEmits[name]; ok {
		return e
	}
	return nil
}
