package codegen

import (
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

// Pending points (docs/batches.md): points handed out for evaluation whose
// values have not come back. The optimiser keeps them in a fixed array, in
// the order they were marked; Suggest never returns one. An unsafe optimiser
// adds them to the model as fantasies, after the observations, for the
// search only: Suggest truncates the model back to the observations, so
// Observe, the refits, the incumbent and Best see real observations alone,
// and what the fantasies are worth is the acquisition's rule
// (registry.PendingBelief). A safe optimiser only excludes them from the
// explorer's choice: a fantasy in a constraint's model would count towards
// a safety certificate.

// pendingFields are the optimiser's fields for the pending points.
func pendingFields() []jen.Code {
	return []jen.Code{
		jen.Line(),
		jen.Id("pending").Index(jen.Id("Budget")).Id("Point").Comment("the points being evaluated (Pending), in order"),
		jen.Id("npending").Int().Comment("how many"),
	}
}

// pendingDecls declares Pending, Release, SuggestBatch and their helpers.
func (g *generator) pendingDecls(f *jen.File) {
	x := jen.Op("&").Id("x")
	f.Comment("Pending records that x is being evaluated: until Observe(x, …) or Release(x),")
	f.Comment("Suggest accounts for it and never returns it. It returns ErrFull when the")
	f.Comment("pending points and the observations fill Budget, and rejects what Observe")
	f.Comment("rejects of x and a point that is pending already. A pending point is never an")
	f.Comment("observation: Evaluations, Best, BestObserved and the refits ignore it.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("Pending").Params(jen.Id("x").Id("Point")).Error().Block(
		jen.If(g.observationCount().Op("+").Add(field("npending")).Op(">=").Id("Budget")).Block(jen.Return(jen.Id("ErrFull"))),
		jen.If(jen.List(jen.Id("_"), jen.Id("err")).Op(":=").Id("toUnit").Call(jen.Id("x")), jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Id("err"))),
		jen.If(field("pendingIndex").Call(x).Op(">=").Lit(0)).Block(jen.Return(g.errorf("%v is pending already", jen.Id("x")))),
		field("pending").Index(field("npending")).Op("=").Id("x"),
		field("npending").Op("++"),
		jen.Return(jen.Nil()),
	)

	f.Comment("Release forgets the pending point x without an observation (its evaluation")
	f.Comment("failed or was abandoned); it returns false when x was not pending.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("Release").Params(jen.Id("x").Id("Point")).Bool().Block(
		jen.Id("i").Op(":=").Add(field("pendingIndex").Call(x)),
		jen.If(jen.Id("i").Op("<").Lit(0)).Block(jen.Return(jen.False())),
		jen.Copy(field("pending").Index(jen.Id("i").Op(":").Add(field("npending"))), field("pending").Index(jen.Id("i").Op("+").Lit(1).Op(":").Add(field("npending")))),
		field("npending").Op("--"),
		jen.Return(jen.True()),
	)

	f.Comment("pendingIndex is the index of x among the pending points, or −1.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("pendingIndex").Params(jen.Id("x").Op("*").Id("Point")).Int().Block(
		jen.For(jen.Id("i").Op(":=").Range().Add(field("npending"))).Block(
			jen.If(field("pending").Index(jen.Id("i")).Op("==").Op("*").Id("x")).Block(jen.Return(jen.Id("i"))),
		),
		jen.Return(jen.Lit(-1)),
	)

	suggestBatchDecl(f)
	if g.o.Safety != nil {
		g.safePendingDecls(f)
		return
	}
	g.fantasiseDecl(f)
}

// pendingSuggestComment documents how Suggest treats the pending points.
func (g *generator) pendingSuggestComment(f *jen.File) {
	f.Comment("Pending points count towards the design (the next design point is number")
	f.Comment("Evaluations() plus the pending ones) and, for the search, enter the model as")
	if g.o.Acquisition.Pending == registry.Hallucinate {
		f.Comment("fantasies at their own posterior mean (GP-BUCB's hallucination): the mean stays,")
		f.Comment("the variance near them shrinks, and so does the acquisition's optimism there.")
	} else {
		f.Comment("fantasies at the worst value observed so far, 0 before any (a constant liar), so")
		f.Comment("that the search moves away from them.")
	}
}

