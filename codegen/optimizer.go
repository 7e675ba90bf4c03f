package codegen

import (
	"fmt"

	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

// designPoolFactor is how many candidates per initial point a generated
// design draws when known constraints may reject some.
const designPoolFactor = 32

// nuggetFraction is the noise variance, relative to the variance of the
// observed values, given to the model of a noise-free objective so that its
// kernel matrix stays well conditioned in any units.
const nuggetFraction = 1e-8

// kv is one key: value of a composite literal.
type kv struct {
	key   string
	value jen.Code
}

// keyed is the body of a composite literal with its fields in the given
// order (jen.Dict sorts them), one per line when multiline.
func keyed(multiline bool, fields ...kv) *jen.Statement {
	items := make([]jen.Code, len(fields))
	for i, f := range fields {
		items[i] = jen.Id(f.key).Op(":").Add(f.value)
	}
	return jen.Custom(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: multiline}, items...)
}

func o() *jen.Statement                         { return jen.Id("o") }
func field(name string) *jen.Statement          { return jen.Id("o").Dot(name) }
func method(name string) *jen.Statement         { return jen.Id("o").Dot(name).Call() }
func unitArray() *jen.Statement                 { return jen.Index(jen.Id("Dim")).Float64() }
func whole(array *jen.Statement) *jen.Statement { return array.Index(jen.Empty().Op(":")) }

// fromModel converts a value in the model's convention (larger is better) to
// the objective's sign.
func (g *generator) fromModel(v jen.Code) jen.Code {
	if g.p.Objective.Maximize {
		return v
	}
	return jen.Op("-").Add(v)
}

// optimizerDecls declares the kernel, the acquisition, the Optimizer type and
// its methods.
func (g *generator) optimizerDecls(f *jen.File) {
	if g.several() {
		g.severalDecls(f)
		return
	}
	g.kernelDecls(f)
	g.learnDecls(f)
	if g.o.Safety != nil {
		g.safeDecls(f)
		return
	}
	g.acquisitionDecl(f)
	g.noiseDecl(f)
	if g.o.Draws != nil {
		g.noiseDecls(f)
	}
	if g.o.InputModel() {
		g.repDecls(f)
	}
	g.errorDecls(f)
	if g.measures() {
		g.constraintDecls(f)
		if g.p.Objective.Binding.Kind != ir.ExternalBinding {
			g.simulatedDecl(f) // Run's truth
			g.trulyUnsafeDecl(f)
		}
	}
	g.structDecl(f)
	g.newDecl(f)
	if g.initEmit != nil {
		g.makeDesignDecl(f)
	}
	g.suggestDecls(f)
	g.pendingDecls(f)
	g.predictDecls(f)
	g.searchDecls(f)
	g.portfolioDecls(f)
	g.candidatesDecls(f)
	g.outcomeDecls(f)
	g.observeDecl(f)
	g.refitDecls(f)
	g.localDecls(f)
	g.rewarpDecl(f)
	g.placeLandmarksDecl(f)
	g.inflationDecls(f)
	g.accessorDecls(f)
	g.posteriorDecls(f)
}

func (g *generator) noiseDecl(f *jen.File) {
	if g.o.Noise != nil {
		return // the optimiser holds the learned noise variance
	}
	if g.o.DeclaredNoise() {
		f.Comment(fmt.Sprintf("noiseVariance is the variance of the observation noise, %s.", callString(g.p.ObsNoise.Dist)))
		f.Const().Id("noiseVariance").Op("=").Lit(g.o.NoiseVariance)
		return
	}
	if g.o.ReportedNoise() {
		f.Comment("nuggetFraction is the noise variance, as a fraction of the variance of the")
		f.Comment("observed values, added to each reported noise variance so that the kernel")
		f.Comment("matrix stays well conditioned when sds of 0 are reported.")
	} else {
		f.Comment("nuggetFraction is the noise variance, as a fraction of the variance of the")
		f.Comment("observed values, given to the model of this noise-free objective so that its")
		f.Comment("kernel matrix stays well conditioned whatever the objective's units.")
	}
	f.Const().Id("nuggetFraction").Op("=").Lit(nuggetFraction)
}

func (g *generator) errorDecls(f *jen.File) {
	f.Comment("Errors Suggest and Observe return.")
	f.Var().Defs(
		jen.Comment("ErrFull means the optimiser already holds Budget observations."),
		jen.Id("ErrFull").Op("=").Add(g.newError("the optimiser already holds Budget observations")),
		jen.Comment("ErrExhausted means every point the search can reach has been evaluated."),
		jen.Id("ErrExhausted").Op("=").Add(g.newError("every point the search can reach has been evaluated")),
	)
}

