package codegen

import (
	"fmt"
	"math"
	"strings"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

// Several objectives (plan.Optimizer.Objectives) replace the model, the
// acquisition and its search: runtime/multi's Optimizer models each
// objective, and each requirement, with its own Gaussian process and
// suggests the maximiser of runtime/pareto's acquisition. The emitted
// Optimizer is a typed face over it, in user units: Objectives hold one
// value per objective, Front is the Pareto set of the evaluated points.

// Import paths of the optimiser of several objectives and its acquisition.
const (
	runtimeMulti  = "github.com/bocdev/boc/runtime/multi"
	runtimePareto = "github.com/bocdev/boc/runtime/pareto"
)

// several reports whether the problem has several objectives.
func (g *generator) several() bool { return len(g.o.Objectives) > 0 }

// planSeveral resolves the initial design's hook; the search's arguments
// are read where they are emitted.
func (g *generator) planSeveral() {
	if g.o.Safety == nil { // a safe exploration starts from its seeds and searches its decision set
		if c := g.p.Init.Call; c != nil {
			if h, ok := callHook[registry.InitEmit](g, c); ok {
				g.initEmit = h
			}
		}
		g.planSearchHook()
	}
	if g.o.Acquisition.Pareto == nil {
		g.internal(g.p.Acquisition.Span, "acquisition %s of several objectives has no Pareto spec", g.p.Acquisition.Plugin)
	}
}

// objectiveListing describes the objectives for comments.
func (g *generator) objectiveListing() string {
	var parts []string
	for _, out := range g.p.Objective.Outputs {
		s := out.Name + " (minimised"
		if out.Maximize {
			s = out.Name + " (maximised"
		}
		if t := out.Threshold; !math.IsNaN(t) {
			s += fmt.Sprintf(", of interest %s %s", beyondWord(out.Maximize), dsl.RealValue(t))
		}
		parts = append(parts, s+")")
	}
	return strings.Join(parts, ", ")
}

// beyondWord says on which side of its threshold an objective's values are
// of interest.
func beyondWord(maximize bool) string {
	if maximize {
		return "from"
	}
	return "up to"
}

// severalDecls declares the objectives, the requirements, the Optimizer and
// its methods.
func (g *generator) severalDecls(f *jen.File) {
	outs := g.p.Objective.Outputs
	names, maximize, thresholds := make([]jen.Code, len(outs)), make([]jen.Code, len(outs)), make([]jen.Code, len(outs))
	for j, out := range outs {
		names[j], maximize[j], thresholds[j] = jen.Lit(out.Name), jen.Lit(out.Maximize), number(out.Threshold).code
	}
	f.Comment("NumObjectives is the number of objectives.")
	f.Const().Id("NumObjectives").Op("=").Lit(len(outs))
	f.Comment("Objectives holds one value per objective, in declaration order: " + g.objectiveListing() + ".")
	f.Type().Id("Objectives").Index(jen.Id("NumObjectives")).Float64()
	f.Comment("ObjectiveNames, ObjectiveMaximize and ObjectiveThresholds describe the objectives;")
	f.Comment("a threshold is the hypervolume's reference point's coordinate, NaN where it is")
	f.Comment("inferred from the front.")
	f.Var().Defs(
		jen.Id("ObjectiveNames").Op("=").Index(jen.Id("NumObjectives")).String().Values(names...),
		jen.Id("ObjectiveMaximize").Op("=").Index(jen.Id("NumObjectives")).Bool().Values(maximize...),
		jen.Id("ObjectiveThresholds").Op("=").Id("Objectives").Values(thresholds...),
	)
	f.Comment("ErrFull means the optimiser already holds Budget observations and pending points.")
	f.Var().Id("ErrFull").Op("=").Qual(runtimeMulti, "ErrFull")
	if g.measures() {
		g.constraintDecls(f)
		if g.p.Objective.Binding.Kind != ir.ExternalBinding {
			g.simulatedDecl(f)
			g.trulyUnsafeDecl(f)
		}
	}
	f.Comment(fmt.Sprintf("Optimizer is the Bayesian optimiser of problem %s's %d objectives: runtime/multi", g.p.Name, len(outs)))
	f.Comment("models each objective, and each requirement, with its own Gaussian process over")
	f.Comment(fmt.Sprintf("the unit cube and suggests the maximiser of %s. Its buffers are", callString(g.p.Acquisition)))
	f.Comment("sized for Budget observations when it is made. It is not safe for concurrent use.")
	fields := []jen.Code{
		jen.Id("multi").Op("*").Qual(runtimeMulti, "Optimizer"),
		jen.Id("seed").Uint64(),
	}
	newBody := []jen.Code{jen.Id("o").Op(":=").Op("&").Id("Optimizer").Values(jen.Dict{jen.Id("seed"): jen.Id("seed")})}
	if g.o.Safety != nil {
		fields = append(fields,
			jen.Id("explorer").Op("*").Qual(runtimeSafe, "Explorer").Comment("the multi's safe exploration"),
			jen.Id("decision").Index().Id("Point").Comment("its decision set"),
			jen.Id("decisionUnits").Index().Float64().Comment("the decision set in unit coordinates, row-major"),
			jen.Id("certificate").Id("Certificate").Comment("of the last suggestion"),
		)
		newBody = append(newBody, field("err").Op("=").Add(method("makeMulti")))
	} else {
		fields = append(fields,
			jen.Id("design").Index(jen.Id("InitialDesign")).Id("Point").Comment("the initial design, in order"),
			jen.Id("designSize").Int().Comment("design points in use"),
		)
		newBody = append(newBody, g.designInit(), jen.If(field("err").Op("==").Nil()).Block(field("err").Op("=").Add(method("makeMulti"))))
	}
	fields = append(fields,
		jen.Id("points").Index(jen.Id("Budget")).Id("Point").Comment("the evaluated points"),
	)
	if g.measures() {
		fields = append(fields, jen.Id("measured").Index(jen.Id("Budget")).Id("Constraints").Comment("the constraints measured there"))
	}
	fields = append(fields,
		jen.Id("unit").Add(unitArray()).Comment("Suggest's point in unit coordinates"),
		jen.Id("err").Error().Comment("why New could not make the optimiser"),
	)
	f.Type().Id("Optimizer").Struct(fields...)
	f.Comment("New returns an optimiser whose initial design and searches are seeded with seed")
	f.Comment("(the problem's seed is Seed).")
	f.Func().Id("New").Params(jen.Id("seed").Uint64()).Op("*").Id("Optimizer").Block(append(newBody, jen.Return(o()))...)
	if g.o.Safety != nil {
		g.certificateDecl(f)
	} else {
		g.initialPointsDecl(f)
		if g.initEmit != nil {
			g.makeDesignDecl(f)
		}
	}
	g.makeMultiDecl(f)
	g.severalMethodDecls(f)
}

// makeMultiDecl emits makeMulti, which makes runtime/multi's optimiser.
func (g *generator) makeMultiDecl(f *jen.File) {
	var body, objectives, outputs []jen.Code
	var safety []kv
	if g.o.Safety != nil {
		body, safety = g.explorerSetup(f)
	}
	for j, out := range g.p.Objective.Outputs {
		objectives = append(objectives, keyed(false, kv{"Maximize", jen.Lit(out.Maximize)}, kv{"Threshold", number(out.Threshold).code}))
		kernel, fields := g.constraintModel(fmt.Sprintf("ko%d", j), &g.o.Objectives[j])
		if g.o.Objectives[j].WorstMean {
			worst := map[bool]string{true: "Least", false: "Greatest"}[out.Maximize]
			fields = append(fields, kv{"Mean", jen.Qual(runtimeGP, worst)})
		}
		body = append(body, kernel...)
		outputs = append(outputs, keyed(true, fields...))
	}
	for k := range g.o.Outcomes {
		c := &g.o.Outcomes[k]
		kernel, fields := g.constraintModel(fmt.Sprintf("kr%d", k), c)
		body = append(body, kernel...)
		limit := jen.Op("&").Qual(runtimeOutcome, "Limit").Add(keyed(false, append(limitFields(c), kv{"Confidence", number(c.Constraint.Confidence).code})...))
		outputs = append(outputs, keyed(true, append(fields, kv{"Limit", limit})...))
	}
	cfg := []kv{
		{"Dim", jen.Id("Dim")},
		{"Capacity", jen.Id("Budget")},
		{"Objectives", jen.Index().Qual(runtimeMulti, "Objective").Custom(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}, objectives...)},
		{"Outputs", jen.Index().Qual(runtimeOutcome, "Output").Custom(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}, outputs...)},
		{"Method", jen.Qual(runtimePareto, g.o.Acquisition.Pareto.Method)},
		{"Seed", field("seed")},
	}
	if g.o.Safety != nil {
		cfg = append(cfg, kv{"Safety", jen.Op("&").Qual(runtimeSafe, "Config").Add(keyed(true, safety...))})
	} else {
		cfg = append(cfg, g.searchConfig()...)
		body = append(body,
			jen.Id("units").Op(":=").Make(jen.Index().Float64(), jen.Lit(0), field("designSize").Op("*").Id("Dim")),
			jen.For(jen.List(jen.Id("_"), jen.Id("x")).Op(":=").Range().Add(field("design")).Index(jen.Empty().Op(":").Add(field("designSize")))).Block(
				jen.List(jen.Id("u"), jen.Id("err")).Op(":=").Id("toUnit").Call(jen.Id("x")),
				jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(g.errorf("initial design: %w", jen.Id("err")))),
				jen.Id("units").Op("=").Append(jen.Id("units"), jen.Id("u").Index(jen.Empty().Op(":")).Op("...")),
			),
		)
	}
	body = append(body,
		jen.List(jen.Id("m"), jen.Id("err")).Op(":=").Qual(runtimeMulti, "New").Call(jen.Qual(runtimeMulti, "Config").Add(keyed(true, cfg...))),
		jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(g.errorf("%w", jen.Id("err")))),
		field("multi").Op("=").Id("m"),
	)
	if g.o.Safety != nil {
		body = append(body, field("explorer").Op("=").Id("m").Dot("Explorer").Call())
	}
	body = append(body, jen.Return(jen.Nil()))
	f.Comment("makeMulti makes the Gaussian processes of the objectives, then of the")
	f.Comment("requirements, and the optimiser that suggests from them.")
	if g.o.Safety != nil {
		f.Comment("Its safe exploration chooses among the decision set, a grid of the domain and")
		f.Comment("the seeds, the points every safety constraint's Gaussian process certifies.")
	}
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("makeMulti").Params().Error().Block(body...)
}

