package codegen

import (
	"fmt"
	"math"

	"github.com/dave/jennifer/jen"
)

// The gradient search over a model of input distributions or an unscented
// acquisition takes the acquisition's derivatives by central differences, and
// a refit takes the kernel matrix's derivatives in the hyperparameters by
// forward differences.

// fillByDifferencesDecls emits fillKernel for a model over input
// distributions: the kernel matrix and its derivatives in the logarithms of
// the hyperparameters by forward differences.
func (g *generator) fillByDifferencesDecls(f *jen.File) {
	reps := field("reps")
	var body []jen.Code
	if g.o.Embeds() {
		nan := jen.For(jen.Id("i").Op(":=").Range().Id("k")).Block(jen.Id("k").Index(jen.Id("i")).Op("=").Qual("math", "NaN").Call())
		body = append(body, jen.If(jen.Id("err").Op(":=").Add(field("fitEmbedding").Dot("Prepare").Call(field("fitWork").Dot("base"))), jen.Id("err").Op("!=").Nil()).Block(
			jen.Comment("The fitter rejects hyperparameters whose kernel matrix is not finite."),
			nan, jen.Return(),
		))
	}
	if g.hyperDependentReps() {
		reps = field("fitReps")
		body = append(body, jen.For(jen.Id("i").Op(":=").Range().Id("n")).Block(
			field("fitReps").Index(jen.Id("i")).Op("=").Add(field("reps")).Index(jen.Id("i")),
			field("finish").Call(jen.Op("&").Add(field("fitWork")), jen.Op("&").Add(field("fitReps")).Index(jen.Id("i"))),
		))
		body = []jen.Code{jen.If(jen.Id("refresh")).Block(body...)}
	}
	body = append(body, jen.For(jen.Id("i").Op(":=").Range().Id("n")).Block(
		jen.For(jen.Id("j").Op(":=").Lit(0), jen.Id("j").Op("<=").Id("i"), jen.Id("j").Op("++")).Block(
			jen.Id("v").Op(":=").Id("repKernel").Call(jen.Op("&").Add(field("fitWork")), jen.Op("&").Add(reps).Index(jen.Id("i")), jen.Op("&").Add(reps).Index(jen.Id("j")), jen.Id("i").Op("==").Id("j")),
			jen.List(jen.Id("k").Index(jen.Id("i").Op("*").Id("n").Op("+").Id("j")), jen.Id("k").Index(jen.Id("j").Op("*").Id("n").Op("+").Id("i"))).Op("=").List(jen.Id("v"), jen.Id("v")),
		),
	))
	f.Comment("fitGram writes the kernel matrix of the first n evaluated points with the")
	f.Comment("hyperparameters fitHyper to k, row-major. refresh recomputes their input")
	f.Comment("distributions' parts that depend on the kernel's hyperparameters; without it")
	f.Comment("fitGram reuses those of the last call, for a change of the model's own.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("fitGram").Params(jen.Id("n").Int(), jen.Id("k").Index().Float64(), jen.Id("refresh").Bool()).Block(body...)

	f.Comment("fillKernel is the fitter's view of the kernel: the matrix K and its derivatives")
	f.Comment("∂K/∂log θ_j at the evaluated points for hyperparameters theta (runtime/fit.FillFunc),")
	f.Comment(fmt.Sprintf("the derivatives by forward differences of step %g in log θ_j.", fitStep))
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("fillKernel").Params(
		jen.Id("theta").Index().Float64(), jen.Id("n").Int(), jen.List(jen.Id("k"), jen.Id("dk")).Index().Float64()).Block(
		jen.Copy(whole(field("fitHyper")), jen.Id("theta")),
		field("fitGram").Call(jen.Id("n"), jen.Id("k"), jen.True()),
		jen.Comment("The model's own hyperparameters first: they reuse the input distributions"),
		jen.Comment("the first fitGram left."),
		jen.For(jen.Id("m").Op(":=").Lit(g.o.Hyper.Kernel), jen.Id("m").Op("<").Id("numHyper"), jen.Id("m").Op("++")).Block(
			field("fitDifference").Call(jen.Id("m"), jen.Id("n"), jen.Id("k"), jen.Id("dk"), jen.False()),
		),
		jen.For(jen.Id("m").Op(":=").Range().Lit(g.o.Hyper.Kernel)).Block(
			field("fitDifference").Call(jen.Id("m"), jen.Id("n"), jen.Id("k"), jen.Id("dk"), jen.True()),
		),
	)
	f.Comment("fitDifference writes ∂K/∂log θ_m, by a forward difference from K = k, to dk's")
	f.Comment("m-th n×n block; refresh as for fitGram.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("fitDifference").Params(
		jen.List(jen.Id("m"), jen.Id("n")).Int(), jen.List(jen.Id("k"), jen.Id("dk")).Index().Float64(), jen.Id("refresh").Bool()).Block(
		jen.Id("saved").Op(":=").Add(field("fitHyper")).Index(jen.Id("m")),
		field("fitHyper").Index(jen.Id("m")).Op("=").Id("saved").Op("*").Lit(expFitStep()),
		jen.Id("km").Op(":=").Id("dk").Index(jen.Id("m").Op("*").Id("n").Op("*").Id("n").Op(":").Parens(jen.Id("m").Op("+").Lit(1)).Op("*").Id("n").Op("*").Id("n")),
		field("fitGram").Call(jen.Id("n"), jen.Id("km"), jen.Id("refresh")),
		jen.For(jen.Id("i").Op(":=").Range().Id("km")).Block(
			jen.Id("km").Index(jen.Id("i")).Op("=").Parens(jen.Id("km").Index(jen.Id("i")).Op("-").Id("k").Index(jen.Id("i"))).Op("/").Lit(fitStep),
		),
		field("fitHyper").Index(jen.Id("m")).Op("=").Id("saved"),
	)
}

// expFitStep is the factor that moves a hyperparameter by fitStep in its
// logarithm.
func expFitStep() float64 { return math.Exp(fitStep) }

// inputSearchDecls declares the gradient search's workers and objective for a
// model over input distributions: the acquisition's score, with its gradient
// by central differences (the draws move smoothly with the point, so the
// score is smooth).
func (g *generator) inputSearchDecls(f *jen.File) {
	fields := []jen.Code{jen.Id("kvec").Index(jen.Id("Budget")).Float64().Comment("k(x, x_i), then L⁻¹k")}
	if g.o.InputModel() {
		fields = append(fields,
			jen.Id("rep").Id("rep").Comment("the candidate's input distribution"),
			jen.Id("rw").Id("repWork"),
		)
	} else {
		points := jen.Lit(2).Op("*").Id("Dim").Op("+").Lit(1)
		fields = append(fields,
			jen.Id("sigma").Index(jen.Parens(points).Op("*").Id("Dim")).Float64().Comment("the sigma points, row-major"),
			jen.List(jen.Id("weights"), jen.Id("scores")).Index(points.Clone()).Float64().Comment("their weights and scores"),
			jen.List(jen.Id("cov"), jen.Id("work")).Index(jen.Id("Dim").Op("*").Id("Dim")).Float64().Comment("the noise's covariance, unit coordinates"),
		)
	}
	f.Comment("searchWorker is the memory of one goroutine of the acquisition search.")
	f.Type().Id("searchWorker").Struct(fields...)
	w := func(name string) *jen.Statement { return jen.Id("w").Dot(name) }
	rw, rep, p := jen.Op("&").Add(w("rw")), jen.Op("&").Add(w("rep")), jen.Op("&").Id("p")
	args := g.acquisitionArgs(jen.Id("cov"), nil, false)
	body := g.unitPoint()
	if g.o.Unscented() {
		body = append(body, g.unscentedScore(args)...)
	} else {
		body = append(body, g.inputModelScore(rw, p, rep, args)...)
	}
	f.Comment("scoreAt is the acquisition's score at unit coordinates u, computed with worker w's")
	f.Comment("memory.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("scoreAt").Params(jen.Id("w").Op("*").Id("searchWorker"), jen.Id("u").Index().Float64()).Float64().Block(body...)
	g.differenceGradDecl(f)
}

// inputModelScore is scoreAt's body for a model over input distributions,
// after p is declared.
func (g *generator) inputModelScore(rw, p, rep jen.Code, args []jen.Code) []jen.Code {
	w := func(name string) *jen.Statement { return jen.Id("w").Dot(name) }
	upToN := func(s *jen.Statement) *jen.Statement { return s.Index(jen.Empty().Op(":").Id("n")) }
	body := g.representCandidate(rw, p, rep)
	body = append(body,
		jen.Id("n").Op(":=").Add(field("model").Dot("Len").Call()),
		jen.For(jen.Id("i").Op(":=").Range().Id("n")).Block(
			w("kvec").Index(jen.Id("i")).Op("=").Add(g.candidateKernel(rw, p, rep, jen.Id("i"))),
		),
		jen.List(jen.Id("mean"), jen.Id("variance")).Op(":=").Add(field("model").Dot("Predict").Call(upToN(w("kvec")), g.candidateSelf(rw, p, rep))),
		jen.Id("sd").Op(":=").Qual("math", "Sqrt").Call(jen.Id("variance")),
	)
	if g.o.Acquisition.Joint {
		body = append(body, jen.Id("cov").Op(":=").Add(field("model").Dot("PosteriorCovariance").Call(
			upToN(w("kvec")), upToN(field("incumbentSolve")), g.candidateKernel(rw, p, rep, field("incumbentIndex")))))
	}
	return append(body, jen.Return(jen.Id("acquisition").Call(args...)))
}

// differenceGradDecl emits acquisitionGradAt from scoreAt by central
// differences.
func (g *generator) differenceGradDecl(f *jen.File) {
	f.Comment("acquisitionGradAt is the acquisition's score at unit coordinates u and, unless")
	f.Comment("grad is nil, writes its gradient to grad, by central differences. worker names the")
	f.Comment("calling goroutine, whose memory it uses.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("acquisitionGradAt").Params(jen.Id("worker").Int(), jen.List(jen.Id("u"), jen.Id("grad")).Index().Float64()).Float64().Block(
		jen.Id("w").Op(":=").Op("&").Add(field("workers")).Index(jen.Id("worker")),
		jen.Id("score").Op(":=").Add(field("scoreAt").Call(jen.Id("w"), jen.Id("u"))),
		jen.If(jen.Id("grad").Op("==").Nil()).Block(jen.Return(jen.Id("score"))),
		jen.Id("x").Op(":=").Add(unitArray()).Call(jen.Id("u")),
		jen.For(jen.Id("j").Op(":=").Range().Id("grad")).Block(
			jen.Id("x").Index(jen.Id("j")).Op("=").Id("u").Index(jen.Id("j")).Op("+").Lit(inputGradStep),
			jen.Id("up").Op(":=").Add(field("scoreAt").Call(jen.Id("w"), whole(jen.Id("x")))),
			jen.Id("x").Index(jen.Id("j")).Op("=").Id("u").Index(jen.Id("j")).Op("-").Lit(inputGradStep),
			jen.Id("down").Op(":=").Add(field("scoreAt").Call(jen.Id("w"), whole(jen.Id("x")))),
			jen.Id("x").Index(jen.Id("j")).Op("=").Id("u").Index(jen.Id("j")),
			jen.Id("grad").Index(jen.Id("j")).Op("=").Parens(jen.Id("up").Op("-").Id("down")).Op("/").Lit(2*inputGradStep),
		),
		g.zeroIntegerGrad(),
		jen.Return(jen.Id("score")),
	)
}