func (g *generator) structDecl(f *jen.File) {
	points := "the evaluated points"
	if g.local() {
		points = "the model's points (a subset of the evaluated ones)"
	}
	fields := []jen.Code{
		jen.Id("model").Add(g.model.Type).Comment(callString(g.p.Model) + "; larger is better"),
		jen.Id("search").Add(g.search.Type).Comment(callString(g.p.Search)),
		jen.Id("seed").Uint64(),
		jen.Line(),
		jen.Id("design").Index(jen.Id("InitialDesign")).Id("Point").Comment("the initial design, in order"),
		jen.Id("designSize").Int().Comment("design points in use"),
		jen.Line(),
		jen.Id("points").Index(g.modelCapacity()).Id("Point").Comment(points),
		jen.Id("units").Index(g.modelCapacity()).Add(unitArray()).Comment(points + " in unit coordinates"),
		jen.Id("kvec").Index(g.modelCapacity()).Float64().Comment("kernel vector workspace"),
		jen.Id("candidate").Add(unitArray()).Comment("the search's result"),
		jen.Line(),
		jen.Id("bestIndex").Int().Comment("index of the best observed value"),
		jen.Id("best").Float64().Comment("largest posterior mean at an evaluated point, while searching"),
		jen.Id("lastAcquisition").Float64().Comment("the acquisition's maximum at the last suggestion"),
		jen.Id("searched").Bool().Comment("whether the last suggestion maximised the acquisition"),
	}
	fields = append(fields, g.acquisitionFields()...)
	fields = append(fields, g.portfolioFields()...)
	fields = append(fields, g.learnFields()...)
	fields = append(fields, g.warpFields()...)
	fields = append(fields,
		jen.Line(),
		jen.Comment("Method values for the search, made once in New so that it allocates nothing."),
	)
	if !g.o.GradientSearch() {
		fields = append(fields, jen.Id("acquisitionFn").Func().Params(jen.Index().Float64()).Float64())
		if g.o.Explores() {
			fields = append(fields, jen.Id("sdFn").Func().Params(jen.Index().Float64()).Float64())
		}
	}
	fields = append(fields, g.searchFields()...)
	fields = append(fields, g.trustFields()...)
	fields = append(fields, g.candidatesFields()...)
	if len(g.known) > 0 {
		fields = append(fields, jen.Id("feasibleFn").Func().Params(jen.Index().Float64()).Bool())
	}
	fields = append(fields, g.inputFields()...)
	fields = append(fields, g.inflationFields()...)
	fields = append(fields, pendingFields()...)
	fields = append(fields, g.localFields()...)
	fields = append(fields, g.outcomeFields()...)
	if g.o.NewCanFail() {
		fields = append(fields, jen.Line(), jen.Id("err").Error().Comment("why New could not make the optimiser"))
	}
	f.Comment(fmt.Sprintf("Optimizer is the Bayesian optimiser of problem %s: a %s model of the", g.p.Name, pluginName(g.p.Model.Plugin)))
	f.Comment("objective on the unit cube, whose acquisition is maximised by the search. Its")
	f.Comment("buffers are sized for Budget observations when it is made, and Suggest and")
	f.Comment("Observe allocate nothing. It is not safe for concurrent use.")
	f.Type().Id("Optimizer").Struct(fields...)
}

func (g *generator) newDecl(f *jen.File) {
	body := []jen.Code{
		jen.Id("o").Op(":=").Op("&").Id("Optimizer").Add(keyed(true,
			kv{"model", g.model.New},
			kv{"search", g.search.New},
			kv{"seed", jen.Id("seed")},
		)),
	}
	if !g.o.GradientSearch() {
		body = append(body, field("acquisitionFn").Op("=").Add(field(g.scoreAt("acquisitionAt"))))
		if g.o.Explores() {
			body = append(body, field("sdFn").Op("=").Add(field("sdAt")))
		}
	}
	body = append(body, g.learnInit()...)
	body = append(body, g.warpInit()...)
	body = append(body, g.searchInit()...)
	body = append(body, g.trustInit()...)
	body = append(body, g.outcomeInit()...)
	body = append(body, g.localInit()...)
	body = append(body, g.latentDrawsInit()...)
	body = append(body, g.inputInit()...)
	if len(g.known) > 0 {
		body = append(body, field("feasibleFn").Op("=").Add(field("feasibleAt")))
	}
	body = append(body, g.designInit())
	body = append(body, g.candidatesInit()...)
	body = append(body, jen.Return(o()))
	f.Comment("New returns an optimiser whose initial design and searches are seeded with seed")
	f.Comment("(the problem's seed is Seed).")
	f.Func().Id("New").Params(jen.Id("seed").Uint64()).Op("*").Id("Optimizer").Block(body...)

	g.initialPointsDecl(f)
}

// designInit is New's statement that fills the initial design: makeDesign,
// or the points given in the problem.
func (g *generator) designInit() jen.Code {
	if g.initEmit != nil {
		return jen.If(jen.Id("err").Op(":=").Add(method("makeDesign")), jen.Id("err").Op("!=").Nil()).Block(
			field("err").Op("=").Add(g.errorf("initial design: %w", jen.Id("err"))),
		)
	}
	return jen.List(field("design"), field("designSize")).Op("=").List(jen.Id("initialPoints"), jen.Id("InitialDesign"))
}

// initialPointsDecl emits initialPoints, the initial design given in the
// problem; nothing for a generated design.
func (g *generator) initialPointsDecl(f *jen.File) {
	if g.initEmit == nil {
		points := make([]jen.Code, len(g.p.Init.Points))
		for i, pt := range g.p.Init.Points {
			vals := make([]jen.Code, len(pt))
			for j, v := range pt {
				vals[j] = number(v).code
			}
			points[i] = jen.Values(vals...)
		}
		f.Comment("initialPoints is the initial design given in the problem, used as given.")
		f.Var().Id("initialPoints").Op("=").Index(jen.Id("InitialDesign")).Id("Point").Values(points...)
	}
}

