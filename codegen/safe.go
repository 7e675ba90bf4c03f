package codegen

import (
	"fmt"
	"strings"

	"github.com/bocdev/boc/dsl/ir"
	"github.com/dave/jennifer/jen"
)

// A safe acquisition (plan.Safety) replaces the acquisition and its search:
// runtime/safe's Explorer chooses among a finite decision set (the
// candidates, or a grid of the domain) the points certified safe for every
// unknown constraint, from the objective's posterior there. The optimiser
// keeps its objective model, records every constraint's measured values
// with each observation, and Run measures them with Measure.

// Import paths of the safe exploration and its generic kernels.
const (
	runtimeSafe   = "github.com/bocdev/boc/runtime/safe"
	runtimeKernel = "github.com/bocdev/boc/runtime/kernel"
)

// safeDecls declares the optimiser of a safe acquisition, after its kernel
// and refit declarations.
func (g *generator) safeDecls(f *jen.File) {
	g.noiseDecl(f)
	if g.o.Draws != nil {
		g.noiseDecls(f)
	}
	if g.o.InputModel() {
		g.repDecls(f)
	}
	g.errorDecls(f)
	g.constraintDecls(f)
	g.certificateDecl(f)
	if g.p.Objective.Binding.Kind != ir.ExternalBinding || g.judgesTruth() {
		g.simulatedDecl(f) // Run's truth, and the truly safe points'
	}
	if g.judgesTruth() || g.requires() && g.p.Objective.Binding.Kind != ir.ExternalBinding {
		g.trulyUnsafeDecl(f) // the truly safe points, or whether a recommendation is truly feasible
	}
	g.safeStructDecl(f)
	g.safeNewDecls(f)
	g.outcomeDecls(f)
	g.landingDecls(f)
	g.safeSuggestDecl(f)
	g.pendingDecls(f)
	g.predictDecl(f)
	if g.o.Finite() {
		g.candidateTableDecl(f)
		g.bestCandidateDecl(f)
	}
	g.observeDecl(f)
	g.refitDecls(f)
	g.placeLandmarksDecl(f)
	g.inflationDecls(f)
	g.accessorDecls(f)
	g.posteriorDecls(f)
}

// certificateDecl declares the certificate type.
func (g *generator) certificateDecl(f *jen.File) {
	f.Comment("Certificate is why a suggestion is safe: a seed point, safe as declared, or")
	f.Comment("a point whose confidence interval of every constraint (μ ± √β σ, intersected")
	f.Comment("over the rounds) lies on the safe side of its limit.")
	f.Type().Id("Certificate").Struct(
		jen.Id("Phase").Int().Comment("1 while exploring from the seeds (or expanding), 2 after"),
		jen.Id("Seed").Bool().Comment("a seed point"),
		jen.Id("Beta").Float64().Comment("the β in force"),
		jen.Comment("Bounds are the certified bounds at the point: a lower bound of a >= constraint,"),
		jen.Comment("an upper bound of a <= one; NaN while the first phase learns the constraints."),
		jen.Id("Bounds").Id("Constraints"),
		jen.Id("SafeSize").Int().Comment("the number of certified safe points"),
		jen.Id("Contradictions").Int().Comment("measurements so far that contradicted the constraints' model"),
	)
}

