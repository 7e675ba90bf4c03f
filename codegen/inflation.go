package codegen

import (
	"fmt"

	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

// Noise inflation (IGP-UCB, uGP-UCB): the model adds the input noise's
// effect on the objective, bounded through the kernel's curvature, to each
// observation's noise variance.

// inflationFields are the optimiser's fields for an inflating model.
func (g *generator) inflationFields() []jen.Code {
	if !g.o.Inflates() {
		return nil
	}
	fields := []jen.Code{jen.Line(),
		jen.Id("inputTrace").Index(jen.Id("Budget")).Float64().Comment("tr Σ_x of the input noise at the evaluated points, unit coordinates"),
		jen.Id("inflatedScale").Float64().Comment("the model's scale when the noises were last inflated")}
	if !(g.o.Noise != nil) {
		fields = append(fields, jen.Id("baseNoise").Index(jen.Id("Budget")).Float64().Comment("their noise variances before the inflation, model units"))
	}
	return fields
}

// inflationDecls declares traceAt and inflationAt.
func (g *generator) inflationDecls(f *jen.File) {
	if !g.o.Inflates() {
		return
	}
	f.Comment("traceAt is the trace of the input noise's covariance at the point at unit")
	f.Comment("coordinates u, in unit coordinates.")
	f.Func().Id("traceAt").Params(jen.Id("u").Op("*").Add(unitArray())).Float64().Block(
		jen.Var().Id("mean").Add(unitArray()),
		jen.Var().Id("cov").Index(jen.Id("Dim").Op("*").Id("Dim")).Float64(),
		jen.Id("unitNoiseMoments").Call(jen.Id("u"), jen.Op("&").Id("mean"), jen.Op("&").Id("cov")),
		jen.Id("trace").Op(":=").Lit(0.0),
		jen.For(jen.Id("i").Op(":=").Range().Id("Dim")).Block(
			jen.Id("trace").Op("+=").Id("cov").Index(jen.Id("i").Op("*").Id("Dim").Op("+").Id("i")),
		),
		jen.Return(jen.Id("trace")),
	)
	hyper := func(name string, i int) registry.Hyper {
		h := g.hyperValue(&registry.Args{Call: g.kernel}, name, i)
		if !h.Fixed {
			h.Code = field("hyper").Index(jen.Lit(h.Index))
		}
		return h
	}
	inf := g.o.Model.Inflation
	f.Comment("inflationAt is the noise variance, on the model's standardised scale, that the")
	f.Comment("input noise adds to evaluated point i: σ_E² = B²·ℓ_k²·tr Σ_x (Oliveira et al.,")
	f.Comment(fmt.Sprintf("Prop. 3), with B = %g and ℓ_k² the kernel's curvature at the current", inf.Bound))
	f.Comment("hyperparameters.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("inflationAt").Params(jen.Id("i").Int()).Float64().Block(
		jen.Return(jen.Lit(inf.Bound * inf.Bound).Op("*").Add(g.model.Curvature(hyper, g.p.D)).Op("*").Add(field("inputTrace")).Index(jen.Id("i"))),
	)

	scale := jen.Id("scale").Op("*").Id("scale")
	noise := jen.Add(field("baseNoise")).Index(jen.Id("i")).Op("+").Add(field("inflationAt").Call(jen.Id("i"))).Op("*").Add(scale)
	if g.o.Noise != nil {
		noise = jen.Parens(jen.Add(field("noiseVar")).Op("+").Add(field("inflationAt").Call(jen.Id("i")))).Op("*").Add(scale)
	}
	f.Comment("noiseAt is evaluated point i's noise variance, in the model's units, for the model")
	f.Comment("standardised by scale: its noise before the inflation plus the inflation.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("noiseAt").Params(jen.Id("i").Int(), jen.Id("scale").Float64()).Float64().Block(
		jen.Return(noise),
	)

	f.Comment("reinflate keeps the inflation on the model's standardised scale, which changes")
	f.Comment("as observations arrive: when it has changed (the model re-standardises when the")
	f.Comment("number of observations doubles), every noise is inflated anew and the model")
	f.Comment("refactored, O(n³), amortised O(n²) per Observe.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("reinflate").Params().Error().Block(
		jen.Id("scale").Op(":=").Add(field("model").Dot("Scale").Call()),
		jen.If(jen.Id("scale").Op("==").Add(field("inflatedScale"))).Block(jen.Return(jen.Nil())),
		jen.For(jen.Id("i").Op(":=").Range().Add(field("model").Dot("Len").Call())).Block(
			field("model").Dot("SetNoise").Call(jen.Id("i"), field("noiseAt").Call(jen.Id("i"), jen.Id("scale"))),
		),
		jen.If(jen.Id("err").Op(":=").Add(field("model").Dot("Refactor").Call()), jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Id("err"))),
		field("inflatedScale").Op("=").Add(field("model").Dot("Scale").Call()),
		jen.Return(jen.Nil()),
	)
}

// inflatedNoise are Observe's statements, before the model's Add, that
// record observation n's trace and base noise, and its noise: base plus the
// inflation.
func (g *generator) inflatedNoise(base jen.Code) (stmts []jen.Code, noise jen.Code) {
	if !g.o.Inflates() {
		return nil, base
	}
	stmts = []jen.Code{field("inputTrace").Index(jen.Id("n")).Op("=").Id("traceAt").Call(jen.Op("&").Id("u"))}
	if !(g.o.Noise != nil) {
		stmts = append(stmts, field("baseNoise").Index(jen.Id("n")).Op("=").Add(base))
	}
	return stmts, field("noiseAt").Call(jen.Id("n"), field("model").Dot("Scale").Call())
}
