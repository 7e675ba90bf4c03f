package codegen

import (
	"fmt"
	"strings"

	"github.com/bocdev/boc/stdlib/registry"

	"github.com/dave/jennifer/jen"
)

// Outcome constraints (require, plan.Outcomes): runtime/outcome models each
// with a Gaussian process over the evaluated points. The search maximises
// the acquisition's score plus the log of the probability that every
// requirement is met, or that log probability alone while no evaluated
// point meets them with their confidence; the incumbent and the
// recommendation are the best of the evaluated points that do.

// runtimeOutcome is the import path of the outcome constraints' models.
const runtimeOutcome = "github.com/bocdev/boc/runtime/outcome"

// requires reports whether the problem has outcome constraints.
func (g *generator) requires() bool { return len(g.o.Outcomes) > 0 }

// measures reports whether the optimiser measures constraints with every
// evaluation: safety constraints or requirements.
func (g *generator) measures() bool { return len(g.o.Measured()) > 0 }

// scoreAt names the method the search maximises, given the acquisition's
// score: the constrained score's when there are requirements.
func (g *generator) scoreAt(acquisition string) string {
	if !g.requires() {
		return acquisition
	}
	return strings.Replace(acquisition, "acquisition", "constrained", 1)
}

// outcomeFields are the Optimizer's fields for the requirements.
func (g *generator) outcomeFields() []jen.Code {
	if !g.requires() {
		return nil
	}
	return []jen.Code{
		jen.Line(),
		jen.Id("outcomes").Op("*").Qual(runtimeOutcome, "Models").Comment("the requirements' models"),
		jen.Id("measured").Index(jen.Id("Budget")).Id("Constraints").Comment("the requirements' values measured at the evaluated points"),
		jen.Id("violated").Index(jen.Id("Budget")).Bool().Comment("whether a measured value broke its limit"),
		jen.Id("feasibleIncumbent").Bool().Comment("whether the search weights the acquisition (else it seeks feasibility)"),
	}
}

// outcomeInit are New's statements that make the requirements' models.
func (g *generator) outcomeInit() []jen.Code {
	if !g.requires() {
		return nil
	}
	return []jen.Code{jen.If(jen.Id("err").Op(":=").Add(method("makeOutcomes")), jen.Id("err").Op("!=").Nil()).Block(
		field("err").Op("=").Add(g.errorf("requirements: %w", jen.Id("err"))),
	)}
}

// outcomeDecls declares makeOutcomes and the search's constrained scores.
func (g *generator) outcomeDecls(f *jen.File) {
	if !g.requires() {
		return
	}
	var body, constraints []jen.Code
	for k, c := range g.measured() {
		kernel, fields := g.constraintModel(fmt.Sprintf("k%d", k), c)
		body = append(body, kernel...)
		constraints = append(constraints, keyed(true, append(fields, kv{"Confidence", number(c.Constraint.Confidence).code})...))
	}
	workers := jen.Lit(1)
	if g.o.GradientSearch() {
		workers = jen.Len(field("workers"))
	}
	body = append(body,
		jen.List(jen.Id("m"), jen.Id("err")).Op(":=").Qual(runtimeOutcome, "New").Call(
			jen.Index().Qual(runtimeOutcome, "Constraint").Custom(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}, constraints...),
			jen.Id("Dim"), jen.Id("Budget"), workers, jen.Id("InitialDesign")),
		jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Id("err"))),
		field("outcomes").Op("=").Id("m"),
		jen.Return(jen.Nil()),
	)
	f.Comment("makeOutcomes makes the requirements' Gaussian processes.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("makeOutcomes").Params().Error().Block(body...)

	// The acquisition's score snaps integer components itself; the
	// probability is taken at the same point.
	var snapped []jen.Code
	at := jen.Id("u")
	if g.hasInteger() {
		snapped, at = g.unitPoint(), jen.Id("p").Index(jen.Op(":"))
	}
	if g.o.GradientSearch() {
		body = []jen.Code{
			jen.Id("score").Op(":=").Lit(0.0),
			jen.If(field("feasibleIncumbent")).Block(
				jen.Id("score").Op("=").Add(field("acquisitionGradAt").Call(jen.Id("worker"), jen.Id("u"), jen.Id("grad"))),
			).Else().Block(jen.Clear(jen.Id("grad"))),
		}
		body = append(body, snapped...)
		body = append(body,
			jen.Id("score").Op("+=").Add(field("outcomes").Dot("LogFeasibility").Call(jen.Id("worker"), at, jen.Id("grad"))),
			g.zeroIntegerGrad(),
			jen.Return(jen.Id("score")),
		)
		f.Comment("constrainedGradAt is the search's score at unit coordinates u: the acquisition's")
		f.Comment("plus the log of the probability that every requirement is met there, or that")
		f.Comment("log probability alone while no evaluated point meets them; unless grad is nil")
		f.Comment("it writes the score's gradient to grad.")
		f.Func().Params(o().Op("*").Id("Optimizer")).Id("constrainedGradAt").Params(jen.Id("worker").Int(), jen.List(jen.Id("u"), jen.Id("grad")).Index().Float64()).Float64().Block(body...)
		return
	}
	body = append([]jen.Code{
		jen.Id("score").Op(":=").Lit(0.0),
		jen.If(field("feasibleIncumbent")).Block(jen.Id("score").Op("=").Add(field("acquisitionAt").Call(jen.Id("u")))),
	}, snapped...)
	body = append(body, jen.Return(jen.Id("score").Op("+").Add(field("outcomes").Dot("LogFeasibility").Call(jen.Lit(0), at, jen.Nil()))))
	f.Comment("constrainedAt is the search's score at unit coordinates u: the acquisition's")
	f.Comment("plus the log of the probability that every requirement is met there, or that")
	f.Comment("log probability alone while no evaluated point meets them.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("constrainedAt").Params(jen.Id("u").Index().Float64()).Float64().Block(body...)
}

// feasibilityDecl emits Feasibility, the probability of meeting the
// requirements at a point.
func (g *generator) feasibilityDecl(f *jen.File) {
	f.Comment("Feasibility returns the posterior probability that x meets every requirement,")
	f.Comment("the requirements taken as independent. It uses the optimiser's working memory,")
	f.Comment("so it must not run concurrently with Suggest or Observe.")
	round := g.roundIntegers(f)
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("Feasibility").Params(jen.Id("x").Id("Point")).Params(jen.Float64(), jen.Error()).Block(append(append([]jen.Code{
		jen.If(field("err").Op("!=").Nil()).Block(jen.Return(jen.Lit(0), field("err")))}, round...),
		jen.List(jen.Id("u"), jen.Id("err")).Op(":=").Id("toUnit").Call(jen.Id("x")),
		jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Lit(0), jen.Id("err"))),
		jen.Return(jen.Qual("math", "Exp").Call(field("outcomes").Dot("LogFeasibility").Call(jen.Lit(0), jen.Id("u").Index(jen.Op(":")), jen.Nil())), jen.Nil()),
	)...)
}

