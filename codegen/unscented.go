package codegen

import (
	"github.com/dave/jennifer/jen"
)

// An unscented acquisition (uei) averages the point model's acquisition over
// the sigma points of the input noise at the candidate.

// planUnscented checks what an unscented acquisition's Check hook vetted.
func (g *generator) planUnscented() {
	if g.o.Unscented() && (len(g.p.InputNoise) == 0 || g.o.InputModel() || !g.o.GradientSearch() || g.o.Acquisition.Joint) {
		g.internal(g.p.Acquisition.Span, "acquisition %s reached code generation without input noise, with a model over it, without a gradient search, or joint", g.p.Acquisition.Plugin)
	}
}

// unscentedScore is scoreAt's body for an unscented acquisition, after p is
// declared: the acquisition's score at the sigma points of the input noise
// at p, averaged with their weights. args are the acquisition's arguments.
func (g *generator) unscentedScore(args []jen.Code) []jen.Code {
	w := func(name string) *jen.Statement { return jen.Id("w").Dot(name) }
	sigma := jen.Parens(jen.Op("*").Add(unitArray())).Call(w("sigma").Index(jen.Id("s").Op("*").Id("Dim").Op(":")))
	stmts := []jen.Code{
		jen.Var().Id("centre").Add(unitArray()),
		jen.Id("unitNoiseMoments").Call(jen.Op("&").Id("p"), jen.Op("&").Id("centre"), jen.Op("&").Add(w("cov"))),
		jen.If(jen.Op("!").Qual(runtimeAcq, "SigmaPoints").Call(whole(jen.Id("centre")), whole(w("cov")), jen.Lit(g.o.Acquisition.Unscented.Kappa),
			whole(w("sigma")), whole(w("weights")), whole(w("work")))).Block(
			jen.Return(jen.Qual("math", "Inf").Call(jen.Lit(-1))),
		),
		jen.Id("n").Op(":=").Add(field("model").Dot("Len").Call()),
		jen.For(jen.Id("s").Op(":=").Range().Add(w("scores"))).Block(
			jen.Id("q").Op(":=").Add(sigma),
			jen.For(jen.Id("i").Op(":=").Range().Id("n")).Block(
				w("kvec").Index(jen.Id("i")).Op("=").Add(kernelAt(jen.Id("q"), jen.Op("&").Add(field("units")).Index(jen.Id("i")))),
			),
			jen.List(jen.Id("mean"), jen.Id("variance")).Op(":=").Add(field("model").Dot("Predict").Call(
				w("kvec").Index(jen.Empty().Op(":").Id("n")), kernelAt(jen.Id("q"), jen.Id("q")))),
			jen.Id("sd").Op(":=").Qual("math", "Sqrt").Call(jen.Id("variance")),
			w("scores").Index(jen.Id("s")).Op("=").Id("acquisition").Call(args...),
		),
	}
	if g.acquisition.Value != nil {
		// The score is the acquisition's logarithm: average in log space.
		return append(stmts, jen.Return(jen.Qual(runtimeAcq, "LogWeightedSum").Call(whole(w("scores")), whole(w("weights")))))
	}
	return append(stmts,
		jen.Id("mean").Op(":=").Lit(0.0),
		jen.For(jen.List(jen.Id("s"), jen.Id("v")).Op(":=").Range().Add(w("scores"))).Block(jen.Id("mean").Op("+=").Add(w("weights")).Index(jen.Id("s")).Op("*").Id("v")),
		jen.Return(jen.Id("mean")),
	)
}
