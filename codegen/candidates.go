package codegen

import (
	"fmt"
	"github.com/bocdev/boc/dsl/ir"

	"github.com/dave/jennifer/jen"
)

// A finite decision set (`candidates file "x.csv"`) replaces the continuous
// search: the points, read by the type checker, are emitted as a constant
// table, and Suggest asks the search's MaximizeFinite for the best candidate
// not evaluated yet. A generated initial design is moved onto the candidates:
// each design point is replaced by the nearest free candidate.

// planCandidates checks that the checker read the candidate points.
func (g *generator) planCandidates() {
	if c := g.p.Candidates; c != nil && len(c.Points) == 0 {
		g.internal(c.Span, "a candidate set without points reached code generation")
	}
}

// candidatesDecls declares the candidate table and the methods using it.
func (g *generator) candidatesDecls(f *jen.File) {
	if !g.o.Finite() {
		return
	}
	g.candidateTableDecl(f)
	f.Comment("freeCandidates packs the candidates not evaluated yet, in unit coordinates, into")
	f.Comment("candidateUnits, with their indices in candidateIndex, and returns their number.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("freeCandidates").Params().Int().Block(
		jen.Id("m").Op(":=").Lit(0),
		jen.For(jen.Id("i").Op(":=").Range().Id("candidatePoints")).Block(
			jen.If(field("evaluated").Call(jen.Op("&").Id("candidatePoints").Index(jen.Id("i")))).Block(jen.Continue()),
			jen.Id("u").Op(":=").Id("candidateUnit").Call(jen.Id("i")),
			jen.Copy(field("candidateUnits").Index(jen.Id("m").Op("*").Id("Dim").Op(":")), whole(jen.Id("u"))),
			field("candidateIndex").Index(jen.Id("m")).Op("=").Id("i"),
			jen.Id("m").Op("++"),
		),
		jen.Return(jen.Id("m")),
	)
	f.Comment("candidateUnit returns candidate i in unit coordinates; the compiler checked that")
	f.Comment("every candidate lies in the domain, so toUnit cannot fail.")
	f.Func().Id("candidateUnit").Params(jen.Id("i").Int()).Add(unitArray()).Block(
		jen.List(jen.Id("u"), jen.Id("_")).Op(":=").Id("toUnit").Call(jen.Id("candidatePoints").Index(jen.Id("i"))),
		jen.Return(jen.Id("u")),
	)
	g.bestCandidateDecl(f)
	if g.initEmit != nil {
		g.designFromCandidatesDecl(f)
	}
}

// candidateTableDecl declares the candidates: their number and points.
func (g *generator) candidateTableDecl(f *jen.File) {
	c := g.p.Candidates
	points := make([]jen.Code, len(c.Points))
	for i, pt := range c.Points {
		vals := make([]jen.Code, len(pt))
		for j, v := range pt {
			vals[j] = number(v).code
		}
		points[i] = jen.Values(vals...)
	}
	source := fmt.Sprintf("read from %q", c.File)
	if c.Call != nil {
		source = "made by " + callString(c.Call)
	}
	f.Comment(fmt.Sprintf("numCandidates is the size of the finite decision set, %s.", source))
	f.Const().Id("numCandidates").Op("=").Lit(len(c.Points))
	f.Comment("candidatePoints are the only points Suggest chooses among, in the file's order.")
	f.Var().Id("candidatePoints").Op("=").Index(jen.Id("numCandidates")).Id("Point").Values(points...)
}

// designFromCandidatesDecl emits the method that moves the generated design
// onto the candidates.
func (g *generator) designFromCandidatesDecl(f *jen.File) {
	skip := jen.Id("taken").Index(jen.Id("i"))
	if len(g.known) > 0 {
		skip = skip.Op("||").Op("!").Id("feasible").Call(jen.Id("candidatePoints").Index(jen.Id("i")))
	}
	note := ""
	if len(g.known) > 0 {
		note = " and satisfies the known constraints"
	}
	f.Comment("designFromCandidates replaces each design point by the nearest candidate, in unit")
	f.Comment("coordinates, that is not in the design yet" + note + "; the design ends early")
	f.Comment("when no candidate is left.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("designFromCandidates").Params().Block(
		jen.Var().Id("taken").Index(jen.Id("numCandidates")).Bool(),
		jen.Id("size").Op(":=").Lit(0),
		jen.For(jen.Id("d").Op(":=").Range().Add(field("designSize"))).Block(
			jen.List(jen.Id("target"), jen.Id("_")).Op(":=").Id("toUnit").Call(field("design").Index(jen.Id("d"))),
			jen.List(jen.Id("nearest"), jen.Id("distance")).Op(":=").List(jen.Lit(-1), jen.Qual("math", "Inf").Call(jen.Lit(1))),
			jen.For(jen.Id("i").Op(":=").Range().Id("candidatePoints")).Block(
				jen.If(skip).Block(jen.Continue()),
				jen.Id("u").Op(":=").Id("candidateUnit").Call(jen.Id("i")),
				jen.Id("d2").Op(":=").Lit(0.0),
				jen.For(jen.Id("j").Op(":=").Range().Id("u")).Block(
					jen.Id("d2").Op("+=").Parens(jen.Id("u").Index(jen.Id("j")).Op("-").Id("target").Index(jen.Id("j"))).Op("*").
						Parens(jen.Id("u").Index(jen.Id("j")).Op("-").Id("target").Index(jen.Id("j"))),
				),
				jen.If(jen.Id("d2").Op("<").Id("distance")).Block(jen.List(jen.Id("nearest"), jen.Id("distance")).Op("=").List(jen.Id("i"), jen.Id("d2"))),
			),
			jen.If(jen.Id("nearest").Op("<").Lit(0)).Block(jen.Break()),
			jen.Id("taken").Index(jen.Id("nearest")).Op("=").True(),
			field("design").Index(jen.Id("size")).Op("=").Id("candidatePoints").Index(jen.Id("nearest")),
			jen.Id("size").Op("++"),
		),
		field("designSize").Op("=").Id("size"),
	)
}

