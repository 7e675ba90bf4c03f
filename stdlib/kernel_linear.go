package stdlib

import (
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

func init() {
	registry.Register(&registry.Plugin{Kind: registry.Kernel, Name: "linear",
		Doc: "linear (dot-product) on unit coordinates: s² xᵀx' + c", Emit: linearEmit,
		Params: []registry.Param{variance,
			{Name: "offset", Type: registry.RealParam, Default: registry.Real(0), Range: nonNegative, Learnable: true,
				LearnBounds: [2]float64{1e-3, 10}, Doc: "constant c added to the dot product"}}})
}

// linearEmit is s²·aᵀb + c on unit coordinates.
var linearEmit registry.KernelDiffEmit = func(g *registry.KernelGen) registry.KernelCode {
	signal, offset := g.Hyper(variance.Name, 0), g.Hyper("offset", 0)
	dot := g.Fresh("dot")
	var sum *jen.Statement
	for i := range g.D {
		term := jen.Id(g.A).Index(jen.Lit(i)).Op("*").Id(g.B).Index(jen.Lit(i))
		if sum == nil {
			sum = term
		} else {
			sum = sum.Op("+").Add(term)
		}
	}
	stmts := []jen.Code{jen.Id(dot).Op(":=").Add(sum)}
	value := jen.Add(times(signal, jen.Id(dot)))
	if !offset.Fixed || offset.Value != 0 {
		value = value.Op("+").Add(offset.Code)
	}
	code := registry.KernelCode{Stmts: stmts, Value: jen.Parens(value), Grad: make([]jen.Code, g.GradLen())}
	switch g.Grad {
	case registry.GradInput:
		for i := range g.D {
			code.Grad[i] = times(signal, jen.Id(g.B).Index(jen.Lit(i)))
		}
	case registry.GradHyper:
		if !signal.Fixed {
			accumulate(code.Grad, signal.Index, times(signal, jen.Id(dot)))
		}
		if !offset.Fixed {
			accumulate(code.Grad, offset.Index, offset.Code)
		}
	}
	return code
}
