package codegen

import (
	"fmt"
	"strings"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/plan"
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

// Measuring the unknown constraints: Measure evaluates the objective and
// every constraint at a point, simulated gives the simulated constraints'
// noise-free values, trulyUnsafe judges them, and constraintNoise draws
// their measurement noise in a study's run.

// measured is the measured constraints, in source order: a safe
// acquisition's safety constraints, or the outcome constraints.
func (g *generator) measured() []*plan.OutputModel {
	models := g.o.Measured()
	out := make([]*plan.OutputModel, len(models))
	for i := range models {
		out[i] = &models[i]
	}
	return out
}

// constraintDecls declares the Constraints type and the constraints' names
// and limits.
func (g *generator) constraintDecls(f *jen.File) {
	var names, limits, atLeast []jen.Code
	var listing []string
	for _, c := range g.measured() {
		k := c.Constraint
		cmp := "<="
		if k.AtLeast {
			cmp = ">="
		}
		names = append(names, jen.Lit(k.Name))
		limits = append(limits, number(k.Threshold).code)
		atLeast = append(atLeast, jen.Lit(k.AtLeast))
		listing = append(listing, fmt.Sprintf("%s %s %s", k.Name, cmp, dsl.RealValue(k.Threshold)))
	}
	one, many := "unknown safety constraint", "unknown safety constraints"
	switch {
	case g.mixed():
		one, many = "measured constraint", "measured constraints: the unknown safety constraints, then the requirements (outcome constraints)"
	case g.o.Safety == nil:
		one, many = "requirement (outcome constraint)", "requirements (outcome constraints)"
	}
	f.Comment("NumConstraints is the number of " + many + ".")
	f.Const().Id("NumConstraints").Op("=").Lit(len(names))
	if g.mixed() {
		f.Comment("NumSafety is the number of safety constraints, which every evaluation must keep;")
		f.Comment("the requirements after them only the recommendation must meet.")
		f.Const().Id("NumSafety").Op("=").Lit(len(g.o.Safety.Constraints))
	}
	f.Comment("Constraints holds one value per " + one + ", in declaration")
	f.Comment("order: " + strings.Join(listing, ", ") + ".")
	f.Type().Id("Constraints").Index(jen.Id("NumConstraints")).Float64()
	f.Comment("ConstraintNames, ConstraintLimits and ConstraintAtLeast describe the constraints:")
	f.Comment("value >= limit when AtLeast, value <= limit otherwise.")
	f.Var().Defs(
		jen.Id("ConstraintNames").Op("=").Index(jen.Id("NumConstraints")).String().Values(names...),
		jen.Id("ConstraintLimits").Op("=").Id("Constraints").Values(limits...),
		jen.Id("ConstraintAtLeast").Op("=").Index(jen.Id("NumConstraints")).Bool().Values(atLeast...),
	)
	f.Comment("Violated reports whether value v breaks constraint k's limit; NaN does.")
	f.Func().Id("Violated").Params(jen.Id("k").Int(), jen.Id("v").Float64()).Bool().Block(
		jen.If(jen.Id("ConstraintAtLeast").Index(jen.Id("k"))).Block(jen.Return(jen.Op("!").Parens(jen.Id("v").Op(">=").Id("ConstraintLimits").Index(jen.Id("k"))))),
		jen.Return(jen.Op("!").Parens(jen.Id("v").Op("<=").Id("ConstraintLimits").Index(jen.Id("k")))),
	)
}

// constraintModel is the Gaussian process of a measured constraint as a
// runtime model takes it: the statements that make its kernel, named kname
// (in a function returning an error), and the fields its description shares
// with every measured output's (runtime/safe.Constraint's and
// runtime/outcome.Output's first ones); limitFields are its limit's.
func (g *generator) constraintModel(kname string, c *plan.OutputModel) ([]jen.Code, []kv) {
	ls := make([]jen.Code, len(c.Lengthscales))
	for i, v := range c.Lengthscales {
		ls[i] = number(v).code
	}
	what := "objective "
	if c.Constraint != nil {
		what = "constraint "
	}
	kernel := []jen.Code{
		jen.List(jen.Id(kname), jen.Id("err")).Op(":=").Qual(runtimeKernel, "Named").Call(jen.Lit(c.Family), number(c.Variance).code, number(c.Alpha).code, jen.Index().Float64().Values(ls...)),
		jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Qual("fmt", "Errorf").Call(jen.Lit(what+c.Name+": %w"), jen.Id("err")))),
	}
	if levels := g.levelCounts(g.p.D); levels != nil {
		kernel = append(kernel, jen.Id(kname).Dot("SetLevels").Call(jen.Index().Int().Values(intLits(levels)...)))
	}
	fields := []kv{{"Name", jen.Lit(c.Name)}, {"Kernel", jen.Id(kname)}}
	if anyTrue(c.Learned) {
		learned := make([]jen.Code, len(c.Learned))
		lo, hi := make([]jen.Code, len(c.Learned)), make([]jen.Code, len(c.Learned))
		for i, l := range c.Learned {
			learned[i], lo[i], hi[i] = jen.Lit(l), number(c.Lower[i]).code, number(c.Upper[i]).code
		}
		fields = append(fields, kv{"Learned", jen.Index().Bool().Values(learned...)},
			kv{"Lower", jen.Index().Float64().Values(lo...)}, kv{"Upper", jen.Index().Float64().Values(hi...)})
	}
	fields = append(fields, kv{"NoiseVariance", number(c.NoiseVariance).code})
	if c.NoiseVariance < 0 {
		fields = append(fields, kv{"NoiseLower", number(c.NoiseLower).code}, kv{"NoiseUpper", number(c.NoiseUpper).code})
	}
	return kernel, fields
}