// candidatesFields are the Optimizer's fields for a finite decision set.
func (g *generator) candidatesFields() []jen.Code {
	if !g.o.Finite() {
		return nil
	}
	return []jen.Code{
		jen.Line(),
		jen.Id("candidateUnits").Index(jen.Id("numCandidates").Op("*").Id("Dim")).Float64().Comment("the free candidates in unit coordinates"),
		jen.Id("candidateIndex").Index(jen.Id("numCandidates")).Int().Comment("their indices in candidatePoints"),
	}
}

// candidatesInit is New's statement, after the design is made, moving a
// generated design onto the candidates.
func (g *generator) candidatesInit() []jen.Code {
	if !g.o.Finite() || g.initEmit == nil {
		return nil
	}
	return []jen.Code{method("designFromCandidates")}
}

// finiteSearch is the end of Suggest for a finite decision set: the free
// candidate with the best acquisition, or ErrExhausted when none is left.
func (g *generator) finiteSearch() []jen.Code {
	search := jen.List(jen.Id("i"), jen.Id("value"), jen.Id("err")).Op(":=").Add(g.maximizeFinite())
	if g.o.Acquisition.Arms > 0 {
		search = jen.List(jen.Id("i"), jen.Id("value"), jen.Id("err")).Op(":=").Add(jen.Id("o").Dot("searchArms").Call(jen.Id("n"), jen.Id("m")))
	}
	return []jen.Code{
		jen.Id("m").Op(":=").Add(method("freeCandidates")),
		search,
		jen.If(jen.Id("err").Op("!=").Nil()).Block(
			jen.Comment("Every feasible candidate has been evaluated."),
			jen.Return(jen.Id("Point").Values(), jen.Id("ErrExhausted")),
		),
		jen.List(field("lastAcquisition"), field("searched")).Op("=").List(g.acquisitionValue(jen.Id("value")), jen.True()),
		jen.Return(jen.Id("candidatePoints").Index(field("candidateIndex").Index(jen.Id("i"))), jen.Nil()),
	}
}

// maximizeFinite is a call of the search maximising the acquisition over the
// m free candidates (freeCandidates), returning the best one's index among
// them, its score and an error when none is feasible.
func (g *generator) maximizeFinite() jen.Code {
	return field("search").Dot("MaximizeFinite").Call(
		field(g.searchFn("acquisitionFn")), g.feasible(), field("candidateUnits").Index(jen.Empty().Op(":").Id("m").Op("*").Id("Dim")))
}

// bestCandidateDecl emits BestCandidate for an expression objective: the
// optimum of the finite decision set, which a study measures regret against
// when no benchmark gives it.
func (g *generator) bestCandidateDecl(f *jen.File) {
	if g.p.Objective.Binding.Kind != ir.ExprBinding {
		return
	}
	better := ">"
	if !g.p.Objective.Maximize {
		better = "<"
	}
	var skip jen.Code = jen.Null()
	if len(g.known) > 0 {
		skip = jen.If(jen.Op("!").Id("feasible").Call(jen.Id("x"))).Block(jen.Continue())
	}
	var truth jen.Code = jen.Null()
	if g.o.Safety != nil && g.judgesTruth() {
		truth = jen.If(jen.Id("trulyUnsafe").Call(jen.Id("x"))).Block(jen.Continue())
	}
	f.Comment("BestCandidate returns the candidate with the best noise-free objective value")
	f.Comment("among those that satisfy the known constraints, and that value: the optimum of")
	f.Comment("the finite decision set. The value is NaN when no candidate is feasible.")
	if g.o.Safety != nil && g.judgesTruth() {
		f.Comment("Candidates whose simulated constraints are truly broken are not feasible: the")
		f.Comment("optimum is the safe one, the SGP-UCB paper's benchmark.")
	}
	f.Func().Id("BestCandidate").Params().Params(jen.Id("best").Id("Point"), jen.Id("value").Float64()).Block(
		jen.Id("value").Op("=").Qual("math", "NaN").Call(),
		jen.For(jen.List(jen.Id("_"), jen.Id("x")).Op(":=").Range().Id("candidatePoints")).Block(
			skip,
			truth,
			jen.If(jen.Id("v").Op(":=").Id("noiseFree").Call(jen.Id("x")), jen.Qual("math", "IsNaN").Call(jen.Id("value")).Op("||").Id("v").Op(better).Id("value")).Block(
				jen.List(jen.Id("best"), jen.Id("value")).Op("=").List(jen.Id("x"), jen.Id("v")),
			),
		),
		jen.Return(),
	)
}