// recordMeasured is Observe's statement that keeps the constraints measured
// at evaluated point n; nothing without any.
func (g *generator) recordMeasured() jen.Code {
	if !g.measures() {
		return jen.Null()
	}
	return field("measured").Index(jen.Id("n")).Op("=").Id("g")
}

// searchConfig is the fields of runtime/multi's Config of the search: the
// initial design's units, the search plugin's L-BFGS search and trust
// region, the known constraints and the integer components.
func (g *generator) searchConfig() []kv {
	cfg := []kv{
		{"Design", jen.Id("units")},
		{"Search", g.search.New},
	}
	if g.search.Region != nil {
		cfg = append(cfg, kv{"Region", g.search.Region})
	}
	unit := func() *jen.Statement { return jen.Parens(jen.Op("*").Add(unitArray())).Call(jen.Id("u")) }
	if len(g.known) > 0 {
		cfg = append(cfg, kv{"Feasible", jen.Func().Params(jen.Id("u").Index().Float64()).Bool().Block(
			jen.Return(jen.Id("feasible").Call(jen.Id("fromUnit").Call(unit()))))})
	}
	if g.hasInteger() {
		cfg = append(cfg, kv{"Integer", whole(jen.Id("Integer"))},
			kv{"Snap", jen.Func().Params(jen.Id("u").Index().Float64()).Block(jen.Id("snap").Call(unit()))})
	}
	return cfg
}

