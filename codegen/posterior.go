package codegen

import (
	"github.com/bocdev/boc/plan"
	"github.com/dave/jennifer/jen"
)

// The optimiser's posterior and lengthscales, which a program's report
// draws (runtime/program.Model).

// posteriorFunc names the emitted function that gives the posterior at
// unit coordinates: predict, or posteriorGrad, with its gradient, when the
// optimiser has no predict (a gradient search with the kernel's analytic
// gradient). A model over input distributions gives the posterior of the
// input distribution centred at the point: of the robust value there.
func (g *generator) posteriorFunc() string {
	if g.o.Safety == nil && g.o.GradientSearch() && !g.o.DifferenceSearch() {
		return "posteriorGrad"
	}
	return "predict"
}

// posteriorAt is a call of posteriorFunc at the unit coordinates u (a
// slice), with the first search worker's memory where it needs one.
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
	f.Comment("Posterior returns the posterior mean at x, in the objective's units and sign,")
	f.Comment("and its standard deviation. It uses the optimiser's working memory, so it must")
	f.Comment("not run concurrently with Suggest or Observe.")
	if g.o.InputModel() {
		f.Comment("The model is over input distributions: this is the posterior of the input")
		f.Comment("noise's distribution centred at x, of the robust value E[f(x + ε)].")
	}
	body := append(g.roundIntegers(f),
		jen.List(jen.Id("u"), jen.Id("err")).Op(":=").Id("toUnit").Call(jen.Id("x")),
		jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Lit(0), jen.Lit(0), jen.Id("err"))),
		jen.List(jen.Id("m"), jen.Id("sd")).Op(":=").Add(g.posteriorAt(jen.Id("u").Index(jen.Op(":")))),
	)
	body = append(body, g.unwarpedSD()...)
	body = append(body, jen.Return(g.fromWarped(jen.Id("m")), jen.Id("sd"), jen.Nil()))
	if g.warps() {
		f.Comment("The model's values are warped: the mean is the warping's inverse of the")
		f.Comment("model's mean (the median of the values), the sd half the width of the ±1 sd")
		f.Comment("band mapped back.")
	}
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("Posterior").Params(jen.Id("x").Id("Point")).
		Params(jen.List(jen.Id("mean"), jen.Id("sd")).Float64(), jen.Id("err").Error()).Block(body...)
	if g.o.Safety != nil {
		g.safeEstimateDecls(f)
	}
	if g.requires() {
		g.feasibilityDecl(f)
	}
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

// roundIntegers are the statements that round the integer components of
// the point x to whole numbers, none without integer components; it adds a
// line saying so to the comment of the function about to be emitted.
func (g *generator) roundIntegers(f *jen.File) []jen.Code {
	if !g.hasInteger() {
		return nil
	}
	f.Comment("Integer components are rounded to whole numbers.")
	return []jen.Code{jen.For(jen.Id("i").Op(":=").Range().Id("x")).Block(
		jen.If(jen.Id("Integer").Index(jen.Id("i"))).Block(jen.Id("x").Index(jen.Id("i")).Op("=").Qual("math", "Round").Call(jen.Id("x").Index(jen.Id("i")))),
	)}
}

