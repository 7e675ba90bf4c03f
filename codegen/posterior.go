package codegen

import (
	"github.com/bocdev/boc/plan"
	"github.com/dave/jennifer/jen"
)

// The optimiser's posterior and lengthscales, which a program's report
// draws (runtime/program.Model).

// posteriorFunc names the emitted function that gives the posterior at
// unit coordinates, or "" when the optimiser has none for a single point
// (a search by differences over input distributions).
func (g *generator) posteriorFunc() string {
	switch {
	case g.o.Safety != nil || !g.o.GradientSearch():
		return "predict"
	case !g.o.DifferenceSearch():
		return "posteriorGrad"
	}
	return ""
}

// posteriorAt is a call of posteriorFunc, which must not be "", at the unit
// coordinates u (a slice), with the first search worker's memory where it
// needs one.
func (g *generator) posteriorAt(u jen.Code) jen.Code {
	fn := g.posteriorFunc()
	if fn == "posteriorGrad" {
		return field(fn).Call(jen.Op("&").Add(field("workers")).Index(jen.Lit(0)), u)
	}
	return field(fn).Call(u)
}

// lengthscaleSlot is the learned slot of a lengthscale per component, when
// the kernel has exactly one; nil otherwise.
func (g *generator) lengthscaleSlot() *plan.Slot {
	var found *plan.Slot
	for i, s := range g.o.Hyper.Slots {
		if s.Param != "lengthscale" || !s.PerComponent {
			continue
		}
		if found != nil {
			return nil
		}
		found = &g.o.Hyper.Slots[i]
	}
	return found
}

// posteriorDecls emits Posterior, and Lengthscales when the kernel learns
// one per component.
func (g *generator) posteriorDecls(f *jen.File) {
	fn := g.posteriorFunc()
	if fn == "" {
		return
	}
	var round []jen.Code
	f.Comment("Posterior returns the posterior mean at x, in the objective's units and sign,")
	f.Comment("and its standard deviation. It uses the optimiser's working memory, so it must")
	f.Comment("not run concurrently with Suggest or Observe.")
	if g.hasInteger() {
		f.Comment("Integer components are rounded to whole numbers.")
		round = append(round, jen.For(jen.Id("i").Op(":=").Range().Id("x")).Block(
			jen.If(jen.Id("Integer").Index(jen.Id("i"))).Block(jen.Id("x").Index(jen.Id("i")).Op("=").Qual("math", "Round").Call(jen.Id("x").Index(jen.Id("i")))),
		))
	}
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("Posterior").Params(jen.Id("x").Id("Point")).
		Params(jen.List(jen.Id("mean"), jen.Id("sd")).Float64(), jen.Id("err").Error()).Block(append(round,
		jen.List(jen.Id("u"), jen.Id("err")).Op(":=").Id("toUnit").Call(jen.Id("x")),
		jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Lit(0), jen.Lit(0), jen.Id("err"))),
		jen.List(jen.Id("m"), jen.Id("sd")).Op(":=").Add(g.posteriorAt(jen.Id("u").Index(jen.Op(":")))),
		jen.Return(g.fromModel(jen.Id("m")), jen.Id("sd"), jen.Nil()),
	)...)
	s := g.lengthscaleSlot()
	if s == nil {
		return
	}
	f.Comment("Lengthscales returns the kernel's learned lengthscales, one per component, in")
	f.Comment("units of the component's range (the domain scaled to the unit cube).")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("Lengthscales").Params().Params(jen.Id("ls").Index(jen.Id("Dim")).Float64()).Block(
		jen.Copy(jen.Id("ls").Index(jen.Op(":")), field("hyper").Index(jen.Lit(s.Index).Op(":").Lit(s.Index+s.Size))),
		jen.Return(),
	)
}

// sessionModelDecls emits the session's Posterior and Lengthscales, which
// make it a runtime/program.Model, when the optimiser gives its posterior.
func (g *generator) sessionModelDecls(f *jen.File, lib func(string) *jen.Statement) {
	if g.posteriorFunc() == "" {
		return
	}
	s := func(name string) *jen.Statement { return jen.Id("s").Dot("o").Dot(name) }
	f.Func().Params(jen.Id("s").Id("session")).Id("Posterior").Params(jen.Id("x").Index().Float64()).Params(jen.Float64(), jen.Float64(), jen.Error()).Block(
		jen.If(jen.Len(jen.Id("x")).Op("!=").Add(lib("Dim"))).Block(
			jen.Return(jen.Lit(0), jen.Lit(0), jen.Qual("fmt", "Errorf").Call(jen.Lit("%d components, want %d"), jen.Len(jen.Id("x")), lib("Dim"))),
		),
		jen.Return(s("Posterior").Call(lib("Point").Call(jen.Id("x")))),
	)
	body := []jen.Code{jen.Return(jen.Nil(), jen.False())}
	if g.lengthscaleSlot() != nil {
		body = []jen.Code{
			jen.Id("ls").Op(":=").Add(s("Lengthscales")).Call(),
			jen.Return(jen.Id("ls").Index(jen.Op(":")), jen.True()),
		}
	}
	f.Func().Params(jen.Id("s").Id("session")).Id("Lengthscales").Params().Params(jen.Index().Float64(), jen.Bool()).Block(body...)
}