func (g *generator) makeDesignDecl(f *jen.File) {
	pool := g.p.Init.Size()
	if len(g.known) > 0 {
		pool *= designPoolFactor
	}
	ig := &registry.InitGen{Args: registry.Args{Call: g.p.Init.Call}, N: pool, D: g.p.D, Seed: field("seed"), Out: jen.Id("units")}
	stmts := g.initEmit(ig)
	g.checkArgs(&ig.Args)

	loop := []jen.Code{
		jen.Id("x").Op(":=").Id("fromUnit").Call(jen.Parens(jen.Op("*").Add(unitArray())).Call(jen.Id("units").Index(jen.Id("i").Op("*").Id("Dim").Op(":")))),
	}
	if len(g.known) > 0 {
		loop = append(loop, jen.If(jen.Op("!").Id("feasible").Call(jen.Id("x"))).Block(jen.Continue()))
	}
	loop = append(loop,
		field("design").Index(field("designSize")).Op("=").Id("x"),
		field("designSize").Op("++"),
	)
	if len(g.known) > 0 {
		loop = append(loop, jen.If(field("designSize").Op("==").Id("InitialDesign")).Block(jen.Break()))
	}
	body := []jen.Code{
		jen.Id("units").Op(":=").Make(jen.Index().Float64(), jen.Id("designPool").Op("*").Id("Dim")),
	}
	body = append(body, stmts...)
	body = append(body,
		jen.For(jen.Id("i").Op(":=").Range().Id("designPool")).Block(loop...),
		jen.Return(jen.Nil()),
	)

	if len(g.known) > 0 {
		f.Comment("designPool is the number of candidates the initial design is drawn from: the")
		f.Comment("design is their first InitialDesign points that satisfy the known constraints.")
	} else {
		f.Comment("designPool is the number of points the initial design generator makes.")
	}
	f.Const().Id("designPool").Op("=").Lit(pool)
	f.Comment(fmt.Sprintf("makeDesign fills the initial design from %s.", callString(g.p.Init.Call)))
	if len(g.known) > 0 {
		f.Comment("Candidates that violate a known constraint are skipped, in order, so the design")
		f.Comment("is deterministic; if fewer than InitialDesign of the designPool candidates are")
		f.Comment("feasible, the design is shorter and the search takes over earlier.")
	}
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("makeDesign").Params().Error().Block(body...)
}

