package codegen

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

// severalRunDecls emits run.go of a problem with several objectives:
// Objective (or Measure, with requirements), Run and Simulate.
func (g *generator) severalRunDecls(f *jen.File) {
	g.severalObjectiveDecl(f)
	if g.measures() {
		g.constraintNoise = g.constraintNoiseDecl(f)
	}
	g.severalRunTypes(f)
	g.evaluationErrorDecl(f)
	g.trueObjectivesDecl(f)
	g.trueHypervolumeDecl(f)
	g.objectiveNoise = g.objectiveNoiseDecl(f)
	g.streamsDecl(f)
	g.randomPointDecl(f)
	g.severalRunDecl(f)
	if !g.o.Measures() {
		g.severalSimulateDecl(f)
	}
}

// simulatesObjectiveNoise reports whether Run adds measurement noise to
// an objective: the objectives are expressions, and one declares its own
// noise or the observation noise is declared.
func (g *generator) simulatesObjectiveNoise() bool {
	if g.p.Objective.Binding.Kind != ir.ExprBinding {
		return false
	}
	return g.p.ObsNoise.Kind == ir.ObsNoiseDist || slices.ContainsFunc(g.p.Objective.Outputs, func(out ir.Output) bool { return out.Noise != nil })
}

// objectiveNoiseDecl emits objectiveNoise, which adds each objective's
// simulated measurement noise, its own or the observation noise, and
// reports whether it did.
func (g *generator) objectiveNoiseDecl(f *jen.File) bool {
	if !g.simulatesObjectiveNoise() {
		return false
	}
	var body []jen.Code
	for j, out := range g.p.Objective.Outputs {
		noise := out.Noise
		if noise == nil {
			noise = g.p.ObsNoise.Dist
		}
		if noise == nil {
			continue
		}
		h, ok := callHook[registry.DistributionEmit](g, noise)
		if !ok || h.Sample == nil {
			g.internal(noise.Span, "distribution %s cannot simulate the noise of objective %s", noise.Plugin, out.Name)
			continue
		}
		body = append(body, jen.Id("v").Index(jen.Lit(j)).Op("+=").Add(h.Sample(&registry.Args{Call: noise}, jen.Id("rng"))))
	}
	f.Comment("objectiveNoise adds each objective's simulated measurement noise to v: its")
	f.Comment("own, or the observation noise.")
	f.Func().Id("objectiveNoise").Params(jen.Id("v").Op("*").Id("Objectives"), jen.Id("rng").Op("*").Qual("math/rand/v2", "Rand")).Block(body...)
	return true
}

// evaluator is the function that evaluates one point: Measure with
// requirements, Objective otherwise.
func (g *generator) evaluator() string {
	if g.measures() {
		return "Measure"
	}
	return "Objective"
}

