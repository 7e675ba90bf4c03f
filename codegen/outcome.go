package codegen

import (
	"fmt"
	"strings"

	"github.com/bocdev/boc/stdlib/registry"

	"github.com/dave/jennifer/jen"
)

// Outcome constraints (require, plan.Outcomes): runtime/outcome models each
// with a Gaussian process over the evaluated points. An acquisition scored
// as the log of an improvement is weighted: the search maximises its score
// plus the log of the probability that every requirement is met, or that
// log probability alone while no evaluated point meets them with their
// confidence. Any other (ucb) is restricted: the search maximises it over
// the points where every requirement is more likely met than not, or the
// probability when none is. The incumbent and the recommendation are the best of the
// evaluated points that meet them.

// runtimeOutcome is the import path of the outcome constraints' models.
const runtimeOutcome = "github.com/bocdev/boc/runtime/outcome"

// requires reports whether the problem has outcome constraints.
func (g *generator) requires() bool { return len(g.o.Outcomes) > 0 }

// mixed reports whether the problem has both safety constraints and
// requirements: the Constraints type holds the safety constraints first
// (NumSafety of them).
func (g *generator) mixed() bool { return g.o.Safety != nil && g.requires() }

// measures reports whether the optimiser measures constraints with every
// evaluation: safety constraints or requirements.
func (g *generator) measures() bool { return len(g.o.Measured()) > 0 }

// restricts reports whether the requirements restrict the search to the
// points where they are likely met, the acquisition not being scored as the
// log of an improvement that their probability could weight.
func (g *generator) restricts() bool {
	return g.requires() && g.o.Safety == nil && !g.o.Acquisition.LogScore
}

// scoreAt names the method the search maximises, given the acquisition's
// score: the weighted score's when requirements weight it.
func (g *generator) scoreAt(acquisition string) string {
	if !g.requires() || g.restricts() {
		return acquisition
	}
	return strings.Replace(acquisition, "acquisition", "constrained", 1)
}

// outcomeFields are the Optimizer's fields for the requirements.
func (g *generator) outcomeFields() []jen.Code {
	if !g.requires() {
		return nil
	}
	fields := []jen.Code{
		jen.Line(),
		jen.Id("outcomes").Op("*").Qual(runtimeOutcome, "Models").Comment("the requirements' models"),
	}
	if g.o.Safety != nil {
		return fields // the explorer restricts its choices; the measured values are the safe optimiser's
	}
	fields = append(fields,
		jen.Id("measured").Index(jen.Id("Budget")).Id("Constraints").Comment("the requirements' values measured at the evaluated points"),
		jen.Id("violated").Index(jen.Id("Budget")).Bool().Comment("whether a measured value broke its limit"),
		jen.Id("seeksFeasibility").Bool().Comment("whether the search maximises the probability of meeting the requirements"),
	)
	if g.restricts() {
		fields = append(fields,
			jen.Id("likelyFn").Func().Params(jen.Index().Float64()).Bool().Comment("the restricted search's feasible set"),
			jen.Id(g.searchFn("feasibilityFn")).Add(g.scoreType()).Comment("the search for the probability"),
		)
	}
	return fields
}

// outcomeInit are New's statements that make the requirements' models.
func (g *generator) outcomeInit() []jen.Code {
	if !g.requires() {
		return nil
	}
	stmts := []jen.Code{jen.If(jen.Id("err").Op(":=").Add(method("makeOutcomes")), jen.Id("err").Op("!=").Nil()).Block(
		field("err").Op("=").Add(g.errorf("requirements: %w", jen.Id("err"))),
	)}
	if g.restricts() {
		fn := g.searchFn("feasibilityFn")
		stmts = append(stmts, field("likelyFn").Op("=").Add(field("likelyAt")),
			field(fn).Op("=").Add(field(strings.TrimSuffix(fn, "Fn")+"At")))
	}
	return stmts
}

// scoreType is the type of the search's objective: search.ValueGrad's for
// a gradient search.
func (g *generator) scoreType() *jen.Statement {
	if g.o.GradientSearch() {
		return jen.Func().Params(jen.Int(), jen.Index().Float64(), jen.Index().Float64()).Float64()
	}
	return jen.Func().Params(jen.Index().Float64()).Float64()
}

