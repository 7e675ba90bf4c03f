package stdlib

import (
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

func init() {
	registry.Register(stationaryKernel("se", "squared exponential (RBF): s² exp(−r²/2)", seEmit))
}

// seEmit is s²·f with f = exp(−r²/2), f' = −f/2.
var seEmit = stationaryEmit(func(g *registry.KernelGen, r2 string, _ bool) profile {
	e := g.Fresh("e")
	return profile{
		stmts: []jen.Code{jen.Id(e).Op(":=").Qual("math", "Exp").Call(jen.Lit(-0.5).Op("*").Id(r2))},
		value: jen.Id(e),
		slope: jen.Lit(-0.5).Op("*").Id(e),
		rate:  -0.5,
	}
})