// severalObjectiveDecl emits Objective, or Measure with requirements: the
// objectives at x, and the requirements, those the binding reports with
// them and the simulated ones' values without noise.
func (g *generator) severalObjectiveDecl(f *jen.File) {
	b := g.p.Objective.Binding
	outs := g.p.Objective.Outputs
	ctx := "_"
	var doc []string
	var body []jen.Code
	// The values the binding measures: the objectives', then the reported
	// constraints'.
	names := make([]string, 0, len(outs))
	for _, out := range outs {
		names = append(names, out.Name)
	}
	var reported []int // the constraints the binding reports, by index
	for k, c := range g.measured() {
		if c.Constraint.Measured.Kind == ir.ExternalBinding {
			names = append(names, c.Name)
			reported = append(reported, k)
		}
	}
	store := func(j int) *jen.Statement {
		if j < len(outs) {
			return jen.Id("v").Index(jen.Lit(j))
		}
		return jen.Id("g").Index(jen.Lit(reported[j-len(outs)]))
	}
	switch b.Kind {
	case ir.ExprBinding:
		doc = []string{"Objective evaluates the objectives' expressions at x."}
		if g.simulatesObjectiveNoise() {
			doc = append(doc, "It adds no observation noise: Run does.")
		}
		namer := newNamer("x", "v", "g")
		for j, out := range outs {
			e := &exprEmitter{g: g, names: namer, point: "x"}
			v, ok := e.expr(out.Expr)
			if !ok {
				return
			}
			body = append(body, jen.Comment(out.Name))
			body = append(body, e.stmts...)
			body = append(body, store(j).Op("=").Add(v.elems[0].code))
		}
	case ir.GoBinding:
		doc = []string{fmt.Sprintf("Objective calls %s.%s with x and reads the objectives from the", b.GoPackage, b.GoFunc),
			"fields of what it returns."}
		if b.GoContext {
			ctx = "ctx"
		}
		results := []jen.Code{jen.Id("s")}
		if b.GoError {
			results = append(results, jen.Id("err"))
		}
		body = append(body, jen.List(results...).Op(":=").Add(g.goCall(f, b)))
		if b.GoError {
			body = append(body, jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return()))
		}
		for j, name := range names {
			body = append(body, store(j).Op("=").Id("s").Dot(b.GoFields[name]))
		}
	case ir.ExecBinding:
		ctx = "ctx"
		answer := make([]string, len(names))
		for j, n := range names {
			answer[j] = strconv.Quote(n) + ": value"
		}
		doc = []string{"Objective runs " + strconv.Quote(strings.Join(b.Exec, " ")) + ` with {"x": {...}} on its standard`,
			"input and reads {" + strings.Join(answer, ", ") + "} from its standard",
			"output (see runtime/command.ExecValues)."}
		g.commandDecls(f)
		lits := make([]jen.Code, len(names))
		for j, n := range names {
			lits[j] = jen.Lit(n)
		}
		f.Comment("measuredNames are the values the command answers, in order.")
		f.Var().Id("measuredNames").Op("=").Index(jen.Lit(len(names))).String().Values(lits...)
		body = append(body,
			jen.Var().Id("measured").Index(jen.Lit(len(names))).Float64(),
			jen.If(jen.Id("err").Op("=").Qual(commandPath, "ExecValues").Call(jen.Id("ctx"), jen.Id("commandLine"), jen.Id("layout"), whole(jen.Id("x")),
				whole(jen.Id("measuredNames")), whole(jen.Id("measured"))), jen.Id("err").Op("!=").Nil()).Block(jen.Return()),
		)
		for j := range names {
			body = append(body, store(j).Op("=").Id("measured").Index(jen.Lit(j)))
		}
	}
	results := []jen.Code{jen.Id("v").Id("Objectives")}
	if g.measures() {
		doc[0] = strings.Replace(doc[0], "Objective", "Measure", 1)
		doc = append(doc, "It measures every unknown constraint there too: those the objectives' binding",
			"reports with them, the simulated ones by their expressions, without noise: Run",
			"adds it.")
		results = append(results, jen.Id("g").Id("Constraints"))
		for k, c := range g.measured() {
			if c.Constraint.Measured.Kind == ir.ExprBinding {
				body = append(body, jen.Id("g").Index(jen.Lit(k)).Op("=").Id("simulated").Call(jen.Id("x")).Index(jen.Lit(k)))
			}
		}
	}
	body = append(body, jen.Return())
	for _, line := range doc {
		f.Comment(line)
	}
	f.Func().Id(g.evaluator()).Params(jen.Id(ctx).Qual("context", "Context"), jen.Id("x").Id("Point")).
		Params(append(results, jen.Id("err").Error())...).Block(body...)
}

// trueObjectivesDecl emits trueObjectives, the objectives' values without
// observation noise.
func (g *generator) trueObjectivesDecl(f *jen.File) {
	if g.p.Objective.Binding.Kind != ir.ExprBinding {
		f.Comment("trueObjectives returns NaN for every objective: their values come with")
		f.Comment("whatever noise they have, which boc does not know.")
		f.Func().Id("trueObjectives").Params(jen.Id("Point")).Params(jen.Id("v").Id("Objectives")).Block(
			jen.For(jen.Id("j").Op(":=").Range().Id("v")).Block(jen.Id("v").Index(jen.Id("j")).Op("=").Qual("math", "NaN").Call()),
			jen.Return(),
		)
		return
	}
	results := []jen.Code{jen.Id("v")}
	if g.measures() {
		results = append(results, jen.Id("_"))
	}
	f.Comment("trueObjectives returns the objectives' values at x without observation noise.")
	f.Func().Id("trueObjectives").Params(jen.Id("x").Id("Point")).Id("Objectives").Block(
		jen.List(append(results, jen.Id("_"))...).Op(":=").Id(g.evaluator()).Call(jen.Qual("context", "Background").Call(), jen.Id("x")).
			Comment("an expression never fails"),
		jen.Return(jen.Id("v")),
	)
}

