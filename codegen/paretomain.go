package codegen

import (
	"github.com/bocdev/boc/dsl/ir"
	"github.com/dave/jennifer/jen"
)

// severalMainDecls emits the main package's adapters of a problem with
// several objectives: its session (a runtime/program ParetoSession), the
// evaluation of a journalled trial and Run's.
func (g *generator) severalMainDecls(f *jen.File, lib func(string) *jen.Statement) {
	g.severalSessionDecls(f, lib)
	if g.p.Objective.Binding.Kind != ir.ExternalBinding {
		g.severalEvaluateDecl(f, lib)
		g.severalRunAdapter(f, lib)
	}
}

// severalSessionDecls emits session, the library's optimiser as
// runtime/program's ParetoSession, for ask, tell, status and report.
func (g *generator) severalSessionDecls(f *jen.File, lib func(string) *jen.Statement) {
	s := func(name string) *jen.Statement { return jen.Id("s").Dot("o").Dot(name) }
	prog := func(name string) *jen.Statement { return jen.Qual(programPath, name) }
	required := len(g.measured())
	observed := []jen.Code{lib("Point").Call(jen.Id("x")), lib("Objectives").Call(jen.Id("values"))}
	if g.measures() {
		observed = append(observed, lib("Constraints").Call(jen.Id("constraints")))
	}
	f.Comment("session drives the optimiser for ask, tell and status.")
	f.Type().Id("session").Struct(jen.Id("o").Op("*").Add(lib("Optimizer")))
	f.Func().Id("newSession").Params(jen.Id("seed").Uint64()).Add(prog("Session")).Block(
		jen.Return(jen.Id("session").Values(lib("New").Call(jen.Id("seed")))),
	)
	f.Func().Params(jen.Id("s").Id("session")).Id("Suggest").Params().Params(jen.Index().Float64(), jen.Error()).Block(
		jen.List(jen.Id("x"), jen.Id("err")).Op(":=").Add(s("Suggest")).Call(),
		jen.Return(whole(jen.Id("x")), jen.Id("err")),
	)
	f.Comment("Observe is not used: a problem with several objectives observes them all.")
	f.Func().Params(jen.Id("s").Id("session")).Id("Observe").Params(jen.Index().Float64(), jen.Float64(), jen.Float64(), jen.Index().Float64()).Error().Block(
		jen.Return(jen.Qual("errors", "New").Call(jen.Lit(g.pkg + " has several objectives: ObserveObjectives observes them"))),
	)
	f.Func().Params(jen.Id("s").Id("session")).Id("ObserveObjectives").Params(jen.List(jen.Id("x"), jen.Id("values"), jen.Id("constraints")).Index().Float64()).Error().Block(
		jen.If(jen.Len(jen.Id("x")).Op("!=").Add(lib("Dim")).Op("||").Len(jen.Id("values")).Op("!=").Add(lib("NumObjectives")).Op("||").Len(jen.Id("constraints")).Op("!=").Lit(required)).Block(
			jen.Return(jen.Qual("fmt", "Errorf").Call(jen.Lit("%d components, %d objectives and %d constraint values, want %d, %d and %d"),
				jen.Len(jen.Id("x")), jen.Len(jen.Id("values")), jen.Len(jen.Id("constraints")), lib("Dim"), lib("NumObjectives"), jen.Lit(required))),
		),
		jen.Return(s("Observe").Call(observed...)),
	)
	pendingSessionDecls(f, lib)
	f.Comment("Best and BestObserved have nothing to say: the result is the Pareto set.")
	for _, name := range []string{"Best", "BestObserved"} {
		f.Func().Params(jen.Id("s").Id("session")).Id(name).Params().Params(jen.Index().Float64(), jen.Float64(), jen.Bool()).Block(
			jen.Return(jen.Nil(), jen.Qual("math", "NaN").Call(), jen.False()),
		)
	}
	f.Func().Params(jen.Id("s").Id("session")).Id("Front").Params().Index().Add(prog("FrontPoint")).Block(
		jen.Var().Id("out").Index().Add(prog("FrontPoint")),
		jen.For(jen.List(jen.Id("_"), jen.Id("p")).Op(":=").Range().Add(s("Front")).Call()).Block(
			jen.Id("out").Op("=").Append(jen.Id("out"), prog("FrontPoint").Values(jen.Dict{
				jen.Id("X"): whole(jen.Id("p").Dot("X")), jen.Id("Means"): whole(jen.Id("p").Dot("Mean")), jen.Id("Observed"): whole(jen.Id("p").Dot("Observed")),
			})),
		),
		jen.Return(jen.Id("out")),
	)
	f.Func().Params(jen.Id("s").Id("session")).Id("Hypervolume").Params().Params(jen.Float64(), jen.Index().Float64(), jen.Error()).Block(
		jen.List(jen.Id("hv"), jen.Id("ref"), jen.Id("err")).Op(":=").Add(s("Hypervolume")).Call(),
		jen.Return(jen.Id("hv"), whole(jen.Id("ref")), jen.Id("err")),
	)
	if g.o.Safety != nil {
		safeSessionDecls(f, lib)
	}
}