func (g *generator) safeStructDecl(f *jen.File) {
	fields := []jen.Code{
		jen.Id("model").Add(g.model.Type).Comment(callString(g.p.Model) + "; larger is better"),
		jen.Id("seed").Uint64(),
		jen.Line(),
		jen.Id("explorer").Op("*").Qual(runtimeSafe, "Explorer").Comment(callString(g.p.Acquisition)),
		jen.Id("decision").Index().Id("Point").Comment("the decision set"),
		jen.Id("decisionUnits").Index().Float64().Comment("its points in unit coordinates, row-major"),
		jen.Id("objMean").Index().Float64().Comment("the objective's posterior at the safe points, model convention"),
		jen.Id("objSD").Index().Float64(),
		jen.Id("certificate").Id("Certificate").Comment("of the last suggestion"),
		jen.Id("designSize").Int().Comment("the seed points in the decision set: InitialDesign"),
	}
	if g.o.Safety.LandingDraws > 0 {
		fields = append(fields, jen.Id("landingBase").Index().Float64().Comment("the landing points' base uniforms, landingDraws rows"))
	}
	fields = append(fields,
		jen.Line(),
		jen.Id("points").Index(jen.Id("Budget")).Id("Point").Comment("the evaluated points"),
		jen.Id("units").Index(jen.Id("Budget")).Add(unitArray()).Comment("the evaluated points in unit coordinates"),
		jen.Id("measured").Index(jen.Id("Budget")).Id("Constraints").Comment("the constraints measured there"),
		jen.Id("violated").Index(jen.Id("Budget")).Bool().Comment("whether a measured value broke its limit"),
		jen.Id("kvec").Index(jen.Id("Budget")).Float64().Comment("kernel vector workspace"),
		jen.Id("bestIndex").Int().Comment("index of the best observed value"),
	)
	fields = append(fields, g.outcomeFields()...)
	fields = append(fields, g.learnFields()...)
	fields = append(fields, g.inputFields()...)
	fields = append(fields, g.inflationFields()...)
	fields = append(fields, pendingFields()...)
	fields = append(fields, jen.Line(), jen.Id("err").Error().Comment("why New could not make the optimiser"))
	f.Comment(fmt.Sprintf("Optimizer is the safe Bayesian optimiser of problem %s: a %s model of the", g.p.Name, pluginName(g.p.Model.Plugin)))
	f.Comment("objective and runtime/safe's Explorer, which models each unknown constraint with")
	f.Comment("its own Gaussian process and suggests only points certified safe for all of")
	f.Comment("them. Its buffers are sized for Budget observations when it is made. It is not")
	f.Comment("safe for concurrent use.")
	f.Type().Id("Optimizer").Struct(fields...)
}

func (g *generator) safeNewDecls(f *jen.File) {
	body := []jen.Code{
		jen.Id("o").Op(":=").Op("&").Id("Optimizer").Add(keyed(true,
			kv{"model", g.model.New},
			kv{"seed", jen.Id("seed")},
		)),
	}
	body = append(body, g.learnInit()...)
	body = append(body, g.inputInit()...)
	body = append(body, g.outcomeInit()...)
	body = append(body,
		jen.If(jen.Id("err").Op(":=").Add(method("makeExplorer")), jen.Id("err").Op("!=").Nil()).Block(
			field("err").Op("=").Add(g.errorf("safe exploration: %w", jen.Id("err"))),
		),
		jen.Return(o()),
	)
	f.Comment("New returns an optimiser whose first phase is seeded with seed (the problem's")
	f.Comment("seed is Seed).")
	f.Func().Id("New").Params(jen.Id("seed").Uint64()).Op("*").Id("Optimizer").Block(body...)

	s := g.o.Safety
	body, cfg := g.explorerSetup(f)
	if g.requires() {
		cfg = append(cfg, kv{"Feasibility", field("decisionFeasibility")})
	}
	cfg = append(cfg, kv{"Pending", field("pendingAt")}, kv{"Seed", field("seed")})
	decisionSize := jen.Len(field("decision"))
	if s.Pool > 0 {
		decisionSize = jen.Id("poolSize")
	}
	body = append(body,
		jen.List(field("explorer"), jen.Id("err")).Op("=").Qual(runtimeSafe, "NewExplorer").Call(jen.Qual(runtimeSafe, "Config").Add(keyed(true, cfg...))),
		jen.Id("m").Op(":=").Add(decisionSize),
		jen.List(field("objMean"), field("objSD"), field("designSize")).Op("=").List(
			jen.Make(jen.Index().Float64(), jen.Id("m")), jen.Make(jen.Index().Float64(), jen.Id("m")), jen.Len(jen.Id("seeds"))),
		jen.Return(jen.Id("err")),
	)
	var doc []string
	switch {
	case s.Pool > 0:
		g.poolDecls(f)
		doc = []string{"makeExplorer makes the decision set, the seeds, from which certified local",
			"search grows a pool of poolSize points (runtime/safe), and the explorer with",
			"every unknown constraint's Gaussian process."}
	default:
		source := "the candidates"
		if !g.o.Finite() {
			grid := make([]string, len(s.Grid))
			for i, m := range s.Grid {
				grid[i] = fmt.Sprint(m)
			}
			source = "a grid of " + strings.Join(grid, "×") + " points of the domain, and the seeds"
		}
		if len(g.known) > 0 {
			source += " that satisfy the known constraints"
		}
		doc = []string{"makeExplorer makes the decision set, " + source + ",",
			"and the explorer with every unknown constraint's Gaussian process."}
	}
	for _, line := range doc {
		f.Comment(line)
	}
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("makeExplorer").Params().Error().Block(body...)
}