// severalMethodDecls emits the Optimizer's methods.
func (g *generator) severalMethodDecls(f *jen.File) {
	unitOf := []jen.Code{
		jen.List(jen.Id("u"), jen.Id("err")).Op(":=").Id("toUnit").Call(jen.Id("x")),
		jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Id("err"))),
	}
	failed := jen.If(field("err").Op("!=").Nil()).Block(jen.Return(field("err")))
	suggestErr := g.errorf("%w", jen.Id("err"))
	if len(g.known) > 0 {
		suggestErr = jen.Id("infeasible").Call(suggestErr)
	}
	f.Comment("Suggest returns the next point to evaluate: the next point of the initial")
	f.Comment("design, then the maximiser of the acquisition given the evaluated and pending")
	f.Comment("points.")
	suggest := []jen.Code{
		jen.If(field("err").Op("!=").Nil()).Block(jen.Return(jen.Id("Point").Values(), field("err"))),
		jen.If(jen.Id("err").Op(":=").Add(field("multi").Dot("Suggest").Call(whole(field("unit")))), jen.Id("err").Op("!=").Nil()).Block(
			jen.Return(jen.Id("Point").Values(), suggestErr),
		),
	}
	if g.o.Safety != nil {
		f.Comment("With the safety constraints, it is a point the explorer certifies safe: a seed")
		f.Comment("while its first phase lasts, then the certified point where the acquisition is")
		f.Comment("largest; Certificate says why it is safe, and with no point left to play it")
		f.Comment("returns safe.ErrNoSafePoint.")
		suggest = append(suggest,
			jen.Id("c").Op(":=").Add(field("multi").Dot("Choice").Call()),
			field("certificate").Op("=").Id("Certificate").Add(keyed(false,
				kv{"Phase", jen.Id("c").Dot("Phase")}, kv{"Seed", jen.Id("c").Dot("Seed")}, kv{"Beta", jen.Id("c").Dot("Beta")}, kv{"SafeSize", jen.Id("c").Dot("SafeSize")},
				kv{"Contradictions", jen.Id("c").Dot("Contradictions")})),
			jen.Copy(whole(field("certificate").Dot("Bounds")), jen.Id("c").Dot("Bounds")),
			jen.Return(field("decision").Index(jen.Id("c").Dot("Index")), jen.Nil()),
		)
	} else {
		suggest = append(suggest, jen.Return(jen.Id("fromUnit").Call(jen.Op("&").Add(field("unit"))), jen.Nil()))
	}
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("Suggest").Params().Params(jen.Id("Point"), jen.Error()).Block(suggest...)
	if g.o.Safety != nil {
		certificateAccessorDecls(f)
		g.safeEstimateDecls(f)
	}

	params := []jen.Code{jen.Id("x").Id("Point"), jen.Id("v").Id("Objectives")}
	values := []jen.Code{
		jen.Var().Id("values").Index(jen.Id("NumObjectives").Op("+").Id("NumConstraints")).Float64(),
		jen.Copy(jen.Id("values").Index(jen.Empty().Op(":")), jen.Id("v").Index(jen.Empty().Op(":"))),
		jen.Copy(jen.Id("values").Index(jen.Id("NumObjectives").Op(":")), jen.Id("g").Index(jen.Empty().Op(":"))),
	}
	doc := "Observe records the objectives v measured at x."
	switch {
	case g.mixed():
		// runtime/multi takes the requirements before the safety constraints.
		params = append(params, jen.Id("g").Id("Constraints"))
		doc = "Observe records the objectives v and the constraints g measured at x."
		values[2] = jen.Copy(jen.Id("values").Index(jen.Id("NumObjectives").Op(":")), jen.Id("g").Index(jen.Id("NumSafety").Op(":")))
		values = append(values, jen.Copy(jen.Id("values").Index(jen.Id("NumObjectives").Op("+").Id("NumConstraints").Op("-").Id("NumSafety").Op(":")),
			jen.Id("g").Index(jen.Empty().Op(":").Id("NumSafety"))))
	case g.measures():
		params = append(params, jen.Id("g").Id("Constraints"))
		doc = "Observe records the objectives v and the constraints g measured at x."
	default:
		values = []jen.Code{jen.Id("values").Op(":=").Id("v")}
	}
	f.Comment(doc)
	f.Comment("It ends x's pending; a value that is not finite is an error, and nothing is")
	f.Comment("recorded then.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("Observe").Params(params...).Error().Block(append(append([]jen.Code{failed}, unitOf...), append(values,
		jen.Id("n").Op(":=").Add(field("multi").Dot("Len").Call()),
		jen.If(jen.Id("err").Op(":=").Add(field("multi").Dot("Observe").Call(jen.Id("u").Index(jen.Empty().Op(":")), jen.Id("values").Index(jen.Empty().Op(":")))), jen.Id("err").Op("!=").Nil()).Block(
			jen.Return(g.errorf("%w", jen.Id("err"))),
		),
		field("points").Index(jen.Id("n")).Op("=").Id("x"),
		g.recordMeasured(),
		jen.Return(jen.Nil()),
	)...)...)

	f.Comment("Pending records that x is being evaluated: until Observe or Release of x, the")
	f.Comment("acquisition believes it at its posterior means and Suggest never returns it. It")
	f.Comment("returns ErrFull when the pending points and the observations fill Budget, and")
	f.Comment("rejects a point outside the domain and one that is pending already.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("Pending").Params(jen.Id("x").Id("Point")).Error().Block(append(append([]jen.Code{failed}, unitOf...),
		jen.If(jen.Id("err").Op(":=").Add(field("multi").Dot("Pending").Call(jen.Id("u").Index(jen.Empty().Op(":")))), jen.Id("err").Op("!=").Nil()).Block(
			jen.Return(g.errorf("%v: %w", jen.Id("x"), jen.Id("err"))),
		),
		jen.Return(jen.Nil()),
	)...)
	f.Comment("Release forgets the pending point x without an observation (its evaluation")
	f.Comment("failed or was abandoned); it returns false when x was not pending.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("Release").Params(jen.Id("x").Id("Point")).Bool().Block(
		jen.List(jen.Id("u"), jen.Id("err")).Op(":=").Id("toUnit").Call(jen.Id("x")),
		jen.Return(jen.Id("err").Op("==").Nil().Op("&&").Add(field("err")).Op("==").Nil().Op("&&").Add(field("multi").Dot("Release").Call(jen.Id("u").Index(jen.Empty().Op(":"))))),
	)
	suggestBatchDecl(f)
	f.Comment("Evaluations is the number of observations.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("Evaluations").Params().Int().Block(
		jen.If(field("err").Op("!=").Nil()).Block(jen.Return(jen.Lit(0))),
		jen.Return(field("multi").Dot("Len").Call()),
	)

	frontFields := []jen.Code{
		jen.Id("X").Id("Point"),
		jen.Id("Mean").Id("Objectives").Comment("the objectives' posterior means there"),
		jen.Id("Observed").Id("Objectives").Comment("the objectives measured there"),
	}
	observed := []jen.Code{
		jen.Id("values").Op(":=").Add(field("multi").Dot("Observed").Call(jen.Id("i"))),
		jen.For(jen.Id("j").Op(":=").Range().Id("NumObjectives")).Block(
			jen.Id("p").Dot("Mean").Index(jen.Id("j")).Op("=").Add(field("multi").Dot("Mean").Call(jen.Id("j"), jen.Id("i"))),
			jen.Id("p").Dot("Observed").Index(jen.Id("j")).Op("=").Id("values").Index(jen.Id("j")),
		),
	}
	if g.measures() {
		frontFields = append(frontFields, jen.Id("Constraints").Id("Constraints").Comment("the constraints measured there"))
		observed = append(observed, jen.Id("p").Dot("Constraints").Op("=").Add(field("measured")).Index(jen.Id("i")))
	}
	f.Comment("FrontPoint is an evaluated point of the Pareto set.")
	f.Type().Id("FrontPoint").Struct(frontFields...)
	frontDoc := "Front returns the Pareto set: the evaluated points whose objectives' posterior\n" +
		"means no other's dominate, in evaluation order."
	if g.requires() {
		frontDoc = "Front returns the Pareto set: the evaluated points that meet every requirement\n" +
			"with its confidence and whose objectives' posterior means no other such point's\n" +
			"dominate, in evaluation order."
	}
	for _, line := range strings.Split(frontDoc, "\n") {
		f.Comment(line)
	}
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("Front").Params().Index().Id("FrontPoint").Block(
		jen.Id("n").Op(":=").Add(method("Evaluations")),
		jen.If(jen.Id("n").Op("==").Lit(0)).Block(jen.Return(jen.Nil())),
		jen.Id("keep").Op(":=").Make(jen.Index().Bool(), jen.Id("n")),
		jen.Id("front").Op(":=").Make(jen.Index().Id("FrontPoint"), jen.Lit(0), field("multi").Dot("Front").Call(jen.Id("keep"))),
		jen.For(jen.List(jen.Id("i"), jen.Id("on")).Op(":=").Range().Id("keep")).Block(append(append([]jen.Code{
			jen.If(jen.Op("!").Id("on")).Block(jen.Continue()),
			jen.Id("p").Op(":=").Id("FrontPoint").Values(jen.Dict{jen.Id("X"): field("points").Index(jen.Id("i"))}),
		}, observed...),
			jen.Id("front").Op("=").Append(jen.Id("front"), jen.Id("p")),
		)...),
		jen.Return(jen.Id("front")),
	)
	f.Comment("Hypervolume returns the hypervolume the Pareto set's posterior means dominate")
	f.Comment("above the reference point, and that point: the thresholds, and where none is")
	f.Comment("given the front's worst value less a tenth of its range. It is 0 before a")
	f.Comment("point of the front is known.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("Hypervolume").Params().Params(jen.Id("hv").Float64(), jen.Id("ref").Id("Objectives"), jen.Err().Error()).Block(
		jen.If(field("err").Op("!=").Nil()).Block(jen.Return(jen.Lit(0), jen.Id("ref"), field("err"))),
		jen.List(jen.Id("hv"), jen.Err()).Op("=").Add(field("multi").Dot("Hypervolume").Call(whole(jen.Id("ref")))),
		jen.Return(),
	)
}
