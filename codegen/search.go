package codegen

import (
	"github.com/dave/jennifer/jen"
)

// The gradient-based search's part of the optimiser, emitted when the search
// plugin sets UsesGradient (runtime/search's LBFGS): the score of
// the acquisition and the posterior standard deviation with their gradients
// in unit coordinates, computed from the kernel's input gradient
// (kernelGradA), the posterior's (gp.PredictGrad) and the acquisition's
// derivatives in the mean, sd and covariance (its hook's Gradient call). The
// search calls them from several goroutines at once, each with the memory of
// its worker, so nothing they write is shared.
//
// Integer components are snapped before the posterior is computed, as for the
// pattern search, so every score is the acquisition at a point the optimiser
// can suggest; the score is piecewise constant along them, so their gradient
// is zero and the refinement moves only the continuous components, from the
// integer values of the best candidates.

// searchFn maps a method value of the search's objective (acquisitionFn or
// sdFn) to the one the search is given.
func (g *generator) searchFn(fn string) string {
	if g.o.GradientSearch() {
		return fn[:len(fn)-len("Fn")] + "GradFn"
	}
	return fn
}

// searchFields are the Optimizer's fields for the gradient search.
func (g *generator) searchFields() []jen.Code {
	if !g.o.GradientSearch() {
		return nil
	}
	valueGrad := jen.Func().Params(jen.Int(), jen.Index().Float64(), jen.Index().Float64()).Float64()
	fields := []jen.Code{jen.Id("acquisitionGradFn").Add(valueGrad).Comment("the search's objectives (search.ValueGrad)")}
	if g.o.Explores() {
		fields = append(fields, jen.Id("sdGradFn").Add(valueGrad.Clone()))
	}
	if g.batches() {
		batch := jen.Qual(runtimeSearch, "BatchValue")
		fields = append(fields, jen.Id("acquisitionBatchFn").Add(batch).Comment("the raw candidates' scores (search.BatchValue)"))
		if g.o.Explores() {
			fields = append(fields, jen.Id("sdBatchFn").Add(batch))
		}
	}
	fields = append(fields, g.sweepFields()...)
	fields = append(fields, jen.Id("workers").Index().Id("searchWorker").Comment("one per goroutine of the search"))
	if g.o.Acquisition.Joint && !g.o.DifferenceSearch() {
		fields = append(fields, jen.Id("incumbentWeights").Index(g.modelCapacity()).Float64().Comment("A⁻¹k(x⁺), for covariance gradients"))
	}
	return fields
}

// searchInit are New's statements for the gradient search.
func (g *generator) searchInit() []jen.Code {
	if !g.o.GradientSearch() {
		return nil
	}
	stmts := []jen.Code{field("acquisitionGradFn").Op("=").Add(field(g.scoreAt("acquisitionGradAt")))}
	if g.o.Explores() {
		stmts = append(stmts, field("sdGradFn").Op("=").Add(field("sdGradAt")))
	}
	if g.batches() {
		stmts = append(stmts, field("acquisitionBatchFn").Op("=").Add(field("acquisitionBatchAt")))
		if g.o.Explores() {
			stmts = append(stmts, field("sdBatchFn").Op("=").Add(field("sdBatchAt")))
		}
	}
	stmts = append(stmts, g.sweepInit()...)
	return append(stmts, field("workers").Op("=").Make(jen.Index().Id("searchWorker"), field("search").Dot("Workers").Call()))
}

// searchIncumbent is Suggest's statement, after setIncumbent, that prepares
// the incumbent's covariance gradients.
func (g *generator) searchIncumbent() []jen.Code {
	if !g.o.GradientSearch() || !g.o.Acquisition.Joint || g.o.DifferenceSearch() {
		return nil
	}
	n := jen.Empty().Op(":").Add(field("model").Dot("Len").Call())
	return []jen.Code{field("model").Dot("SolveWeights").Call(field("incumbentSolve").Index(n), field("incumbentWeights").Index(n.Clone()))}
}