// safeEstimateDecls emits a safe optimiser's ConstraintPosterior and
// SeedPoints, from which a report estimates the safe set.
func (g *generator) safeEstimateDecls(f *jen.File) {
	zero := []jen.Code{jen.Lit(0), jen.Lit(0), jen.Lit(0)}
	f.Comment("ConstraintPosterior returns unknown constraint k's posterior mean and sd at x, in")
	f.Comment("its units, and the β of the explorer's confidence intervals μ ± √β σ. It brings")
	f.Comment("the explorer up to date first, as Suggest does, and allocates; it must not run")
	f.Comment("concurrently with Suggest or Observe.")
	if g.requires() {
		f.Comment("k is a safety constraint's index, below NumSafety; Feasibility judges the")
		f.Comment("requirements.")
	}
	round := g.roundIntegers(f)
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("ConstraintPosterior").Params(jen.Id("k").Int(), jen.Id("x").Id("Point")).
		Params(jen.List(jen.Id("mean"), jen.Id("sd"), jen.Id("beta")).Float64(), jen.Id("err").Error()).Block(append([]jen.Code{
		jen.If(field("err").Op("!=").Nil()).Block(jen.Return(append(zero, field("err"))...))}, append(round,
		jen.List(jen.Id("u"), jen.Id("err")).Op(":=").Id("toUnit").Call(jen.Id("x")),
		jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(append(zero, jen.Id("err"))...)),
		jen.Return(field("explorer").Dot("Estimate").Call(jen.Id("k"), jen.Id("u").Index(jen.Op(":")))),
	)...)...)
	f.Comment("SeedPoints returns the points the safe exploration started from, known safe.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("SeedPoints").Params().Params(jen.Id("seeds").Index().Id("Point")).Block(
		jen.If(field("err").Op("!=").Nil()).Block(jen.Return(jen.Nil())),
		jen.For(jen.List(jen.Id("_"), jen.Id("i")).Op(":=").Range().Add(field("explorer").Dot("Seeds").Call())).Block(
			jen.Id("seeds").Op("=").Append(jen.Id("seeds"), field("decision").Index(jen.Id("i"))),
		),
		jen.Return(),
	)
}

// sessionModelDecls emits the session's Posterior and Lengthscales, which
// make it a runtime/program.Model, when the optimiser gives its posterior;
// and a safe optimiser's ConstraintPosterior, Contradictions and SeedPoints,
// which make it a runtime/program.SafeModel.
func (g *generator) sessionModelDecls(f *jen.File, lib func(string) *jen.Statement) {
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
	if g.requires() {
		f.Func().Params(jen.Id("s").Id("session")).Id("Feasibility").Params(jen.Id("x").Index().Float64()).Params(jen.Float64(), jen.Error()).Block(
			jen.If(jen.Len(jen.Id("x")).Op("!=").Add(lib("Dim"))).Block(
				jen.Return(jen.Lit(0), jen.Qual("fmt", "Errorf").Call(jen.Lit("%d components, want %d"), jen.Len(jen.Id("x")), lib("Dim"))),
			),
			jen.Return(s("Feasibility").Call(lib("Point").Call(jen.Id("x")))),
		)
	}
	if g.o.Safety != nil {
		safeSessionDecls(f, lib)
	}
}

// safeSessionDecls emits a safe optimiser's session's ConstraintPosterior,
// Contradictions and SeedPoints, which make it a runtime/program.SafeModel.
func safeSessionDecls(f *jen.File, lib func(string) *jen.Statement) {
	s := func(name string) *jen.Statement { return jen.Id("s").Dot("o").Dot(name) }
	f.Func().Params(jen.Id("s").Id("session")).Id("ConstraintPosterior").Params(jen.Id("k").Int(), jen.Id("x").Index().Float64()).Params(jen.Float64(), jen.Float64(), jen.Float64(), jen.Error()).Block(
		jen.If(jen.Len(jen.Id("x")).Op("!=").Add(lib("Dim"))).Block(
			jen.Return(jen.Lit(0), jen.Lit(0), jen.Lit(0), jen.Qual("fmt", "Errorf").Call(jen.Lit("%d components, want %d"), jen.Len(jen.Id("x")), lib("Dim"))),
		),
		jen.Return(s("ConstraintPosterior").Call(jen.Id("k"), lib("Point").Call(jen.Id("x")))),
	)
	f.Func().Params(jen.Id("s").Id("session")).Id("Contradictions").Params().Index().String().Block(
		jen.Return(s("Contradictions").Call(jen.Lit(0))),
	)
	f.Func().Params(jen.Id("s").Id("session")).Id("SeedPoints").Params().Params(jen.Id("seeds").Index().Index().Float64()).Block(
		jen.For(jen.List(jen.Id("_"), jen.Id("x")).Op(":=").Range().Add(s("SeedPoints")).Call()).Block(
			jen.Id("seeds").Op("=").Append(jen.Id("seeds"), whole(jen.Id("x"))),
		),
		jen.Return(),
	)
}