// limitFields are a measured constraint's limit, as runtime/safe.Constraint
// and runtime/outcome.Limit take it.
func limitFields(c *plan.OutputModel) []kv {
	return []kv{{"Threshold", number(c.Constraint.Threshold).code}, {"AtLeast", jen.Lit(c.Constraint.AtLeast)}}
}

// judgesTruth reports whether the optimiser consults the simulated
// constraints' true values: to draw seeds or the oracle's set among the
// truly safe points, or for the safe optimum of a finite decision set.
func (g *generator) judgesTruth() bool {
	s := g.o.Safety
	simulated := false
	for _, c := range s.Constraints {
		simulated = simulated || c.Constraint.Measured.Kind == ir.ExprBinding
	}
	return simulated && (s.DrawSeeds > 0 || s.TrueSafeSet || g.o.Finite() && g.p.Objective.Binding.Kind == ir.ExprBinding)
}

// measureDecl emits Measure: the objective and every unknown constraint at
// one point.
func (g *generator) measureDecl(f *jen.File) {
	b := g.p.Objective.Binding
	var reportedNames []jen.Code
	var reportedAt []int
	for k, c := range g.measured() {
		if c.Constraint.Measured.Kind == ir.ExternalBinding {
			reportedNames = append(reportedNames, jen.Lit(c.Constraint.Name))
			reportedAt = append(reportedAt, k)
		}
	}
	var body []jen.Code
	switch {
	case len(reportedAt) > 0 && b.Kind == ir.GoBinding:
		// y and err are Measure's named results.
		results := []jen.Code{jen.Id("y")}
		if b.GoSD {
			results = append(results, jen.Id("_"))
		}
		results = append(results, jen.Id("values"))
		if b.GoError {
			results = append(results, jen.Id("err"))
		}
		body = append(body, jen.List(results...).Op(":=").Add(g.goCall(f, b)))
		if b.GoError {
			body = append(body, jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return()))
		}
		for _, k := range reportedAt {
			c := g.measured()[k].Constraint
			body = append(body, jen.Id("g").Index(jen.Lit(k)).Op("=").Float64().Call(jen.Id("values").Dot(b.GoFields[c.Name])))
		}
	case len(reportedAt) > 0 && b.Kind == ir.ExecBinding:
		f.Comment("reportedNames are the constraints the objective's command reports, in order.")
		f.Var().Id("reportedNames").Op("=").Index(jen.Lit(len(reportedAt))).String().Values(reportedNames...)
		body = append(body,
			jen.Var().Id("reported").Index(jen.Lit(len(reportedAt))).Float64(),
			jen.List(jen.Id("y"), jen.Id("_"), jen.Id("err")).Op("=").Qual(commandPath, "ExecMeasuring").Call(jen.Id("ctx"), jen.Id("commandLine"), jen.Id("layout"),
				whole(jen.Id("x")), jen.False(), whole(jen.Id("reportedNames")), whole(jen.Id("reported"))),
			jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return()),
		)
		for i, k := range reportedAt {
			body = append(body, jen.Id("g").Index(jen.Lit(k)).Op("=").Id("reported").Index(jen.Lit(i)))
		}
	default:
		body = append(body,
			jen.List(jen.Id("y"), jen.Id("err")).Op("=").Id("Objective").Call(jen.Id("ctx"), jen.Id("x")),
			jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return()),
		)
	}
	needLayout := b.Kind != ir.ExecBinding
	layoutDeclared := false
	for k, c := range g.measured() {
		m := c.Constraint.Measured
		target := jen.Id("g").Index(jen.Lit(k))
		wrap := func(err jen.Code) jen.Code {
			return jen.Qual("fmt", "Errorf").Call(jen.Lit("constraint "+c.Constraint.Name+": %w"), err)
		}
		switch m.Kind {
		case ir.ExprBinding:
			body = append(body, jen.Add(target).Op("=").Id("simulated").Call(jen.Id("x")).Index(jen.Lit(k)))
		case ir.GoBinding:
			call := g.goCall(f, m)
			if m.GoError {
				body = append(body, jen.If(jen.List(target, jen.Id("err")).Op("=").Add(call), jen.Id("err").Op("!=").Nil()).Block(
					jen.Return(jen.Id("y"), jen.Id("g"), wrap(jen.Id("err")))))
			} else {
				body = append(body, jen.Add(target).Op("=").Add(call))
			}
		case ir.ExecBinding:
			if needLayout && !layoutDeclared {
				f.Comment("layout names the dimensions of a Point for the commands' input.")
				f.Var().Id("layout").Op("=").Add(g.layout(commandPath, jen.Id))
				layoutDeclared = true
			}
			args := make([]jen.Code, len(m.Exec))
			for i, a := range m.Exec {
				args[i] = jen.Lit(a)
			}
			body = append(body, jen.If(jen.List(target, jen.Id("err")).Op("=").Qual(commandPath, "Exec").Call(jen.Id("ctx"),
				jen.Index().String().Values(args...), jen.Id("layout"), whole(jen.Id("x"))), jen.Id("err").Op("!=").Nil()).Block(
				jen.Return(jen.Id("y"), jen.Id("g"), wrap(jen.Id("err")))))
		}
	}
	body = append(body, jen.Return())
	f.Comment("Measure evaluates the objective at x and measures every unknown constraint")
	f.Comment("there: those the objective reports with its value (in its command's answer or")
	f.Comment("its function's results), those with a binding of their own after the objective,")
	f.Comment("each at x. A simulated constraint's value is its expression's, without noise:")
	f.Comment("Run adds the noise.")
	f.Func().Id("Measure").Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("x").Id("Point")).
		Params(jen.Id("y").Float64(), jen.Id("g").Id("Constraints"), jen.Id("err").Error()).Block(body...)
}

