package codegen

import "github.com/dave/jennifer/jen"

// A portfolio acquisition (registry.AcquisitionSpec.Arms, GP-Hedge): every
// search maximises each arm and keeps the arms' maximisers, its nominees,
// by the model's size at the search; the arm played is drawn with
// probability proportional to exp(η·gain), an arm's gain the current
// posterior mean, standardised, summed over its nominees of the searches
// before. The gains are a function of the nominees and the model alone, so
// a replayed study that plays its rounds again draws the same arms.

// acquisitionSearch is Suggest's statement that maximises the acquisition
// into candidate and declares value, the maximum score, and err.
func (g *generator) acquisitionSearch() jen.Code {
	search := g.maximize("acquisitionFn", jen.Lit(0))
	if g.o.Acquisition.Arms > 0 {
		search = field("searchArms").Call(jen.Id("n"))
	}
	return jen.List(jen.Id("value"), jen.Id("err")).Op(":=").Add(search)
}

// portfolioFields are the Optimizer's fields of a portfolio.
func (g *generator) portfolioFields() []jen.Code {
	if g.o.Acquisition.Arms == 0 {
		return nil
	}
	fields := []jen.Code{
		jen.Id("arm").Int().Comment("the arm being searched, then the arm played"),
		jen.Id("gains").Index(jen.Lit(g.o.Acquisition.Arms)).Float64().Comment("the arms' gains at this suggestion"),
		jen.Id("nominees").Index(jen.Id("Budget")).Index(jen.Lit(g.o.Acquisition.Arms)).Add(unitArray()).Comment("each arm's maximiser, by the model's size at the search"),
		jen.Id("nominated").Index(jen.Id("Budget")).Bool().Comment("which searches left nominees"),
	}
	if g.o.Finite() {
		return fields // a finite search scores every free candidate: no starts
	}
	return append(fields,
		jen.Id("start").Int().Comment("the incumbent's index, where every arm's search starts when hasStart"),
		jen.Id("hasStart").Bool(),
	)
}

// portfolioDecls emits setGains and searchArms.
func (g *generator) portfolioDecls(f *jen.File) {
	arms := g.o.Acquisition.Arms
	if arms == 0 {
		return
	}
	nominee := field("nominees").Index(jen.Id("s")).Index(jen.Id("a")).Index(jen.Op(":"))
	f.Comment("setGains sets each arm's gain, the posterior mean at its nominees of the searches")
	f.Comment("before model size n, on the model's standardised scale, before pending points are")
	f.Comment("fantasised: the model judges the nominees by the observations alone.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("setGains").Params(jen.Id("n").Int()).Block(
		field("gains").Op("=").Index(jen.Lit(arms)).Float64().Values(),
		jen.For(jen.Id("s").Op(":=").Range().Id("n")).Block(
			jen.If(jen.Op("!").Add(field("nominated")).Index(jen.Id("s"))).Block(jen.Continue()),
			jen.For(jen.Id("a").Op(":=").Range().Add(field("gains"))).Block(
				jen.List(jen.Id("mean"), jen.Id("_")).Op(":=").Add(g.posteriorAt(nominee)),
				field("gains").Index(jen.Id("a")).Op("+=").Id("mean").Op("/").Add(field("model").Dot("Scale").Call()),
			),
		),
	)
	// Both searches end by marking search n's nominees and drawing the arm.
	choose := jen.Add(field("nominated").Index(jen.Id("n")).Op("=").True()).Line().
		Add(field("arm").Op("=").Qual(runtimeAcq, "HedgeChoose").Call(jen.Op("&").Add(field("gains")), jen.Lit(g.o.Acquisition.Eta),
			jen.Id("streamSeed").Call(field("seed"), jen.Uint64().Call(jen.Id("n")), jen.Lit(3))))
	if g.o.Finite() {
		f.Comment("searchArms maximises every arm of the portfolio over the m candidates not")
		f.Comment("evaluated yet at model size n, keeps the arms' maximisers as search n's nominees,")
		f.Comment("and draws the arm to play from the gains, leaving it in arm. It returns the played")
		f.Comment("maximiser's index among the free candidates and the first arm's maximum score, the")
		f.Comment("portfolio's value whichever arm is played.")
		f.Func().Params(o().Op("*").Id("Optimizer")).Id("searchArms").Params(jen.List(jen.Id("n"), jen.Id("m")).Int()).Params(jen.Int(), jen.Float64(), jen.Error()).Block(
			jen.Var().Defs(
				jen.Id("values").Index(jen.Lit(arms)).Float64(),
				jen.Id("picks").Index(jen.Lit(arms)).Int(),
			),
			jen.For(jen.Id("a").Op(":=").Range().Id("values")).Block(
				field("arm").Op("=").Id("a"),
				jen.List(jen.Id("i"), jen.Id("v"), jen.Id("err")).Op(":=").Add(g.maximizeFinite()),
				jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Lit(0), jen.Lit(0), jen.Id("err"))),
				jen.List(jen.Id("values").Index(jen.Id("a")), jen.Id("picks").Index(jen.Id("a"))).Op("=").List(jen.Id("v"), jen.Id("i")),
				jen.Copy(field("nominees").Index(jen.Id("n")).Index(jen.Id("a")).Index(jen.Op(":")),
					field("candidateUnits").Index(jen.Id("i").Op("*").Id("Dim").Op(":").Parens(jen.Id("i").Op("+").Lit(1)).Op("*").Id("Dim"))),
			),
			choose,
			jen.Return(jen.Id("picks").Index(field("arm")), jen.Id("values").Index(jen.Lit(0)), jen.Nil()),
		)
		return
	}
	f.Comment("searchArms maximises every arm of the portfolio at model size n, each search")
	f.Comment("starting from the incumbent too, keeps the arms' maximisers as search n's")
	f.Comment("nominees, and draws the arm to play from the gains: it leaves that arm in arm and")
	f.Comment("its maximiser in candidate. It returns the first arm's maximum score, the")
	f.Comment("portfolio's value whichever arm is played.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("searchArms").Params(jen.Id("n").Int()).Params(jen.Float64(), jen.Error()).Block(
		jen.Var().Id("values").Index(jen.Lit(arms)).Float64(),
		jen.For(jen.Id("a").Op(":=").Range().Id("values")).Block(
			field("arm").Op("=").Id("a"),
			jen.If(field("hasStart")).Block(field("search").Dot("AddStart").Call(whole(field("units").Index(field("start"))))),
			jen.List(jen.Id("v"), jen.Id("err")).Op(":=").Add(g.maximize("acquisitionFn", jen.Lit(0))),
			jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Lit(0), jen.Id("err"))),
			jen.List(jen.Id("values").Index(jen.Id("a")), field("nominees").Index(jen.Id("n")).Index(jen.Id("a"))).Op("=").List(jen.Id("v"), field("candidate")),
		),
		field("hasStart").Op("=").False(),
		choose,
		field("candidate").Op("=").Add(field("nominees")).Index(jen.Id("n")).Index(field("arm")),
		jen.Return(jen.Id("values").Index(jen.Lit(0)), jen.Nil()),
	)
}
