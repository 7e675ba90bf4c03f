package stdlib

import (
	"fmt"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/stdlib/registry"
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