// simulatedDecl emits simulated: the simulated constraints' noise-free
// values, NaN for the others.
func (g *generator) simulatedDecl(f *jen.File) {
	body := []jen.Code{jen.Var().Id("g").Id("Constraints")}
	names := newNamer("x", "g")
	simulatedAny := false
	for k, c := range g.measured() {
		m := c.Constraint.Measured
		if m.Kind != ir.ExprBinding {
			body = append(body, jen.Id("g").Index(jen.Lit(k)).Op("=").Qual("math", "NaN").Call())
			continue
		}
		simulatedAny = true
		e := &exprEmitter{g: g, names: names, point: "x"}
		v, ok := e.expr(m.Expr)
		if !ok {
			return
		}
		body = append(body, jen.Comment(c.Constraint.Name))
		body = append(body, e.stmts...)
		body = append(body, jen.Id("g").Index(jen.Lit(k)).Op("=").Add(v.elems[0].code))
	}
	body = append(body, jen.Return(jen.Id("g")))
	if !simulatedAny {
		f.Comment("simulated returns NaN for every constraint: none is simulated, so their true")
		f.Comment("values are unknown.")
		f.Func().Id("simulated").Params(jen.Id("Point")).Id("Constraints").Block(
			jen.Var().Id("g").Id("Constraints"),
			jen.For(jen.Id("k").Op(":=").Range().Id("g")).Block(jen.Id("g").Index(jen.Id("k")).Op("=").Qual("math", "NaN").Call()),
			jen.Return(jen.Id("g")),
		)
		return
	}
	f.Comment("simulated returns the simulated constraints' values at x without noise, and NaN")
	f.Comment("for the measured ones, whose true values are unknown.")
	f.Func().Id("simulated").Params(jen.Id("x").Id("Point")).Id("Constraints").Block(body...)
}

