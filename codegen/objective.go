package codegen

import (
	"fmt"
	"go/token"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/dave/jennifer/jen"
)

// programPath is the import path of the runtime package of emitted programs.
const (
	programPath = "github.com/bocdev/boc/runtime/program"
	commandPath = "github.com/bocdev/boc/runtime/command"
)

// feasibleDecl emits the known constraints as one predicate over a point in
// user units: every G(x) >= 0. A constraint whose value is NaN is violated.
func (g *generator) feasibleDecl(f *jen.File) {
	names := newNamer("x")
	var body []jen.Code
	constraintNames := make([]string, len(g.known))
	for i, c := range g.known {
		constraintNames[i] = c.Name
		e := &exprEmitter{g: g, names: names, point: "x"}
		v, ok := e.expr(c.G)
		if !ok {
			continue
		}
		body = append(body, jen.Comment(c.Name))
		body = append(body, e.stmts...)
		body = append(body, jen.If(jen.Op("!").Parens(jen.Add(v.elems[0].in(precCompare+1)).Op(">=").Lit(0))).Block(jen.Return(jen.False())))
	}
	body = append(body, jen.Return(jen.True()))
	f.Comment("feasible reports whether x, in user units, satisfies the known constraints: " + strings.Join(constraintNames, ", ") + ".")
	f.Func().Id("feasible").Params(jen.Id("x").Id("Point")).Bool().Block(body...)
	if !g.searchesDomain() {
		return
	}
	where := make([]string, len(g.known))
	for i, c := range g.known {
		where[i] = fmt.Sprintf("%s (line %d)", c.Name, c.Span.Start.Line)
	}
	f.Comment("infeasible names the known constraints when a search found no point that")
	f.Comment("keeps them all.")
	f.Func().Id("infeasible").Params(jen.Id("err").Error()).Error().Block(
		jen.If(jen.Qual("errors", "Is").Call(jen.Id("err"), jen.Qual(runtimeSearch, "ErrNoFeasible"))).Block(
			jen.Return(jen.Qual("fmt", "Errorf").Call(jen.Lit("no point it tried keeps the known constraints "+strings.Join(where, ", ")+" of "+g.p.Source+"; can they hold together in the domain? (%w)"), jen.Id("err"))),
		),
		jen.Return(jen.Id("err")),
	)
}

// objectiveDecl emits Objective, the evaluator of the objective's binding.
// When the noise is reported it returns each value's noise sd after it.
func (g *generator) objectiveDecl(f *jen.File) {
	b := g.p.Objective.Binding
	ctx := "_"
	var doc []string
	var body []jen.Code
	switch b.Kind {
	case ir.ExprBinding:
		doc = []string{"Objective evaluates the problem's objective expression at x."}
		if g.noiseSample != nil {
			doc = append(doc, "It adds no observation noise: Run does.")
		}
		e := &exprEmitter{g: g, names: newNamer("x"), point: "x"}
		v, ok := e.expr(b.Expr)
		if !ok {
			return
		}
		body = append(e.stmts, jen.Return(v.elems[0].code, jen.Nil()))
	case ir.GoBinding:
		doc = []string{fmt.Sprintf("Objective calls %s.%s with x.", b.GoPackage, b.GoFunc)}
		if b.GoContext {
			ctx = "ctx"
		}
		call := g.goCall(f, b)
		if b.GoValues {
			doc = append(doc, "The constraint values it returns are for Measure.")
			body = g.goValuesObjective(call)
		} else if b.GoError {
			body = []jen.Code{jen.Return(call)}
		} else if g.o.ReportedNoise() {
			body = []jen.Code{jen.List(jen.Id("y"), jen.Id("sd")).Op("=").Add(call), jen.Return(jen.Id("y"), jen.Id("sd"), jen.Nil())}
		} else {
			body = []jen.Code{jen.Return(call, jen.Nil())}
		}
	case ir.ExecBinding:
		ctx = "ctx"
		exec, answer := "Exec", `{"y": value}`
		if g.o.ReportedNoise() {
			exec, answer = "ExecWithSD", `{"y": value, "sd": its noise sd}`
		}
		doc = []string{"Objective runs " + strconv.Quote(strings.Join(b.Exec, " ")) + ` with {"x": {...}} on its standard`,
			"input and reads " + answer + " from its standard output (see runtime/command." + exec + ")."}
		g.commandDecls(f)
		body = []jen.Code{jen.Return(jen.Qual(commandPath, exec).Call(jen.Id("ctx"), jen.Id("commandLine"), jen.Id("layout"), whole(jen.Id("x"))))}
	}
	for _, line := range doc {
		f.Comment(line)
	}
	results := jen.Params(jen.Float64(), jen.Error())
	if g.o.ReportedNoise() {
		results = jen.Params(jen.List(jen.Id("y"), jen.Id("sd")).Float64(), jen.Id("err").Error())
	}
	f.Func().Id("Objective").Params(jen.Id(ctx).Qual("context", "Context"), jen.Id("x").Id("Point")).Add(results).Block(body...)
}

