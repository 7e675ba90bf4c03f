package codegen

import (
	"slices"

	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

// Localisation: a model over input distributions may be told where a query
// landed (ObserveLocalised, an estimate N(landed, cov)) and then represents
// the observation by that estimate instead of the input noise at the target.

// representObserved is observe's statement that represents the observed
// distribution: the input noise's at the target, or the localisation
// estimate when one is given.
func (g *generator) representObserved(w, u, rep jen.Code) []jen.Code {
	return []jen.Code{
		jen.If(jen.Id("landed").Op("==").Nil()).Block(
			field("represent").Call(w, u, rep),
		).Else().If(jen.Op("!").Add(field("localise").Call(w, u, jen.Op("&").Id("x"), jen.Id("landed"), jen.Id("cov"), rep))).Block(
			jen.Return(g.errorf("the localisation covariance given with the value at %v is not positive semi-definite", jen.Id("x"))),
		),
	}
}

// localisedObserveDecls emits observe, whose body is body, with Observe and
// ObserveLocalised calling it, and localise.
func (g *generator) localisedObserveDecls(f *jen.File, body []jen.Code) {
	covType := jen.Index(jen.Id("Dim").Op("*").Id("Dim")).Float64()
	f.Comment("Observe records the objective's value y at x, in the objective's units and sign,")
	f.Comment("where the model takes the query to have landed as the input noise says. It rejects")
	f.Comment("values that are not finite, points outside the domain and integer components that")
	f.Comment("are not whole numbers, and returns ErrFull after Budget observations. x need not be")
	f.Comment("a suggested point.")
	// With unknown constraints, their measured values follow y.
	values, passed := []jen.Code{jen.Id("x").Id("Point"), jen.Id("y").Float64()}, []jen.Code{jen.Id("x"), jen.Id("y")}
	if g.o.Safety != nil {
		values, passed = append(values, jen.Id("measured").Id("Constraints")), append(passed, jen.Id("measured"))
		f.Comment("The unknown constraints' values measured there follow y; their models take the")
		f.Comment("query to have landed as the constraints' landing options say.")
	}
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("Observe").Params(values...).Error().Block(
		jen.Return(field("observe").Call(slices.Concat(passed, []jen.Code{jen.Nil(), jen.Nil()})...)),
	)

	perturbed := make([]bool, g.p.D)
	for _, n := range g.p.InputNoise {
		for _, i := range n.Target {
			perturbed[i] = true
		}
	}
	flags := make([]jen.Code, g.p.D)
	for i, p := range perturbed {
		flags[i] = jen.Lit(p)
	}
	f.Comment("perturbed marks the components the input noise moves.")
	f.Var().Id("perturbed").Op("=").Index(jen.Id("Dim")).Bool().Values(flags...)
	f.Comment("ObserveLocalised records the objective's value y measured when the query sent to")
	f.Comment("x landed, as far as it can be told, around landed with covariance cov (user units,")
	f.Comment("row-major): the model takes that localisation estimate, N(landed, cov), as the")
	f.Comment("distribution the value was measured at, instead of the input noise's at x")
	f.Comment("(uGP-UCB with localisation, Oliveira et al.). Components the input noise does not")
	f.Comment("move must land at x. It rejects what Observe rejects, values that are not finite in")
	f.Comment("landed and cov, and a cov that is not positive semi-definite.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("ObserveLocalised").Params(slices.Concat(values, []jen.Code{jen.Id("landed").Id("Point"), jen.Id("cov").Add(covType)})...).Error().Block(
		jen.For(jen.List(jen.Id("i"), jen.Id("v")).Op(":=").Range().Id("landed")).Block(
			jen.If(jen.Qual("math", "IsNaN").Call(jen.Id("v")).Op("||").Qual("math", "IsInf").Call(jen.Id("v"), jen.Lit(0)).Op("||").Parens(jen.Op("!").Id("perturbed").Index(jen.Id("i")).Op("&&").Id("v").Op("!=").Id("x").Index(jen.Id("i")))).Block(
				jen.Return(g.errorf("%s = %v: the query cannot have landed there from %v", jen.Id("ComponentNames").Index(jen.Id("i")), jen.Id("v"), jen.Id("x"))),
			),
		),
		jen.For(jen.List(jen.Id("_"), jen.Id("v")).Op(":=").Range().Id("cov")).Block(
			jen.If(jen.Qual("math", "IsNaN").Call(jen.Id("v")).Op("||").Qual("math", "IsInf").Call(jen.Id("v"), jen.Lit(0))).Block(
				jen.Return(g.errorf("the localisation covariance given with the value at %v is not finite", jen.Id("x"))),
			),
		),
		jen.Return(field("observe").Call(slices.Concat(passed, []jen.Code{jen.Op("&").Id("landed"), jen.Op("&").Id("cov")})...)),
	)

	f.Comment("observe records y at x, measured at the input noise's distribution at x when landed")
	f.Comment("is nil and at the localisation estimate N(landed, cov) otherwise.")
	if g.o.Learning() {
		f.Comment("When the refit schedule says so (refitIfDue), it relearns the hyperparameters.")
	}
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("observe").Params(slices.Concat(values, []jen.Code{jen.Id("landed").Op("*").Id("Point"), jen.Id("cov").Op("*").Add(covType.Clone())})...).Error().Block(body...)

	g.localiseDecl(f)
}

// localiseDecl emits localise, which represents a localisation estimate.
func (g *generator) localiseDecl(f *jen.File) {
	// A model over moments only needs the check that cov has a square root;
	// one over samples draws the estimate.
	normals, samples := jen.Code(jen.Nil()), jen.Code(jen.Nil())
	if g.o.Rep() != registry.MomentRep {
		normals, samples = whole(field("localNormals")), whole(jen.Id("r").Dot("samples"))
	}
	body := []jen.Code{
		jen.Var().Id("offset").Id("Point"),
		jen.For(jen.Id("i").Op(":=").Range().Id("offset")).Block(
			jen.Id("offset").Index(jen.Id("i")).Op("=").Id("landed").Index(jen.Id("i")).Op("-").Id("x").Index(jen.Id("i")),
		),
		jen.Var().Id("mean").Add(unitArray()),
		jen.Id("c").Op(":=").Op("*").Id("cov"),
		toUnitMoments(jen.Id("u"), jen.Id("offset"), jen.Id("c"), jen.Id("mean")),
		jen.Var().Id("l").Index(jen.Id("Dim").Op("*").Id("Dim")).Float64(),
		jen.If(jen.Op("!").Qual(runtimeNoise, "Gaussian").Call(whole(jen.Id("mean")), whole(jen.Id("c")), normals, samples, whole(jen.Id("l")))).Block(
			jen.Return(jen.False()),
		),
	}
	switch {
	case g.o.Rep() == registry.MomentRep:
		body = append(body, jen.List(jen.Id("r").Dot("mean"), jen.Id("r").Dot("cov")).Op("=").List(jen.Id("mean"), jen.Id("c")))
	case g.hyperDependentReps():
		body = append(body, field("finish").Call(jen.Id("w"), jen.Id("r")))
	}
	body = append(body, jen.Return(jen.True()))
	f.Comment("localise fills r with the localisation estimate N(landed, cov) (user units) of where")
	f.Comment("the query sent to x, at unit coordinates u, landed, using w's memory. It reports")
	f.Comment("false if cov is not positive semi-definite.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("localise").Params(jen.Id("w").Op("*").Id("repWork"), jen.Id("u").Op("*").Add(unitArray()),
		jen.List(jen.Id("x"), jen.Id("landed")).Op("*").Id("Point"), jen.Id("cov").Op("*").Index(jen.Id("Dim").Op("*").Id("Dim")).Float64(), jen.Id("r").Op("*").Id("rep")).Bool().Block(body...)
}