func (g *generator) suggestDecls(f *jen.File) {
	prepareIncumbent, prepare, fantasised := g.prepareAcquisition()
	fantasised = append(fantasised, g.searchIncumbent()...)
	start := g.incumbentStart()
	var body []jen.Code
	if g.o.NewCanFail() {
		body = append(body, jen.If(field("err").Op("!=").Nil()).Block(jen.Return(jen.Id("Point").Values(), field("err"))))
	}
	body = append(body,
		jen.Id("observed").Op(":=").Add(g.observationCount()),
		jen.Id("n").Op(":=").Id("observed").Op("+").Add(field("npending")).Comment("the model's size once the pending points are fantasised"),
		jen.If(jen.Id("n").Op(">=").Id("Budget")).Block(jen.Return(jen.Id("Point").Values(), jen.Id("ErrFull"))),
		field("searched").Op("=").False(),
		jen.If(jen.Id("n").Op("<").Add(field("designSize")).Op("&&").Op("!").Add(field("evaluated").Call(jen.Op("&").Add(field("design")).Index(jen.Id("n"))))).Block(
			jen.Return(field("design").Index(jen.Id("n")), jen.Nil()),
		),
		field("best").Op("=").Lit(0.0),
	)
	if g.requires() {
		body = append(body, g.feasibleIncumbent(append(start, prepareIncumbent...))...)
	} else {
		body = append(body, jen.If(jen.Id("observed").Op(">").Lit(0)).Block(append(g.incumbentValue(len(start) > 0 || len(prepareIncumbent) > 0), append(start, prepareIncumbent...)...)...))
	}
	body = append(body, prepare...)
	body = append(body, jen.If(jen.Id("err").Op(":=").Add(method("fantasise")), jen.Id("err").Op("!=").Nil()).Block(
		jen.Return(jen.Id("Point").Values(), jen.Id("err")),
	))
	if len(fantasised) > 0 {
		body = append(body, jen.If(jen.Id("observed").Op(">").Lit(0)).Block(fantasised...))
	}
	if !g.o.Finite() {
		body = append(body, g.localFocus()...)
	}
	switch {
	case g.o.Finite():
		body = append(body, g.finiteSearch()...)
	case !g.o.Explores():
		body = append(body, g.searchAcquisition()...)
		body = append(body,
			jen.List(field("lastAcquisition"), field("searched")).Op("=").List(g.acquisitionValue(jen.Id("value")), g.searchedAcquisition()),
			jen.Id("x").Op(":=").Id("fromUnit").Call(jen.Op("&").Add(field("candidate"))),
			jen.If(field("pendingIndex").Call(jen.Op("&").Id("x")).Op("<").Lit(0)).Block(jen.Return(jen.Id("x"), jen.Nil())),
			jen.Comment("The acquisition's maximiser is being evaluated (a replicate of an evaluated"),
			jen.Comment("point is not): take the point farthest from the evaluated and pending ones."),
			g.farthest(),
			jen.Id("x").Op("=").Id("fromUnit").Call(jen.Op("&").Add(field("candidate"))),
			jen.If(field("pendingIndex").Call(jen.Op("&").Id("x")).Op(">=").Lit(0)).Block(jen.Return(jen.Id("x"), jen.Id("ErrExhausted"))),
			jen.Return(jen.Id("x"), jen.Nil()),
		)
	default:
		body = append(body, g.searchAcquisition()...)
		body = append(body,
			jen.List(field("lastAcquisition"), field("searched")).Op("=").List(g.acquisitionValue(jen.Id("value")), g.searchedAcquisition()),
			jen.Id("x").Op(":=").Id("fromUnit").Call(jen.Op("&").Add(field("candidate"))),
			jen.If(jen.Op("!").Add(field("evaluated").Call(jen.Op("&").Id("x")))).Block(jen.Return(jen.Id("x"), jen.Nil())),
			jen.Comment("The acquisition's maximiser was evaluated already: explore where the model is"),
			jen.Comment("least certain instead."),
			jen.If(jen.List(jen.Id("_"), jen.Id("err")).Op(":=").Add(g.maximize("sdFn", jen.Lit(1))), jen.Id("err").Op("!=").Nil()).Block(
				jen.Return(jen.Id("Point").Values(), g.searchError("exploration search")),
			),
			jen.Id("x").Op("=").Id("fromUnit").Call(jen.Op("&").Add(field("candidate"))),
			jen.If(jen.Op("!").Add(field("evaluated").Call(jen.Op("&").Id("x")))).Block(jen.Return(jen.Id("x"), jen.Nil())),
			jen.Comment("The model is as certain there as anywhere the search looked (a constant"),
			jen.Comment("objective, say): take the point farthest from the evaluated and pending ones."),
			g.farthest(),
			jen.Id("x").Op("=").Id("fromUnit").Call(jen.Op("&").Add(field("candidate"))),
			jen.If(field("evaluated").Call(jen.Op("&").Id("x"))).Block(jen.Return(jen.Id("x"), jen.Id("ErrExhausted"))),
			jen.Return(jen.Id("x"), jen.Nil()),
		)
	}
	constraintsNote := ""
	if len(g.known) > 0 {
		constraintsNote = ", among the points that satisfy the known constraints"
	}
	f.Comment("Suggest returns the next point to evaluate. While fewer than designSize points")
	f.Comment("have been observed, that is design point number Evaluations(); afterwards it is")
	f.Comment("the maximiser of the acquisition found by the search" + constraintsNote + ".")
	if g.local() {
		f.Comment("Once there are more than localSize observations, the model holds a subset of")
		f.Comment("them (reselect) and the search keeps to the region it describes in detail.")
	}
	if g.o.Finite() {
		f.Comment("The decision set is finite: the search chooses the candidate with the best")
		f.Comment("acquisition among those not evaluated yet, and once none is left Suggest")
		f.Comment("returns ErrExhausted.")
	}
	switch {
	case g.o.Finite():
	case !g.o.Explores():
		f.Comment("The observations are noisy, so evaluating a point again is informative: the")
		f.Comment("acquisition's maximiser is returned even when it was evaluated before (a")
		f.Comment("replicate); only a design point evaluated before is skipped.")
	default:
		f.Comment("Suggest never returns an evaluated point silently: when the design point or the")
		f.Comment("acquisition's maximiser was evaluated before, it returns the point where the")
		f.Comment("model is least certain instead, or, if that too was evaluated, the point")
		f.Comment("farthest from the evaluated ones; if even that was, which happens only once every")
		f.Comment("point of a small integer domain has been, it returns it with ErrExhausted.")
	}
	f.Comment("Without an Observe or a Pending in between, Suggest returns the same design point")
	f.Comment("again, or searches again.")
	g.pendingSuggestComment(f)
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("Suggest").Params().Params(jen.Id("Point"), jen.Error()).Block(
		jen.Id("n").Op(":=").Add(field("model").Dot("Len").Call()),
		jen.List(jen.Id("x"), jen.Id("err")).Op(":=").Add(method("suggest")),
		field("model").Dot("Truncate").Call(jen.Id("n")).Comment("forget the fantasies"),
		jen.Return(jen.Id("x"), jen.Id("err")),
	)
	f.Comment("suggest is Suggest, which leaves the pending points' fantasies in the model.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("suggest").Params().Params(jen.Id("Point"), jen.Error()).Block(body...)

	f.Comment("streamSeed derives the seed of random stream k of search number n, so that every")
	f.Comment("search explores different candidates and a run stays reproducible.")
	f.Func().Id("streamSeed").Params(jen.List(jen.Id("seed"), jen.Id("n"), jen.Id("k")).Uint64()).Uint64().Block(
		jen.Return(jen.Id("seed").Op("^").Parens(jen.Lit(2).Op("*").Id("n").Op("+").Id("k").Op("+").Lit(1)).Op("*").Op("0x9E3779B97F4A7C15")),
	)

	f.Comment("evaluated reports whether x is one of the evaluated or pending points.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("evaluated").Params(jen.Id("x").Op("*").Id("Point")).Bool().Block(
		jen.For(jen.Id("i").Op(":=").Range().Add(g.observationCount())).Block(
			jen.If(g.observedPoint(jen.Id("i")).Op("==").Op("*").Id("x")).Block(jen.Return(jen.True())),
		),
		jen.Return(field("pendingIndex").Call(jen.Id("x")).Op(">=").Lit(0)),
	)
}

// farthest is Suggest's statement that puts in candidate the point
// farthest from the evaluated points and the fantasised pending ones (a
// local model's: its subset's).
func (g *generator) farthest() jen.Code {
	n := jen.Id("n")
	if g.local() {
		n = field("model").Dot("Len").Call()
	}
	return jen.If(jen.Id("err").Op(":=").Qual(runtimeSearch, "Farthest").Call(n, jen.Id("Dim"),
		jen.Func().Params(jen.List(jen.Id("i"), jen.Id("j")).Int()).Float64().Block(jen.Return(field("units").Index(jen.Id("i")).Index(jen.Id("j")))),
		g.feasible(), jen.Id("streamSeed").Call(field("seed"), jen.Uint64().Call(jen.Id("n")), jen.Lit(2)), whole(field("candidate"))),
		jen.Id("err").Op("!=").Nil()).Block(
		jen.Return(jen.Id("Point").Values(), g.searchError("exploration search")),
	)
}

// searchesDomain reports whether Suggest searches the domain (runtime/search),
// rather than a finite decision set or a safe explorer's.
func (g *generator) searchesDomain() bool { return g.o.Safety == nil && !g.o.Finite() }

// searchError is the error of a failed search, err, which names the known
// constraints when none of its points kept them (infeasible).
func (g *generator) searchError(what string) jen.Code {
	err := jen.Id("err")
	if len(g.known) > 0 && g.searchesDomain() {
		err = jen.Id("infeasible").Call(err)
	}
	return g.errorf(what+": %w", err)
}

// incumbentStart gives the search the incumbent i as a start or, for a joint
// acquisition, which vanishes at the incumbent and has no gradient there, a
// point beside it (search.Beside). A portfolio keeps it for each arm's
// search (searchArms).
func (g *generator) incumbentStart() []jen.Code {
	incumbent := whole(field("units").Index(jen.Id("i")))
	if g.o.Acquisition.Arms > 0 && g.o.Finite() {
		return nil // searchArms scores every free candidate
	}
	if g.o.Acquisition.Arms > 0 {
		return []jen.Code{jen.List(field("start"), field("hasStart")).Op("=").List(jen.Id("i"), jen.True())}
	}
	if !g.o.Acquisition.Joint {
		return []jen.Code{field("search").Dot("AddStart").Call(incumbent)}
	}
	return []jen.Code{
		jen.Var().Id("start").Add(unitArray()),
		jen.Qual(runtimeSearch, "Beside").Call(whole(jen.Id("start")), incumbent),
		field("search").Dot("AddStart").Call(whole(jen.Id("start"))),
	}
}

// runtimeSearch is the import path of the searches.
const runtimeSearch = "github.com/bocdev/boc/runtime/search"

// feasible is the searches' feasibility test of unit points: the known
// constraints, and the requirements' likelihood for a restricted search
// (likelyAt), or nil.
func (g *generator) feasible() jen.Code {
	switch {
	case g.restricts():
		return field("likelyFn")
	case len(g.known) > 0:
		return field("feasibleFn")
	}
	return jen.Nil()
}

// maximize is a call of the search maximising the method value fn over the
// feasible unit cube, with random stream k.
func (g *generator) maximize(fn string, k jen.Code) jen.Code {
	feasible := g.feasible()
	seed := jen.Id("streamSeed").Call(field("seed"), jen.Uint64().Call(jen.Id("n")), k)
	if !g.batches() {
		if regions := g.regionsSearch(fn, nil, nil, feasible, seed); regions != nil {
			return regions
		}
		return field("search").Dot("Maximize").Call(field(g.searchFn(fn)), feasible, seed, whole(field("candidate")))
	}
	batch := field(fn[:len(fn)-len("Fn")] + "BatchFn")
	var sweep jen.Code
	if fn == "acquisitionFn" && g.sweptByComponent() {
		sweep = field("acquisitionSweep")
	}
	if regions := g.regionsSearch(fn, sweep, batch, feasible, seed); regions != nil {
		return regions
	}
	if sweep != nil {
		return field("search").Dot("MaximizeSwept").Call(field(g.searchFn(fn)), batch, sweep, feasible, seed, whole(field("candidate")))
	}
	return field("search").Dot("MaximizeBatch").Call(field(g.searchFn(fn)), batch, feasible, seed, whole(field("candidate")))
}

// predictDecls emits the value-only posterior and scores a search without
// gradients calls (a gradient search has its own, in search.go), the state the
// acquisition needs before a search, and the known constraints' predicate.
func (g *generator) predictDecls(f *jen.File) {
	g.acquisitionStateDecls(f)
	switch {
	case !g.o.GradientSearch():
		g.valueDecls(f)
	case g.o.DifferenceSearch():
		g.predictDecl(f) // Posterior's
	}
	if len(g.known) > 0 {
		f.Comment("feasibleAt reports whether unit coordinates u satisfy the known constraints.")
		f.Func().Params(o().Op("*").Id("Optimizer")).Id("feasibleAt").Params(jen.Id("u").Index().Float64()).Bool().Block(
			jen.Return(jen.Id("feasible").Call(jen.Id("fromUnit").Call(jen.Parens(jen.Op("*").Add(unitArray())).Call(jen.Id("u"))))),
		)
	}
}

// valueDecls emits predict, acquisitionAt and sdAt: the posterior and the
// search's objectives without gradients.
func (g *generator) valueDecls(f *jen.File) {
	g.predictDecl(f)
	g.acquisitionAtDecls(f)
	if !g.o.Explores() {
		return
	}
	f.Comment("sdAt is the posterior standard deviation at unit coordinates u.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("sdAt").Params(jen.Id("u").Index().Float64()).Float64().Block(
		jen.List(jen.Id("_"), jen.Id("sd")).Op(":=").Add(field("predict").Call(jen.Id("u"))),
		jen.Return(jen.Id("sd")),
	)
}

// predictDecl emits predict, the posterior without gradients.
func (g *generator) predictDecl(f *jen.File) {
	w, rep := ownWork()
	p := jen.Op("&").Id("p")
	body := g.unitPoint()
	body = append(body, g.representCandidate(w, p, rep)...)
	body = append(body,
		jen.Id("n").Op(":=").Add(field("model").Dot("Len").Call()),
		jen.For(jen.Id("i").Op(":=").Range().Id("n")).Block(
			field("kvec").Index(jen.Id("i")).Op("=").Add(g.candidateKernel(w, p, rep, jen.Id("i"))),
		),
		jen.List(jen.Id("mean"), jen.Id("variance")).Op(":=").Add(field("model").Dot("Predict").Call(
			field("kvec").Index(jen.Empty().Op(":").Id("n")), g.candidateSelf(w, p, rep))),
		jen.Return(jen.Id("mean"), jen.Qual("math", "Sqrt").Call(jen.Id("variance"))),
	)
	f.Comment("predict returns the posterior mean and standard deviation, in the model's")
	f.Comment("convention, at unit coordinates u.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("predict").Params(jen.Id("u").Index().Float64()).
		Params(jen.List(jen.Id("mean"), jen.Id("sd")).Float64()).Block(body...)
}

// observationNoise is the noise variance, before any inflation, of value y
// added to the model; a fantasy has no reported sd.
func (g *generator) observationNoise(fantasy bool) jen.Code {
	switch {
	case (g.o.Noise != nil):
		return learnedNoise()
	case g.o.ReportedNoise() && !fantasy && g.warps():
		return field("warp").Dot("Variance").Call(field("raw").Index(jen.Id("n")), jen.Id("sd").Op("*").Id("sd")).Op("+").Add(field("nugget").Call(jen.Id("y")))
	case g.o.ReportedNoise() && !fantasy:
		return jen.Id("sd").Op("*").Id("sd").Op("+").Add(field("nugget").Call(jen.Id("y")))
	case !g.o.DeclaredNoise():
		return field("nugget").Call(jen.Id("y"))
	case g.warps() && fantasy:
		// A fantasy's value is the model's: the noise as at the values' mean.
		return field("warp").Dot("Variance").Call(field("warp").Dot("Mean"), jen.Id("noiseVariance"))
	case g.warps():
		return field("warp").Dot("Variance").Call(field("raw").Index(jen.Id("n")), jen.Id("noiseVariance"))
	}
	return jen.Id("noiseVariance")
}

// modelAdd are the statements that add the point x, at unit coordinates u
// (a [Dim]float64), to the model as observation n with value y: its
// representation (represent), its kernel vector, then value (statements
// that may define y from the kernel vector), its noise and the model's add
// ("Add" or "AddFantasy"), whose error is returned wrapped as "what %v: %w".
func (g *generator) modelAdd(represent, value []jen.Code, fantasy bool, add, what string) []jen.Code {
	w, _ := ownWork()
	u, rep := jen.Op("&").Id("u"), jen.Op("&").Add(field("reps")).Index(jen.Id("n"))
	stmts := append([]jen.Code{}, represent...)
	stmts = append(stmts, jen.For(jen.Id("i").Op(":=").Range().Id("n")).Block(
		field("kvec").Index(jen.Id("i")).Op("=").Add(g.candidateKernel(w, u, rep, jen.Id("i"))),
	))
	stmts = append(stmts, value...)
	inflation, noise := g.inflatedNoise(g.observationNoise(fantasy))
	stmts = append(stmts, inflation...)
	return append(stmts, jen.If(jen.Id("err").Op(":=").Add(field("model").Dot(add).Call(
		field("kvec").Index(jen.Empty().Op(":").Id("n")), g.candidateSelf(w, u, rep), jen.Id("y"), noise)),
		jen.Id("err").Op("!=").Nil()).Block(
		jen.Return(g.errorf(what+" %v: %w", jen.Id("x"), jen.Id("err"))),
	))
}

func (g *generator) observeDecl(f *jen.File) {
	body := []jen.Code{
		jen.If(jen.Qual("math", "IsNaN").Call(jen.Id("y")).Op("||").Qual("math", "IsInf").Call(jen.Id("y"), jen.Lit(0))).Block(
			jen.Return(g.errorf("the value %v observed at %v is not a finite number", jen.Id("y"), jen.Id("x"))),
		),
	}
	params := []jen.Code{jen.Id("x").Id("Point"), jen.Id("y").Float64()}
	if g.measures() {
		params = append(params, jen.Id("measured").Id("Constraints"))
		body = append(body, jen.For(jen.List(jen.Id("k"), jen.Id("v")).Op(":=").Range().Id("measured")).Block(
			jen.If(jen.Qual("math", "IsNaN").Call(jen.Id("v")).Op("||").Qual("math", "IsInf").Call(jen.Id("v"), jen.Lit(0))).Block(
				jen.Return(g.errorf("constraint %s: the value %v measured at %v is not a finite number", jen.Id("ConstraintNames").Index(jen.Id("k")), jen.Id("v"), jen.Id("x"))),
			),
		))
	}
	if g.o.ReportedNoise() {
		params = []jen.Code{jen.Id("x").Id("Point"), jen.List(jen.Id("y"), jen.Id("sd")).Float64()}
		body = append(body, jen.If(jen.Op("!").Parens(jen.Id("sd").Op(">=").Lit(0)).Op("||").Qual("math", "IsInf").Call(jen.Id("sd"), jen.Lit(1))).Block(
			jen.Return(g.errorf("the noise sd %v reported with the value at %v is not a finite number >= 0", jen.Id("sd"), jen.Id("x"))),
		))
	}
	body = append(body,
		jen.Id("n").Op(":=").Add(g.observationCount()),
		jen.Comment("A pending x has its place in the budget already."),
		jen.If(jen.Id("n").Op("+").Add(field("npending")).Op(">=").Id("Budget").Op("&&").Add(field("pendingIndex").Call(jen.Op("&").Id("x"))).Op("<").Lit(0)).Block(jen.Return(jen.Id("ErrFull"))),
		jen.List(jen.Id("u"), jen.Id("err")).Op(":=").Id("toUnit").Call(jen.Id("x")),
		jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Id("err"))),
	)
	if !g.p.Objective.Maximize {
		body = append(body, jen.Id("y").Op("=").Op("-").Id("y").Comment("the model maximises"))
	}
	body = append(body, g.warpObserved()...)
	if g.local() {
		body = append(body, g.localObserve()...)
	} else {
		body = append(body, g.exactObserve()...)
	}
	body = append(body, g.refitCall()...)
	body = append(body, jen.Return(jen.Nil()))
	g.observeDoc(f)
	if g.o.Localises() {
		g.localisedObserveDecls(f, body)
	} else {
		f.Func().Params(o().Op("*").Id("Optimizer")).Id(g.observeMethod()).Params(params...).Error().Block(body...)
	}
	g.nuggetDecl(f)
}