// commandDecls emits the command line of an exec objective and the
// layout of the point it is given.
func (g *generator) commandDecls(f *jen.File) {
	b := g.p.Objective.Binding
	args := make([]jen.Code, len(b.Exec))
	for i, a := range b.Exec {
		args[i] = jen.Lit(a)
	}
	f.Comment("commandLine is the objective's command line.")
	f.Var().Id("commandLine").Op("=").Index().String().Values(args...)
	f.Comment("layout names the dimensions of a Point for the command's input.")
	f.Var().Id("layout").Op("=").Add(g.layout(commandPath, jen.Id))
}

// goCall calls the Go function of binding b at x, with ctx first when it
// takes a context, and x as [Dim]float64 or as the struct it takes
// (goInputDecl).
func (g *generator) goCall(f *jen.File, b ir.Binding) *jen.Statement {
	var args []jen.Code
	if b.GoContext {
		args = append(args, jen.Id("ctx"))
	}
	if b.GoInput != nil {
		args = append(args, jen.Id(g.goInputDecl(f, b.GoInput)).Call(jen.Op("&").Id("x")))
	} else {
		args = append(args, jen.Index(jen.Id("Dim")).Float64().Call(jen.Id("x")))
	}
	f.ImportAlias(b.GoPackage, importAlias(b.GoPackage))
	return jen.Qual(b.GoPackage, b.GoFunc).Call(args...)
}

// goValuesObjective is the body of Objective around call, a Go objective
// that also returns constraint values: it keeps the value (and sd) and the
// error, and leaves the values out.
func (g *generator) goValuesObjective(call jen.Code) []jen.Code {
	b := g.p.Objective.Binding
	define := ":="
	kept := []jen.Code{jen.Id("y")}
	if b.GoSD {
		// y, sd and err are Objective's named results.
		define = "="
		kept = append(kept, jen.Id("sd"))
	}
	results := append(slices.Clone(kept), jen.Id("_"))
	if b.GoError {
		results = append(results, jen.Id("err"))
		kept = append(kept, jen.Id("err"))
	} else {
		kept = append(kept, jen.Nil())
	}
	return []jen.Code{jen.List(results...).Op(define).Add(call), jen.Return(kept...)}
}

// importAlias names the package of a Go binding in the emitted file: the last
// element of its path that is not a major version, as an identifier, renamed
// when it would clash with the emitted declarations, imports or Objective's
// parameters.
func importAlias(importPath string) string {
	elems := strings.Split(importPath, "/")
	name := elems[len(elems)-1]
	if len(elems) > 1 && isMajorVersion(name) {
		name = elems[len(elems)-2]
	}
	name = strings.Map(func(r rune) rune {
		if r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return '_'
	}, name)
	if !token.IsIdentifier(name) || slices.Contains(reservedNames, name) || name == "ctx" || name == "x" {
		name = "user_" + name
	}
	return name
}

func isMajorVersion(elem string) bool {
	n, err := strconv.Atoi(strings.TrimPrefix(elem, "v"))
	return strings.HasPrefix(elem, "v") && err == nil && n >= 2
}

// layout is a []Dim literal of package path (runtime/command's, or
// runtime/program's alias of it) describing the dimensions, in order; lib
// names the library's identifiers where it is emitted (jen.Id inside it).
func (g *generator) layout(path string, lib func(string) *jen.Statement) jen.Code {
	dims := make([]jen.Code, len(g.p.Dims))
	for i, d := range g.p.Dims {
		fields := []kv{{"Name", jen.Lit(d.Name)}, {"Size", jen.Lit(d.Size)}}
		if d.Vector {
			fields = append(fields, kv{"Vector", jen.True()})
		}
		if d.Categorical() {
			fields = append(fields, kv{"Levels", jen.Index().String().Values(stringLits(d.Levels)...)})
		}
		if d.When != nil {
			fields = append(fields, kv{"Active", g.activeField(d, lib)})
		}
		dims[i] = keyed(false, fields...)
	}
	return jen.Index().Qual(path, "Dim").Custom(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}, dims...)
}

// Streams of Run's own random numbers: a run seeded with s draws its
// simulated noise from PCG(s, noiseStream) and its random-search points from
// PCG(s, randomSearchStream), independent of the optimiser's streams, which
// are derived from s alone.
const (
	noiseStream        = 0x6e6f6973652d6f62 // "noise-ob"
	randomSearchStream = 0x72616e646f6d2d73 // "random-s"
	executionStream    = 0x657865632d6e6f69 // "exec-noi"
	// constraintNoiseStream draws the simulated constraints' noise.
	constraintNoiseStream = 0x636f6e7374722d6e // "constr-n"
)