// trueHypervolumeDecl emits trueHypervolume, the hypervolume of a front's
// values without observation noise, the yardstick of a study.
func (g *generator) trueHypervolumeDecl(f *jen.File) {
	if g.p.Objective.Binding.Kind != ir.ExprBinding {
		f.Comment("trueHypervolume is NaN: the objectives' values without noise are unknown.")
		f.Func().Id("trueHypervolume").Params(jen.Index().Id("FrontPoint"), jen.Id("Objectives")).Float64().Block(jen.Return(jen.Qual("math", "NaN").Call()))
		return
	}
	keep := []jen.Code{}
	doc := ""
	if g.measures() {
		keep = append(keep, jen.If(jen.Id("trulyUnsafe").Call(jen.Id("p").Dot("X"))).Block(jen.Continue()))
		doc = ", of the points that truly meet the simulated requirements"
	}
	f.Comment("trueHypervolume is the hypervolume the objectives' values without noise at the")
	f.Comment("points of front dominate above ref" + doc + ".")
	f.Func().Id("trueHypervolume").Params(jen.Id("front").Index().Id("FrontPoint"), jen.Id("ref").Id("Objectives")).Float64().Block(
		jen.Id("values").Op(":=").Make(jen.Index().Float64(), jen.Lit(0), jen.Len(jen.Id("front")).Op("*").Id("NumObjectives")),
		jen.For(jen.List(jen.Id("_"), jen.Id("p")).Op(":=").Range().Id("front")).Block(append(keep,
			jen.Id("v").Op(":=").Id("trueObjectives").Call(jen.Id("p").Dot("X")),
			jen.Id("values").Op("=").Append(jen.Id("values"), jen.Id("v").Index(jen.Empty().Op(":")).Op("...")),
		)...),
		jen.Return(jen.Qual(runtimePareto, "HypervolumeOf").Call(jen.Id("values"), whole(jen.Id("ObjectiveMaximize")), whole(jen.Id("ref")))),
	)
}

// severalRunTypes emits RunOptions, Progress, FrontValue, Result and the
// reasons a run stops.
func (g *generator) severalRunTypes(f *jen.File) {
	g.runOptionsDecl(f, "the Pareto set has", g.stopOnContradictionOption()...)

	progress := []jen.Code{
		jen.Id("Evaluation").Int().Comment("1 for the first"),
		jen.Id("Budget").Int().Comment("the run's budget"),
		jen.Id("X").Id("Point").Comment("the point evaluated"),
		jen.Id("Values").Id("Objectives").Comment("the objectives observed there"),
		jen.Id("TrueValues").Id("Objectives").Comment("their values without observation noise; NaN unless simulated"),
	}
	progress = append(progress, g.measuredProgressFields()...)
	for _, t := range g.tallies() {
		progress = append(progress, jen.Id(t.field).Int().Comment(t.fieldDoc), jen.Id(t.trueField).Int().Comment(t.trueFieldDoc))
	}
	progress = append(progress,
		jen.Id("Hypervolume").Float64().Comment("of the Pareto set after this evaluation (Optimizer.Hypervolume)"),
		jen.Id("TrueHypervolume").Float64().Comment("of its values without noise (trueHypervolume)"),
		jen.Id("FrontSize").Int().Comment("the number of points in the Pareto set"),
	)
	f.Comment("Progress describes one evaluation of a run and the state after it.")
	f.Type().Id("Progress").Struct(progress...)

	front := []jen.Code{
		jen.Id("FrontPoint"),
		jen.Id("TrueValues").Id("Objectives").Comment("the objectives without observation noise; NaN unless simulated"),
	}
	if g.measures() {
		front = append(front, jen.Id("TrulyFeasible").Bool().Comment("whether it meets the simulated constraints' true values"))
	}
	f.Comment("FrontValue is a point of the Pareto set with what a run knows of it.")
	f.Type().Id("FrontValue").Struct(front...)

	stoppedDoc := "Stopped says why the run ended: StoppedBudget."
	stopped := []jen.Code{jen.Id("StoppedBudget").Op("=").Lit("budget")}
	if g.o.Safety != nil {
		stoppedDoc = "Stopped says why the run ended: StoppedBudget, StoppedContradiction or StoppedNoSafePoint."
		stopped = append(stopped, jen.Id("StoppedContradiction").Op("=").Lit("contradiction"),
			jen.Comment("StoppedNoSafePoint: no point is certified and playable any more."),
			jen.Id("StoppedNoSafePoint").Op("=").Lit("no safe point"))
	}
	result := []jen.Code{
		jen.Id("Evaluations").Int(),
		jen.Comment(stoppedDoc),
		jen.Id("Stopped").String(),
		jen.Comment("Front is the Pareto set (Optimizer.Front)."),
		jen.Id("Front").Index().Id("FrontValue"),
		jen.Comment("Hypervolume is the hypervolume the front's posterior means dominate above"),
		jen.Comment("Reference (Optimizer.Hypervolume)."),
		jen.Id("Hypervolume").Float64(),
		jen.Id("Reference").Id("Objectives"),
		jen.Comment("TrueHypervolume is that of the front's values without noise (trueHypervolume)."),
		jen.Id("TrueHypervolume").Float64(),
	}
	for _, t := range g.tallies() {
		result = append(result, jen.Id(t.field).Int().Comment(strings.Replace(t.fieldDoc, " so far", "", 1)),
			jen.Id(t.trueField).Int().Comment(strings.Replace(t.trueFieldDoc, " so far", "", 1)))
	}
	if g.o.Safety != nil {
		result = append(result,
			jen.Id("SafeSize").Int().Comment("the number of points certified safe at the last suggestion"),
			jen.Id("Contradictions").Int().Comment("the measurements that contradicted the constraints' model"),
		)
	}
	f.Comment("Result is the outcome of a run.")
	f.Type().Id("Result").Struct(result...)
	f.Comment("Why a run stopped.")
	f.Const().Defs(stopped...)
}