// exactObserve are Observe's statements after the checks that add
// observation n, y at x (unit coordinates u) to the model and to what
// follows it (the measured constraints, the best observed, the trust
// region).
func (g *generator) exactObserve() []jen.Code {
	var body []jen.Code
	w, _ := ownWork()
	u, rep := jen.Op("&").Id("u"), jen.Op("&").Add(field("reps")).Index(jen.Id("n"))
	represent := g.representCandidate(w, u, rep)
	if g.o.Localises() {
		represent = g.representObserved(w, u, rep)
	}
	body = append(body, g.modelAdd(represent, nil, false, "Add", "observing")...)
	if g.measures() {
		observe := func(models, values jen.Code, undo ...jen.Code) jen.Code {
			return jen.If(jen.Id("err").Op(":=").Add(models).Dot("Observe").Call(whole(jen.Id("u")), values), jen.Id("err").Op("!=").Nil()).Block(append(append(undo,
				field("model").Dot("Truncate").Call(jen.Id("n"))),
				jen.Return(g.errorf("observing %v: %w", jen.Id("x"), jen.Id("err"))))...)
		}
		switch {
		case g.mixed():
			body = append(body,
				observe(field("outcomes"), jen.Id("measured").Index(jen.Id("NumSafety").Op(":"))),
				observe(field("explorer"), jen.Id("measured").Index(jen.Op(":").Id("NumSafety")), field("outcomes").Dot("Truncate").Call(jen.Id("n"))))
		case g.o.Safety != nil:
			body = append(body, observe(field("explorer"), whole(jen.Id("measured"))))
		default:
			body = append(body, observe(field("outcomes"), whole(jen.Id("measured"))))
		}
		body = append(body,
			field("measured").Index(jen.Id("n")).Op("=").Id("measured"),
			jen.For(jen.List(jen.Id("k"), jen.Id("v")).Op(":=").Range().Id("measured")).Block(
				field("violated").Index(jen.Id("n")).Op("=").Add(field("violated").Index(jen.Id("n"))).Op("||").Id("Violated").Call(jen.Id("k"), jen.Id("v")),
			),
		)
	}
	if g.o.Inflates() {
		body = append(body, jen.If(jen.Id("err").Op(":=").Add(field("reinflate").Call()), jen.Id("err").Op("!=").Nil()).Block(
			jen.Return(g.errorf("observing %v: %w", jen.Id("x"), jen.Id("err"))),
		))
	}
	better := jen.Id("n").Op("==").Lit(0).Op("||").Id("y").Op(">").Add(field("model").Dot("Y").Call(field("bestIndex")))
	if g.measures() {
		// A point whose measured constraints held beats one whose did not.
		held, bestHeld := jen.Op("!").Add(field("violated").Index(jen.Id("n"))), jen.Op("!").Add(field("violated").Index(field("bestIndex")))
		better = jen.Id("n").Op("==").Lit(0).Op("||").Add(held).Op("&&").Add(field("violated").Index(field("bestIndex"))).Op("||").
			Parens(jen.Add(held).Op("==").Add(bestHeld).Op("&&").Id("y").Op(">").Add(field("model").Dot("Y").Call(field("bestIndex"))))
	}
	body = append(body,
		jen.List(field("points").Index(jen.Id("n")), field("units").Index(jen.Id("n"))).Op("=").List(jen.Id("x"), jen.Id("u")),
		jen.If(better).Block(
			field("bestIndex").Op("=").Id("n"),
		),
		field("Release").Call(jen.Id("x")),
	)
	return append(body, g.trustTell()...)
}