// randomTries is how many uniform draws a random search makes for one point
// before it gives up on finding one that satisfies the known constraints.
const randomTries = 10000

// runHelperDecls emits what Run needs besides the optimiser: the noise-free
// value of a point, the simulated observation noise and random search.
func (g *generator) runHelperDecls(f *jen.File) {
	g.noiseFreeDecl(f)
	g.observationNoiseDecl(f)
	g.streamsDecl(f)
	g.robustDecls(f)
	g.randomPointDecl(f)
}

// noiseFreeDecl emits noiseFree, the objective's value without observation
// noise.
func (g *generator) noiseFreeDecl(f *jen.File) {
	if g.p.Objective.Binding.Kind == ir.ExprBinding {
		f.Comment("noiseFree returns the objective's value at x without observation noise.")
		f.Func().Id("noiseFree").Params(jen.Id("x").Id("Point")).Float64().Block(
			jen.List(jen.Id("y"), jen.Id("_")).Op(":=").Id("Objective").Call(jen.Qual("context", "Background").Call(), jen.Id("x")).
				Comment("an expression never fails"),
			jen.Return(jen.Id("y")),
		)
	} else {
		f.Comment("noiseFree returns NaN: the objective's values come with whatever noise they")
		f.Comment("have, which boc does not know.")
		f.Func().Id("noiseFree").Params(jen.Id("Point")).Float64().Block(jen.Return(jen.Qual("math", "NaN").Call()))
	}
}

// observationNoiseDecl emits observationNoise, the declared observation
// noise that Run adds to an expression objective's values; nothing
// otherwise.
func (g *generator) observationNoiseDecl(f *jen.File) {
	if g.noiseSample != nil {
		f.Comment(fmt.Sprintf("observationNoise draws the declared observation noise, %s,", callString(g.p.ObsNoise.Dist)))
		f.Comment("which Run adds to every value of the objective.")
		f.Func().Id("observationNoise").Params(jen.Id("rng").Op("*").Qual("math/rand/v2", "Rand")).Float64().Block(jen.Return(g.noiseSample))
	}
}

// streamsDecl emits the streams of Run's random numbers.
func (g *generator) streamsDecl(f *jen.File) {
	f.Comment("Streams of Run's random numbers, seeded with the run's seed and independent")
	f.Comment("of the optimiser's.")
	streams := []jen.Code{
		jen.Id("noiseStream").Op("=").Op(fmt.Sprintf("%#x", noiseStream)),
		jen.Id("randomSearchStream").Op("=").Op(fmt.Sprintf("%#x", randomSearchStream)),
	}
	if g.o.SimulatesInputNoise() {
		streams = append(streams, jen.Id("executionStream").Op("=").Op(fmt.Sprintf("%#x", executionStream)))
	}
	if g.constraintNoise {
		streams = append(streams, jen.Id("constraintNoiseStream").Op("=").Op(fmt.Sprintf("%#x", constraintNoiseStream)))
	}
	f.Const().Defs(streams...)
}

// randomPointDecl emits randomPoint, which draws the points of a random
// search.
func (g *generator) randomPointDecl(f *jen.File) {
	if g.o.Finite() {
		g.randomCandidateDecl(f)
		return
	}
	draw := jen.For(jen.Id("i").Op(":=").Range().Id("u")).Block(jen.Id("u").Index(jen.Id("i")).Op("=").Id("rng").Dot("Float64").Call())
	f.Comment("randomPoint draws a point uniformly on the search scale of every component")
	f.Comment("(log-uniformly on a log scale; integers rounded) from rng.")
	declare := jen.Var().Id("u").Add(unitArray())
	var body []jen.Code
	if len(g.known) == 0 {
		body = []jen.Code{declare, draw, jen.Return(jen.Id("fromUnit").Call(jen.Op("&").Id("u")), jen.Nil())}
	} else {
		f.Comment(fmt.Sprintf("It redraws until the point satisfies the known constraints, at most %d", randomTries))
		f.Comment("times.")
		body = []jen.Code{
			declare,
			jen.For(jen.Range().Lit(randomTries)).Block(
				draw,
				jen.If(jen.Id("x").Op(":=").Id("fromUnit").Call(jen.Op("&").Id("u")), jen.Id("feasible").Call(jen.Id("x"))).Block(jen.Return(jen.Id("x"), jen.Nil())),
			),
			jen.Return(jen.Id("Point").Values(), g.newError(fmt.Sprintf("none of %d random points satisfies the known constraints", randomTries))),
		}
	}
	f.Func().Id("randomPoint").Params(jen.Id("rng").Op("*").Qual("math/rand/v2", "Rand")).Params(jen.Id("Point"), jen.Error()).Block(body...)
}