// explorerSetup declares the seed points and returns the statements of a
// function returning an error that fill the Optimizer's decision set
// (decision, decisionUnits), the seeds' indices (seeds) and the safety
// constraints' kernels, and the fields of runtime/safe's Config they make,
// Pending, Feasibility and Seed left to the caller.
func (g *generator) explorerSetup(f *jen.File) ([]jen.Code, []kv) {
	s := g.o.Safety
	seeds := make([]jen.Code, len(s.Seeds))
	for i, pt := range s.Seeds {
		vals := make([]jen.Code, len(pt))
		for j, v := range pt {
			vals[j] = number(v).code
		}
		seeds[i] = jen.Values(vals...)
	}
	if len(seeds) > 0 {
		f.Comment("seedPoints are the points every unknown constraint declares safe.")
		f.Var().Id("seedPoints").Op("=").Index().Id("Point").Values(seeds...)
	}

	add := []jen.Code{
		jen.List(jen.Id("u"), jen.Id("err")).Op(":=").Id("toUnit").Call(jen.Id("x")),
		jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Id("err"))),
		field("decision").Op("=").Append(field("decision"), jen.Id("x")),
		field("decisionUnits").Op("=").Append(field("decisionUnits"), jen.Id("u").Index(jen.Empty().Op(":")).Op("...")),
	}
	var fill []jen.Code
	known := jen.Null()
	if len(g.known) > 0 {
		known = jen.If(jen.Op("!").Id("feasible").Call(jen.Id("x"))).Block(jen.Continue())
	}
	switch {
	case g.o.Finite():
		fill = []jen.Code{jen.For(jen.List(jen.Id("_"), jen.Id("x")).Op(":=").Range().Id("candidatePoints")).Block(append([]jen.Code{known}, add...)...)}
	case s.Pool > 0: // the seeds start it
	default:
		counts := make([]jen.Code, len(s.Grid))
		for i, m := range s.Grid {
			counts[i] = jen.Lit(m)
		}
		fill = []jen.Code{
			jen.Id("grid").Op(":=").Qual(runtimeSafe, "Grid").Call(jen.Index().Int().Values(counts...)),
			jen.For(jen.Id("i").Op(":=").Lit(0), jen.Id("i").Op("<").Len(jen.Id("grid")), jen.Id("i").Op("+=").Id("Dim")).Block(append([]jen.Code{
				jen.Id("x").Op(":=").Id("fromUnit").Call(jen.Parens(jen.Op("*").Add(unitArray())).Call(jen.Id("grid").Index(jen.Id("i").Op(":").Id("i").Op("+").Id("Dim")))),
				known,
			}, add...)...),
		}
	}
	seedLoop := []jen.Code{
		jen.Id("at").Op(":=").Qual("slices", "Index").Call(field("decision"), jen.Id("x")),
	}
	if len(g.known) > 0 {
		seedLoop = append(seedLoop, jen.If(jen.Op("!").Id("feasible").Call(jen.Id("x"))).Block(
			jen.Return(jen.Qual("fmt", "Errorf").Call(jen.Lit("seed point %v breaks a known constraint"), jen.Id("x"))),
		))
	}
	if g.o.Finite() {
		seedLoop = append(seedLoop, jen.If(jen.Id("at").Op("<").Lit(0)).Block(
			jen.Return(jen.Qual("fmt", "Errorf").Call(jen.Lit("seed point %v is not a candidate"), jen.Id("x"))),
		))
	} else {
		seedLoop = append(seedLoop, jen.If(jen.Id("at").Op("<").Lit(0)).Block(append([]jen.Code{
			jen.Id("at").Op("=").Len(field("decision")),
		}, add...)...))
	}
	seedLoop = append(seedLoop, jen.Id("seeds").Op("=").Append(jen.Id("seeds"), jen.Id("at")))

	var kernels, constraints []jen.Code
	for k := range s.Constraints {
		c := &s.Constraints[k]
		kernel, fields := g.constraintModel(fmt.Sprintf("k%d", k), c)
		fields = append(fields, limitFields(c)...)
		kernels = append(kernels, kernel...)
		if c.Standardise {
			fields = append(fields, kv{"Standardise", jen.True()})
		}
		if c.Constraint.Lipschitz > 0 {
			fields = append(fields, kv{"Lipschitz", number(c.Constraint.Lipschitz).code})
		}
		switch l := c.Constraint.Landing; {
		case !l.OffAim():
		case l.Mode == "mean":
			fields = append(fields, kv{"Landing", jen.Qual(runtimeSafe, "InMean")})
		case l.Mode == "chance":
			fields = append(fields, kv{"Landing", jen.Qual(runtimeSafe, "ByChance")}, kv{"Alpha", number(l.Alpha).code})
		}
		constraints = append(constraints, keyed(true, fields...))
	}
	sp := s.Spec
	cfg := []kv{
		{"Dim", jen.Id("Dim")},
		{"Points", field("decisionUnits")},
		{"Seeds", jen.Id("seeds")},
		{"Constraints", jen.Index().Qual(runtimeSafe, "Constraint").Custom(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}, constraints...)},
		{"Capacity", jen.Id("Budget")},
		{"Method", jen.Qual(runtimeSafe, sp.Method)},
		{"FirstPhase", jen.Qual(runtimeSafe, sp.FirstPhase)},
		{"Window", jen.Lit(sp.Window)},
		{"Cap", jen.Lit(sp.Cap)},
		{"Delta", number(sp.Delta).code},
		{"Beta", number(sp.Beta).code},
	}
	if sp.Lipschitz > 0 {
		ls := make([]jen.Code, len(constraints))
		for i := range ls {
			ls[i] = number(sp.Lipschitz).code
		}
		cfg = append(cfg, kv{"Lipschitz", jen.Index().Float64().Values(ls...)})
	}
	if sp.Accuracy > 0 {
		cfg = append(cfg, kv{"Accuracy", number(sp.Accuracy).code})
	}
	if s.LandingDraws > 0 {
		cfg = append(cfg, kv{"Land", field("landingPoints")}, kv{"Draws", jen.Id("landingDraws")})
	}
	if s.Pool > 0 {
		cfg = append(cfg, kv{"Pool", jen.Id("poolSize")})
		if g.admits() {
			cfg = append(cfg, kv{"Admit", jen.Id("admit")})
		}
	}
	body := append(fill, jen.Var().Id("seeds").Index().Int())
	if s.LandingDraws > 0 {
		body = append(body,
			field("landingBase").Op("=").Make(jen.Index().Float64(), jen.Id("landingDraws").Op("*").Id("noiseBaseLen")),
			jen.If(jen.Id("err").Op(":=").Qual(runtimeNoise, "Base").Call(jen.Id("landingDraws"), jen.Id("noiseBaseLen"), jen.Lit(uint64(landingSeed)), field("landingBase")),
				jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Id("err"))),
		)
	}
	switch {
	case s.DrawSeeds > 0 || s.TrueSafeSet:
		body = append(body, g.trueSeeds()...)
	case len(s.Seeds) > 0:
		body = append(body, jen.For(jen.List(jen.Id("_"), jen.Id("x")).Op(":=").Range().Id("seedPoints")).Block(seedLoop...))
	}
	body = append(body, kernels...)
	return body, cfg
}