// observeDoc documents Observe.
func (g *generator) observeDoc(f *jen.File) {
	if g.o.ReportedNoise() {
		f.Comment("ObserveWithSD records the objective's value y at x, in the objective's units")
		f.Comment("and sign, measured with observation noise of standard deviation sd (same units):")
		f.Comment("the noise is reported, so every observation has its own variance sd², which")
		f.Comment("refits keep (no noise is learned). It rejects values that are not finite, sds")
		f.Comment("that are negative or not finite, points outside the domain and integer")
		f.Comment("components that are not whole numbers, and returns ErrFull after Budget")
		f.Comment("observations. x need not be a suggested point. There is no Observe: a value")
		f.Comment("without its sd cannot be modelled.")
	} else if g.o.Safety != nil {
		f.Comment("Observe records the objective's value y at x, in the objective's units and sign,")
		f.Comment("and the unknown constraints' values measured there. It rejects values that are")
		f.Comment("not finite, points outside the domain and integer components that are not whole")
		f.Comment("numbers, and returns ErrFull after Budget observations. x need not be a")
		f.Comment("suggested point, but only observations at seed points teach the constraints'")
		f.Comment("models their hyperparameters.")
	} else if g.requires() {
		f.Comment("Observe records the objective's value y at x, in the objective's units and sign,")
		f.Comment("and the requirements' values measured there, which their models learn from. It")
		f.Comment("rejects values that are not finite, points outside the domain and integer")
		f.Comment("components that are not whole numbers, and returns ErrFull after Budget")
		f.Comment("observations. x need not be a suggested point.")
	} else {
		f.Comment("Observe records the objective's value y at x, in the objective's units and sign.")
		f.Comment("It rejects values that are not finite, points outside the domain and integer")
		f.Comment("components that are not whole numbers, and returns ErrFull after Budget")
		f.Comment("observations. x need not be a suggested point.")
	}
	if g.o.Learning() {
		f.Comment("When the refit schedule says so (refitIfDue), it relearns the hyperparameters.")
	}
	f.Comment("Observing a pending point (Pending) ends its pending; a point that is not pending")
	f.Comment("gets ErrFull when the observations and the pending points fill Budget.")
}