// fantasiseDecl emits fantasise, which adds the pending points to the model.
func (g *generator) fantasiseDecl(f *jen.File) {
	w, _ := ownWork()
	var before, value []jen.Code
	doc := "at its own posterior mean (GP-BUCB), given the observations and the fantasies before it."
	if g.o.Acquisition.Pending == registry.Hallucinate {
		value = []jen.Code{jen.Id("y").Op(":=").Add(field("model").Dot("Mean").Call(field("kvec").Index(jen.Empty().Op(":").Id("n"))))}
	} else {
		doc = "at the worst value observed so far, 0 before any (a constant liar)."
		before = []jen.Code{jen.Id("y").Op(":=").Add(field("model").Dot("MinY").Call())}
	}
	loop := []jen.Code{jen.Id("n").Op(":=").Add(field("model").Dot("Len").Call())}
	if g.local() {
		loop = append(loop, jen.If(jen.Id("n").Op("==").Id("modelSize")).Block(
			jen.Break().Comment("no room for more: the rest are pending without a fantasy"),
		))
	}
	loop = append(loop, jen.List(jen.Id("u"), jen.Id("_")).Op(":=").Id("toUnit").Call(jen.Id("x")).Comment("Pending checked x"))
	loop = append(loop, g.modelAdd(g.representCandidate(w, jen.Op("&").Id("u"), jen.Op("&").Add(field("reps")).Index(jen.Id("n"))), value, true, "AddFantasy", "fantasising pending point")...)
	loop = append(loop, jen.List(field("points").Index(jen.Id("n")), field("units").Index(jen.Id("n"))).Op("=").List(jen.Id("x"), jen.Id("u")))
	body := append(before,
		jen.For(jen.List(jen.Id("_"), jen.Id("x")).Op(":=").Range().Add(field("pending")).Index(jen.Empty().Op(":").Add(field("npending")))).Block(loop...),
		jen.Return(jen.Nil()),
	)
	f.Comment("fantasise adds each pending point to the model, after the observations, as a")
	f.Comment("fantasy observation with the noise an observation there would have, valued")
	f.Comment(doc)
	f.Comment("The fantasies change neither the model's standardisation nor the refits: Suggest")
	f.Comment("truncates them away before it returns.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("fantasise").Params().Error().Block(body...)
}

// safePendingDecls emits pendingAt, the explorer's test of pending decision
// points, and decisionPoint, which it and Suggest share.
func (g *generator) safePendingDecls(f *jen.File) {
	f.Comment("pendingAt reports whether decision point i is pending, for the explorer, which")
	f.Comment("then does not choose it.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("pendingAt").Params(jen.Id("i").Int()).Bool().Block(
		jen.Id("x").Op(":=").Add(field("decisionPoint").Call(jen.Id("i"))),
		jen.Return(field("pendingIndex").Call(jen.Op("&").Id("x")).Op(">=").Lit(0)),
	)
	var body []jen.Code
	if g.o.Safety.Pool > 0 {
		// The seeds keep their declared coordinates, which Observe recognises.
		body = append(body,
			jen.If(jen.Id("i").Op("<").Len(field("decision"))).Block(jen.Return(field("decision").Index(jen.Id("i")))),
			jen.Return(jen.Id("fromUnit").Call(jen.Parens(jen.Op("*").Add(unitArray())).Call(g.decisionUnits(jen.Id("i"))))),
		)
	} else {
		body = append(body, jen.Return(field("decision").Index(jen.Id("i"))))
	}
	f.Comment("decisionPoint is decision point i in user units.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("decisionPoint").Params(jen.Id("i").Int()).Id("Point").Block(body...)
}

// suggestBatchDecl emits SuggestBatch: Suggest then Pending, in turn.
func suggestBatchDecl(f *jen.File) {
	f.Comment("SuggestBatch fills xs with len(xs) points to evaluate at once, each marked")
	f.Comment("pending: Suggest then Pending, in turn. On an error it releases the points it")
	f.Comment("marked and returns the error.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("SuggestBatch").Params(jen.Id("xs").Index().Id("Point")).Error().Block(
		jen.For(jen.Id("i").Op(":=").Range().Id("xs")).Block(
			jen.List(jen.Id("x"), jen.Id("err")).Op(":=").Add(method("Suggest")),
			jen.If(jen.Id("err").Op("==").Nil()).Block(jen.Id("err").Op("=").Add(field("Pending").Call(jen.Id("x")))),
			jen.If(jen.Id("err").Op("!=").Nil()).Block(
				jen.For(jen.List(jen.Id("_"), jen.Id("x")).Op(":=").Range().Id("xs").Index(jen.Empty().Op(":").Id("i"))).Block(field("Release").Call(jen.Id("x"))),
				jen.Return(jen.Id("err")),
			),
			jen.Id("xs").Index(jen.Id("i")).Op("=").Id("x"),
		),
		jen.Return(jen.Nil()),
	)
}