// admits reports whether a pool's proposals need admit: when the domain
// has known constraints or integer components.
func (g *generator) admits() bool {
	if len(g.known) > 0 {
		return true
	}
	for _, d := range g.p.Dims {
		if d.Integer {
			return true
		}
	}
	return false
}

// poolDecls emits the size of a pool and, when the domain needs it, admit,
// which keeps its proposals to the domain.
func (g *generator) poolDecls(f *jen.File) {
	f.Comment("poolSize is the number of points the safe set's pool holds.")
	f.Const().Id("poolSize").Op("=").Lit(g.o.Safety.Pool)
	if !g.admits() {
		return
	}
	body := []jen.Code{jen.Id("x").Op(":=").Id("fromUnit").Call(jen.Parens(jen.Op("*").Add(unitArray())).Call(jen.Id("u")))}
	if len(g.known) > 0 {
		body = append(body, jen.If(jen.Op("!").Id("feasible").Call(jen.Id("x"))).Block(jen.Return(jen.False())))
	}
	body = append(body,
		jen.List(jen.Id("v"), jen.Id("err")).Op(":=").Id("toUnit").Call(jen.Id("x")),
		jen.Copy(jen.Id("u"), whole(jen.Id("v"))),
		jen.Return(jen.Id("err").Op("==").Nil()),
	)
	f.Comment("admit moves a point the pool proposes, in unit coordinates, to the domain's")
	f.Comment("nearest (integer components rounded) and reports whether it keeps to the known")
	f.Comment("constraints.")
	f.Func().Id("admit").Params(jen.Id("u").Index().Float64()).Bool().Block(body...)
}