// trulyUnsafeDecl emits trulyUnsafe, which reports whether a simulated
// constraint is truly broken at x: by its value there, or, for a constraint
// judged where the queries land, by its mean or the probability of keeping
// its limit over the robust values' draws of the input noise.
func (g *generator) trulyUnsafeDecl(f *jen.File) {
	var landing []jen.Code
	atAim := make([]jen.Code, len(g.measured()))
	for k, c := range g.measured() {
		l := c.Constraint.Landing
		offAim := l.OffAim() && c.Constraint.Measured.Kind == ir.ExprBinding
		atAim[k] = jen.Lit(!offAim)
		switch at := jen.Lit(k); {
		case !offAim:
		case l.Mode == "mean":
			landing = append(landing, jen.If(jen.Id("Violated").Call(at, jen.Id("sum").Index(at).Op("/").Id("robustSamples"))).Block(jen.Return(jen.True())))
		case l.Mode == "chance":
			landing = append(landing, jen.If(jen.Float64().Call(jen.Id("broken").Index(at)).Op(">").Add(number(l.Alpha).code).Op("*").Id("robustSamples")).Block(jen.Return(jen.True())))
		}
	}
	broken := jen.Op("!").Qual("math", "IsNaN").Call(jen.Id("v")).Op("&&").Id("Violated").Call(jen.Id("k"), jen.Id("v"))
	if len(landing) > 0 {
		broken = jen.Id("judgedAtAim").Index(jen.Id("k")).Op("&&").Add(broken)
	}
	body := []jen.Code{jen.For(jen.List(jen.Id("k"), jen.Id("v")).Op(":=").Range().Id("simulated").Call(jen.Id("x"))).Block(
		jen.If(broken).Block(jen.Return(jen.True())),
	)}
	if len(landing) == 0 {
		f.Comment("trulyUnsafe reports whether a simulated constraint is truly broken at x.")
		f.Func().Id("trulyUnsafe").Params(jen.Id("x").Id("Point")).Bool().Block(append(body, jen.Return(jen.False()))...)
		return
	}
	body = append(body,
		jen.Id("base").Op(":=").Id("robustDraws").Call(),
		jen.If(jen.Id("base").Op("==").Nil()).Block(jen.Return(jen.True())),
		jen.Var().Id("sum").Id("Constraints"),
		jen.Var().Id("broken").Index(jen.Id("NumConstraints")).Int(),
		jen.For(jen.Id("j").Op(":=").Range().Id("robustSamples")).Block(append(robustLanding(nil),
			jen.For(jen.List(jen.Id("k"), jen.Id("v")).Op(":=").Range().Id("simulated").Call(jen.Id("landed"))).Block(
				jen.Id("sum").Index(jen.Id("k")).Op("+=").Id("v"),
				jen.If(jen.Id("Violated").Call(jen.Id("k"), jen.Id("v"))).Block(jen.Id("broken").Index(jen.Id("k")).Op("++")),
			))...),
	)
	body = append(body, landing...)
	f.Comment("judgedAtAim marks the constraints judged at the aimed point; the others are")
	f.Comment("judged where the input noise lands the queries.")
	f.Var().Id("judgedAtAim").Op("=").Index(jen.Id("NumConstraints")).Bool().Values(atAim...)
	f.Comment("trulyUnsafe reports whether a simulated constraint is truly broken at x: at x")
	f.Comment("itself, or where the input noise lands a query aimed at x, judged over the robust")
	f.Comment("values' draws by the constraint's landing (its mean, or the chance of keeping")
	f.Comment("its limit). It reports true when the draws cannot be made.")
	f.Func().Id("trulyUnsafe").Params(jen.Id("x").Id("Point")).Bool().Block(append(body, jen.Return(jen.False()))...)
}

