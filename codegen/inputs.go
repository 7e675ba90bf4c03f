package codegen

import (
	"fmt"

	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

// A model over input distributions (ugp, mmd, erbf, skl) sees each point x
// through its input distribution P_x, the law of x + ε under the declared
// input noise. The optimiser keeps a representation of P_x per observation
// (samples, a mean embedding, or moments: registry.InputRep) and fills the
// GP's kernel vectors with the model's kernel between representations, so
// runtime/gp and the acquisitions are those of the point models.
//
// The samples use common random numbers: base uniforms fixed in New (a
// shifted Sobol set from the run's seed) pushed through each distribution's
// reparameterisation, so the samples of P_x, the posterior and the
// acquisition are smooth, deterministic functions of x. Their derivatives
// are taken by central differences, in the search and in the refits.

const (
	// inputGradStep is the central-difference step of the acquisition's
	// gradient in unit coordinates, for models over input distributions.
	inputGradStep = 1e-5
	// fitStep is the forward-difference step, in the logarithm of a
	// hyperparameter, of the kernel matrix's derivatives in refits.
	fitStep = 1e-4
	// landmarkTargets is the number of targets whose samples bound the region
	// the shared landmarks of an embedding cover.
	landmarkTargets = 64
	// drawSalt makes the seed of the optimiser's base uniforms from its seed,
	// so that seed 0 still gives shifted (not corner-anchored) draws.
	drawSalt = 0x63726e2d64726177 // "crn-draw"
	// localSalt makes the seed of the normals localisation estimates are
	// drawn with, independent of the input noise's draws.
	localSalt = 0x6c6f63616c697365 // "localise"
	// runtimeAcq is the import path of the acquisition functions.
	runtimeAcq = "github.com/bocdev/boc/runtime/acq"
	// runtimeNoise is the import path of the common-random-number samplers.
	runtimeNoise = "github.com/bocdev/boc/runtime/noise"
	// runtimeUncertain is the import path of the kernels over distributions.
	runtimeUncertain = "github.com/bocdev/boc/runtime/uncertain"
)

// inputPlan is the plan of a model over input distributions.
type inputPlan struct {
	model *registry.InputModel
}

// repNames names the parts of the emitted rep r.
func repNames(r jen.Code) registry.RepNames {
	part := func(name string) jen.Code { return jen.Add(r).Dot(name) }
	slice := func(name string) jen.Code { return jen.Add(r).Dot(name).Index(jen.Empty().Op(":")) }
	return registry.RepNames{Samples: slice("samples"), Stat: part("stat"), Weights: slice("weights"), Embedding: slice("embedding"), Mean: slice("mean"), Cov: slice("cov")}
}

// repDecls declares the representation of input distributions, the memory
// computing it takes, and the model's kernel between two.
func (g *generator) repDecls(f *jen.File) {
	m := g.inputs.model
	var fields []jen.Code
	switch g.o.Rep() {
	case registry.SampleRep, registry.EmbeddingRep:
		f.Comment("Samples is the number of draws of the input noise that represent the input")
		f.Comment("distribution of a point.")
		f.Const().Id("Samples").Op("=").Lit(g.o.Model.Inputs.Samples)
		fields = append(fields, jen.Id("samples").Index(jen.Id("Samples").Op("*").Id("Dim")).Float64().Comment("the draws of x + ε, unit coordinates, row-major"))
		switch {
		case g.o.Rep() == registry.EmbeddingRep:
			f.Comment("Landmarks is the number of shared landmarks of the mean embeddings.")
			f.Const().Id("Landmarks").Op("=").Lit(g.o.Model.Inputs.Landmarks)
			fields = append(fields, jen.Id("embedding").Index(jen.Id("Landmarks")).Float64().Comment("the draws' mean embedding"))
		case g.o.UsesNystrom():
			f.Comment("Landmarks is the number of a point's draws that are its Nyström landmarks.")
			f.Const().Id("Landmarks").Op("=").Lit(g.o.Model.Inputs.Landmarks)
			fields = append(fields, jen.Id("weights").Index(jen.Id("Landmarks")).Float64().Comment("the draws' Nyström weights"))
		}
		if g.o.Rep() == registry.SampleRep && m.Stat != nil {
			fields = append(fields, jen.Id("stat").Float64().Comment("a statistic of the draws that the kernel reuses"))
		}
	case registry.MomentRep:
		fields = append(fields,
			jen.Id("mean").Index(jen.Id("Dim")).Float64().Comment("mean of x + ε, unit coordinates"),
			jen.Id("cov").Index(jen.Id("Dim").Op("*").Id("Dim")).Float64().Comment("its covariance, row-major"),
		)
	}
	f.Comment(fmt.Sprintf("rep represents the input distribution of a point for the %s model.", pluginName(g.p.Model.Plugin)))
	f.Type().Id("rep").Struct(fields...)

	work := []jen.Code{
		jen.Id("h").Op("*").Id("hyperparameters").Comment("the hyperparameters in use"),
		jen.Id("base").Qual(runtimeUncertain, "Kernel").Comment("kernel with h, between points"),
		jen.Id("work").Index().Float64().Comment("the closed forms' workspace"),
	}
	if g.o.Samples() && !g.fixedShifts() {
		work = append(work, jen.Id("eps").Id("Point").Comment("a draw of the input noise"))
	}
	if g.freshDraws() {
		work = append(work, jen.Id("draws").Index(jen.Id("Samples").Op("*").Id("noiseBaseLen")).Float64().Comment("the base uniforms of a point's draws"))
	}
	if g.o.Rep() == registry.EmbeddingRep {
		work = append(work,
			jen.Id("embedding").Op("*").Qual(runtimeUncertain, "Embedding").Comment("the landmarks, factored for h"),
			jen.Id("embedWork").Index(jen.Id("Landmarks")).Float64(),
		)
	}
	if g.o.UsesNystrom() {
		work = append(work, jen.Id("nystrom").Op("*").Qual(runtimeUncertain, "Nystrom"))
	}
	f.Comment("repWork is the memory one goroutine uses to represent input distributions and")
	f.Comment("to evaluate the kernel between them, with the hyperparameters h.")
	f.Type().Id("repWork").Struct(work...)

	w := func(name string) *jen.Statement { return jen.Id("w").Dot(name) }
	pairwise := jen.Qual(runtimeUncertain, "KernelFunc").Call(jen.Func().Params(jen.List(jen.Id("a"), jen.Id("b")).Index().Float64()).Float64().Block(
		jen.Return(kernelOfSlices(jen.Id("h"))),
	))
	if g.o.BlockKernel() {
		g.baseKernelDecl(f)
		pairwise = jen.Id("baseKernel").Values(jen.Id("h"))
	}
	init := []jen.Code{
		jen.List(w("h"), w("work")).Op("=").List(jen.Id("h"), jen.Make(jen.Index().Float64(), jen.Qual(runtimeUncertain, "WorkLen").Call(jen.Id("Dim")))),
		w("base").Op("=").Add(pairwise),
	}
	params := []jen.Code{jen.Id("h").Op("*").Id("hyperparameters")}
	if g.o.Rep() == registry.EmbeddingRep {
		params = append(params, jen.Id("embedding").Op("*").Qual(runtimeUncertain, "Embedding"))
		init = append(init, w("embedding").Op("=").Id("embedding"))
	}
	if g.o.UsesNystrom() {
		init = append(init, w("nystrom").Op("=").Qual(runtimeUncertain, "NewNystrom").Call(jen.Id("Samples"), jen.Id("Landmarks"), jen.Id("Dim")))
	}
	f.Comment("init makes w compute with the hyperparameters h.")
	f.Func().Params(jen.Id("w").Op("*").Id("repWork")).Id("init").Params(params...).Block(init...)

	g.representDecl(f)
	g.repKernelDecl(f)
}

// kernelOfSlices is the emitted kernel's value at the []float64 a and b
// (Dim values each) with the hyperparameters h.
func kernelOfSlices(h jen.Code) jen.Code {
	return jen.Id("kernel").Call(h, jen.Parens(jen.Op("*").Add(unitArray())).Call(jen.Id("a")), jen.Parens(jen.Op("*").Add(unitArray())).Call(jen.Id("b")))
}

// baseKernelDecl emits baseKernel, the runtime/uncertain.Kernel of a base
// kernel with a Block form: single values by the emitted kernel, rows by
// the runtime/kernel.Block its plugin's hook builds from the hyperparameters.
func (g *generator) baseKernelDecl(f *jen.File) {
	block, learned := g.blockLiteral(g.o.Model.Kernel, g.p.D)
	k := jen.Id("k").Id("baseKernel")
	f.Comment("baseKernel is the model's base kernel with the hyperparameters h, between points")
	f.Comment("in unit coordinates (a runtime/uncertain.Kernel): one pair by the kernel function,")
	f.Comment("the rows of points the sums over input distributions take by runtime/kernel.Block.")
	f.Type().Id("baseKernel").Struct(jen.Id("h").Op("*").Id("hyperparameters"))
	f.Comment("Eval returns the kernel between a and b.")
	f.Func().Params(k).Id("Eval").Params(jen.List(jen.Id("a"), jen.Id("b")).Index().Float64()).Float64().Block(
		jen.Return(kernelOfSlices(jen.Id("k").Dot("h"))),
	)
	// The Block reads the learned hyperparameters from a local h.
	blockCall := func(method string, args ...jen.Code) []jen.Code {
		body := []jen.Code{jen.Return(jen.Add(block).Dot(method).Call(args...))}
		if learned {
			body = append([]jen.Code{jen.Id("h").Op(":=").Id("k").Dot("h")}, body...)
		}
		return body
	}
	f.Comment("RowSum returns Σ_j w_j·k(a, p_j) over the points p_j stored row-major in points.")
	f.Func().Params(k).Id("RowSum").Params(jen.List(jen.Id("a"), jen.Id("points"), jen.Id("w")).Index().Float64()).Float64().Block(
		blockCall("RowSum", jen.Id("a"), jen.Id("points"), jen.Id("w"))...)
	f.Comment("PairSum returns Σ_i Σ_j wu_i·wv_j·k(u_i, v_j) over the points of u and v (d values each).")
	f.Func().Params(k).Id("PairSum").Params(
		jen.List(jen.Id("u"), jen.Id("v")).Index().Float64(), jen.Id("d").Int(), jen.List(jen.Id("wu"), jen.Id("wv")).Index().Float64(),
	).Float64().Block(
		blockCall("PairSum", jen.Id("u"), jen.Id("v"), jen.Id("d"), jen.Id("wu"), jen.Id("wv"))...)
}

// blockLiteral is the runtime/kernel.Block of kernel c (whose plugin has a
// Block hook) for d-dimensional inputs; learned says whether it reads the
// learned hyperparameters, from a local h.
func (g *generator) blockLiteral(c *ir.Call, d int) (block jen.Code, learned bool) {
	p, _ := registry.ByID(c.Plugin)
	names := newNamer("h", "a", "b", "k")
	kg := &registry.KernelGen{Args: registry.Args{Call: c}, D: d, A: "a", B: "b", Fresh: names.fresh, NumHyper: g.o.Hyper.Size, Levels: g.levelCounts(d)}
	kg.Hyper = func(name string, i int) registry.Hyper {
		h := g.hyperValue(&kg.Args, name, i)
		learned = learned || !h.Fixed
		return h
	}
	block = p.Block(kg)
	g.checkArgs(&kg.Args)
	return block, learned
}

// representDecl emits represent and finish.
func (g *generator) representDecl(f *jen.File) {
	m := g.inputs.model
	w := func(name string) *jen.Statement { return jen.Id("w").Dot(name) }
	var body []jen.Code
	switch g.o.Rep() {
	case registry.SampleRep, registry.EmbeddingRep:
		// perturbed draws every sample from its row of the base uniforms base.
		perturbed := func(base *jen.Statement) jen.Code {
			return jen.For(jen.Id("j").Op(":=").Range().Id("Samples")).Block(
				w("eps").Op("=").Id("Point").Values(),
				jen.Id("perturbation").Call(jen.Op("&").Id("x"), baseRow(base), jen.Op("&").Add(w("eps"))),
				jen.Id("s").Op(":=").Id("r").Dot("samples").Index(jen.Id("j").Op("*").Id("Dim").Op(":")),
				jen.For(jen.List(jen.Id("i"), jen.Id("e")).Op(":=").Range().Add(w("eps"))).Block(
					jen.Id("s").Index(jen.Id("i")).Op("=").Id("u").Index(jen.Id("i")).Op("+").Id("e").Op("/").Add(width(jen.Id("i"))),
				),
			)
		}
		x := jen.Id("x").Op(":=").Id("fromUnit").Call(jen.Id("u"))
		sample := []jen.Code{x, perturbed(field("noiseBase"))}
		doc := "from the fixed base uniforms, using w's memory."
		switch {
		case g.freshDraws():
			sample = []jen.Code{x,
				jen.Qual(runtimeNoise, "FreshAt").Call(field("seed").Op("^").Lit(uint64(drawSalt)), jen.Id("u").Index(jen.Empty().Op(":")), w("draws").Index(jen.Empty().Op(":"))),
				perturbed(w("draws")),
			}
			doc = "base uniforms drawn for u alone (draws = \"fresh\"), using w's memory."
		case g.constantNoise():
			sample = []jen.Code{jen.For(jen.Id("j").Op(":=").Range().Id("Samples")).Block(
				jen.Id("s").Op(":=").Id("r").Dot("samples").Index(jen.Id("j").Op("*").Id("Dim").Op(":")),
				jen.For(jen.List(jen.Id("i"), jen.Id("e")).Op(":=").Range().Add(field("noiseShift")).Index(jen.Id("j"))).Block(
					jen.Id("s").Index(jen.Id("i")).Op("=").Id("u").Index(jen.Id("i")).Op("+").Id("e"),
				),
			)}
			doc = "the fixed draws of the noise, which does not depend on x, shifted by u."
		}
		f.Comment("sample fills r's draws of x + ε for the point at unit coordinates u: " + doc)
		f.Func().Params(o().Op("*").Id("Optimizer")).Id("sample").Params(jen.Id("w").Op("*").Id("repWork"), jen.Id("u").Op("*").Add(unitArray()), jen.Id("r").Op("*").Id("rep")).Block(sample...)
		body = []jen.Code{
			field("sample").Call(jen.Id("w"), jen.Id("u"), jen.Id("r")),
			field("finish").Call(jen.Id("w"), jen.Id("r")),
		}
	case registry.MomentRep:
		body = []jen.Code{jen.Id("unitNoiseMoments").Call(jen.Id("u"), jen.Op("&").Id("r").Dot("mean"), jen.Op("&").Id("r").Dot("cov"))}
	}
	f.Comment("represent fills r with the input distribution of the point at unit coordinates")
	f.Comment("u, using w's memory and hyperparameters.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("represent").Params(jen.Id("w").Op("*").Id("repWork"), jen.Id("u").Op("*").Add(unitArray()), jen.Id("r").Op("*").Id("rep")).Block(body...)

	if !g.hyperDependentReps() {
		return
	}
	var finish []jen.Code
	switch {
	case g.o.Rep() == registry.EmbeddingRep:
		finish = append(finish, w("embedding").Dot("Embed").Call(w("base"), jen.Id("r").Dot("samples").Index(jen.Empty().Op(":")),
			jen.Id("r").Dot("embedding").Index(jen.Empty().Op(":")), w("embedWork").Index(jen.Empty().Op(":"))))
	case g.o.Rep() == registry.SampleRep && m.Stat != nil:
		finish = append(finish, jen.Id("r").Dot("stat").Op("=").Add(m.Stat(g.inputGen(repNames(jen.Id("r")), registry.RepNames{}))))
	}
	f.Comment("finish computes the parts of r that depend on the hyperparameters from its draws,")
	f.Comment("with w's; represent calls it, and refits call it again.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("finish").Params(jen.Id("w").Op("*").Id("repWork"), jen.Id("r").Op("*").Id("rep")).Block(finish...)
}

// inputGen is the InputGen of the model's hooks inside a function with a
// *repWork w, for representations a and b.
func (g *generator) inputGen(a, b registry.RepNames) *registry.InputGen {
	w := func(name string) *jen.Statement { return jen.Id("w").Dot(name) }
	ig := &registry.InputGen{Args: registry.Args{Call: g.p.Model}, D: g.p.D, Kernel: g.kernel,
		Base: w("base"), Nystrom: w("nystrom"), Work: w("work"), A: a, B: b}
	ig.Hyper = func(c *ir.Call, name string, i int) registry.Hyper {
		h := g.hyperValue(&registry.Args{Call: c}, name, i)
		if !h.Fixed {
			h.Code = w("h").Index(jen.Lit(h.Index))
		}
		return h
	}
	return ig
}

// repKernelDecl emits repKernel, the model's kernel between representations.
func (g *generator) repKernelDecl(f *jen.File) {
	m := g.inputs.model
	ig := g.inputGen(repNames(jen.Id("a")), repNames(jen.Id("b")))
	var body []jen.Code
	if m.Prelude != nil {
		body = m.Prelude(ig)
	}
	body = append(body,
		jen.If(jen.Id("same")).Block(jen.Return(m.Self(ig))),
		jen.Return(m.Pair(ig)),
	)
	g.checkArgs(&ig.Args)
	f.Comment(fmt.Sprintf("repKernel is the kernel of %s between the input distributions", callString(g.p.Model)))
	f.Comment("a and b, with w's hyperparameters; same says b is a.")
	f.Func().Id("repKernel").Params(jen.Id("w").Op("*").Id("repWork"), jen.List(jen.Id("a"), jen.Id("b")).Op("*").Id("rep"), jen.Id("same").Bool()).Float64().Block(body...)
}

// The kernel's call sites. A point model evaluates the kernel on unit
// coordinates; a model over input distributions on representations, which
// the candidate's needs first (representCandidate). w is the *repWork to use
// and rep the *rep to fill for the candidate; point models ignore both.

// representCandidate represents the candidate at point (a *[Dim]float64) in rep.
func (g *generator) representCandidate(w, point, rep jen.Code) []jen.Code {
	if !g.o.InputModel() {
		return nil
	}
	return []jen.Code{field("represent").Call(w, point, rep)}
}

// candidateKernel is the kernel between the candidate and evaluated point i.
func (g *generator) candidateKernel(w, point, rep, i jen.Code) jen.Code {
	if !g.o.InputModel() {
		return kernelAt(point, jen.Op("&").Add(field("units")).Index(i))
	}
	return jen.Id("repKernel").Call(w, rep, jen.Op("&").Add(field("reps")).Index(i), jen.False())
}

// candidateSelf is the kernel between the candidate and itself.
func (g *generator) candidateSelf(w, point, rep jen.Code) jen.Code {
	if !g.o.InputModel() {
		return kernelAt(point, point)
	}
	return jen.Id("repKernel").Call(w, rep, rep, jen.True())
}

// storedKernel is the kernel between evaluated points i and j; same is a
// bool expression saying whether they are the same observation.
func (g *generator) storedKernel(w, i, j, same jen.Code) jen.Code {
	if !g.o.InputModel() {
		return kernelAt(jen.Op("&").Add(field("units")).Index(i), jen.Op("&").Add(field("units")).Index(j))
	}
	return jen.Id("repKernel").Call(w, jen.Op("&").Add(field("reps")).Index(i), jen.Op("&").Add(field("reps")).Index(j), same)
}

// ownWork is the optimiser's own *repWork and rep, for Observe, the
// value-only search and the incumbent.
func ownWork() (w, rep jen.Code) {
	return jen.Op("&").Add(field("rw")), jen.Op("&").Add(field("rep"))
}

// hyperDependentReps reports whether a representation has parts that depend
// on the hyperparameters (an embedding, a statistic), which finish computes.
func (g *generator) hyperDependentReps() bool {
	m := g.inputs.model
	return g.o.Rep() == registry.EmbeddingRep || (g.o.Rep() == registry.SampleRep && m.Stat != nil)
}

// inputFields are the optimiser's fields for a model over input distributions.
func (g *generator) inputFields() []jen.Code {
	if !g.o.InputModel() {
		return nil
	}
	fields := []jen.Code{jen.Line()}
	switch {
	case g.o.Samples() && g.freshDraws():
	case g.o.Samples() && g.constantNoise():
		fields = append(fields, jen.Id("noiseShift").Index(jen.Id("Samples")).Add(unitArray()).Comment("the draws of the noise, unit coordinates, fixed"))
	case g.o.Samples():
		fields = append(fields, jen.Id("noiseBase").Index(jen.Id("Samples").Op("*").Id("noiseBaseLen")).Float64().Comment("the base uniforms of the draws, fixed"))
	}
	if g.o.Localises() && g.o.Samples() {
		fields = append(fields, jen.Id("localNormals").Index(jen.Id("Samples").Op("*").Id("Dim")).Float64().Comment("standard normals that localisation estimates are drawn with, fixed"))
	}
	fields = append(fields,
		jen.Id("reps").Index(jen.Id("Budget")).Id("rep").Comment("the evaluated points' input distributions"),
		jen.Id("rep").Id("rep").Comment("a candidate's, outside the search"),
		jen.Id("rw").Id("repWork").Comment("the memory of Observe, predict and the incumbent"),
	)
	if g.o.Embeds() {
		fields = append(fields, jen.Id("embedding").Op("*").Qual(runtimeUncertain, "Embedding").Comment("the shared landmarks, factored for hyper"))
	}
	if g.o.Learning() {
		fields = append(fields,
			jen.Id("fitHyper").Id("hyperparameters").Comment("the hyperparameters a refit tries"),
			jen.Id("fitWork").Id("repWork").Comment("the refits' memory, with fitHyper"),
		)
		if g.hyperDependentReps() {
			fields = append(fields, jen.Id("fitReps").Index(jen.Id("Budget")).Id("rep").Comment("the evaluated points' input distributions under fitHyper"))
		}
		if g.o.Embeds() {
			fields = append(fields, jen.Id("fitEmbedding").Op("*").Qual(runtimeUncertain, "Embedding").Comment("the landmarks, factored for fitHyper"))
		}
	}
	return fields
}

// inputInit are New's statements for a model over input distributions; they
// follow the hyperparameters' and the workers' initialisation.
func (g *generator) inputInit() []jen.Code {
	if !g.o.InputModel() {
		return nil
	}
	var stmts []jen.Code
	fail := func(what string, call jen.Code) jen.Code {
		return jen.If(jen.Id("err").Op(":=").Add(call), jen.Id("err").Op("!=").Nil().Op("&&").Add(field("err")).Op("==").Nil()).Block(
			field("err").Op("=").Add(g.errorf(what+": %w", jen.Id("err"))),
		)
	}
	if g.o.Samples() && !g.freshDraws() {
		seed := jen.Id("seed").Op("^").Lit(uint64(drawSalt))
		if !g.constantNoise() {
			stmts = append(stmts, fail("input noise draws", jen.Qual(runtimeNoise, "Base").Call(jen.Id("Samples"), jen.Id("noiseBaseLen"), seed, whole(field("noiseBase")))))
		} else {
			stmts = append(stmts,
				jen.Id("base").Op(":=").Make(jen.Index().Float64(), jen.Id("Samples").Op("*").Id("noiseBaseLen")),
				fail("input noise draws", jen.Qual(runtimeNoise, "Base").Call(jen.Id("Samples"), jen.Id("noiseBaseLen"), seed, jen.Id("base"))),
				jen.For(jen.Id("j").Op(":=").Range().Id("Samples")).Block(
					jen.Var().Id("eps").Id("Point"),
					jen.Id("perturbation").Call(jen.Op("&").Id("Lower"), baseRow(jen.Id("base")), jen.Op("&").Id("eps")),
					jen.For(jen.List(jen.Id("i"), jen.Id("e")).Op(":=").Range().Id("eps")).Block(
						field("noiseShift").Index(jen.Id("j")).Index(jen.Id("i")).Op("=").Id("e").Op("/").Parens(jen.Id("Upper").Index(jen.Id("i")).Op("-").Id("Lower").Index(jen.Id("i"))),
					),
				),
			)
		}
	}
	if g.o.Localises() && g.o.Samples() {
		stmts = append(stmts,
			fail("localisation draws", jen.Qual(runtimeNoise, "Base").Call(jen.Id("Samples"), jen.Id("Dim"), jen.Id("seed").Op("^").Lit(uint64(localSalt)), whole(field("localNormals")))),
			jen.For(jen.List(jen.Id("i"), jen.Id("u")).Op(":=").Range().Add(field("localNormals"))).Block(
				field("localNormals").Index(jen.Id("i")).Op("=").Qual(runtimeNoise, "Normal").Call(jen.Id("u")),
			),
		)
	}
	own := []jen.Code{jen.Op("&").Add(field("hyper"))}
	fit := []jen.Code{jen.Op("&").Add(field("fitHyper"))}
	if g.o.Embeds() {
		newEmbedding := jen.Qual(runtimeUncertain, "NewEmbedding").Call(jen.Id("Landmarks"), jen.Id("Dim"))
		stmts = append(stmts, field("embedding").Op("=").Add(newEmbedding))
		own = append(own, field("embedding"))
		if g.o.Learning() {
			stmts = append(stmts, field("fitEmbedding").Op("=").Add(newEmbedding))
			fit = append(fit, field("fitEmbedding"))
		}
	}
	stmts = append(stmts, field("rw").Dot("init").Call(own...))
	if g.o.Learning() {
		stmts = append(stmts, field("fitWork").Dot("init").Call(fit...))
	}
	if g.o.GradientSearch() {
		stmts = append(stmts, jen.For(jen.Id("i").Op(":=").Range().Add(field("workers"))).Block(
			field("workers").Index(jen.Id("i")).Dot("rw").Dot("init").Call(own...),
		))
	}
	if g.o.Embeds() {
		stmts = append(stmts,
			fail("placing the landmarks", method("placeLandmarks")),
			fail("landmarks", field("embedding").Dot("Prepare").Call(field("rw").Dot("base"))),
		)
	}
	return stmts
}

// placeLandmarksDecl emits placeLandmarks, for embeddings.
func (g *generator) placeLandmarksDecl(f *jen.File) {
	if !g.o.Embeds() {
		return
	}
	body := []jen.Code{
		jen.Var().List(jen.Id("lo"), jen.Id("hi")).Add(unitArray()),
		jen.For(jen.Id("i").Op(":=").Range().Id("hi")).Block(jen.Id("hi").Index(jen.Id("i")).Op("=").Lit(1)),
		jen.Id("r").Op(":=").New(jen.Id("rep")),
		jen.Id("samples").Op(":=").Func().Params(jen.Id("u").Index().Float64()).Index().Float64().Block(
			field("sample").Call(jen.Op("&").Add(field("rw")), jen.Parens(jen.Op("*").Add(unitArray())).Call(jen.Id("u")), jen.Id("r")),
			jen.Return(whole(jen.Id("r").Dot("samples"))),
		),
		jen.If(jen.Id("err").Op(":=").Qual(runtimeUncertain, "SampleBox").Call(jen.Lit(landmarkTargets), jen.Id("Dim"), jen.Id("samples"), whole(jen.Id("lo")), whole(jen.Id("hi"))),
			jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Id("err"))),
		field("embedding").Dot("SetLandmarks").Call(whole(jen.Id("lo")), whole(jen.Id("hi"))),
	}
	if g.o.Learning() {
		body = append(body, field("fitEmbedding").Dot("SetLandmarks").Call(whole(jen.Id("lo")), whole(jen.Id("hi"))))
	}
	body = append(body, jen.Return(jen.Nil()))
	f.Comment("placeLandmarks spreads the shared landmarks over the region the draws of the")
	f.Comment(fmt.Sprintf("input distributions occupy: the unit cube widened to hold the draws at %d", landmarkTargets))
	f.Comment("targets spread over it.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("placeLandmarks").Params().Error().Block(body...)
}

// refinish are rebuild's statements that bring the representations up to
// date with new hyperparameters, using w.
func (g *generator) refinish(w jen.Code) []jen.Code {
	if !g.o.InputModel() || !g.hyperDependentReps() {
		return nil
	}
	var stmts []jen.Code
	if g.o.Embeds() {
		stmts = append(stmts, jen.If(jen.Id("err").Op(":=").Add(field("embedding").Dot("Prepare").Call(field("rw").Dot("base"))), jen.Id("err").Op("!=").Nil()).Block(
			jen.Return(jen.Id("err")),
		))
	}
	return append(stmts, jen.For(jen.Id("i").Op(":=").Range().Add(field("model").Dot("Len").Call())).Block(
		field("finish").Call(w, jen.Op("&").Add(field("reps")).Index(jen.Id("i"))),
	))
}

// width is the width Upper[i] − Lower[i] of component i of the domain, a
// parenthesised expression, which converts lengths between user units and
// unit coordinates.
func width(i jen.Code) jen.Code {
	return jen.Parens(jen.Id("Upper").Index(i).Op("-").Id("Lower").Index(jen.Add(i)))
}