// outcomeIncumbentDecl emits incumbent for an optimiser with requirements.
func (g *generator) outcomeIncumbentDecl(f *jen.File) {
	f.Comment("incumbent returns the index of the evaluated point with the largest posterior")
	f.Comment("mean, in the model's convention, and that mean, among the points that meet every")
	f.Comment("requirement with its confidence (runtime/outcome's Feasible); index is -1 when")
	f.Comment("none does.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("incumbent").Params().Params(jen.Id("index").Int(), jen.Id("mean").Float64()).Block(
		jen.Id("index").Op("=").Lit(-1),
		jen.For(jen.Id("i").Op(":=").Range().Add(field("model").Dot("Len").Call())).Block(
			jen.If(jen.Op("!").Add(field("outcomes").Dot("Feasible").Call(jen.Id("i")))).Block(jen.Continue()),
			jen.If(jen.Id("m").Op(":=").Add(field("model").Dot("TrainMean").Call(jen.Id("i"))), jen.Id("index").Op("<").Lit(0).Op("||").Id("m").Op(">").Id("mean")).Block(
				jen.List(jen.Id("index"), jen.Id("mean")).Op("=").List(jen.Id("i"), jen.Id("m")),
			),
		),
		jen.Return(jen.Id("index"), jen.Id("mean")),
	)
}

// feasibleIncumbent is Suggest's statement that finds the incumbent among
// the points that meet the requirements and, when there is one, sets best
// and runs then, with the incumbent's index i; without one the search seeks
// feasibility.
func (g *generator) feasibleIncumbent(then []jen.Code) jen.Code {
	mean, best := jen.Id("mean"), field("best").Op("=").Id("mean")
	if g.o.Acquisition.Incumbent == registry.BestObserved {
		mean, best = jen.Id("_"), field("best").Op("=").Add(field("model")).Dot("Y").Call(field("bestIndex"))
	}
	return jen.If(jen.List(jen.Id("i"), mean).Op(":=").Add(method("incumbent")), jen.Id("i").Op(">=").Lit(0)).Block(append([]jen.Code{
		field("feasibleIncumbent").Op("=").True(), best}, then...)...,
	).Else().Block(field("feasibleIncumbent").Op("=").False())
}

// searchedAcquisition is whether a search's maximum is the acquisition's:
// not while the search seeks feasibility.
func (g *generator) searchedAcquisition() jen.Code {
	if g.requires() {
		return field("feasibleIncumbent")
	}
	return jen.True()
}

// recommended is where Run stores Best's ok in v, a Progress or a Result:
// whether there is a recommendation, when requirements may leave none.
func (g *generator) recommended(v string) jen.Code {
	if !g.requires() {
		return jen.Id("_")
	}
	return jen.Id(v).Dot("Feasible")
}

// recommendationValue is the objective's value without noise at v's
// recommendation: NaN when there is none.
func (g *generator) recommendationValue(v string) jen.Code {
	if !g.requires() {
		return jen.Id("noiseFree").Call(jen.Id(v).Dot("Recommendation"))
	}
	return jen.Id("feasibleValue").Call(jen.Id(v).Dot("Feasible"), jen.Id(v).Dot("Recommendation"))
}

// feasibleValueDecl emits feasibleValue, the value without noise at a
// recommendation if there is one.
func (g *generator) feasibleValueDecl(f *jen.File) {
	if !g.requires() {
		return
	}
	f.Comment("feasibleValue is noiseFree(x) when ok (x is a recommendation), NaN otherwise.")
	f.Func().Id("feasibleValue").Params(jen.Id("ok").Bool(), jen.Id("x").Id("Point")).Float64().Block(
		jen.If(jen.Op("!").Id("ok")).Block(jen.Return(jen.Qual("math", "NaN").Call())),
		jen.Return(jen.Id("noiseFree").Call(jen.Id("x"))),
	)
}

// trulyFeasible is Run's statement that judges v's recommendation (a
// Progress or a Result) by the simulated requirements' true values.
func (g *generator) trulyFeasible(v string) jen.Code {
	if !g.requires() {
		return jen.Null()
	}
	return jen.Id(v).Dot("TrulyFeasible").Op("=").Id(v).Dot("Feasible").Op("&&").Op("!").Id("trulyUnsafe").Call(jen.Id(v).Dot("Recommendation"))
}