// nuggetDecl declares nugget, the noise of a noise-free objective's
// observations.
func (g *generator) nuggetDecl(f *jen.File) {
	if !g.o.DeclaredNoise() && g.o.Noise == nil {
		y := func(i jen.Code) jen.Code { return field("model").Dot("Y").Call(i) }
		f.Comment("nugget returns the noise variance to observe y with: nuggetFraction of the")
		f.Comment("variance of the values observed so far, y included.")
		f.Func().Params(o().Op("*").Id("Optimizer")).Id("nugget").Params(jen.Id("y").Float64()).Float64().Block(
			jen.Id("n").Op(":=").Add(field("model").Dot("Len").Call()),
			jen.Id("mean").Op(":=").Id("y"),
			jen.For(jen.Id("i").Op(":=").Range().Id("n")).Block(jen.Id("mean").Op("+=").Add(y(jen.Id("i")))),
			jen.Id("mean").Op("/=").Float64().Call(jen.Id("n").Op("+").Lit(1)),
			jen.Id("ss").Op(":=").Parens(jen.Id("y").Op("-").Id("mean")).Op("*").Parens(jen.Id("y").Op("-").Id("mean")),
			jen.For(jen.Id("i").Op(":=").Range().Id("n")).Block(
				jen.Id("d").Op(":=").Add(y(jen.Id("i"))).Op("-").Id("mean"),
				jen.Id("ss").Op("+=").Id("d").Op("*").Id("d"),
			),
			jen.If(jen.Id("ss").Op("==").Lit(0)).Block(jen.Return(jen.Id("nuggetFraction"))),
			jen.Return(jen.Id("nuggetFraction").Op("*").Id("ss").Op("/").Float64().Call(jen.Id("n").Op("+").Lit(1))),
		)
	}
}

