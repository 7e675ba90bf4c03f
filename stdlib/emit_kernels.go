package stdlib

import (
	"fmt"

	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

// stationaryEmit emits a kernel of the scaled distance between its inputs,
// s² shape(r²) with r² = Σ_i ((a_i − b_i)/ℓ_i)², unrolled over the input
// dimension; the inverse lengthscales are folded into literals. shape gets
// the name of the local holding r² and returns extra statements and the
// kernel's value for s² = 1.
func stationaryEmit(shape func(g *registry.KernelGen, r2 string) ([]jen.Code, jen.Code)) registry.KernelEmit {
	return func(g *registry.KernelGen) ([]jen.Code, jen.Code) {
		lengthscales := g.PerComponent(lengthscale.Name, g.D)
		signal := g.Real(variance.Name)
		stmts := make([]jen.Code, 0, g.D+3)
		var sum *jen.Statement
		for i, l := range lengthscales {
			d := g.Fresh(fmt.Sprintf("d%d", i))
			diff := jen.Id(g.A).Index(jen.Lit(i)).Op("-").Id(g.B).Index(jen.Lit(i))
			stmts = append(stmts, jen.Id(d).Op(":=").Parens(diff).Op("*").Lit(1/l))
			square := jen.Id(d).Op("*").Id(d)
			if sum == nil {
				sum = square
			} else {
				sum = sum.Op("+").Add(square)
			}
		}
		r2 := g.Fresh("r2")
		stmts = append(stmts, jen.Id(r2).Op(":=").Add(sum))
		more, value := shape(g, r2)
		stmts = append(stmts, more...)
		if signal != 1 {
			value = jen.Lit(signal).Op("*").Add(value)
		}
		return stmts, value
	}
}

// maternEmit emits a Matérn kernel whose value at r = sqrt(scale·r²) is
// poly(r)·exp(−r) (scale = 2ν).
func maternEmit(scale float64, poly func(r string) jen.Code) registry.KernelEmit {
	return stationaryEmit(func(g *registry.KernelGen, r2 string) ([]jen.Code, jen.Code) {
		r := g.Fresh("r")
		arg := jen.Id(r2)
		if scale != 1 {
			arg = jen.Lit(scale).Op("*").Id(r2)
		}
		decay := jen.Qual("math", "Exp").Call(jen.Op("-").Id(r))
		value := decay
		if p := poly(r); p != nil {
			value = jen.Add(p).Op("*").Add(decay)
		}
		return []jen.Code{jen.Id(r).Op(":=").Qual("math", "Sqrt").Call(arg)}, value
	})
}

var (
	seEmit = stationaryEmit(func(_ *registry.KernelGen, r2 string) ([]jen.Code, jen.Code) {
		return nil, jen.Qual("math", "Exp").Call(jen.Lit(-0.5).Op("*").Id(r2))
	})
	matern12Emit = maternEmit(1, func(string) jen.Code { return nil })
	matern32Emit = maternEmit(3, func(r string) jen.Code {
		return jen.Parens(jen.Lit(1.0).Op("+").Id(r))
	})
	matern52Emit = maternEmit(5, func(r string) jen.Code {
		return jen.Parens(jen.Lit(1.0).Op("+").Id(r).Op("+").Id(r).Op("*").Id(r).Op("/").Lit(3.0))
	})
)
