package codegen

import (
	"github.com/dave/jennifer/jen"
)

// An output warping (model gp(warp = "power" or "worse_tail"), runtime/warp): the model
// holds a monotone transform of the values observed, in the model's
// convention, and the optimiser keeps the values themselves. Each refit first
// refits the warping to every value and gives the model the transformed
// values (rewarp); between refits a value is transformed with the warping in
// force. Everything the model says in its own units (the acquisition, the
// incumbent it improves on, fantasies) stays in the warped ones; what the
// optimiser reports (Best, BestObserved, Posterior) goes back through the
// inverse.

// runtimeWarp is the import path of the output warping.
const runtimeWarp = "github.com/bocdev/boc/runtime/warp"

// warps reports whether the model warps its outputs.
func (g *generator) warps() bool { return g.o.Model.Warp != "" }

// warpFields are the optimiser's fields of the warping.
func (g *generator) warpFields() []jen.Code {
	if !g.warps() {
		return nil
	}
	fields := []jen.Code{
		jen.Line(),
		jen.Id("raw").Index(jen.Id("Budget")).Float64().Comment("the values observed, in the model's convention, before the warping"),
		jen.Id("warp").Qual(runtimeWarp, "Warp").Comment("the output warping in force, refitted with the hyperparameters"),
	}
	if g.o.ReportedNoise() {
		fields = append(fields, jen.Id("rawVariance").Index(jen.Id("Budget")).Float64().Comment("the noise variances reported, in the objective's units"))
	}
	return fields
}

// warpInit is New's statement of the warping before the first refit: the
// identity.
func (g *generator) warpInit() []jen.Code {
	if !g.warps() {
		return nil
	}
	return []jen.Code{field("warp").Op("=").Qual(runtimeWarp, "Identity").Call(jen.Lit(0.0), jen.Lit(1.0))}
}

// warpObserved are Observe's statements that keep the value y (the model's
// convention) of observation n and warp it.
func (g *generator) warpObserved() []jen.Code {
	if !g.warps() {
		return nil
	}
	stmts := []jen.Code{
		field("raw").Index(jen.Id("n")).Op("=").Id("y"),
		jen.Id("y").Op("=").Add(field("warp").Dot("Apply").Call(jen.Id("y"))),
	}
	if g.o.ReportedNoise() {
		stmts = append(stmts, field("rawVariance").Index(jen.Id("n")).Op("=").Id("sd").Op("*").Id("sd"))
	}
	return stmts
}

// rewarpCall is refitIfDue's statement that refits the warping first.
func (g *generator) rewarpCall() []jen.Code {
	if !g.warps() {
		return nil
	}
	return []jen.Code{jen.If(jen.Id("err").Op(":=").Add(method("rewarp")), jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Id("err")))}
}

// rewarpDecl declares rewarp.
func (g *generator) rewarpDecl(f *jen.File) {
	if !g.warps() {
		return
	}
	n := jen.Empty().Op(":").Id("n")
	body := []jen.Code{
		jen.Id("n").Op(":=").Add(field("model").Dot("Len").Call()),
		field("warp").Op("=").Qual(runtimeWarp, map[string]string{"power": "Fit", "worse_tail": "FitWorseTail", "auto": "FitAuto"}[g.o.Model.Warp]).Call(field("raw").Index(n)),
		jen.For(jen.Id("i").Op(":=").Range().Id("n")).Block(
			field("model").Dot("SetY").Call(jen.Id("i"), field("warp").Dot("Apply").Call(field("raw").Index(jen.Id("i")))),
		),
	}
	switch {
	case g.o.ReportedNoise():
		// Each reported variance carried to the warped units, plus the nugget.
		body = append(body,
			jen.Id("nugget").Op(":=").Add(field("nugget").Call(field("model").Dot("Y").Call(jen.Lit(0)))),
			jen.For(jen.Id("i").Op(":=").Range().Id("n")).Block(field("model").Dot("SetNoise").Call(jen.Id("i"),
				field("warp").Dot("Variance").Call(field("raw").Index(jen.Id("i")), field("rawVariance").Index(jen.Id("i"))).Op("+").Id("nugget"))),
		)
	case g.o.DeclaredNoise():
		// The declared noise is in the objective's units: carried to the warped ones.
		body = append(body, jen.For(jen.Id("i").Op(":=").Range().Id("n")).Block(
			field("model").Dot("SetNoise").Call(jen.Id("i"), field("warp").Dot("Variance").Call(field("raw").Index(jen.Id("i")), jen.Id("noiseVariance")))))
	case g.o.Noise == nil:
		// The nugget is a fraction of the values' variance: of the warped ones now.
		body = append(body,
			jen.Id("nugget").Op(":=").Add(field("nugget").Call(field("model").Dot("Y").Call(jen.Lit(0)))),
			jen.For(jen.Id("i").Op(":=").Range().Id("n")).Block(field("model").Dot("SetNoise").Call(jen.Id("i"), jen.Id("nugget"))),
		)
	}
	body = append(body, jen.Return(field("model").Dot("Refactor").Call()))
	f.Comment("rewarp refits the output warping to every value observed and gives the model")
	f.Comment("the warped values, refactored, O(n³).")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("rewarp").Params().Error().Block(body...)
}

// fromWarped is a value v of the model, in its units, in the objective's
// units and sign.
func (g *generator) fromWarped(v jen.Code) jen.Code {
	if g.warps() {
		v = field("warp").Dot("Inverse").Call(v)
	}
	return g.fromModel(v)
}

// observedValue is the value observed at index i, in the model's
// convention: the model's own, or the one kept before the warping.
func (g *generator) observedValue(i jen.Code) jen.Code {
	if g.warps() {
		return field("raw").Index(i)
	}
	return g.storedY(i)
}

// unwarpedSD are Posterior's statements that take the posterior's sd back
// to the objective's units: half the width of the ±1 sd band mapped back.
func (g *generator) unwarpedSD() []jen.Code {
	if !g.warps() {
		return nil
	}
	inverse := func(op string) jen.Code { return field("warp").Dot("Inverse").Call(jen.Id("m").Op(op).Id("sd")) }
	return []jen.Code{jen.Id("sd").Op("=").Parens(jen.Add(inverse("+")).Op("-").Add(inverse("-"))).Op("/").Lit(2)}
}