// landingSeed fixes the base draws of the landing points, the same for
// every point and run.
const landingSeed = 0x6c616e64696e6773 // "landings"

// landingDecls declares the landing points of the constraints judged where
// the queries land.
func (g *generator) landingDecls(f *jen.File) {
	s := g.o.Safety
	if s.LandingDraws == 0 {
		return
	}
	f.Comment("landingDraws is the number of landing points that represent the input noise at")
	f.Comment("an aimed point, for the constraints judged where the queries land.")
	f.Const().Id("landingDraws").Op("=").Lit(s.LandingDraws)
	f.Comment("landingPoints writes to out the landingDraws points, in unit coordinates, where")
	f.Comment("the input noise may land a query aimed at the unit point u: the same quasi-random")
	f.Comment("base draws at every point, so that nearby aims compare smoothly.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("landingPoints").Params(jen.List(jen.Id("u"), jen.Id("out")).Index().Float64()).Block(
		jen.Id("x").Op(":=").Id("fromUnit").Call(jen.Parens(jen.Op("*").Add(unitArray())).Call(jen.Id("u"))),
		jen.For(jen.Id("j").Op(":=").Range().Id("landingDraws")).Block(
			jen.Var().Id("eps").Id("Point"),
			jen.Id("perturbation").Call(jen.Op("&").Id("x"), baseRow(field("landingBase")), jen.Op("&").Id("eps")),
			jen.For(jen.List(jen.Id("i"), jen.Id("e")).Op(":=").Range().Id("eps")).Block(
				jen.Id("out").Index(jen.Id("j").Op("*").Id("Dim").Op("+").Id("i")).Op("=").Id("u").Index(jen.Id("i")).Op("+").Id("e").Op("/").Parens(jen.Id("Upper").Index(jen.Id("i")).Op("-").Id("Lower").Index(jen.Id("i"))),
			),
		),
	)
}

// seedStream draws the seeds of `seed random(n)`.
const seedStream = 0x7365656473616665 // "seedsafe"

// trueSeeds are makeExplorer's statements that take the seeds from the
// truth of the simulated constraints: n of the truly safe points drawn by
// the optimiser's seed, or all of them for the oracle.
func (g *generator) trueSeeds() []jen.Code {
	s := g.o.Safety
	stmts := []jen.Code{
		jen.For(jen.List(jen.Id("i"), jen.Id("x")).Op(":=").Range().Add(field("decision"))).Block(
			jen.If(jen.Op("!").Id("trulyUnsafe").Call(jen.Id("x"))).Block(jen.Id("seeds").Op("=").Append(jen.Id("seeds"), jen.Id("i"))),
		),
	}
	if s.TrueSafeSet {
		return append(stmts, jen.If(jen.Len(jen.Id("seeds")).Op("==").Lit(0)).Block(
			jen.Return(jen.Qual("errors", "New").Call(jen.Lit("no point is truly safe"))),
		))
	}
	return append(stmts,
		jen.If(jen.Len(jen.Id("seeds")).Op("<").Lit(s.DrawSeeds)).Block(
			jen.Return(jen.Qual("fmt", "Errorf").Call(jen.Lit(fmt.Sprintf("only %%d points are truly safe; seed random(n = %d) needs more", s.DrawSeeds)), jen.Len(jen.Id("seeds")))),
		),
		jen.Id("rng").Op(":=").Qual("math/rand/v2", "New").Call(jen.Qual("math/rand/v2", "NewPCG").Call(field("seed"), jen.Op(fmt.Sprintf("%#x", seedStream)))),
		jen.For(jen.Id("j").Op(":=").Range().Lit(s.DrawSeeds)).Block(
			jen.Id("r").Op(":=").Id("j").Op("+").Id("rng").Dot("IntN").Call(jen.Len(jen.Id("seeds")).Op("-").Id("j")),
			jen.List(jen.Id("seeds").Index(jen.Id("j")), jen.Id("seeds").Index(jen.Id("r"))).Op("=").List(jen.Id("seeds").Index(jen.Id("r")), jen.Id("seeds").Index(jen.Id("j"))),
		),
		jen.Id("seeds").Op("=").Id("seeds").Index(jen.Empty().Op(":").Lit(s.DrawSeeds)),
	)
}

