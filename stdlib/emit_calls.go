package stdlib

import (
	"fmt"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

// benchmarkFuncs names the runtime/bench function of each benchmark.
var benchmarkFuncs = map[string]string{
	"branin":      "Branin",
	"hartmann3":   "Hartmann3",
	"hartmann6":   "Hartmann6",
	"michalewicz": "Michalewicz",
	"sphere":      "Sphere",
	"levy":        "Levy",
	"griewank":    "Griewank",
	"powell":      "Powell",
	"ackley":      "Ackley",
	"rkhs1d":      "RKHS1D",
	"double_peak": "DoublePeak",
}

// benchmarkEmit returns the Emit value of benchmark name: a call of its
// runtime/bench function on the input as one slice, or nil when there is none.
func benchmarkEmit(name string) any {
	fn, ok := benchmarkFuncs[name]
	if !ok {
		return nil
	}
	return registry.CallEmit(func(args []registry.ExprValue) (registry.ExprValue, error) {
		return realValue(jen.Qual(runtimeBench, fn).Call(inputSlice(args))), nil
	})
}

// inputSlice is a []float64 expression for a benchmark's input, which is
// given as one vector or as its components.
func inputSlice(args []registry.ExprValue) jen.Code {
	if len(args) == 1 && args[0].Type.Kind == dsl.Vec {
		return args[0].Slice
	}
	elems := make([]jen.Code, len(args))
	for i, a := range args {
		elems[i] = a.Elems[0]
	}
	return jen.Index().Float64().Values(elems...)
}

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
