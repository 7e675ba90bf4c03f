package codegen

import (
	"fmt"

	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

// The acquisition's part of the optimiser: the emitted acquisition function,
// the per-suggestion state it needs (the incumbent, a schedule's setting) and
// its evaluation at a candidate. What is emitted depends on the hook's
// AcquisitionCode: the joint posterior with the incumbent only for Joint
// acquisitions, a setting only with Setting, a conversion of the searched
// score only with Value.

// drawStream is the random stream (streamSeed's k) of the latent draws of
// an acquisition that averages over them; the searches use 0 to 3.
const drawStream = 4

// planAcquisition runs the acquisition's hook.
func (g *generator) planAcquisition(h registry.AcquisitionEmit) {
	ag := &registry.AcquisitionGen{
		Args: registry.Args{Call: g.p.Acquisition},
		Mean: jen.Id("mean"), SD: jen.Id("sd"), Best: jen.Id("best"), BestSD: jen.Id("bestSD"), Cov: jen.Id("cov"),
		Means: jen.Id("means"), Covs: jen.Id("covs"), Noise: jen.Id("noise"), Lines: jen.Id("lines"), DCovs: jen.Id("dcovs"),
		LatentDraws: jen.Id("latentDraws"), Scratch: jen.Id("scratch"),
		Setting: jen.Id("setting"),
		T:       jen.Float64().Call(g.observationCount().Op("+").Lit(1)),
		D:       g.p.D,
		Model:   field("model"),
		Score:   jen.Id("score"),
	}
	if g.o.Acquisition.Arms > 0 {
		ag.Arm = jen.Id("arm")
	}
	g.acquisition = h(ag)
	g.checkArgs(&ag.Args)
}

// acquisitionParams are the parameters of the emitted acquisition function;
// with grad, those of acquisitionGrad.
func (g *generator) acquisitionParams(grad bool) []jen.Code {
	names := []jen.Code{jen.Id("mean"), jen.Id("sd"), jen.Id("best")}
	if g.o.Acquisition.Joint {
		names = append(names, jen.Id("bestSD"), jen.Id("cov"))
	}
	if g.acquisition.Setting != nil {
		names = append(names, jen.Id("setting"))
	}
	params := []jen.Code{jen.List(names...).Float64()}
	if g.o.Acquisition.Lookahead {
		params = append(params, jen.List(jen.Id("means"), jen.Id("covs")).Index().Float64(), jen.Id("noise").Float64(),
			jen.Id("lines").Index().Qual(runtimeAcq, "Line"))
		if g.o.Acquisition.LatentDraws > 0 {
			params = append(params, jen.Id("latentDraws").Op("*").Qual(runtimeAcq, "LatentDraws"), jen.Id("scratch").Index().Float64())
		}
		if grad {
			params = append(params, jen.Id("dcovs").Index().Float64())
		}
	}
	if g.o.Acquisition.Arms > 0 {
		params = append(params, jen.Id("arm").Int())
	}
	return params
}

// acquisitionArgs are the arguments of a call of the emitted acquisition
// function, at a candidate whose posterior is mean and sd, and cov its
// covariance with the incumbent for a joint acquisition; for a lookahead,
// mem is the memory (the worker's or the optimiser's) that holds the
// candidate's covariances with the evaluated points, and with grad the call
// is of acquisitionGrad.
func (g *generator) acquisitionArgs(cov, mem jen.Code, grad bool) []jen.Code {
	args := []jen.Code{jen.Id("mean"), jen.Id("sd"), field("best")}
	if g.o.Acquisition.Joint {
		args = append(args, field("bestSD"), cov)
	}
	if g.acquisition.Setting != nil {
		args = append(args, field("setting"))
	}
	if g.o.Acquisition.Lookahead {
		n := jen.Empty().Op(":").Id("n")
		args = append(args, field("trainMeans").Index(n), jen.Add(mem).Dot("trainCovs").Index(n.Clone()), field("observationNoise"),
			jen.Add(mem).Dot("lines").Index(jen.Empty().Op(":").Id("n").Op("+").Lit(1)))
		if g.o.Acquisition.LatentDraws > 0 {
			args = append(args, field("latentDraws"), jen.Add(mem).Dot("scratch"))
		}
		if grad {
			args = append(args, jen.Add(mem).Dot("dcovs").Index(n.Clone()))
		}
	}
	if g.o.Acquisition.Arms > 0 {
		args = append(args, field("arm"))
	}
	return args
}

func (g *generator) acquisitionDecl(f *jen.File) {
	a := g.acquisition
	f.Comment(fmt.Sprintf("acquisition is the score of %s at a candidate with posterior mean", callString(g.p.Acquisition)))
	if g.o.Acquisition.Incumbent == registry.BestObserved {
		f.Comment("mean and standard deviation sd, when the best value observed is best, all in the")
		f.Comment("model's convention (larger is better). Suggest maximises it.")
	} else {
		f.Comment("mean and standard deviation sd, when the incumbent (the evaluated point with the")
		f.Comment("largest posterior mean) has posterior mean best, all in the model's convention")
		f.Comment("(larger is better). Suggest maximises it.")
	}
	if g.o.Acquisition.Joint {
		f.Comment("bestSD is the incumbent's posterior standard deviation and cov the posterior")
		f.Comment("covariance of the candidate and the incumbent.")
	}
	if g.o.Acquisition.Lookahead {
		f.Comment("means are the posterior means at the evaluated points and covs their posterior")
		f.Comment("covariances with the candidate, noise the noise variance of an observation there")
		f.Comment("and lines the lookahead's memory.")
	}
	if g.o.Acquisition.LatentDraws > 0 {
		f.Comment("latentDraws are the samples of the evaluated points' latent values drawn for")
		f.Comment("this search, and scratch the candidate's memory for them.")
	}
	if a.Setting != nil {
		f.Comment("setting is the value acquisitionSetting computed for this suggestion.")
	}
	if g.o.Acquisition.Arms > 0 {
		f.Comment("arm is the arm of the portfolio being scored.")
	}
	if a.Value != nil {
		f.Comment("The score is an increasing function of the acquisition (for the built-in ones its")
		f.Comment("logarithm) that keeps ranking candidates where the acquisition itself underflows")
		f.Comment("to 0; acquisitionValue converts it back.")
	}
	f.Func().Id("acquisition").Params(g.acquisitionParams(false)...).Float64().Block(jen.Return(a.Score))
	if a.Value != nil {
		f.Comment("acquisitionValue converts a score of acquisition into the acquisition's value,")
		f.Comment("in its natural units (the objective's for expected improvement).")
		f.Func().Id("acquisitionValue").Params(jen.Id("score").Float64()).Float64().Block(jen.Return(a.Value))
	}
}

// acquisitionFields are the Optimizer's fields for the acquisition's
// per-suggestion state.
func (g *generator) acquisitionFields() []jen.Code {
	var fields []jen.Code
	if g.o.Acquisition.Joint {
		fields = append(fields,
			jen.Id("incumbentIndex").Int().Comment("index of the incumbent, while searching"),
			jen.Id("bestSD").Float64().Comment("posterior standard deviation at the incumbent, while searching"),
			jen.Id("incumbentSolve").Index(g.modelCapacity()).Float64().Comment("L⁻¹k(x⁺), for covariances with the incumbent"),
		)
	}
	if g.o.Acquisition.Lookahead {
		fields = append(fields,
			jen.Id("trainMeans").Index(g.modelCapacity()).Float64().Comment("posterior means at the evaluated points, while searching"),
			jen.Id("observationNoise").Float64().Comment("noise variance of the next observation, while searching"),
		)
		if g.o.Acquisition.LatentDraws > 0 {
			fields = append(fields, jen.Id("latentDraws").Op("*").Qual(runtimeAcq, "LatentDraws").Comment("samples of the evaluated points' latent values, while searching"))
		}
		if !g.o.GradientSearch() {
			fields = append(fields, g.lookaheadMemory()...)
		}
	}
	if g.acquisition.Setting != nil {
		fields = append(fields, jen.Id("setting").Float64().Comment("the acquisition's setting for this suggestion"))
	}
	return fields
}

// lookaheadMemory are the fields, of a search worker or of the optimiser,
// that a lookahead acquisition needs per candidate.
func (g *generator) lookaheadMemory() []jen.Code {
	fields := []jen.Code{
		jen.Id("weights").Index(g.modelCapacity()).Float64().Comment("A⁻¹k"),
		jen.Id("trainCovs").Index(g.modelCapacity()).Float64().Comment("posterior covariances of the evaluated points with x"),
		jen.Id("lines").Index(g.modelCapacity().Op("+").Lit(1)).Qual(runtimeAcq, "Line").Comment("the lookahead's memory"),
	}
	if g.o.Acquisition.LatentDraws > 0 {
		fields = append(fields, jen.Id("scratch").Index().Float64().Comment("the latent draws' memory (made by New)"))
	}
	return fields
}

// latentDrawsInit are New's statements that make the latent draws' memory: the
// samples, and each searcher's scratch.
func (g *generator) latentDrawsInit() []jen.Code {
	if g.o.Acquisition.LatentDraws == 0 {
		return nil
	}
	scratch := jen.Make(jen.Index().Float64(), field("latentDraws").Dot("ScratchLen").Call())
	stmts := []jen.Code{field("latentDraws").Op("=").Qual(runtimeAcq, "NewLatentDraws").Call(g.modelCapacity(), jen.Lit(g.o.Acquisition.LatentDraws))}
	if g.o.GradientSearch() {
		return append(stmts, jen.For(jen.Id("i").Op(":=").Range().Add(field("workers"))).Block(
			field("workers").Index(jen.Id("i")).Dot("scratch").Op("=").Add(scratch)))
	}
	return append(stmts, field("scratch").Op("=").Add(scratch))
}

// prepareAcquisition is the part of Suggest, before the search, that sets the
// acquisition's state: incumbent, with the incumbent's index i, and always
// run on the observations alone; fantasised, when there are observations,
// once the pending points' fantasies are in the model, whose posterior the
// incumbent's joint one must be.
func (g *generator) prepareAcquisition() (incumbent, always, fantasised []jen.Code) {
	if g.o.Acquisition.Joint {
		incumbent = append(incumbent, field("incumbentIndex").Op("=").Id("i"))
		fantasised = append(fantasised, method("setIncumbent"))
	}
	if g.o.Acquisition.Lookahead {
		fantasised = append(fantasised, method("setLookahead"))
	}
	if g.o.Acquisition.LatentDraws > 0 {
		fantasised = append(fantasised, jen.If(jen.Id("err").Op(":=").Add(method("drawLatent")), jen.Id("err").Op("!=").Nil()).Block(
			jen.Return(jen.Id("Point").Values(), jen.Id("err"))))
	}
	if g.acquisition.Setting != nil {
		always = append(always, field("setting").Op("=").Add(method("acquisitionSetting")))
	}
	if g.o.Acquisition.Arms > 0 {
		always = append(always, field("setGains").Call(jen.Id("n")))
	}
	return incumbent, always, fantasised
}

// acquisitionValue converts the search's maximum, the score value, into the
// acquisition's value.
func (g *generator) acquisitionValue(value jen.Code) jen.Code {
	if g.acquisition.Value == nil {
		return value
	}
	return jen.Id("acquisitionValue").Call(value)
}

// acquisitionStateDecls emits the methods that compute the acquisition's
// state before a search: its setting and, for joint acquisitions, the incumbent.
func (g *generator) acquisitionStateDecls(f *jen.File) {
	if g.acquisition.Setting != nil {
		f.Comment(fmt.Sprintf("acquisitionSetting is the setting of %s for the next suggestion.", callString(g.p.Acquisition)))
		f.Func().Params(o().Op("*").Id("Optimizer")).Id("acquisitionSetting").Params().Float64().Block(jen.Return(g.acquisition.Setting))
	}
	if g.o.Acquisition.Lookahead {
		f.Comment("setLookahead stores what the lookahead needs of the evaluated points for the")
		f.Comment("next search: their posterior means, and the noise variance of an observation.")
		mean := []jen.Code{field("trainMeans").Index(jen.Id("i")).Op("=").Add(field("model").Dot("TrainMean").Call(jen.Id("i")))}
		if g.requires() {
			f.Comment("A point that cannot be recommended, as it does not meet the requirements (or")
			f.Comment("is pending), has a NaN mean: the improvement leaves it out.")
			mean = append(mean, jen.If(jen.Id("i").Op(">=").Add(field("outcomes").Dot("Len").Call()).Op("||").Op("!").Add(field("outcomes").Dot("Feasible").Call(jen.Id("i")))).Block(
				field("trainMeans").Index(jen.Id("i")).Op("=").Qual("math", "NaN").Call()))
		}
		f.Func().Params(o().Op("*").Id("Optimizer")).Id("setLookahead").Params().Block(
			jen.For(jen.Id("i").Op(":=").Range().Add(field("model").Dot("Len").Call())).Block(mean...),
			field("observationNoise").Op("=").Add(field("model").Dot("NewObservationNoise").Call()),
		)
	}
	if g.o.Acquisition.LatentDraws > 0 {
		f.Comment("drawLatent draws the samples of the evaluated points' latent values that the")
		f.Comment("next search averages over, from their joint posterior and a stream of their own.")
		f.Func().Params(o().Op("*").Id("Optimizer")).Id("drawLatent").Params().Error().Block(
			jen.Id("n").Op(":=").Add(field("model").Dot("Len").Call()),
			jen.List(jen.Id("work"), jen.Id("cov")).Op(":=").Add(field("latentDraws").Dot("Buffers").Call(jen.Id("n"))),
			field("model").Dot("TrainPosteriorCovariance").Call(jen.Id("work"), jen.Id("cov")),
			jen.If(jen.Id("err").Op(":=").Add(field("latentDraws").Dot("Prepare").Call(field("trainMeans").Index(jen.Empty().Op(":").Id("n")), jen.Id("cov"),
				jen.Id("streamSeed").Call(field("seed"), jen.Uint64().Call(jen.Id("n")), jen.Lit(drawStream)))), jen.Id("err").Op("!=").Nil()).Block(
				jen.Return(g.errorf("drawing the latent values: %w", jen.Id("err"))),
			),
			jen.Return(jen.Nil()),
		)
	}
	if !g.o.Acquisition.Joint {
		return
	}
	w, _ := ownWork()
	f.Comment("setIncumbent makes evaluated point incumbentIndex the incumbent x⁺ of the next")
	f.Comment("search: it stores L⁻¹k(x⁺), which the incumbent's covariance with every candidate")
	f.Comment("reuses, and the posterior standard deviation at x⁺.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("setIncumbent").Params().Block(
		jen.Id("i").Op(":=").Add(field("incumbentIndex")),
		jen.Id("n").Op(":=").Add(field("model").Dot("Len").Call()),
		jen.For(jen.Id("j").Op(":=").Range().Id("n")).Block(
			field("incumbentSolve").Index(jen.Id("j")).Op("=").Add(g.storedKernel(w, jen.Id("i"), jen.Id("j"), jen.Id("i").Op("==").Id("j"))),
		),
		jen.List(jen.Id("_"), jen.Id("variance")).Op(":=").Add(field("model").Dot("Predict").Call(
			field("incumbentSolve").Index(jen.Empty().Op(":").Id("n")), g.storedKernel(w, jen.Id("i"), jen.Id("i"), jen.True()))),
		field("bestSD").Op("=").Qual("math", "Sqrt").Call(jen.Id("variance")),
	)
}

// acquisitionAtDecls emits acquisitionAt, the score at a candidate for a search
// without gradients, and what it needs of the joint posterior.
func (g *generator) acquisitionAtDecls(f *jen.File) {
	args := g.acquisitionArgs(field("incumbentCovariance").Call(jen.Id("u")), jen.Id("o"), false)
	at := []jen.Code{jen.List(jen.Id("mean"), jen.Id("sd")).Op(":=").Add(field("predict").Call(jen.Id("u")))}
	if g.o.Acquisition.Lookahead {
		// predict left L⁻¹k in kvec.
		n := jen.Empty().Op(":").Id("n")
		at = append(at,
			jen.Id("n").Op(":=").Add(field("model").Dot("Len").Call()),
			field("model").Dot("SolveWeights").Call(field("kvec").Index(n), field("weights").Index(n.Clone())),
			field("model").Dot("TrainCovariances").Call(field("weights").Index(n.Clone()), field("trainCovs").Index(n.Clone())),
		)
	}
	f.Comment("acquisitionAt is the acquisition's score at unit coordinates u.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("acquisitionAt").Params(jen.Id("u").Index().Float64()).Float64().Block(
		append(at, jen.Return(jen.Id("acquisition").Call(args...)))...,
	)
	if !g.o.Acquisition.Joint {
		return
	}
	w, rep := ownWork()
	body := []jen.Code{
		jen.Id("n").Op(":=").Add(field("model").Dot("Len").Call()),
		jen.If(jen.Id("n").Op("==").Lit(0)).Block(jen.Return(jen.Lit(0))),
	}
	if !g.o.InputModel() {
		body = append(body, g.unitPoint()...) // a model over input distributions reuses predict's rep
	}
	body = append(body, jen.Return(field("model").Dot("PosteriorCovariance").Call(
		field("kvec").Index(jen.Empty().Op(":").Id("n")), field("incumbentSolve").Index(jen.Empty().Op(":").Id("n")),
		g.candidateKernel(w, jen.Op("&").Id("p"), rep, field("incumbentIndex")))))
	f.Comment("incumbentCovariance is the posterior covariance of the point at unit coordinates")
	f.Comment("u and the incumbent, 0 before the first observation. It reuses the solve L⁻¹k(u)")
	f.Comment("that predict(u) left in kvec, so it must follow that call.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("incumbentCovariance").Params(jen.Id("u").Index().Float64()).Float64().Block(body...)
}

// unitPoint declares p, the array of unit coordinates u, snapped to the
// integer grid when the domain has integer dimensions.
func (g *generator) unitPoint() []jen.Code {
	stmts := []jen.Code{jen.Id("p").Op(":=").Add(unitArray()).Call(jen.Id("u"))}
	if g.hasInteger() {
		stmts = append(stmts, jen.Id("snap").Call(jen.Op("&").Id("p")))
	}
	return stmts
}

// incumbentValue sets best to what the acquisition improves on
// (registry.IncumbentRule), in the model's convention: the incumbent's
// posterior mean or the best value observed; with needIndex it also sets i to
// the incumbent, the evaluated point with the best posterior mean, where the
// search starts.
func (g *generator) incumbentValue(needIndex bool) []jen.Code {
	index := jen.Id("_")
	if needIndex {
		index = jen.Id("i")
	}
	if g.o.Acquisition.Incumbent == registry.BestObserved {
		best := field("best").Op("=").Add(g.storedY(field("bestIndex")))
		if !needIndex {
			return []jen.Code{best}
		}
		return []jen.Code{jen.List(index, jen.Id("_")).Op(":=").Add(method("incumbent")), best}
	}
	return []jen.Code{
		jen.List(index, jen.Id("mean")).Op(":=").Add(method("incumbent")),
		field("best").Op("=").Id("mean"),
	}
}