func anyTrue(xs []bool) bool {
	for _, x := range xs {
		if x {
			return true
		}
	}
	return false
}

func (g *generator) safeSuggestDecl(f *jen.File) {
	body := []jen.Code{
		jen.If(field("err").Op("!=").Nil()).Block(jen.Return(jen.Id("Point").Values(), field("err"))),
		jen.If(field("model").Dot("Len").Call().Op("+").Add(field("npending")).Op(">=").Id("Budget")).Block(jen.Return(jen.Id("Point").Values(), jen.Id("ErrFull"))),
		jen.List(jen.Id("need"), jen.Id("err")).Op(":=").Add(field("explorer").Dot("Prepare").Call()),
		jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Id("Point").Values(), g.errorf("safe exploration: %w", jen.Id("err")))),
		jen.If(jen.Id("need")).Block(
			jen.For(jen.List(jen.Id("i"), jen.Id("in")).Op(":=").Range().Add(field("explorer").Dot("Safe").Call())).Block(
				jen.If(jen.Id("in")).Block(
					jen.List(field("objMean").Index(jen.Id("i")), field("objSD").Index(jen.Id("i"))).Op("=").Add(
						field("predict").Call(g.decisionUnits(jen.Id("i")))),
				),
			),
		),
		jen.List(jen.Id("c"), jen.Id("err")).Op(":=").Add(field("explorer").Dot("Choose").Call(field("objMean"), field("objSD"))),
		jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Id("Point").Values(), g.errorf("safe exploration: %w", jen.Id("err")))),
		field("certificate").Op("=").Id("Certificate").Add(keyed(false,
			kv{"Phase", jen.Id("c").Dot("Phase")}, kv{"Seed", jen.Id("c").Dot("Seed")}, kv{"Beta", jen.Id("c").Dot("Beta")}, kv{"SafeSize", jen.Id("c").Dot("SafeSize")},
			kv{"Contradictions", jen.Id("c").Dot("Contradictions")})),
		jen.Copy(whole(field("certificate").Dot("Bounds")), jen.Id("c").Dot("Bounds")),
	}
	body = append(body, jen.Return(field("decisionPoint").Call(jen.Id("c").Dot("Index")), jen.Nil()))
	f.Comment("Suggest returns the next point to evaluate, one the explorer certifies safe:")
	for _, line := range strings.Split("a seed point while the first phase lasts, then "+safeMethodDoc[g.o.Safety.Spec.Method], "\n") {
		f.Comment(line)
	}
	if sp := g.o.Safety.Spec; sp.Accuracy > 0 {
		f.Comment(fmt.Sprintf("Once all of those are known to within ε = %g, the safe point with the", sp.Accuracy))
		f.Comment("largest lower confidence bound of the objective (SafeOpt's recommendation).")
	}
	f.Comment("Certificate says why it is safe. Without an Observe or a Pending in between it")
	f.Comment("returns the same point again, except in a first phase that plays random seeds.")
	f.Comment("Pending points are never chosen, and nothing else: no model, neither the")
	f.Comment("objective's nor a constraint's, takes a guess at their values, so they change no")
	f.Comment("certificate; with every candidate pending, Suggest returns the explorer's")
	f.Comment("safe.ErrNoSafePoint.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("Suggest").Params().Params(jen.Id("Point"), jen.Error()).Block(body...)
	certificateAccessorDecls(f)
}