// outcomeDecls declares makeOutcomes and the search's constrained scores.
func (g *generator) outcomeDecls(f *jen.File) {
	if !g.requires() {
		return
	}
	var body, constraints []jen.Code
	for k := range g.o.Outcomes {
		c := &g.o.Outcomes[k]
		kernel, fields := g.constraintModel(fmt.Sprintf("k%d", k), c)
		body = append(body, kernel...)
		limit := jen.Op("&").Qual(runtimeOutcome, "Limit").Add(keyed(false, append(limitFields(c), kv{"Confidence", number(c.Constraint.Confidence).code})...))
		constraints = append(constraints, keyed(true, append(fields, kv{"Limit", limit})...))
	}
	workers := jen.Lit(1)
	if g.o.GradientSearch() {
		workers = jen.Len(field("workers"))
	}
	body = append(body,
		jen.List(jen.Id("m"), jen.Id("err")).Op(":=").Qual(runtimeOutcome, "New").Call(
			jen.Index().Qual(runtimeOutcome, "Output").Custom(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}, constraints...),
			jen.Id("Dim"), jen.Id("Budget"), workers, jen.Id("InitialDesign")),
		jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Id("err"))),
		field("outcomes").Op("=").Id("m"),
		jen.Return(jen.Nil()),
	)
	f.Comment("makeOutcomes makes the requirements' Gaussian processes.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("makeOutcomes").Params().Error().Block(body...)

	if g.o.Safety != nil {
		f.Comment("decisionFeasibility is the probability that decision point i meets every")
		f.Comment("requirement: the explorer looks for the objective's best among the points where")
		f.Comment("it exceeds one half.")
		f.Func().Params(o().Op("*").Id("Optimizer")).Id("decisionFeasibility").Params(jen.Id("i").Int()).Float64().Block(
			jen.Return(jen.Qual("math", "Exp").Call(field("outcomes").Dot("LogFeasibility").Call(jen.Lit(0), g.decisionUnits(jen.Id("i")), jen.Nil()))),
		)
		return
	}
	if g.restricts() {
		g.restrictedDecls(f)
		return
	}
	snapped, at := g.snappedPoint()
	if g.o.GradientSearch() {
		body = []jen.Code{
			jen.Id("score").Op(":=").Lit(0.0),
			jen.If(jen.Op("!").Add(field("seeksFeasibility"))).Block(
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
		jen.If(jen.Op("!").Add(field("seeksFeasibility"))).Block(jen.Id("score").Op("=").Add(field("acquisitionAt").Call(jen.Id("u")))),
	}, snapped...)
	body = append(body, jen.Return(jen.Id("score").Op("+").Add(field("outcomes").Dot("LogFeasibility").Call(jen.Lit(0), at, jen.Nil()))))
	f.Comment("constrainedAt is the search's score at unit coordinates u: the acquisition's")
	f.Comment("plus the log of the probability that every requirement is met there, or that")
	f.Comment("log probability alone while no evaluated point meets them.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("constrainedAt").Params(jen.Id("u").Index().Float64()).Float64().Block(body...)
}

// snappedPoint are the statements that snap the unit point u's integer
// components, as the acquisition's score does itself, and the slice of the
// point they leave: the probability is taken where the score is.
func (g *generator) snappedPoint() ([]jen.Code, jen.Code) {
	if !g.hasInteger() {
		return nil, jen.Id("u")
	}
	return g.unitPoint(), jen.Id("p").Index(jen.Op(":"))
}

// restrictedDecls declares the restricted search's feasible set and its
// fallback, the search for the probability of meeting the requirements.
func (g *generator) restrictedDecls(f *jen.File) {
	likely := field("outcomes").Dot("Likely").Call(jen.Id("u"))
	if len(g.known) > 0 {
		likely = field("feasibleAt").Call(jen.Id("u")).Op("&&").Add(likely)
	}
	f.Comment("likelyAt reports whether unit coordinates u may be searched: every requirement")
	if len(g.known) > 0 {
		f.Comment("is more likely met there than not, and the known constraints hold.")
	} else {
		f.Comment("is more likely met there than not.")
	}
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("likelyAt").Params(jen.Id("u").Index().Float64()).Bool().Block(jen.Return(likely))
	snapped, at := g.snappedPoint()
	if g.o.GradientSearch() {
		body := append([]jen.Code{jen.Clear(jen.Id("grad"))}, snapped...)
		body = append(body,
			jen.Id("score").Op(":=").Add(field("outcomes").Dot("LogFeasibility").Call(jen.Id("worker"), at, jen.Id("grad"))),
			g.zeroIntegerGrad(),
			jen.Return(jen.Id("score")),
		)
		f.Comment("feasibilityGradAt is the log of the probability that every requirement is met at")
		f.Comment("unit coordinates u and, unless grad is nil, writes its gradient to grad.")
		f.Func().Params(o().Op("*").Id("Optimizer")).Id("feasibilityGradAt").Params(jen.Id("worker").Int(), jen.List(jen.Id("u"), jen.Id("grad")).Index().Float64()).Float64().Block(body...)
		return
	}
	f.Comment("feasibilityAt is the log of the probability that every requirement is met at unit")
	f.Comment("coordinates u.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("feasibilityAt").Params(jen.Id("u").Index().Float64()).Float64().Block(
		append(snapped, jen.Return(field("outcomes").Dot("LogFeasibility").Call(jen.Lit(0), at, jen.Nil())))...)
}

// searchAcquisition are Suggest's statements that search the acquisition,
// leaving value and err, and return a failed search's error. When no point
// is likely feasible for a restricted search, the search for the
// probability takes its place.
func (g *generator) searchAcquisition() []jen.Code {
	failed := jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Id("Point").Values(), g.searchError("acquisition search")))
	if !g.restricts() {
		return []jen.Code{g.acquisitionSearch(), failed}
	}
	known := jen.Nil()
	if len(g.known) > 0 {
		known = field("feasibleFn")
	}
	seed := jen.Id("streamSeed").Call(field("seed"), jen.Uint64().Call(jen.Id("n")), jen.Lit(0))
	return []jen.Code{
		g.acquisitionSearch(),
		jen.If(jen.Qual("errors", "Is").Call(jen.Id("err"), jen.Qual(runtimeSearch, "ErrNoFeasible"))).Block(
			jen.Comment("No point is likely feasible: seek the probability of meeting the requirements."),
			field("seeksFeasibility").Op("=").True(),
			jen.List(jen.Id("value"), jen.Id("err")).Op("=").Add(field("search").Dot("Maximize").Call(field(g.searchFn("feasibilityFn")), known, seed, whole(field("candidate")))),
		),
		failed,
	}
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

// outcomeIncumbentDecl emits incumbent for an optimiser with requirements
// (and, with a safe acquisition, safety constraints: keptSafety).
func (g *generator) outcomeIncumbentDecl(f *jen.File) {
	skip := jen.Op("!").Add(field("outcomes").Dot("Feasible").Call(jen.Id("i")))
	f.Comment("incumbent returns the index of the evaluated point with the largest posterior")
	if g.o.Safety != nil {
		skip = skip.Op("||").Op("!").Add(field("keptSafety").Call(jen.Id("i")))
		f.Comment("mean, in the model's convention, and that mean, among the points whose measured")
		f.Comment("safety constraints kept their limits and that meet every requirement with its")
		f.Comment("confidence (runtime/outcome's Feasible); index is -1 when none does.")
	} else {
		f.Comment("mean, in the model's convention, and that mean, among the points that meet every")
		f.Comment("requirement with its confidence (runtime/outcome's Feasible); index is -1 when")
		f.Comment("none does.")
	}
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("incumbent").Params().Params(jen.Id("index").Int(), jen.Id("mean").Float64()).Block(
		jen.Id("index").Op("=").Lit(-1),
		jen.For(jen.Id("i").Op(":=").Range().Add(field("model").Dot("Len").Call())).Block(
			jen.If(skip).Block(jen.Continue()),
			jen.If(jen.Id("m").Op(":=").Add(field("model").Dot("TrainMean").Call(jen.Id("i"))), jen.Id("index").Op("<").Lit(0).Op("||").Id("m").Op(">").Id("mean")).Block(
				jen.List(jen.Id("index"), jen.Id("mean")).Op("=").List(jen.Id("i"), jen.Id("m")),
			),
		),
		jen.Return(jen.Id("index"), jen.Id("mean")),
	)
}

// feasibleIncumbent are Suggest's statements that find the incumbent among
// the points that meet the requirements and, when there is one, set best
// and run then, with the incumbent's index i. Without one, a weighted
// search seeks feasibility; a restricted one searches the likely points
// all the same.
func (g *generator) feasibleIncumbent(then []jen.Code) []jen.Code {
	mean, best := jen.Id("mean"), field("best").Op("=").Id("mean")
	if g.o.Acquisition.Incumbent == registry.BestObserved {
		mean, best = jen.Id("_"), field("best").Op("=").Add(field("model")).Dot("Y").Call(field("bestIndex"))
	}
	found := jen.If(jen.List(jen.Id("i"), mean).Op(":=").Add(method("incumbent")), jen.Id("i").Op(">=").Lit(0)).Block(append([]jen.Code{best}, then...)...)
	if !g.restricts() {
		found.Else().Block(field("seeksFeasibility").Op("=").True())
	}
	return []jen.Code{field("seeksFeasibility").Op("=").False(), found}
}

// searchedAcquisition is whether a search's maximum is the acquisition's:
// not while the search seeks feasibility.
func (g *generator) searchedAcquisition() jen.Code {
	if g.requires() {
		return jen.Op("!").Add(field("seeksFeasibility"))
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
