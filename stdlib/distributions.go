package stdlib

import (
	"errors"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/stdlib/registry"
)

// Distributions, one file each (dist_*.go). Observation noise uses the
// Variance and Sample hooks, which only the one-dimensional distributions
// have: their variances are the textbook moments, and their samplers draw
// from the distribution as declared (mean and scale included). Input noise
// uses BaseLen, Draw, Moments and Gaussian, which all have.

// distParam is a real parameter of a distribution, which may depend on the
// point (input noise that varies over the domain).
func distParam(name string, def registry.Value, r *registry.Range, doc string) registry.Param {
	return registry.Param{Name: name, Type: registry.RealParam, Default: def, Range: r, DomainDependent: true, Doc: doc}
}

// scaleParam multiplies each draw.
var scaleParam = distParam("scale", registry.Real(1), positive, "multiplies each draw")

// fixed is the Result hook of a distribution of n components.
func fixed(n int) func([]registry.Operand) (dsl.Type, error) {
	return func([]registry.Operand) (dsl.Type, error) { return dsl.DistOf(n), nil }
}

// distribution is the plugin of the distribution name with its hooks.
func distribution(hooks registry.DistributionEmit, name, doc string, result func([]registry.Operand) (dsl.Type, error), params ...registry.Param) *registry.Plugin {
	return &registry.Plugin{Kind: registry.Distribution, Name: name, Doc: doc, Params: params, Result: result, Emit: hooks}
}

func vecLength(i int) func([]registry.Operand) (dsl.Type, error) {
	return func(ops []registry.Operand) (dsl.Type, error) { return dsl.DistOf(ops[i].Type.Rows), nil }
}

func matCols(i int) func([]registry.Operand) (dsl.Type, error) {
	return func(ops []registry.Operand) (dsl.Type, error) { return dsl.DistOf(ops[i].Type.Cols), nil }
}

func concatDim(ops []registry.Operand) (dsl.Type, error) {
	n := 0
	for _, op := range ops {
		n += op.Type.Rows
	}
	return dsl.DistOf(n), nil
}

func iidDim(ops []registry.Operand) (dsl.Type, error) {
	if ops[0].Type.Rows != 1 {
		return dsl.Type{}, errors.New("iid repeats a one-dimensional distribution, got " + ops[0].Type.String())
	}
	if ops[1].Const == nil {
		return dsl.Type{}, errors.New("iid's n must be a constant")
	}
	return dsl.DistOf(int(ops[1].Const.Float())), nil
}
