package stdlib

import (
	"fmt"
	"math"

	"github.com/bocdev/boc/dsl"
)

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