// severalEvaluateDecl emits evaluate, one trial's evaluation for run
// --journal: the objectives' (and requirements'), or, for a simulated
// problem, Simulate's for that trial.
func (g *generator) severalEvaluateDecl(f *jen.File, lib func(string) *jen.Statement) {
	values := []jen.Code{jen.Id("v")}
	result := jen.Dict{jen.Id("Objectives"): whole(jen.Id("v")), jen.Id("Y"): jen.Qual("math", "NaN").Call(), jen.Id("SD"): jen.Qual("math", "NaN").Call()}
	if g.measures() {
		values = append(values, jen.Id("measured"))
		result[jen.Id("Constraints")] = whole(jen.Id("measured"))
	}
	call := lib(g.evaluator()).Call(jen.Id("ctx"), lib("Point").Call(jen.Id("x")))
	if !g.o.Measures() {
		call = lib("Simulate").Call(jen.Id("ctx"), lib("Seed"), jen.Uint64().Call(jen.Id("trial")), lib("Point").Call(jen.Id("x")))
	}
	trial := jen.Id("trial").Int()
	if g.o.Measures() {
		trial = jen.Id("_").Int()
	}
	f.Comment("evaluate evaluates trial number trial at x, for run --journal.")
	f.Func().Id("evaluate").Params(jen.Id("ctx").Qual("context", "Context"), trial, jen.Id("x").Index().Float64()).Params(jen.Qual(programPath, "Evaluation"), jen.Error()).Block(
		jen.List(append(values, jen.Id("err"))...).Op(":=").Add(call),
		jen.Return(jen.Qual(programPath, "Evaluation").Values(result), jen.Id("err")),
	)
}