// searchDecls declares the workers' memory and the search's objectives.
func (g *generator) searchDecls(f *jen.File) {
	if !g.o.GradientSearch() {
		return
	}
	if g.o.DifferenceSearch() {
		g.inputSearchDecls(f)
		return
	}
	dim := func() *jen.Statement { return unitArray() }
	fields := []jen.Code{
		jen.Id("kvec").Index(g.modelCapacity()).Float64().Comment("k(x, x_i), then L⁻¹k"),
		jen.Id("dk").Index(g.modelCapacity().Op("*").Id("Dim")).Float64().Comment("∂k(x, x_i)/∂x, row-major"),
		jen.Id("work").Index(g.modelCapacity()).Float64().Comment("A⁻¹k"),
		jen.List(jen.Id("dself"), jen.Id("dmean"), jen.Id("dvar")).Add(dim()).Comment("∂k(x, x)/∂x and the posterior's gradients"),
	}
	if g.o.Acquisition.Joint {
		fields = append(fields, jen.List(jen.Id("dcross"), jen.Id("dcov")).Add(dim()).Comment("∂k(x, x⁺)/∂x and ∂cov(x, x⁺)/∂x"))
	}
	if g.o.Acquisition.Lookahead {
		fields = append(fields, g.lookaheadMemory()[1:]...) // A⁻¹k is in work
		fields = append(fields,
			jen.Id("dcovs").Index(g.modelCapacity()).Float64().Comment("the score's derivatives in trainCovs"),
			jen.Id("dtrain").Add(dim()).Comment("their chain to x"),
		)
	}
	if g.batches() {
		batch := jen.Qual(runtimeSearch, "BatchSize")
		fields = append(fields,
			jen.Id("kstar").Index(batch.Clone().Op("*").Add(g.modelCapacity())).Float64().Comment("a batch's kernel vectors, row by row"),
			jen.List(jen.Id("kself"), jen.Id("means"), jen.Id("variances")).Index(batch).Float64().Comment("its k(x, x) and posterior"),
		)
	}
	f.Comment("searchWorker is the memory of one goroutine of the acquisition search.")
	f.Type().Id("searchWorker").Struct(fields...)
	g.batchDecls(f)

	f.Comment("posteriorGrad returns the posterior mean (model's convention) and standard")
	f.Comment("deviation at unit coordinates u, computed with worker w's memory, and leaves the")
	f.Comment("gradients of the mean and the variance in w.dmean and w.dvar.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("posteriorGrad").Params(jen.Id("w").Op("*").Id("searchWorker"), jen.Id("u").Index().Float64()).
		Params(jen.List(jen.Id("mean"), jen.Id("sd")).Float64()).Block(append(g.unitPoint(),
		jen.Id("n").Op(":=").Add(field("model").Dot("Len").Call()),
		jen.For(jen.Id("i").Op(":=").Range().Id("n")).Block(
			jen.Id("w").Dot("kvec").Index(jen.Id("i")).Op("=").Add(kernelGradAt(jen.Op("&").Id("p"), jen.Op("&").Add(field("units")).Index(jen.Id("i")),
				jen.Parens(jen.Op("*").Add(unitArray())).Call(jen.Id("w").Dot("dk").Index(jen.Id("i").Op("*").Id("Dim").Op(":"))))),
		),
		jen.Comment("k is symmetric, so ∂k(x, x)/∂x is twice the gradient in the first input."),
		jen.Id("kself").Op(":=").Add(kernelGradAt(jen.Op("&").Id("p"), jen.Op("&").Id("p"), jen.Op("&").Id("w").Dot("dself"))),
		jen.For(jen.Id("j").Op(":=").Range().Id("w").Dot("dself")).Block(jen.Id("w").Dot("dself").Index(jen.Id("j")).Op("*=").Lit(2)),
		jen.List(jen.Id("mean"), jen.Id("variance")).Op(":=").Add(field("model").Dot("PredictGrad").Call(
			jen.Id("w").Dot("kvec").Index(jen.Empty().Op(":").Id("n")), jen.Id("w").Dot("dk").Index(jen.Empty().Op(":").Id("n").Op("*").Id("Dim")),
			jen.Id("kself"), whole(jen.Id("w").Dot("dself")), jen.Id("w").Dot("work").Index(jen.Empty().Op(":").Id("n")),
			whole(jen.Id("w").Dot("dmean")), whole(jen.Id("w").Dot("dvar")))),
		jen.Return(jen.Id("mean"), jen.Qual("math", "Sqrt").Call(jen.Id("variance"))),
	)...)
	g.acquisitionGradDecl(f)
	if !g.o.Explores() {
		return
	}
	f.Comment("sdGradAt is the posterior standard deviation at unit coordinates u and, unless")
	f.Comment("grad is nil, writes its gradient to grad; worker names the calling goroutine.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("sdGradAt").Params(jen.Id("worker").Int(), jen.List(jen.Id("u"), jen.Id("grad")).Index().Float64()).Float64().Block(
		jen.Id("w").Op(":=").Op("&").Add(field("workers")).Index(jen.Id("worker")),
		jen.List(jen.Id("_"), jen.Id("sd")).Op(":=").Add(field("posteriorGrad").Call(jen.Id("w"), jen.Id("u"))),
		jen.For(jen.Id("j").Op(":=").Range().Id("grad")).Block(
			jen.Id("grad").Index(jen.Id("j")).Op("=").Lit(0.0),
			jen.If(jen.Id("sd").Op(">").Lit(0)).Block(
				jen.Id("grad").Index(jen.Id("j")).Op("=").Id("w").Dot("dvar").Index(jen.Id("j")).Op("/").Parens(jen.Lit(2).Op("*").Id("sd")),
			),
		),
		g.zeroIntegerGrad(),
		jen.Return(jen.Id("sd")),
	)
}

// zeroIntegerGrad zeroes grad along integer components, where the snapped
// score is piecewise constant, and along the components that do not exist at
// u; nothing without them.
func (g *generator) zeroIntegerGrad() jen.Code {
	if !g.hasInteger() {
		return jen.Null()
	}
	zero := jen.For(jen.Id("j").Op(":=").Range().Id("grad")).Block(
		jen.If(jen.Id("Integer").Index(jen.Id("j"))).Block(jen.Id("grad").Index(jen.Id("j")).Op("=").Lit(0.0)),
	)
	if g.conditionals() != nil {
		return jen.Add(zero).Line().Id("zeroInactive").Call(jen.Id("u"), jen.Id("grad"))
	}
	return zero
}

// kernelGradAt is the emitted call of kernelGradA with the optimiser's
// hyperparameters, writing ∂k(a, b)/∂a to g (a *[Dim]float64 expression).
func kernelGradAt(a, b, g jen.Code) *jen.Statement {
	return jen.Id("kernelGradA").Call(jen.Op("&").Add(field("hyper")), a, b, g)
}

// acquisitionGradDecl emits acquisitionGradAt: the acquisition's score and its
// gradient, chained from the acquisition's derivatives in mean, sd (and cov)
// and the posterior's gradients. Without grad it takes the cheaper path of
// Predict, which gives the same posterior.
func (g *generator) acquisitionGradDecl(f *jen.File) {
	a := g.acquisition
	w := func(name string) *jen.Statement { return jen.Id("w").Dot(name) }
	upToN := func(s *jen.Statement) *jen.Statement { return s.Index(jen.Empty().Op(":").Id("n")) }
	incumbent := jen.Op("&").Add(field("units")).Index(field("incumbentIndex"))
	p := jen.Op("&").Id("p")

	valueArgs := g.acquisitionArgs(jen.Id("cov"), jen.Id("w"), false)
	gradArgs := g.acquisitionArgs(jen.Id("cov"), jen.Id("w"), true)
	valueOnly := append(g.unitPoint(),
		jen.For(jen.Id("i").Op(":=").Range().Id("n")).Block(
			w("kvec").Index(jen.Id("i")).Op("=").Add(kernelAt(p, jen.Op("&").Add(field("units")).Index(jen.Id("i")))),
		),
		jen.List(jen.Id("mean"), jen.Id("variance")).Op(":=").Add(field("model").Dot("Predict").Call(upToN(w("kvec")), kernelAt(p, p))),
		jen.Id("sd").Op(":=").Qual("math", "Sqrt").Call(jen.Id("variance")),
	)
	if g.o.Acquisition.Joint {
		valueOnly = append(valueOnly, jen.Id("cov").Op(":=").Add(field("model").Dot("PosteriorCovariance").Call(
			upToN(w("kvec")), upToN(field("incumbentSolve")), kernelAt(p, incumbent))))
	}
	trainCovs := field("model").Dot("TrainCovariances").Call(upToN(w("work")), upToN(w("trainCovs")))
	if g.o.Acquisition.Lookahead {
		valueOnly = append(valueOnly, field("model").Dot("SolveWeights").Call(upToN(w("kvec")), upToN(w("work"))), trainCovs)
	}
	valueOnly = append(valueOnly, jen.Return(jen.Id("acquisition").Call(valueArgs...)))

	body := []jen.Code{
		jen.Id("w").Op(":=").Op("&").Add(field("workers")).Index(jen.Id("worker")),
		jen.Id("n").Op(":=").Add(field("model").Dot("Len").Call()),
		jen.If(jen.Id("grad").Op("==").Nil()).Block(valueOnly...),
		jen.List(jen.Id("mean"), jen.Id("sd")).Op(":=").Add(field("posteriorGrad").Call(jen.Id("w"), jen.Id("u"))),
	}
	results := []jen.Code{jen.Id("score"), jen.Id("dMean"), jen.Id("dSD")}
	chain := jen.Id("dMean").Op("*").Add(w("dmean").Index(jen.Id("j")))
	if g.o.Acquisition.Joint {
		body = append(body, g.unitPoint()...)
		body = append(body,
			jen.Id("cov").Op(":=").Add(field("model").Dot("PosteriorCovariance").Call(
				upToN(w("kvec")), upToN(field("incumbentSolve")), kernelGradAt(p, incumbent, jen.Op("&").Add(w("dcross"))))),
			field("model").Dot("PosteriorCovarianceGrad").Call(w("dk").Index(jen.Empty().Op(":").Id("n").Op("*").Id("Dim")),
				whole(w("dcross")), upToN(field("incumbentWeights")), whole(w("dcov"))),
		)
		results = append(results, jen.Id("dCov"))
		chain = chain.Op("+").Id("dCov").Op("*").Add(w("dcov").Index(jen.Id("j")))
	}
	var chainCovs []jen.Code
	if g.o.Acquisition.Lookahead {
		// posteriorGrad left A⁻¹k in work, free again once the covariances are taken.
		body = append(body, trainCovs.Clone())
		chainCovs = append(chainCovs, field("model").Dot("TrainCovariancesGrad").Call(
			upToN(w("dcovs")), w("dk").Index(jen.Empty().Op(":").Id("n").Op("*").Id("Dim")), upToN(w("work")), whole(w("dtrain"))))
		chain = chain.Op("+").Add(w("dtrain").Index(jen.Id("j")))
	}
	body = append(body, jen.List(results...).Op(":=").Id("acquisitionGrad").Call(gradArgs...))
	body = append(body, chainCovs...)
	body = append(body,
		jen.For(jen.Id("j").Op(":=").Range().Id("grad")).Block(
			jen.Id("grad").Index(jen.Id("j")).Op("=").Add(chain),
			jen.If(jen.Id("sd").Op(">").Lit(0)).Block(
				jen.Id("grad").Index(jen.Id("j")).Op("+=").Id("dSD").Op("*").Add(w("dvar").Index(jen.Id("j"))).Op("/").Parens(jen.Lit(2).Op("*").Id("sd")),
			),
		),
		g.zeroIntegerGrad(),
		jen.Return(jen.Id("score")),
	)
	f.Comment("acquisitionGrad is acquisition's score and its derivatives with respect to")
	switch {
	case g.o.Acquisition.Joint:
		f.Comment("mean, sd and cov.")
	case g.o.Acquisition.Lookahead:
		f.Comment("mean and sd; it writes those with respect to covs to dcovs.")
	default:
		f.Comment("mean and sd.")
	}
	f.Func().Id("acquisitionGrad").Params(g.acquisitionParams(true)...).Params(jen.List(results...).Float64()).
		Block(jen.Return(a.Gradient))

	f.Comment("acquisitionGradAt is the acquisition's score at unit coordinates u and, unless")
	f.Comment("grad is nil, writes its gradient to grad: the acquisition's derivatives in the")
	f.Comment("posterior chained with the posterior's gradients. worker names the calling")
	f.Comment("goroutine, whose memory it uses.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("acquisitionGradAt").Params(jen.Id("worker").Int(), jen.List(jen.Id("u"), jen.Id("grad")).Index().Float64()).Float64().
		Block(body...)
}