// severalRunDecl emits Run and result.
func (g *generator) severalRunDecl(f *jen.File) {
	resultArgs := []jen.Code{jen.Id("stopped")}
	for _, t := range g.tallies() {
		resultArgs = append(resultArgs, jen.Id(t.trueCounter))
	}
	fail := func(err jen.Code) jen.Code { return jen.Return(jen.Id("o").Dot("result").Call(resultArgs...), err) }
	pcg := func(stream string) jen.Code {
		return jen.Qual("math/rand/v2", "New").Call(jen.Qual("math/rand/v2", "NewPCG").Call(jen.Id("seed"), jen.Id(stream)))
	}
	body := []jen.Code{
		jen.Id("budget").Op(":=").Id("opt").Dot("Budget"),
		jen.If(jen.Id("budget").Op("==").Lit(0)).Block(jen.Id("budget").Op("=").Id("Budget")),
		jen.If(jen.Id("budget").Op("<").Lit(0).Op("||").Id("budget").Op(">").Id("Budget")).Block(
			jen.Return(jen.Id("Result").Values(), g.errorf("budget %d is outside 1..%d, the budget the optimiser was compiled for", jen.Id("budget"), jen.Id("Budget"))),
		),
		jen.Id("seed").Op(":=").Id("opt").Dot("Seed"),
		jen.If(jen.Id("seed").Op("==").Lit(0)).Block(jen.Id("seed").Op("=").Id("Seed")),
		jen.Id("o").Op(":=").Id("New").Call(jen.Id("seed")),
		jen.Var().Id("random").Op("*").Qual("math/rand/v2", "Rand"),
		jen.If(jen.Id("opt").Dot("RandomSearch")).Block(jen.Id("random").Op("=").Add(pcg("randomSearchStream"))),
		jen.Id("stopped").Op(":=").Id("StoppedBudget"),
	}
	if g.o.Safety != nil {
		body = append(body, jen.Id("contradictions").Op(":=").Lit(0))
	}
	if g.objectiveNoise {
		body = append(body, jen.Id("noiseRand").Op(":=").Add(pcg("noiseStream")))
	}
	for _, t := range g.tallies() {
		body = append(body, jen.List(jen.Id(t.counter), jen.Id(t.trueCounter)).Op(":=").List(jen.Lit(0), jen.Lit(0)))
	}
	if g.constraintNoise {
		body = append(body,
			jen.Id("constraintRand").Op(":=").Add(pcg("constraintNoiseStream")),
			jen.Id("constraintScale").Op(":=").Id("opt").Dot("ConstraintNoiseScale"),
			jen.If(jen.Id("constraintScale").Op("==").Lit(0)).Block(jen.Id("constraintScale").Op("=").Lit(1)),
		)
	}
	results := []jen.Code{jen.Id("v"), jen.Id("err")}
	observed := []jen.Code{jen.Id("x"), jen.Id("v")}
	progress := []kv{{"Evaluation", method("Evaluations")}, {"Budget", jen.Id("budget")}, {"X", jen.Id("x")}, {"Values", jen.Id("v")},
		{"TrueValues", jen.Id("trueObjectives").Call(jen.Id("x"))}}
	if g.measures() {
		results = []jen.Code{jen.Id("v"), jen.Id("measured"), jen.Id("err")}
		observed = append(observed, jen.Id("measured"))
		progress = append(progress, kv{"Constraints", jen.Id("measured")}, kv{"TrueConstraints", jen.Id("truth")})
	}
	if g.o.Safety != nil {
		progress = append(progress, kv{"Certificate", method("Certificate")}, kv{"Contradictions", jen.Id("notes")})
	}
	for _, t := range g.tallies() {
		progress = append(progress, kv{t.field, jen.Id(t.counter)}, kv{t.trueField, jen.Id(t.trueCounter)})
	}
	loop := []jen.Code{
		jen.If(jen.Id("err").Op(":=").Id("ctx").Dot("Err").Call(), jen.Id("err").Op("!=").Nil()).Block(fail(jen.Id("err"))),
		jen.Var().Id("x").Id("Point"),
		jen.Var().Id("err").Error(),
		jen.If(jen.Id("random").Op("!=").Nil()).Block(
			jen.List(jen.Id("x"), jen.Id("err")).Op("=").Id("randomPoint").Call(jen.Id("random")),
		).Else().Block(
			jen.List(jen.Id("x"), jen.Id("err")).Op("=").Add(method("Suggest")),
		),
		g.noSafePointStop(),
		jen.If(jen.Id("err").Op("!=").Nil()).Block(fail(jen.Id("err"))),
		jen.List(results...).Op(":=").Id(g.evaluator()).Call(jen.Id("ctx"), jen.Id("x")),
		jen.If(jen.Id("err").Op("!=").Nil()).Block(
			fail(jen.Op("&").Id("EvaluationError").Values(jen.Dict{
				jen.Id("Evaluation"): jen.Id("o").Dot("Evaluations").Call().Op("+").Lit(1), jen.Id("X"): jen.Id("x"), jen.Id("Err"): jen.Id("err")})),
		),
	}
	if g.objectiveNoise {
		loop = append(loop, jen.Id("objectiveNoise").Call(jen.Op("&").Id("v"), jen.Id("noiseRand")))
	}
	if g.measures() {
		loop = append(loop, g.measuredRunStep()...)
	}
	loop = append(loop,
		jen.If(jen.Id("err").Op(":=").Id("o").Dot("Observe").Call(observed...), jen.Id("err").Op("!=").Nil()).Block(fail(jen.Id("err"))))
	loop = append(loop, g.contradictionNotes()...)
	loop = append(loop,
		jen.If(jen.Id("opt").Dot("Progress").Op("!=").Nil()).Block(
			jen.Id("p").Op(":=").Id("Progress").Add(keyed(false, progress...)),
			jen.List(jen.Id("hv"), jen.Id("ref"), jen.Id("_")).Op(":=").Add(method("Hypervolume")),
			jen.Id("front").Op(":=").Add(method("Front")),
			jen.List(jen.Id("p").Dot("Hypervolume"), jen.Id("p").Dot("TrueHypervolume"), jen.Id("p").Dot("FrontSize")).Op("=").List(
				jen.Id("hv"), jen.Id("trueHypervolume").Call(jen.Id("front"), jen.Id("ref")), jen.Len(jen.Id("front"))),
			jen.Id("opt").Dot("Progress").Call(jen.Id("p")),
		),
	)
	loop = append(loop, g.contradictionStop())
	body = append(body,
		jen.For(jen.Id("o").Dot("Evaluations").Call().Op("<").Id("budget")).Block(loop...),
		jen.Return(jen.Id("o").Dot("result").Call(resultArgs...), jen.Nil()),
	)
	f.Comment("Run optimises the objectives: it suggests, evaluates and observes points until")
	f.Comment("the budget is spent, and returns the Pareto set. When it fails (an objective")
	f.Comment("error, returned as an *EvaluationError; a numerical failure; ctx cancelled) the")
	f.Comment("Result describes the evaluations made before the error.")
	if g.objectiveNoise {
		f.Comment("It adds the declared observation noise to every objective's value it observes,")
		f.Comment("drawn from a stream seeded with the seed.")
	}
	f.Func().Id("Run").Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("opt").Id("RunOptions")).Params(jen.Id("Result"), jen.Error()).Block(body...)

	params, fields, counts := g.resultTallies()
	point := []jen.Code{
		jen.Id("v").Op(":=").Id("FrontValue").Values(jen.Dict{jen.Id("FrontPoint"): jen.Id("p"), jen.Id("TrueValues"): jen.Id("trueObjectives").Call(jen.Id("p").Dot("X"))}),
	}
	if g.measures() {
		point = append(point, jen.Id("v").Dot("TrulyFeasible").Op("=").Op("!").Id("trulyUnsafe").Call(jen.Id("p").Dot("X")))
	}
	point = append(point, jen.Id("r").Dot("Front").Op("=").Append(jen.Id("r").Dot("Front"), jen.Id("v")))
	body = append([]jen.Code{jen.Id("r").Op(":=").Id("Result").Add(keyed(false, fields...))}, counts...)
	body = append(body,
		jen.Id("front").Op(":=").Add(method("Front")),
		jen.For(jen.List(jen.Id("_"), jen.Id("p")).Op(":=").Range().Id("front")).Block(point...),
		jen.List(jen.Id("r").Dot("Hypervolume"), jen.Id("r").Dot("Reference"), jen.Id("_")).Op("=").Add(method("Hypervolume")),
		jen.Id("r").Dot("TrueHypervolume").Op("=").Id("trueHypervolume").Call(jen.Id("front"), jen.Id("r").Dot("Reference")),
		jen.Return(jen.Id("r")),
	)
	f.Comment("result summarises the run so far.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("result").Params(params...).Id("Result").Block(body...)
}