// randomCandidateDecl emits randomPoint for a finite decision set: random
// search, the baseline of a study, plays random candidates (the SGP-UCB
// paper's random actions), redrawing those that violate a known constraint.
func (g *generator) randomCandidateDecl(f *jen.File) {
	pick := jen.Id("x").Op(":=").Id("candidatePoints").Index(jen.Id("rng").Dot("IntN").Call(jen.Id("numCandidates")))
	var body []jen.Code
	if len(g.known) == 0 {
		f.Comment("randomPoint draws a candidate uniformly from rng.")
		body = []jen.Code{pick, jen.Return(jen.Id("x"), jen.Nil())}
	} else {
		f.Comment("randomPoint draws a candidate uniformly from rng, redrawing until it satisfies")
		f.Comment(fmt.Sprintf("the known constraints, at most %d times.", randomTries))
		body = []jen.Code{
			jen.For(jen.Range().Lit(randomTries)).Block(
				pick,
				jen.If(jen.Id("feasible").Call(jen.Id("x"))).Block(jen.Return(jen.Id("x"), jen.Nil())),
			),
			jen.Return(jen.Id("Point").Values(), g.newError(fmt.Sprintf("none of %d random candidates satisfies the known constraints", randomTries))),
		}
	}
	f.Func().Id("randomPoint").Params(jen.Id("rng").Op("*").Qual("math/rand/v2", "Rand")).Params(jen.Id("Point"), jen.Error()).Block(body...)
}