func (g *generator) accessorDecls(f *jen.File) {
	empty := func() jen.Code {
		return jen.If(field("model").Dot("Len").Call().Op("==").Lit(0)).Block(jen.Return(jen.Id("Point").Values(), jen.Lit(0), jen.False()))
	}
	switch {
	case g.o.Safety != nil:
		g.safeIncumbentDecl(f)
	case g.requires():
		g.outcomeIncumbentDecl(f)
	default:
		f.Comment("incumbent returns the index of the evaluated point with the largest posterior")
		f.Comment("mean, in the model's convention, and that mean. There must be an observation.")
		f.Func().Params(o().Op("*").Id("Optimizer")).Id("incumbent").Params().Params(jen.Id("index").Int(), jen.Id("mean").Float64()).Block(
			jen.Id("mean").Op("=").Add(field("model").Dot("TrainMean").Call(jen.Lit(0))),
			jen.For(jen.Id("i").Op(":=").Lit(1), jen.Id("i").Op("<").Add(field("model").Dot("Len").Call()), jen.Id("i").Op("++")).Block(
				jen.If(jen.Id("m").Op(":=").Add(field("model").Dot("TrainMean").Call(jen.Id("i"))), jen.Id("m").Op(">").Id("mean")).Block(
					jen.List(jen.Id("index"), jen.Id("mean")).Op("=").List(jen.Id("i"), jen.Id("m")),
				),
			),
			jen.Return(jen.Id("index"), jen.Id("mean")),
		)
	}
	best := []jen.Code{empty(), jen.List(jen.Id("i"), jen.Id("m")).Op(":=").Add(method("incumbent"))}
	f.Comment("Best returns the recommendation: the evaluated point with the best posterior")
	if g.requires() {
		f.Comment("mean among those that meet every requirement with its confidence, and that mean")
		f.Comment("in the objective's units and sign. ok is false while no evaluated point meets")
		f.Comment("them.")
		best = append(best, jen.If(jen.Id("i").Op("<").Lit(0)).Block(jen.Return(jen.Id("Point").Values(), jen.Lit(0), jen.False())))
	} else {
		f.Comment("mean, and that mean in the objective's units and sign. ok is false before the")
		f.Comment("first observation.")
	}
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("Best").Params().Params(jen.Id("x").Id("Point"), jen.Id("mean").Float64(), jen.Id("ok").Bool()).Block(
		append(best, jen.Return(field("points").Index(jen.Id("i")), g.fromWarped(jen.Id("m")), jen.True()))...,
	)
	f.Comment("BestObserved returns the evaluated point with the best observed value, and that")
	f.Comment("value. ok is false before the first observation.")
	if g.measures() {
		f.Comment("Points whose measured constraints held come first: another is returned only")
		f.Comment("when none did.")
	}
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("BestObserved").Params().Params(jen.Id("x").Id("Point"), jen.Id("y").Float64(), jen.Id("ok").Bool()).Block(
		empty(),
		jen.Return(g.observedPoint(field("bestIndex")), g.fromModel(g.observedValue(field("bestIndex"))), jen.True()),
	)
	f.Comment("Evaluations returns the number of observations.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("Evaluations").Params().Int().Block(
		jen.Return(g.observationCount()),
	)
	if g.o.Safety != nil {
		return // the explorer has no acquisition to report
	}
	f.Comment("Acquisition returns the maximum of the acquisition found for the last suggestion;")
	f.Comment("ok is false when that suggestion came from the initial design.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("Acquisition").Params().Params(jen.Id("value").Float64(), jen.Id("ok").Bool()).Block(
		jen.Return(field("lastAcquisition"), field("searched")),
	)
}