// constraintNoiseDecl emits constraintNoise, which draws the measurement
// noise of the simulated constraints, when one has noise.
func (g *generator) constraintNoiseDecl(f *jen.File) bool {
	var body []jen.Code
	for k, c := range g.measured() {
		if c.Noise == nil {
			continue
		}
		h, ok := callHook[registry.DistributionEmit](g, c.Noise)
		if !ok || h.Sample == nil {
			g.internal(c.Noise.Span, "distribution %s cannot simulate the noise of constraint %s", c.Noise.Plugin, c.Constraint.Name)
			continue
		}
		body = append(body, jen.Id("g").Index(jen.Lit(k)).Op("+=").Id("scale").Op("*").Add(h.Sample(&registry.Args{Call: c.Noise}, jen.Id("rng"))))
	}
	if len(body) == 0 {
		return false
	}
	f.Comment("constraintNoise adds the simulated constraints' measurement noise to g, every")
	f.Comment("draw multiplied by scale (1: the noise as declared).")
	f.Func().Id("constraintNoise").Params(jen.Id("g").Op("*").Id("Constraints"), jen.Id("rng").Op("*").Qual("math/rand/v2", "Rand"), jen.Id("scale").Float64()).Block(body...)
	return true
}

// A tally counts the evaluations that broke a limit of one kind of measured
// constraint: by the values measured, and by the true values of the
// simulated ones.
type tally struct {
	required               bool   // requirements, or else safety constraints
	counter, trueCounter   string // Run's counters
	field, trueField       string // the Progress and Result fields
	fieldDoc, trueFieldDoc string
}

// tallies are the problem's kinds of measured constraints: safety
// constraints, requirements or both.
func (g *generator) tallies() []tally {
	var out []tally
	if g.o.Safety != nil {
		out = append(out, tally{false, "violations", "unsafe", "Violations", "UnsafeEvaluations",
			"evaluations so far whose measured safety constraints broke a limit",
			"evaluations so far whose true simulated safety constraints broke a limit"})
	}
	if g.requires() {
		out = append(out, tally{true, "unmet", "trulyUnmet", "Unmet", "TrulyUnmet",
			"evaluations so far whose measured requirements broke a limit",
			"evaluations so far whose true simulated requirements broke a limit"})
	}
	return out
}

// breaks is the condition that constraint k's value v breaks its limit and
// is of t's kind.
func (g *generator) breaks(t tally) *jen.Statement {
	broken := jen.Id("Violated").Call(jen.Id("k"), jen.Id("v"))
	if !g.mixed() {
		return broken
	}
	if t.required {
		return jen.Id("k").Op(">=").Id("NumSafety").Op("&&").Add(broken)
	}
	return jen.Id("k").Op("<").Id("NumSafety").Op("&&").Add(broken)
}

// countBreaks is a loop that adds one to counter when a value of values
// breaks a limit of t's kind.
func (g *generator) countBreaks(t tally, values jen.Code, counter jen.Code, known jen.Code) jen.Code {
	cond := g.breaks(t)
	if known != nil {
		cond = jen.Add(known).Op("&&").Add(cond)
	}
	return jen.For(jen.List(jen.Id("k"), jen.Id("v")).Op(":=").Range().Add(values)).Block(
		jen.If(cond).Block(jen.Add(counter).Op("++"), jen.Break()),
	)
}

// measuredRunStep is Run's step after Measure: the simulated constraints' noise
// and truth (where the query landed), and the counts of broken limits.
func (g *generator) measuredRunStep() []jen.Code {
	at := "x"
	if g.o.SimulatesInputNoise() {
		at = "landed"
	}
	stmts := []jen.Code{jen.Id("truth").Op(":=").Id("simulated").Call(jen.Id(at))}
	if g.constraintNoise {
		stmts = append(stmts, jen.Id("constraintNoise").Call(jen.Op("&").Id("measured"), jen.Id("constraintRand"), jen.Id("constraintScale")))
	}
	for _, t := range g.tallies() {
		stmts = append(stmts,
			g.countBreaks(t, jen.Id("measured"), jen.Id(t.counter), nil),
			g.countBreaks(t, jen.Id("truth"), jen.Id(t.trueCounter), jen.Op("!").Qual("math", "IsNaN").Call(jen.Id("v"))))
	}
	return stmts
}