// runDecls emits Run, which drives the optimiser with Objective, and its
// options and result types.
func (g *generator) runDecls(f *jen.File) {
	expr := g.p.Objective.Binding.Kind == ir.ExprBinding
	valueDoc := "its value without observation noise; NaN as boc cannot know it"
	if expr {
		valueDoc = "its value without observation noise"
	}
	var options []jen.Code
	if g.o.SimulatesInputNoise() {
		options = append(options,
			jen.Comment("InputNoiseScale multiplies every simulated draw of the input noise; 0 means 1."),
			jen.Comment("The optimiser still assumes the declared noise: a scale other than 1 studies"),
			jen.Comment("a misjudged noise."),
			jen.Id("InputNoiseScale").Float64(),
		)
	}
	stoppedDoc := [2]string{"Stopped says why the run ended: StoppedBudget, StoppedCondition or", "StoppedExhausted."}
	if g.o.Safety != nil {
		stoppedDoc = [2]string{"Stopped says why the run ended: StoppedBudget, StoppedCondition,", "StoppedExhausted, StoppedContradiction or StoppedNoSafePoint."}
	}
	options = append(options, g.stopOnContradictionOption()...)
	g.runOptionsDecl(f, "Recommendation has", options...)
	progressFields := []jen.Code{
		jen.Id("Evaluation").Int().Comment("1 for the first"),
		jen.Id("Budget").Int().Comment("the run's budget"),
		jen.Id("X").Id("Point").Comment("the point evaluated"),
		jen.Id("Y").Float64().Comment("its observed value"),
	}
	if g.o.ReportedNoise() {
		progressFields = append(progressFields, jen.Id("SD").Float64().Comment("the noise sd reported with it"))
	}
	progressFields = append(progressFields, g.measuredProgressFields()...)
	if g.requires() {
		progressFields = append(progressFields,
			jen.Id("Feasible").Bool().Comment("whether there is a Recommendation: an evaluated point meets every requirement"),
			jen.Id("TrulyFeasible").Bool().Comment("whether it meets the simulated constraints' true values"),
		)
	}
	for _, t := range g.tallies() {
		progressFields = append(progressFields, jen.Id(t.field).Int().Comment(t.fieldDoc), jen.Id(t.trueField).Int().Comment(t.trueFieldDoc))
	}
	f.Comment("Progress describes one evaluation of a run and the state after it.")
	f.Type().Id("Progress").Struct(append(progressFields,
		jen.Id("Value").Float64().Comment(valueDoc),
		jen.Id("BestX").Id("Point").Comment("the best point observed so far"),
		jen.Id("BestY").Float64().Comment("its observed value"),
		jen.Id("BestValue").Float64().Comment(strings.Replace(valueDoc, "its", "and", 1)),
		jen.Id("Recommendation").Id("Point").Comment("the evaluated point with the best posterior mean"),
		jen.Id("RecommendationMean").Float64().Comment("that mean"),
		jen.Id("RecommendationValue").Float64().Comment(strings.Replace(valueDoc, "its", "and", 1)),
	)...)
	var safetyResult []jen.Code
	if g.requires() {
		safetyResult = []jen.Code{
			jen.Comment("Feasible says that Recommendation meets every requirement with its confidence;"),
			jen.Comment("without such an evaluated point there is no recommendation (the zero Point)."),
			jen.Id("Feasible").Bool(),
			jen.Comment("TrulyFeasible says that Recommendation meets the simulated constraints' true"),
			jen.Comment("values (with none simulated, that Feasible)."),
			jen.Id("TrulyFeasible").Bool(),
		}
	}
	for _, t := range g.tallies() {
		safetyResult = append(safetyResult, jen.Id(t.field).Int().Comment(strings.Replace(t.fieldDoc, " so far", "", 1)),
			jen.Id(t.trueField).Int().Comment(strings.Replace(t.trueFieldDoc, " so far", "", 1)))
	}
	if g.o.Safety != nil {
		safetyResult = append(safetyResult,
			jen.Comment("SafeSize is the number of points certified safe at the last suggestion."),
			jen.Id("SafeSize").Int(),
			jen.Comment("Contradictions counts the measurements that contradicted the constraints'"),
			jen.Comment("model (Optimizer.Contradictions)."),
			jen.Id("Contradictions").Int(),
		)
	}
	f.Comment("Result is the outcome of a run.")
	f.Type().Id("Result").Struct(append([]jen.Code{
		jen.Id("Evaluations").Int(),
		jen.Comment("Recommendation is the evaluated point with the best posterior mean,"),
		jen.Comment("RecommendationMean that mean."),
		jen.Id("Recommendation").Id("Point"),
		jen.Id("RecommendationMean").Float64(),
		jen.Comment("BestX is the evaluated point with the best observed value, BestY."),
		jen.Id("BestX").Id("Point"),
		jen.Id("BestY").Float64(),
		jen.Comment("RecommendationValue and BestValue are the objective's values at"),
		jen.Comment("Recommendation and BestX without observation noise (NaN when unknown)."),
		jen.Id("RecommendationValue").Float64(),
		jen.Id("BestValue").Float64(),
		jen.Comment(stoppedDoc[0]),
		jen.Comment(stoppedDoc[1]),
		jen.Id("Stopped").String(),
	}, safetyResult...)...)
	stopped := []jen.Code{
		jen.Id("StoppedBudget").Op("=").Lit("budget"),
		jen.Id("StoppedCondition").Op("=").Lit("stop when"),
		jen.Id("StoppedExhausted").Op("=").Lit("exhausted"),
	}
	if g.o.Safety != nil {
		stopped = append(stopped, jen.Id("StoppedContradiction").Op("=").Lit("contradiction"),
			jen.Comment("StoppedNoSafePoint: no point is certified and playable any more, every seed"),
			jen.Comment("measured unsafe, say (the contradictions say why)."),
			jen.Id("StoppedNoSafePoint").Op("=").Lit("no safe point"))
	}
	f.Comment("Why a run stopped.")
	f.Const().Defs(stopped...)
	g.evaluationErrorDecl(f)
	g.runHelperDecls(f)
	g.feasibleValueDecl(f)

	resultArgs := []jen.Code{jen.Id("stopped")}
	for _, t := range g.tallies() {
		resultArgs = append(resultArgs, jen.Id(t.trueCounter))
	}
	fail := func(err jen.Code) jen.Code { return jen.Return(jen.Id("o").Dot("result").Call(resultArgs...), err) }
	suggest := []jen.Code{
		jen.List(jen.Id("p"), jen.Id("err")).Op(":=").Id("o").Dot("Suggest").Call(),
		jen.If(jen.Qual("errors", "Is").Call(jen.Id("err"), jen.Id("ErrExhausted"))).Block(
			jen.Id("stopped").Op("=").Id("StoppedExhausted"),
			jen.Break(),
		),
	}
	suggest = append(suggest, g.noSafePointStop(), jen.If(jen.Id("err").Op("!=").Nil()).Block(fail(jen.Id("err"))))
	stopDoc := ""
	if g.p.Stop != nil {
		stopDoc = " or the stop condition holds"
		stopWhen := func(value jen.Code) *jen.Statement {
			return jen.Id("stopWhen").Call(value, jen.Id("best"), jen.Float64().Call(jen.Id("o").Dot("Evaluations").Call()))
		}
		halt := jen.Block(jen.Id("stopped").Op("=").Id("StoppedCondition"), jen.Break())
		if g.o.Safety != nil {
			// A safe acquisition has no value: the condition cannot use it.
			// It is checked once there is a best value.
			suggest = append(suggest, jen.If(jen.List(jen.Id("_"), jen.Id("best"), jen.Id("ok")).Op(":=").Id("o").Dot("BestObserved").Call(),
				jen.Id("ok").Op("&&").Add(stopWhen(jen.Qual("math", "NaN").Call()))).Add(halt))
		} else {
			suggest = append(suggest, jen.If(jen.List(jen.Id("value"), jen.Id("ok")).Op(":=").Id("o").Dot("Acquisition").Call(), jen.Id("ok")).Block(
				jen.List(jen.Id("_"), jen.Id("best"), jen.Id("_")).Op(":=").Id("o").Dot("BestObserved").Call(),
				jen.If(stopWhen(jen.Id("value"))).Add(halt),
			))
		}
	}
	suggest = append(suggest, jen.Id("x").Op("=").Id("p"))
	loop := []jen.Code{
		jen.If(jen.Id("err").Op(":=").Id("ctx").Dot("Err").Call(), jen.Id("err").Op("!=").Nil()).Block(fail(jen.Id("err"))),
		jen.Var().Id("x").Id("Point"),
		jen.If(jen.Id("random").Op("!=").Nil()).Block(
			jen.List(jen.Id("p"), jen.Id("err")).Op(":=").Id("randomPoint").Call(jen.Id("random")),
			jen.If(jen.Id("err").Op("!=").Nil()).Block(fail(jen.Id("err"))),
			jen.Id("x").Op("=").Id("p"),
		).Else().Block(suggest...),
	}
	evaluated, value := "y", jen.Id("y")
	if !expr {
		value = jen.Qual("math", "NaN").Call()
	}
	if g.noiseSample != nil {
		evaluated, value = "value", jen.Id("value")
	}
	results := []jen.Code{jen.Id(evaluated), jen.Id("err")}
	observed := []jen.Code{jen.Id("x"), jen.Id("y")}
	progress := []kv{{"Evaluation", method("Evaluations")}, {"Budget", jen.Id("budget")}, {"X", jen.Id("x")}, {"Y", jen.Id("y")}}
	if g.o.ReportedNoise() {
		results = []jen.Code{jen.Id(evaluated), jen.Id("sd"), jen.Id("err")}
		observed = append(observed, jen.Id("sd"))
		progress = append(progress, kv{"SD", jen.Id("sd")})
	}
	progress = append(progress, kv{"Value", value})
	at := jen.Id("x")
	if g.o.SimulatesInputNoise() {
		loop = append(loop, g.landing()...)
		at = jen.Id("landed")
	}
	evaluate := jen.Id("Objective")
	if g.measures() {
		results = append(results[:1:1], jen.Id("measured"), jen.Id("err"))
		observed = append(observed, jen.Id("measured"))
		progress = append(progress, kv{"Constraints", jen.Id("measured")}, kv{"TrueConstraints", jen.Id("truth")})
		evaluate = jen.Id("Measure")
	}
	if g.o.Safety != nil {
		progress = append(progress, kv{"Certificate", method("Certificate")}, kv{"Contradictions", jen.Id("notes")})
	}
	for _, t := range g.tallies() {
		progress = append(progress, kv{t.field, jen.Id(t.counter)}, kv{t.trueField, jen.Id(t.trueCounter)})
	}
	loop = append(loop,
		jen.List(results...).Op(":=").Add(evaluate).Call(jen.Id("ctx"), at),
		jen.If(jen.Id("err").Op("!=").Nil()).Block(
			fail(jen.Op("&").Id("EvaluationError").Values(jen.Dict{
				jen.Id("Evaluation"): jen.Id("o").Dot("Evaluations").Call().Op("+").Lit(1), jen.Id("X"): jen.Id("x"), jen.Id("Err"): jen.Id("err")})),
		),
	)
	if g.noiseSample != nil {
		loop = append(loop, jen.Id("y").Op(":=").Id("value").Op("+").Id("observationNoise").Call(jen.Id("noiseRand")))
	}
	if g.measures() {
		loop = append(loop, g.measuredRunStep()...)
	}
	loop = append(loop,
		jen.If(jen.Id("err").Op(":=").Id("o").Dot(g.observeMethod()).Call(observed...), jen.Id("err").Op("!=").Nil()).Block(fail(jen.Id("err"))))
	loop = append(loop, g.contradictionNotes()...)
	loop = append(loop,
		jen.If(jen.Id("opt").Dot("Progress").Op("!=").Nil()).Block(
			jen.Id("p").Op(":=").Id("Progress").Add(keyed(false, progress...)),
			jen.List(jen.Id("p").Dot("BestX"), jen.Id("p").Dot("BestY"), jen.Id("_")).Op("=").Add(method("BestObserved")),
			jen.List(jen.Id("p").Dot("Recommendation"), jen.Id("p").Dot("RecommendationMean"), g.recommended("p")).Op("=").Add(method("Best")),
			jen.List(jen.Id("p").Dot("BestValue"), jen.Id("p").Dot("RecommendationValue")).Op("=").List(
				jen.Id("noiseFree").Call(jen.Id("p").Dot("BestX")), g.recommendationValue("p")),
			g.trulyFeasible("p"),
			jen.Id("opt").Dot("Progress").Call(jen.Id("p")),
		),
	)
	loop = append(loop, g.contradictionStop())
	body := []jen.Code{
		jen.Id("budget").Op(":=").Id("opt").Dot("Budget"),
		jen.If(jen.Id("budget").Op("==").Lit(0)).Block(jen.Id("budget").Op("=").Id("Budget")),
		jen.If(jen.Id("budget").Op("<").Lit(0).Op("||").Id("budget").Op(">").Id("Budget")).Block(
			jen.Return(jen.Id("Result").Values(), g.errorf("budget %d is outside 1..%d, the budget the optimiser was compiled for", jen.Id("budget"), jen.Id("Budget"))),
		),
		jen.Id("seed").Op(":=").Id("opt").Dot("Seed"),
		jen.If(jen.Id("seed").Op("==").Lit(0)).Block(jen.Id("seed").Op("=").Id("Seed")),
		jen.Id("o").Op(":=").Id("New").Call(jen.Id("seed")),
	}
	pcg := func(stream string) jen.Code {
		return jen.Qual("math/rand/v2", "New").Call(jen.Qual("math/rand/v2", "NewPCG").Call(jen.Id("seed"), jen.Id(stream)))
	}
	if g.noiseSample != nil {
		body = append(body, jen.Id("noiseRand").Op(":=").Add(pcg("noiseStream")))
	}
	if g.o.SimulatesInputNoise() {
		body = append(body,
			jen.Id("execution").Op(":=").Add(pcg("executionStream")),
			jen.Id("noiseScale").Op(":=").Id("opt").Dot("InputNoiseScale"),
			jen.If(jen.Id("noiseScale").Op("==").Lit(0)).Block(jen.Id("noiseScale").Op("=").Lit(1)),
		)
	}
	body = append(body,
		jen.Var().Id("random").Op("*").Qual("math/rand/v2", "Rand"),
		jen.If(jen.Id("opt").Dot("RandomSearch")).Block(jen.Id("random").Op("=").Add(pcg("randomSearchStream"))),
		jen.Id("stopped").Op(":=").Id("StoppedBudget"),
	)
	if g.measures() {
		var counts []jen.Code
		for _, t := range g.tallies() {
			counts = append(counts, jen.Id(t.counter), jen.Id(t.trueCounter))
		}
		if g.o.Safety != nil {
			counts = append(counts, jen.Id("contradictions"))
		}
		zeros := make([]jen.Code, len(counts))
		for i := range zeros {
			zeros[i] = jen.Lit(0)
		}
		body = append(body, jen.List(counts...).Op(":=").List(zeros...))
		if g.constraintNoise {
			body = append(body,
				jen.Id("constraintRand").Op(":=").Add(pcg("constraintNoiseStream")),
				jen.Id("constraintScale").Op(":=").Id("opt").Dot("ConstraintNoiseScale"),
				jen.If(jen.Id("constraintScale").Op("==").Lit(0)).Block(jen.Id("constraintScale").Op("=").Lit(1)),
			)
		}
	}
	body = append(body,
		jen.For(jen.Id("o").Dot("Evaluations").Call().Op("<").Id("budget")).Block(loop...),
		jen.Return(jen.Id("o").Dot("result").Call(resultArgs...), jen.Nil()),
	)
	f.Comment("Run optimises the objective: it suggests, evaluates and observes points until the")
	f.Comment("budget is spent" + stopDoc + ", and returns the recommendation. When it fails")
	f.Comment("(an objective error, returned as an *EvaluationError; a numerical failure; ctx")
	f.Comment("cancelled) the Result describes the evaluations made before the error.")
	if g.o.SimulatesInputNoise() {
		f.Comment("Each evaluation lands at x + ε instead of the point x it was sent to, with ε a")
		f.Comment("fresh draw of the declared input noise from a stream seeded with the seed; the")
		f.Comment("value is observed at x.")
	}
	if g.noiseSample != nil {
		f.Comment("It adds the declared observation noise to every value it observes, drawn from")
		f.Comment("a stream seeded with the seed.")
	}
	f.Func().Id("Run").Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("opt").Id("RunOptions")).Params(jen.Id("Result"), jen.Error()).Block(body...)

	resultParams, resultFields, countViolations := g.resultTallies()
	f.Comment("result summarises the run so far.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("result").Params(resultParams...).Id("Result").Block(append([]jen.Code{
		jen.Id("r").Op(":=").Id("Result").Add(keyed(false, resultFields...))}, append(countViolations,
		jen.List(jen.Id("r").Dot("Recommendation"), jen.Id("r").Dot("RecommendationMean"), g.recommended("r")).Op("=").Add(method("Best")),
		jen.List(jen.Id("r").Dot("BestX"), jen.Id("r").Dot("BestY"), jen.Id("_")).Op("=").Add(method("BestObserved")),
		jen.List(jen.Id("r").Dot("RecommendationValue"), jen.Id("r").Dot("BestValue")).Op("=").List(jen.Qual("math", "NaN").Call(), jen.Qual("math", "NaN").Call()),
		jen.If(jen.Id("r").Dot("Evaluations").Op(">").Lit(0)).Block(
			jen.List(jen.Id("r").Dot("RecommendationValue"), jen.Id("r").Dot("BestValue")).Op("=").List(
				g.recommendationValue("r"), jen.Id("noiseFree").Call(jen.Id("r").Dot("BestX"))),
		),
		g.trulyFeasible("r"),
		jen.Return(jen.Id("r")),
	)...)...)

	if g.p.Stop != nil {
		g.stopDecl(f)
	}
}