// severalSimulateDecl emits Simulate: one evaluation as Run makes it, its
// noise drawn from streams of the trial's own (simulateDecl).
func (g *generator) severalSimulateDecl(f *jen.File) {
	pcg := func(stream string) jen.Code {
		return jen.Qual("math/rand/v2", "New").Call(jen.Qual("math/rand/v2", "NewPCG").Call(jen.Id("key"), jen.Id(stream)))
	}
	results := []jen.Code{jen.Id("v")}
	named := []jen.Code{jen.Id("v").Id("Objectives")}
	if g.measures() {
		results = append(results, jen.Id("measured"))
		named = append(named, jen.Id("measured").Id("Constraints"))
	}
	var body []jen.Code
	if g.objectiveNoise || g.constraintNoise {
		// The key mixes the trial into the seed as simulateDecl's does.
		body = append(body, jen.Id("key").Op(":=").Id("seed").Op("^").Parens(jen.Id("trial").Op("+").Lit(1)).Op("*").Op("0x9E3779B97F4A7C15"))
	}
	body = append(body,
		jen.List(append(results, jen.Err())...).Op("=").Id(g.evaluator()).Call(jen.Id("ctx"), jen.Id("x")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return()),
	)
	if g.objectiveNoise {
		body = append(body,
			jen.Id("noiseRand").Op(":=").Add(pcg("noiseStream")),
			jen.Id("objectiveNoise").Call(jen.Op("&").Id("v"), jen.Id("noiseRand")))
	}
	if g.constraintNoise {
		body = append(body, jen.Id("constraintNoise").Call(jen.Op("&").Id("measured"), pcg("constraintNoiseStream"), jen.Lit(1.0)))
	}
	body = append(body, jen.Return())
	f.Comment("Simulate evaluates x as Run does, for trial number trial of a journalled run")
	f.Comment("seeded with seed, with fresh draws of the simulated noise from streams of that")
	f.Comment("trial's own: a trial measures the same whenever, and by whichever process, it is made.")
	f.Func().Id("Simulate").Params(jen.Id("ctx").Qual("context", "Context"), jen.List(jen.Id("seed"), jen.Id("trial")).Uint64(), jen.Id("x").Id("Point")).
		Params(append(named, jen.Err().Error())...).Block(body...)
}
