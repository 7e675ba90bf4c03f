package stdlib

import (
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

func init() {
	registry.Register(stationaryKernel("matern12", "Matérn ν=1/2 (exponential): s² exp(−r)", matern12Emit))
	registry.Register(stationaryKernel("matern32", "Matérn ν=3/2: s² (1+√3 r) exp(−√3 r)", matern32Emit))
	registry.Register(stationaryKernel("matern52", "Matérn ν=5/2: s² (1+√5 r+5r²/3) exp(−√5 r)", matern52Emit))
}

// maternEmit emits a Matérn kernel whose value at r = sqrt(scale·r²) is
// poly(r)·exp(−r) (scale = 2ν); its slope is slope(r)·exp(−r), after the
// statements slope returns.
func maternEmit(scale float64, poly func(r string) jen.Code, slope func(g *registry.KernelGen, r string) ([]jen.Code, jen.Code)) registry.KernelDiffEmit {
	return stationaryEmit(func(g *registry.KernelGen, r2 string, needSlope bool) profile {
		r, e := g.Fresh("r"), g.Fresh("e")
		arg := jen.Id(r2)
		if scale != 1 {
			arg = jen.Lit(scale).Op("*").Id(r2)
		}
		p := profile{stmts: []jen.Code{
			jen.Id(r).Op(":=").Qual("math", "Sqrt").Call(arg),
			jen.Id(e).Op(":=").Qual("math", "Exp").Call(jen.Op("-").Id(r)),
		}}
		p.value = jen.Id(e)
		if q := poly(r); q != nil {
			p.value = jen.Add(q).Op("*").Id(e)
		}
		if needSlope {
			stmts, factor := slope(g, r)
			p.stmts = append(p.stmts, stmts...)
			p.slope = jen.Add(factor).Op("*").Id(e)
		}
		return p
	})
}

var (
	// f = e^{−r}, f' = −e^{−r}/(2r): infinite at r = 0, where every term it
	// multiplies (d_i, d_i²) vanishes at least as fast, so 1/r is taken as 0
	// there.
	matern12Emit = maternEmit(1, func(string) jen.Code { return nil },
		func(g *registry.KernelGen, r string) ([]jen.Code, jen.Code) {
			inv := g.Fresh("rinv")
			return []jen.Code{
				jen.Id(inv).Op(":=").Lit(0.0),
				jen.If(jen.Id(r).Op(">").Lit(0)).Block(jen.Id(inv).Op("=").Lit(1.0).Op("/").Id(r)),
			}, jen.Lit(-0.5).Op("*").Id(inv)
		})
	// f = (1+r)e^{−r} with r = √3·r, f' = −(3/2)e^{−r}.
	matern32Emit = maternEmit(3, func(r string) jen.Code {
		return jen.Parens(jen.Lit(1.0).Op("+").Id(r))
	}, func(*registry.KernelGen, string) ([]jen.Code, jen.Code) { return nil, jen.Lit(-1.5) })
	// f = (1+r+r²/3)e^{−r} with r = √5·r, f' = −(5/6)(1+r)e^{−r}.
	matern52Emit = maternEmit(5, func(r string) jen.Code {
		return jen.Parens(jen.Lit(1.0).Op("+").Id(r).Op("+").Id(r).Op("*").Id(r).Op("/").Lit(3.0))
	}, func(_ *registry.KernelGen, r string) ([]jen.Code, jen.Code) {
		return nil, jen.Lit(-5.0 / 6).Op("*").Parens(jen.Lit(1.0).Op("+").Id(r))
	})
)