// severalRunAdapter emits run, the library's Run as runtime/program's.
func (g *generator) severalRunAdapter(f *jen.File, lib func(string) *jen.Statement) {
	prog := func(name string) *jen.Statement { return jen.Qual(programPath, name) }
	pr := func(name string) *jen.Statement { return jen.Id("p").Dot(name) }
	r := func(name string) *jen.Statement { return jen.Id("r").Dot(name) }
	nan := func() *jen.Statement { return jen.Qual("math", "NaN").Call() }
	progressFields := []kv{
		{"Evaluation", pr("Evaluation")},
		{"Budget", pr("Budget")},
		{"X", whole(pr("X"))},
		{"Y", nan()},
		{"Value", nan()},
		{"BestY", nan()},
		{"BestValue", nan()},
		{"RecommendationMean", nan()},
		{"RecommendationValue", nan()},
		{"Infeasible", jen.True()},
		{"TrulyInfeasible", jen.True()},
		{"Objectives", whole(pr("Values"))},
		{"TrueObjectives", whole(pr("TrueValues"))},
		{"Hypervolume", pr("Hypervolume")},
		{"TrueHypervolume", pr("TrueHypervolume")},
		{"FrontSize", pr("FrontSize")},
	}
	progressFields = append(progressFields, g.progressSafety()...)
	runOptions := []kv{
		{"Seed", jen.Id("opt").Dot("Seed")},
		{"Budget", jen.Id("opt").Dot("Budget")},
		{"RandomSearch", jen.Id("opt").Dot("RandomSearch")},
	}
	if g.o.Safety != nil {
		runOptions = append(runOptions, kv{"StopOnContradiction", jen.Id("opt").Dot("StopOnContradiction")})
	}
	if g.constraintNoise {
		runOptions = append(runOptions, kv{"ConstraintNoiseScale", jen.Id("opt").Dot("ConstraintNoiseScale")})
	}
	runOptions = append(runOptions, kv{"Progress", jen.Func().Params(jen.Id("p").Add(lib("Progress"))).Block(
		jen.Id("opt").Dot("Progress").Call(prog("Progress").Add(keyed(true, progressFields...))),
	)})
	front := jen.Dict{
		jen.Id("X"): whole(jen.Id("p").Dot("X")), jen.Id("Means"): whole(jen.Id("p").Dot("Mean")), jen.Id("Observed"): whole(jen.Id("p").Dot("Observed")),
		jen.Id("TrueObjectives"): whole(jen.Id("p").Dot("TrueValues")),
	}
	if g.measures() {
		front[jen.Id("TrulyFeasible")] = jen.Id("p").Dot("TrulyFeasible")
	}
	result := []kv{
		{"Evaluations", r("Evaluations")},
		{"RecommendationMean", nan()},
		{"RecommendationValue", nan()},
		{"BestY", nan()},
		{"BestValue", nan()},
		{"Stopped", r("Stopped")},
		{"Infeasible", jen.True()},
		{"TrulyInfeasible", jen.True()},
		{"Front", jen.Id("front")},
		{"Hypervolume", r("Hypervolume")},
		{"Reference", whole(r("Reference"))},
		{"TrueHypervolume", r("TrueHypervolume")},
	}
	for _, t := range g.tallies() {
		result = append(result, kv{t.field, r(t.field)}, kv{t.trueField, r(t.trueField)})
	}
	if g.o.Safety != nil {
		result = append(result, kv{"SafeSize", r("SafeSize")}, kv{"SeedPoints", lib("InitialDesign")}, kv{"Contradictions", r("Contradictions")})
	}
	f.Comment("run adapts the library's Run to runtime/program.")
	f.Func().Id("run").Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("opt").Add(prog("Options"))).Params(prog("Result"), jen.Error()).Block(
		jen.List(jen.Id("r"), jen.Id("err")).Op(":=").Add(lib("Run")).Call(jen.Id("ctx"), lib("RunOptions").Add(keyed(true, runOptions...))),
		jen.If(jen.Id("failed").Op(":=").Parens(jen.Op("*").Add(lib("EvaluationError"))).Parens(jen.Nil()), jen.Qual("errors", "As").Call(jen.Id("err"), jen.Op("&").Id("failed"))).Block(
			jen.Id("err").Op("=").Add(prog("EvaluationFailed")).Call(jen.Id("err")),
		),
		jen.Id("front").Op(":=").Make(jen.Index().Add(prog("FrontPoint")), jen.Len(r("Front"))),
		jen.For(jen.List(jen.Id("i"), jen.Id("p")).Op(":=").Range().Add(r("Front"))).Block(
			jen.Id("front").Index(jen.Id("i")).Op("=").Add(prog("FrontPoint")).Values(front),
		),
		jen.Return(prog("Result").Add(keyed(true, result...)), jen.Id("err")),
	)
}