// runOptionsDecl emits RunOptions: the seed, the budget, random search (after
// which result keeps its meaning), the options given, the simulated
// constraints' noise scale when they have noise, and the progress callback.
func (g *generator) runOptionsDecl(f *jen.File, result string, options ...jen.Code) {
	fields := []jen.Code{
		jen.Comment("Seed seeds the optimiser and the simulated noise; 0 is the problem's seed, Seed."),
		jen.Id("Seed").Uint64(),
		jen.Comment("Budget is the number of evaluations, at most Budget; 0 means Budget."),
		jen.Id("Budget").Int(),
		jen.Comment("RandomSearch evaluates random points of the domain (see randomPoint) instead"),
		jen.Comment("of the optimiser's suggestions: the baseline of a study. They are observed"),
		jen.Comment("all the same, so " + result + " its usual meaning."),
		jen.Id("RandomSearch").Bool(),
	}
	fields = append(fields, options...)
	if g.constraintNoise {
		fields = append(fields,
			jen.Comment("ConstraintNoiseScale multiplies every simulated draw of the constraints'"),
			jen.Comment("measurement noise; 0 means 1. The optimiser still assumes the declared noise:"),
			jen.Comment("a scale other than 1 studies a misjudged noise."),
			jen.Id("ConstraintNoiseScale").Float64(),
		)
	}
	fields = append(fields,
		jen.Comment("Progress, if not nil, is called after every evaluation."),
		jen.Id("Progress").Func().Params(jen.Id("Progress")),
	)
	f.Comment("RunOptions configures Run.")
	f.Type().Id("RunOptions").Struct(fields...)
}

