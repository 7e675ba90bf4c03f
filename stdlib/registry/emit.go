package registry

import (
	"fmt"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/dave/jennifer/jen"
)

// This file is the code generator's side of the plugin contract: the type a
// plugin's Emit field holds for each kind, and what each hook is given. The
// code generator finds a plugin with ByID, type-asserts its Emit to the type
// of its kind, and reports a plugin whose Emit is nil as "not available in
// this version of boc".
//
//	kind          Emit type
//	kernel        KernelEmit
//	model         ModelEmit
//	acquisition   AcquisitionEmit
//	init          InitEmit
//	search        SearchEmit
//	function      CallEmit
//	benchmark     CallEmit
//	distribution  DistributionEmit
//
// Every hook generates code for constant arguments: the code generator rejects
// `learn` and domain-dependent arguments with a diagnostic before it calls one.

// Args gives a hook the constant arguments of its call. A missing or
// non-constant argument is a bug in the plugin (its signature and its hook
// disagree), not a user error: the accessors then return zero values and
// record the problem, which the code generator reports as an internal error.
type Args struct {
	Call *ir.Call
	err  error
}

// Err returns the first problem an accessor met, or nil.
func (a *Args) Err() error { return a.err }

func (a *Args) failf(format string, args ...any) {
	if a.err == nil {
		a.err = fmt.Errorf("%s: %s", a.Call.Plugin, fmt.Sprintf(format, args...))
	}
}

// Const returns the constant value of argument name.
func (a *Args) Const(name string) (dsl.Value, bool) {
	arg := a.Call.Arg(name)
	if arg == nil {
		a.failf("no argument %q", name)
		return dsl.Value{}, false
	}
	c, ok := arg.Value.(*ir.ConstExpr)
	if !ok {
		a.failf("argument %q is %T, not a constant", name, arg.Value)
		return dsl.Value{}, false
	}
	return c.Value, true
}

// Real returns a real (or int) argument.
func (a *Args) Real(name string) float64 {
	v, ok := a.Const(name)
	if ok && !v.Type.IsNumeric() {
		a.failf("argument %q is a %s, not a number", name, v.Type)
	}
	return v.Float()
}

// Int returns an int argument.
func (a *Args) Int(name string) int { return int(a.Real(name)) }

// PerComponent returns a real-or-vector argument as n values: a real is
// repeated, a vec must have n elements (e.g. ARD lengthscales).
func (a *Args) PerComponent(name string, n int) []float64 {
	v, ok := a.Const(name)
	out := make([]float64, n)
	switch {
	case !ok:
	case v.Type.IsNumeric():
		for i := range out {
			out[i] = v.Float()
		}
	case v.Type.Kind == dsl.Vec && len(v.Numbers) == n:
		copy(out, v.Numbers)
	default:
		a.failf("argument %q is a %s, want a real or vec[%d]", name, v.Type, n)
	}
	return out
}

// Nested returns an argument that is itself a plugin call (a kernel, a
// distribution).
func (a *Args) Nested(name string) *ir.Call {
	arg := a.Call.Arg(name)
	if arg == nil {
		a.failf("no argument %q", name)
		return nil
	}
	c, ok := arg.Value.(*ir.Call)
	if !ok {
		a.failf("argument %q is %T, not a plugin call", name, arg.Value)
	}
	return c
}

// KernelGen is what a kernel's hook is given. The kernel is emitted as the
// body of a function of two inputs in unit coordinates (every component
// scaled to [0, 1]), each a *[D]float64.
type KernelGen struct {
	Args
	D    int    // number of scalar components of an input
	A, B string // names of the two inputs
	// Fresh returns a local name not yet used in the function, based on prefix.
	Fresh func(prefix string) string
}

// KernelEmit returns straight-line statements and the kernel value k(A, B),
// an expression over the locals the statements declare. The kernel must be
// on the scale of standardised outputs (signal variance around 1).
type KernelEmit func(g *KernelGen) (stmts []jen.Code, value jen.Code)

// ModelGen is what a model's hook is given.
type ModelGen struct {
	Args
	Capacity jen.Code // an int expression: how many observations the model must hold
}

// ModelCode says how the emitted optimiser holds its surrogate. Type must
// have the method set of runtime/gp's *GP (Len, Add, Predict, TrainMean, Y):
// the optimiser computes kernel vectors with Kernel's emitted code and hands
// them to the model.
type ModelCode struct {
	Type   jen.Code // the type of the optimiser's model field
	New    jen.Code // an expression of that type holding Capacity observations
	Kernel *ir.Call // the kernel the optimiser computes kernel vectors with
}

// ModelEmit returns how to hold the model.
type ModelEmit func(g *ModelGen) ModelCode

// AcquisitionGen is what an acquisition's hook is given: the posterior at a
// candidate point and the incumbent, all in the model's convention (larger is
// better; a minimised objective is negated) and the objective's units.
type AcquisitionGen struct {
	Args
	Mean, SD jen.Code // posterior mean and standard deviation at the candidate
	Best     jen.Code // the largest posterior mean at an evaluated point
}

// AcquisitionEmit returns a float64 expression, the acquisition value; the
// optimiser suggests its maximiser.
type AcquisitionEmit func(g *AcquisitionGen) jen.Code

// InitGen is what an initial design's hook is given.
type InitGen struct {
	Args
	N, D int      // number of points, components per point
	Seed jen.Code // a uint64 expression
	Out  jen.Code // a []float64 of N*D elements to fill row-major with points in [0, 1)^D
}

// InitEmit returns statements that fill Out. They run in a function that
// returns an error, and return one when the design cannot be made.
type InitEmit func(g *InitGen) []jen.Code

// SearchGen is what an acquisition search's hook is given.
type SearchGen struct {
	Args
	D int // dimension of the unit cube searched
}

// SearchCode says how the emitted optimiser holds its acquisition search.
// Type must have the methods of runtime/search's *Pattern:
//
//	Maximize(f func(u []float64) float64, feasible func(u []float64) bool, seed uint64, out []float64) (float64, error)
//	AddStart(u []float64)
type SearchCode struct {
	Type jen.Code // the type of the optimiser's search field
	New  jen.Code // an expression of that type
}

// SearchEmit returns how to hold the search.
type SearchEmit func(g *SearchGen) SearchCode

// ExprValue is an emitted expression of the .bo language: its type and one Go
// expression per element, in row-major order (a real, int or bool has one
// element, a vec[n] n, a mat[r,c] r*c). Reals and ints are float64 in
// emitted code.
//
// Elements handed to a hook are cheap and primary (identifiers, literals,
// index expressions), so a hook may repeat them and use them as operands.
// Elements a hook returns must be primary too: calls, index expressions or
// parenthesised expressions.
type ExprValue struct {
	Type  dsl.Type
	Elems []jen.Code
	// Slice is a []float64 expression over a vec argument's elements, for
	// runtime functions that take a slice; nil for scalars.
	Slice jen.Code
	// Const is the value of a constant argument, nil otherwise.
	Const *dsl.Value
}

// CallEmit emits a call of a function or benchmark whose argument types the
// plugin's Result hook accepted. It returns a value of the type Result gave.
type CallEmit func(args []ExprValue) (ExprValue, error)

// DistributionEmit holds a distribution's hooks.
type DistributionEmit struct {
	// Variance returns the variance of a one-dimensional distribution with
	// constant parameters; observation noise uses it.
	Variance func(a *Args) float64
}