// certificateAccessorDecls emits Certificate and Contradictions, from the
// Optimizer's certificate and explorer.
func certificateAccessorDecls(f *jen.File) {
	f.Comment("Certificate returns the certificate of the last suggestion.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("Certificate").Params().Id("Certificate").Block(jen.Return(field("certificate")))

	f.Comment("Contradictions explains the measurements that contradicted the constraints'")
	f.Comment("model, from the from-th on (0: all), oldest first: a point measured unsafe, a")
	f.Comment("seed measured unsafe, readings outside their certified interval, or readings")
	f.Comment("noisier than declared. Each says the model (a kernel, lengthscale or noise) is")
	f.Comment("misspecified; the optimiser never plays a point measured unsafe again and")
	f.Comment("corrects the model. It allocates only when there is something to explain.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("Contradictions").Params(jen.Id("from").Int()).Index().String().Block(
		jen.If(field("explorer").Op("==").Nil()).Block(jen.Return(jen.Nil())),
		jen.Return(field("explorer").Dot("Explain").Call(jen.Id("from"))),
	)
}

// decisionUnits is decision point i in unit coordinates: the explorer's
// pool holds a pool's points, the optimiser the others.
func (g *generator) decisionUnits(i jen.Code) jen.Code {
	if g.o.Safety.Pool > 0 {
		return field("explorer").Dot("Point").Call(i)
	}
	return field("decisionUnits").Index(jen.Add(i).Op("*").Id("Dim").Op(":").Parens(jen.Add(i).Op("+").Lit(1)).Op("*").Id("Dim"))
}

// safeMethodDoc says what each method plays after its first phase.
var safeMethodDoc = map[string]string{
	"SGPUCB":   "the safe point with the\nlargest upper confidence bound of the objective (SGP-UCB).",
	"SafeOpt":  "the safe point with the\nwidest confidence interval among those that may be the safe maximum or\nexpand the safe set (SafeOpt).",
	"StageOpt": "the widest expander of\nthe safe set until the set stops growing, and then the safe point with the\nlargest upper confidence bound of the objective (StageOpt).",
}

// safeIncumbentDecl emits incumbent for a safe acquisition: the evaluated
// point with the largest posterior mean among those whose measured
// constraints kept their limits (among all, if none did); with requirements,
// among those whose safety constraints kept theirs and that meet the
// requirements with their confidence (none, if none do).
func (g *generator) safeIncumbentDecl(f *jen.File) {
	if g.requires() {
		f.Comment("keptSafety reports whether evaluation i's measured safety constraints kept their")
		f.Comment("limits.")
		f.Func().Params(o().Op("*").Id("Optimizer")).Id("keptSafety").Params(jen.Id("i").Int()).Bool().Block(
			jen.For(jen.List(jen.Id("k"), jen.Id("v")).Op(":=").Range().Add(field("measured")).Index(jen.Id("i")).Index(jen.Op(":").Id("NumSafety"))).Block(
				jen.If(jen.Id("Violated").Call(jen.Id("k"), jen.Id("v"))).Block(jen.Return(jen.False())),
			),
			jen.Return(jen.True()),
		)
		g.outcomeIncumbentDecl(f)
		return
	}
	f.Comment("incumbent returns the index of the evaluated point with the largest posterior")
	f.Comment("mean, in the model's convention, and that mean, among the points whose measured")
	f.Comment("constraints kept their limits, or among all if none did. There must be an")
	f.Comment("observation.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("incumbent").Params().Params(jen.Id("index").Int(), jen.Id("mean").Float64()).Block(
		jen.Id("index").Op("=").Lit(-1),
		jen.For(jen.Id("pass").Op(":=").Lit(0), jen.Id("pass").Op("<").Lit(2).Op("&&").Id("index").Op("<").Lit(0), jen.Id("pass").Op("++")).Block(
			jen.For(jen.Id("i").Op(":=").Range().Add(field("model").Dot("Len").Call())).Block(
				jen.If(jen.Id("pass").Op("==").Lit(0).Op("&&").Add(field("violated").Index(jen.Id("i")))).Block(jen.Continue()),
				jen.If(jen.Id("m").Op(":=").Add(field("model").Dot("TrainMean").Call(jen.Id("i"))), jen.Id("index").Op("<").Lit(0).Op("||").Id("m").Op(">").Id("mean")).Block(
					jen.List(jen.Id("index"), jen.Id("mean")).Op("=").List(jen.Id("i"), jen.Id("m")),
				),
			),
		),
		jen.Return(jen.Id("index"), jen.Id("mean")),
	)
}