// evaluationErrorDecl emits EvaluationError, Run's error when an
// evaluation failed.
func (g *generator) evaluationErrorDecl(f *jen.File) {
	f.Comment("EvaluationError is Run's error when evaluating the objective failed: the")
	f.Comment("evaluation's number (1 for the first), its point and what went wrong.")
	f.Type().Id("EvaluationError").Struct(
		jen.Id("Evaluation").Int(),
		jen.Id("X").Id("Point"),
		jen.Id("Err").Error(),
	)
	f.Func().Params(jen.Id("e").Op("*").Id("EvaluationError")).Id("Error").Params().String().Block(
		jen.Return(jen.Qual("fmt", "Sprintf").Call(jen.Lit(g.pkg+": evaluation %d at %v: %v"), jen.Id("e").Dot("Evaluation"), jen.Id("e").Dot("X"), jen.Id("e").Dot("Err"))),
	)
	f.Func().Params(jen.Id("e").Op("*").Id("EvaluationError")).Id("Unwrap").Params().Error().Block(jen.Return(jen.Id("e").Dot("Err")))
}

// stopDecl emits the stop condition as a predicate of the names it may use.
func (g *generator) stopDecl(f *jen.File) {
	params := []string{"acquisition", "best", "evaluations"}
	e := &exprEmitter{g: g, names: newNamer(params...), context: map[string]operand{}}
	for _, name := range params {
		e.context[name] = operand{code: jen.Id(name), prec: precPrimary, cheap: true}
	}
	v, ok := e.expr(g.p.Stop)
	if !ok {
		return
	}
	if v.typ.Kind != dsl.Bool {
		g.internal(g.p.Stop.Span(), "stop condition of type %s", v.typ)
		return
	}
	if g.o.Safety != nil {
		f.Comment("stopWhen is the problem's stop condition. Run checks it before evaluating each")
		f.Comment("suggestion, with the best value observed so far and the number of evaluations")
		f.Comment("(and NaN for the acquisition: a safe acquisition has no value).")
	} else {
		f.Comment("stopWhen is the problem's stop condition. Run checks it before evaluating each")
		f.Comment("point the search suggested (not the initial design), with the maximum of the")
		f.Comment("acquisition there, the best value observed so far and the number of evaluations.")
	}
	f.Func().Id("stopWhen").Params(jen.List(jen.Id("acquisition"), jen.Id("best"), jen.Id("evaluations")).Float64()).Bool().
		Block(append(e.stmts, jen.Return(v.elems[0].code))...)
}
