package codegen

import (
	"fmt"
	"math"

	"github.com/bocdev/boc/dsl"
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

// inputModel reports whether the model is over input distributions.
func (g *generator) inputModel() bool { return g.inputs != nil }

// noiseHooks returns the input-noise hooks of declaration n.
func (g *generator) noiseHooks(n *ir.InputNoise) (registry.DistributionEmit, bool) {
	h, ok := hookOf[registry.DistributionEmit](g, n.Dist.Plugin, n.Dist.Span)
	if ok && (h.BaseLen == nil || h.Draw == nil || h.Moments == nil || h.Gaussian == nil) {
		g.internal(n.Dist.Span, "distribution %s lacks an input-noise hook", n.Dist.Plugin)
		return h, false
	}
	return h, ok
}

// planInputs checks the hooks' description of the model over input
// distributions m.
func (g *generator) planInputs(m *ir.Call, code *registry.InputModel) {
	if (code.Rep == registry.SampleRep || code.Rep == registry.EmbeddingRep) && code.Samples < 2 {
		g.internal(m.Span, "model %s represents distributions by %d samples", m.Plugin, code.Samples)
	}
	if code.Rep == registry.EmbeddingRep && code.Landmarks < 1 {
		g.internal(m.Span, "model %s embeds distributions over %d landmarks", m.Plugin, code.Landmarks)
	}
	g.inputs = &inputPlan{model: code}
}

// planNoise checks that the plan draws the input noise exactly when the
// emitted code needs its draws.
func (g *generator) planNoise() {
	if g.drawsInputNoise() != (g.o.Draws != nil) {
		g.internal(dsl.Span{}, "the plan draws the input noise: %t, the emitted code needs it: %t", g.o.Draws != nil, g.drawsInputNoise())
	}
}

// drawGen is the DrawGen of distribution c, whose base uniforms start at
// offset in the slice b, with parameters read from the point x; e collects
// the statements its parameters need (nil: only constants are read, as when
// planning).
func (g *generator) drawGen(e *exprEmitter, c *ir.Call, offset int) *registry.DrawGen {
	dg := &registry.DrawGen{Args: registry.Args{Call: c}}
	dg.Uniform = func(i int) jen.Code { return jen.Id("b").Index(jen.Lit(offset + i)) }
	dg.Sub = func(nested *ir.Call, at int) *registry.DrawGen { return g.drawGen(e, nested, offset+at) }
	dg.Fresh = func(prefix string) string { return prefix }
	dg.Param = func(name string) registry.ExprValue { return registry.ExprValue{} }
	if e == nil {
		return dg
	}
	dg.Fresh = e.names.fresh
	dg.Param = func(name string) registry.ExprValue {
		a := c.Arg(name)
		x, ok := a.Value.(ir.Expr)
		if a == nil || !ok {
			g.internal(c.Span, "%s: parameter %s is not an expression", c.Plugin, name)
			return registry.ExprValue{Elems: []jen.Code{jen.Lit(0.0)}}
		}
		v, ok := e.expr(x)
		if !ok {
			return registry.ExprValue{Elems: []jen.Code{jen.Lit(0.0)}}
		}
		return e.hookArg(v)
	}
	return dg
}

// noiseDecls declares the input noise's draws and, for models over its
// moments, its moments.
func (g *generator) noiseDecls(f *jen.File) {
	f.Comment("noiseBaseLen is the number of base uniforms one draw of the input noise uses.")
	f.Const().Id("noiseBaseLen").Op("=").Lit(g.o.Draws.BaseLen)

	body := g.perNoise([]string{"x", "b", "eps"}, func(n *ir.InputNoise, h registry.DistributionEmit, dg *registry.DrawGen) []jen.Code {
		stmts, elems := h.Draw(dg)
		for j, i := range n.Target {
			stmts = append(stmts, jen.Id("eps").Index(jen.Lit(i)).Op("=").Add(elems[j]))
		}
		return stmts
	})
	f.Comment("perturbation writes to eps the draw of the input noise at x, in user units, made")
	f.Comment("from the noiseBaseLen base uniforms b; components without noise are left as they are.")
	f.Func().Id("perturbation").Params(jen.Id("x").Op("*").Id("Point"), jen.Id("b").Index().Float64(), jen.Id("eps").Op("*").Id("Point")).Block(body...)

	if g.emitsMoments() || g.localises() {
		g.toUnitMomentsDecl(f)
	}
	if !g.emitsMoments() {
		return
	}
	body = g.perNoise([]string{"x", "b", "mean", "cov"}, func(n *ir.InputNoise, h registry.DistributionEmit, dg *registry.DrawGen) []jen.Code {
		stmts, mean, cov := h.Moments(dg)
		for j, i := range n.Target {
			stmts = append(stmts, jen.Id("mean").Index(jen.Lit(i)).Op("=").Add(mean[j]))
			for l, k := range n.Target {
				stmts = append(stmts, jen.Id("cov").Index(jen.Lit(i*g.p.D+k)).Op("=").Add(cov[j*len(n.Target)+l]))
			}
		}
		return stmts
	})
	f.Comment("noiseMoments writes the mean and covariance of the input noise at x, in user")
	f.Comment("units, to mean and cov (row-major); entries of components without noise, and")
	f.Comment("between independently declared components, are left as they are (zero).")
	f.Func().Id("noiseMoments").Params(jen.Id("x").Op("*").Id("Point"), jen.Id("mean").Op("*").Id("Point"),
		jen.Id("cov").Op("*").Index(jen.Id("Dim").Op("*").Id("Dim")).Float64()).Block(body...)

	f.Comment("unitNoiseMoments writes the mean and covariance of x + ε, for x the point at unit")
	f.Comment("coordinates u, in unit coordinates.")
	f.Func().Id("unitNoiseMoments").Params(jen.Id("u").Op("*").Add(unitArray()), jen.Id("mean").Op("*").Add(unitArray()),
		jen.Id("cov").Op("*").Index(jen.Id("Dim").Op("*").Id("Dim")).Float64()).Block(
		jen.Id("x").Op(":=").Id("fromUnit").Call(jen.Id("u")),
		jen.Var().Id("offset").Id("Point"),
		jen.Op("*").Id("cov").Op("=").Index(jen.Id("Dim").Op("*").Id("Dim")).Float64().Values(),
		jen.Id("noiseMoments").Call(jen.Op("&").Id("x"), jen.Op("&").Id("offset"), jen.Id("cov")),
		jen.Id("toUnitMoments").Call(jen.Id("u"), jen.Op("&").Id("offset"), jen.Id("cov"), jen.Id("mean")),
	)
}

// emitsMoments reports whether the optimiser uses the input noise's moments:
// for a model over them, an unscented acquisition or an inflation.
func (g *generator) emitsMoments() bool {
	return g.unscented() || g.inflates() || (g.inputModel() && g.inputs.model.Rep == registry.MomentRep)
}

// toUnitMomentsDecl emits toUnitMoments.
func (g *generator) toUnitMomentsDecl(f *jen.File) {
	f.Comment("toUnitMoments converts a distribution around the point at unit coordinates u,")
	f.Comment("given by its mean's offset from the point and its covariance in user units, to unit")
	f.Comment("coordinates: it writes the mean to mean and scales cov in place.")
	f.Func().Id("toUnitMoments").Params(jen.Id("u").Op("*").Add(unitArray()), jen.Id("offset").Op("*").Id("Point"),
		jen.Id("cov").Op("*").Index(jen.Id("Dim").Op("*").Id("Dim")).Float64(), jen.Id("mean").Op("*").Add(unitArray())).Block(
		jen.For(jen.Id("i").Op(":=").Range().Id("Dim")).Block(
			jen.Id("mean").Index(jen.Id("i")).Op("=").Id("u").Index(jen.Id("i")).Op("+").Id("offset").Index(jen.Id("i")).Op("/").Add(width(jen.Id("i"))),
			jen.For(jen.Id("k").Op(":=").Range().Id("Dim")).Block(
				jen.Id("cov").Index(jen.Id("i").Op("*").Id("Dim").Op("+").Id("k")).Op("/=").Add(width(jen.Id("i"))).Op("*").Add(width(jen.Id("k"))),
			),
		),
	)
}

// perNoise is the body of a function of the point x (parameters named by
// params) that handles every input-noise declaration in turn: a comment, the
// statements its parameters need, and those emit returns given the
// declaration, its hooks and its DrawGen.
func (g *generator) perNoise(params []string, emit func(n *ir.InputNoise, h registry.DistributionEmit, dg *registry.DrawGen) []jen.Code) []jen.Code {
	e := &exprEmitter{g: g, names: newNamer(params...), point: "x"}
	var body []jen.Code
	for k, n := range g.p.InputNoise {
		h, ok := g.noiseHooks(n)
		if !ok {
			continue
		}
		dg := g.drawGen(e, n.Dist, g.o.Draws.Offsets[k])
		stmts := emit(n, h, dg)
		g.checkArgs(&dg.Args)
		body = append(body, jen.Comment(g.noiseLabel(n)))
		body = append(body, e.stmts...)
		e.stmts = nil
		body = append(body, stmts...)
	}
	return body
}

// noiseLabel describes an input-noise declaration for comments.
func (g *generator) noiseLabel(n *ir.InputNoise) string {
	names := make([]string, len(n.Target))
	for i, k := range n.Target {
		names[i] = g.p.ComponentName(k)
	}
	target := names[0]
	if len(names) > 1 {
		target = "(" + fmt.Sprint(names) + ")"
	}
	return target + " ~ " + callString(n.Dist)
}

// repNames names the parts of the emitted rep r.
func repNames(r jen.Code) registry.RepNames {
	part := func(name string) jen.Code { return jen.Add(r).Dot(name) }
	slice := func(name string) jen.Code { return jen.Add(r).Dot(name).Index(jen.Empty().Op(":")) }
	return registry.RepNames{Samples: slice("samples"), Stat: part("stat"), Embedding: slice("embedding"), Mean: slice("mean"), Cov: slice("cov")}
}

// usesNystrom reports whether the model's kernel needs a Nyström workspace.
func (g *generator) usesNystrom() bool {
	return g.inputs.model.Rep == registry.SampleRep && g.inputs.model.Landmarks > 0
}

// repDecls declares the representation of input distributions, the memory
// computing it takes, and the model's kernel between two.
func (g *generator) repDecls(f *jen.File) {
	m := g.inputs.model
	var fields []jen.Code
	switch m.Rep {
	case registry.SampleRep, registry.EmbeddingRep:
		f.Comment("Samples is the number of draws of the input noise that represent the input")
		f.Comment("distribution of a point.")
		f.Const().Id("Samples").Op("=").Lit(m.Samples)
		fields = append(fields, jen.Id("samples").Index(jen.Id("Samples").Op("*").Id("Dim")).Float64().Comment("the draws of x + ε, unit coordinates, row-major"))
		if m.Rep == registry.EmbeddingRep {
			f.Comment("Landmarks is the number of shared landmarks of the mean embeddings.")
			f.Const().Id("Landmarks").Op("=").Lit(m.Landmarks)
			fields = append(fields, jen.Id("embedding").Index(jen.Id("Landmarks")).Float64().Comment("the draws' mean embedding"))
		} else if m.Stat != nil {
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
	if g.samples() && !g.constantNoise() {
		work = append(work, jen.Id("eps").Id("Point").Comment("a draw of the input noise"))
	}
	if m.Rep == registry.EmbeddingRep {
		work = append(work,
			jen.Id("embedding").Op("*").Qual(runtimeUncertain, "Embedding").Comment("the landmarks, factored for h"),
			jen.Id("embedWork").Index(jen.Id("Landmarks")).Float64(),
		)
	}
	if g.usesNystrom() {
		work = append(work, jen.Id("nystrom").Op("*").Qual(runtimeUncertain, "Nystrom"))
	}
	f.Comment("repWork is the memory one goroutine uses to represent input distributions and")
	f.Comment("to evaluate the kernel between them, with the hyperparameters h.")
	f.Type().Id("repWork").Struct(work...)

	w := func(name string) *jen.Statement { return jen.Id("w").Dot(name) }
	init := []jen.Code{
		jen.List(w("h"), w("work")).Op("=").List(jen.Id("h"), jen.Make(jen.Index().Float64(), jen.Qual(runtimeUncertain, "WorkLen").Call(jen.Id("Dim")))),
		w("base").Op("=").Func().Params(jen.List(jen.Id("a"), jen.Id("b")).Index().Float64()).Float64().Block(
			jen.Return(jen.Id("kernel").Call(jen.Id("h"), jen.Parens(jen.Op("*").Add(unitArray())).Call(jen.Id("a")), jen.Parens(jen.Op("*").Add(unitArray())).Call(jen.Id("b")))),
		),
	}
	params := []jen.Code{jen.Id("h").Op("*").Id("hyperparameters")}
	if m.Rep == registry.EmbeddingRep {
		params = append(params, jen.Id("embedding").Op("*").Qual(runtimeUncertain, "Embedding"))
		init = append(init, w("embedding").Op("=").Id("embedding"))
	}
	if g.usesNystrom() {
		init = append(init, w("nystrom").Op("=").Qual(runtimeUncertain, "NewNystrom").Call(jen.Id("Samples"), jen.Lit(m.Landmarks), jen.Id("Dim")))
	}
	f.Comment("init makes w compute with the hyperparameters h.")
	f.Func().Params(jen.Id("w").Op("*").Id("repWork")).Id("init").Params(params...).Block(init...)

	g.representDecl(f)
	g.repKernelDecl(f)
}

// representDecl emits represent and finish.
func (g *generator) representDecl(f *jen.File) {
	m := g.inputs.model
	w := func(name string) *jen.Statement { return jen.Id("w").Dot(name) }
	var body []jen.Code
	switch m.Rep {
	case registry.SampleRep, registry.EmbeddingRep:
		sample := []jen.Code{
			jen.Id("x").Op(":=").Id("fromUnit").Call(jen.Id("u")),
			jen.For(jen.Id("j").Op(":=").Range().Id("Samples")).Block(
				w("eps").Op("=").Id("Point").Values(),
				jen.Id("perturbation").Call(jen.Op("&").Id("x"), field("noiseBase").Index(jen.Id("j").Op("*").Id("noiseBaseLen").Op(":").Parens(jen.Id("j").Op("+").Lit(1)).Op("*").Id("noiseBaseLen")), jen.Op("&").Add(w("eps"))),
				jen.Id("s").Op(":=").Id("r").Dot("samples").Index(jen.Id("j").Op("*").Id("Dim").Op(":")),
				jen.For(jen.List(jen.Id("i"), jen.Id("e")).Op(":=").Range().Add(w("eps"))).Block(
					jen.Id("s").Index(jen.Id("i")).Op("=").Id("u").Index(jen.Id("i")).Op("+").Id("e").Op("/").Add(width(jen.Id("i"))),
				),
			),
		}
		doc := "from the fixed base uniforms, using w's memory."
		if g.constantNoise() {
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
	case m.Rep == registry.EmbeddingRep:
		finish = append(finish, w("embedding").Dot("Embed").Call(w("base"), jen.Id("r").Dot("samples").Index(jen.Empty().Op(":")),
			jen.Id("r").Dot("embedding").Index(jen.Empty().Op(":")), w("embedWork").Index(jen.Empty().Op(":"))))
	case m.Rep == registry.SampleRep && m.Stat != nil:
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

// gaussianNoise reports whether every declared input-noise distribution is
// Gaussian.
func (g *generator) gaussianNoise() bool {
	for _, n := range g.p.InputNoise {
		h, ok := registry.DistributionHooks(n.Dist)
		if !ok || h.Gaussian == nil || !h.Gaussian(g.drawGen(nil, n.Dist, 0)) {
			return false
		}
	}
	return true
}

// The kernel's call sites. A point model evaluates the kernel on unit
// coordinates; a model over input distributions on representations, which
// the candidate's needs first (representCandidate). w is the *repWork to use
// and rep the *rep to fill for the candidate; point models ignore both.

// representCandidate represents the candidate at point (a *[Dim]float64) in rep.
func (g *generator) representCandidate(w, point, rep jen.Code) []jen.Code {
	if !g.inputModel() {
		return nil
	}
	return []jen.Code{field("represent").Call(w, point, rep)}
}

// candidateKernel is the kernel between the candidate and evaluated point i.
func (g *generator) candidateKernel(w, point, rep, i jen.Code) jen.Code {
	if !g.inputModel() {
		return kernelAt(point, jen.Op("&").Add(field("units")).Index(i))
	}
	return jen.Id("repKernel").Call(w, rep, jen.Op("&").Add(field("reps")).Index(i), jen.False())
}

// candidateSelf is the kernel between the candidate and itself.
func (g *generator) candidateSelf(w, point, rep jen.Code) jen.Code {
	if !g.inputModel() {
		return kernelAt(point, point)
	}
	return jen.Id("repKernel").Call(w, rep, rep, jen.True())
}

// storedKernel is the kernel between evaluated points i and j; same is a
// bool expression saying whether they are the same observation.
func (g *generator) storedKernel(w, i, j, same jen.Code) jen.Code {
	if !g.inputModel() {
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
	return m.Rep == registry.EmbeddingRep || (m.Rep == registry.SampleRep && m.Stat != nil)
}

// embeds reports whether the model uses shared landmarks.
func (g *generator) embeds() bool {
	return g.inputModel() && g.inputs.model.Rep == registry.EmbeddingRep
}

// samples reports whether the model represents distributions by draws.
func (g *generator) samples() bool { return g.inputModel() && g.inputs.model.Rep != registry.MomentRep }

// inputFields are the optimiser's fields for a model over input distributions.
func (g *generator) inputFields() []jen.Code {
	if !g.inputModel() {
		return nil
	}
	fields := []jen.Code{jen.Line()}
	switch {
	case g.samples() && g.constantNoise():
		fields = append(fields, jen.Id("noiseShift").Index(jen.Id("Samples")).Add(unitArray()).Comment("the draws of the noise, unit coordinates, fixed"))
	case g.samples():
		fields = append(fields, jen.Id("noiseBase").Index(jen.Id("Samples").Op("*").Id("noiseBaseLen")).Float64().Comment("the base uniforms of the draws, fixed"))
	}
	if g.localises() && g.samples() {
		fields = append(fields, jen.Id("localNormals").Index(jen.Id("Samples").Op("*").Id("Dim")).Float64().Comment("standard normals that localisation estimates are drawn with, fixed"))
	}
	fields = append(fields,
		jen.Id("reps").Index(jen.Id("Budget")).Id("rep").Comment("the evaluated points' input distributions"),
		jen.Id("rep").Id("rep").Comment("a candidate's, outside the search"),
		jen.Id("rw").Id("repWork").Comment("the memory of Observe, predict and the incumbent"),
	)
	if g.embeds() {
		fields = append(fields, jen.Id("embedding").Op("*").Qual(runtimeUncertain, "Embedding").Comment("the shared landmarks, factored for hyper"))
	}
	if g.learning() {
		fields = append(fields,
			jen.Id("fitHyper").Id("hyperparameters").Comment("the hyperparameters a refit tries"),
			jen.Id("fitWork").Id("repWork").Comment("the refits' memory, with fitHyper"),
		)
		if g.hyperDependentReps() {
			fields = append(fields, jen.Id("fitReps").Index(jen.Id("Budget")).Id("rep").Comment("the evaluated points' input distributions under fitHyper"))
		}
		if g.embeds() {
			fields = append(fields, jen.Id("fitEmbedding").Op("*").Qual(runtimeUncertain, "Embedding").Comment("the landmarks, factored for fitHyper"))
		}
	}
	return fields
}

// inputInit are New's statements for a model over input distributions; they
// follow the hyperparameters' and the workers' initialisation.
func (g *generator) inputInit() []jen.Code {
	if !g.inputModel() {
		return nil
	}
	var stmts []jen.Code
	fail := func(what string, call jen.Code) jen.Code {
		return jen.If(jen.Id("err").Op(":=").Add(call), jen.Id("err").Op("!=").Nil().Op("&&").Add(field("err")).Op("==").Nil()).Block(
			field("err").Op("=").Add(g.errorf(what+": %w", jen.Id("err"))),
		)
	}
	if g.samples() {
		seed := jen.Id("seed").Op("^").Lit(uint64(drawSalt))
		if !g.constantNoise() {
			stmts = append(stmts, fail("input noise draws", jen.Qual(runtimeNoise, "Base").Call(jen.Id("Samples"), jen.Id("noiseBaseLen"), seed, whole(field("noiseBase")))))
		} else {
			stmts = append(stmts,
				jen.Id("base").Op(":=").Make(jen.Index().Float64(), jen.Id("Samples").Op("*").Id("noiseBaseLen")),
				fail("input noise draws", jen.Qual(runtimeNoise, "Base").Call(jen.Id("Samples"), jen.Id("noiseBaseLen"), seed, jen.Id("base"))),
				jen.For(jen.Id("j").Op(":=").Range().Id("Samples")).Block(
					jen.Var().Id("eps").Id("Point"),
					jen.Id("perturbation").Call(jen.Op("&").Id("Lower"), jen.Id("base").Index(jen.Id("j").Op("*").Id("noiseBaseLen").Op(":").Parens(jen.Id("j").Op("+").Lit(1)).Op("*").Id("noiseBaseLen")), jen.Op("&").Id("eps")),
					jen.For(jen.List(jen.Id("i"), jen.Id("e")).Op(":=").Range().Id("eps")).Block(
						field("noiseShift").Index(jen.Id("j")).Index(jen.Id("i")).Op("=").Id("e").Op("/").Parens(jen.Id("Upper").Index(jen.Id("i")).Op("-").Id("Lower").Index(jen.Id("i"))),
					),
				),
			)
		}
	}
	if g.localises() && g.samples() {
		stmts = append(stmts,
			fail("localisation draws", jen.Qual(runtimeNoise, "Base").Call(jen.Id("Samples"), jen.Id("Dim"), jen.Id("seed").Op("^").Lit(uint64(localSalt)), whole(field("localNormals")))),
			jen.For(jen.List(jen.Id("i"), jen.Id("u")).Op(":=").Range().Add(field("localNormals"))).Block(
				field("localNormals").Index(jen.Id("i")).Op("=").Qual(runtimeNoise, "Normal").Call(jen.Id("u")),
			),
		)
	}
	own := []jen.Code{jen.Op("&").Add(field("hyper"))}
	fit := []jen.Code{jen.Op("&").Add(field("fitHyper"))}
	if g.embeds() {
		newEmbedding := jen.Qual(runtimeUncertain, "NewEmbedding").Call(jen.Id("Landmarks"), jen.Id("Dim"))
		stmts = append(stmts, field("embedding").Op("=").Add(newEmbedding))
		own = append(own, field("embedding"))
		if g.learning() {
			stmts = append(stmts, field("fitEmbedding").Op("=").Add(newEmbedding))
			fit = append(fit, field("fitEmbedding"))
		}
	}
	stmts = append(stmts, field("rw").Dot("init").Call(own...))
	if g.learning() {
		stmts = append(stmts, field("fitWork").Dot("init").Call(fit...))
	}
	if g.gradientSearch() {
		stmts = append(stmts, jen.For(jen.Id("i").Op(":=").Range().Add(field("workers"))).Block(
			field("workers").Index(jen.Id("i")).Dot("rw").Dot("init").Call(own...),
		))
	}
	if g.embeds() {
		stmts = append(stmts,
			fail("placing the landmarks", method("placeLandmarks")),
			fail("landmarks", field("embedding").Dot("Prepare").Call(field("rw").Dot("base"))),
		)
	}
	return stmts
}

// placeLandmarksDecl emits placeLandmarks, for embeddings.
func (g *generator) placeLandmarksDecl(f *jen.File) {
	if !g.embeds() {
		return
	}
	set := []jen.Code{field("embedding").Dot("SetLandmarks").Call(whole(jen.Id("lo")), whole(jen.Id("hi")))}
	if g.learning() {
		set = append(set, field("fitEmbedding").Dot("SetLandmarks").Call(whole(jen.Id("lo")), whole(jen.Id("hi"))))
	}
	body := []jen.Code{
		jen.Id("targets").Op(":=").Make(jen.Index().Float64(), jen.Lit(landmarkTargets).Op("*").Id("Dim")),
		jen.If(jen.Id("err").Op(":=").Qual("github.com/bocdev/boc/runtime/design", "SobolDesign").Call(jen.Lit(landmarkTargets), jen.Id("Dim"), jen.Lit(0), jen.Id("targets")),
			jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Id("err"))),
		jen.Var().List(jen.Id("lo"), jen.Id("hi")).Add(unitArray()),
		jen.For(jen.Id("i").Op(":=").Range().Id("hi")).Block(jen.Id("hi").Index(jen.Id("i")).Op("=").Lit(1)),
		jen.Id("r").Op(":=").New(jen.Id("rep")),
		jen.For(jen.Id("t").Op(":=").Range().Lit(landmarkTargets)).Block(
			jen.Id("u").Op(":=").Add(unitArray()).Call(jen.Id("targets").Index(jen.Id("t").Op("*").Id("Dim").Op(":"))),
			field("sample").Call(jen.Op("&").Add(field("rw")), jen.Op("&").Id("u"), jen.Id("r")),
			jen.For(jen.List(jen.Id("j"), jen.Id("v")).Op(":=").Range().Id("r").Dot("samples")).Block(
				jen.Id("i").Op(":=").Id("j").Op("%").Id("Dim"),
				jen.List(jen.Id("lo").Index(jen.Id("i")), jen.Id("hi").Index(jen.Id("i"))).Op("=").List(
					jen.Min(jen.Id("lo").Index(jen.Id("i")), jen.Id("v")), jen.Max(jen.Id("hi").Index(jen.Id("i")), jen.Id("v"))),
			),
		),
	}
	body = append(body, set...)
	body = append(body, jen.Return(jen.Nil()))
	f.Comment("placeLandmarks spreads the shared landmarks over the region the draws of the")
	f.Comment(fmt.Sprintf("input distributions occupy: the unit cube widened to hold the draws at %d", landmarkTargets))
	f.Comment("targets spread over it.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("placeLandmarks").Params().Error().Block(body...)
}

// refinish are rebuild's statements that bring the representations up to
// date with new hyperparameters, using w.
func (g *generator) refinish(w jen.Code) []jen.Code {
	if !g.inputModel() || !g.hyperDependentReps() {
		return nil
	}
	var stmts []jen.Code
	if g.embeds() {
		stmts = append(stmts, jen.If(jen.Id("err").Op(":=").Add(field("embedding").Dot("Prepare").Call(field("rw").Dot("base"))), jen.Id("err").Op("!=").Nil()).Block(
			jen.Return(jen.Id("err")),
		))
	}
	return append(stmts, jen.For(jen.Id("i").Op(":=").Range().Add(field("model").Dot("Len").Call())).Block(
		field("finish").Call(w, jen.Op("&").Add(field("reps")).Index(jen.Id("i"))),
	))
}

// fillByDifferencesDecls emits fillKernel for a model over input
// distributions: the kernel matrix and its derivatives in the logarithms of
// the hyperparameters by forward differences.
func (g *generator) fillByDifferencesDecls(f *jen.File) {
	reps := field("reps")
	var body []jen.Code
	if g.embeds() {
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
	if g.inputModel() {
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
	args := []jen.Code{jen.Id("mean"), jen.Id("sd"), field("best")}
	if g.acquisition.Joint {
		args = append(args, field("bestSD"), jen.Id("cov"))
	}
	if g.acquisition.Setting != nil {
		args = append(args, field("setting"))
	}
	body := g.unitPoint()
	if g.unscented() {
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
	if g.acquisition.Joint {
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

// drawsInputNoise reports whether the emitted code draws the input noise: for
// a model over it, or to simulate it on an expression objective.
func (g *generator) drawsInputNoise() bool {
	return g.inputModel() || g.simulatesInputNoise() || g.unscented() || g.inflates()
}

// inflates reports whether the model inflates its observation noise by the
// input noise (registry.Inflation).
func (g *generator) inflates() bool { return g.model.Inflation != nil }

// unscented reports whether the acquisition is averaged over the sigma points
// of the input noise (registry.Unscented).
func (g *generator) unscented() bool { return g.acquisition.Unscented != nil }

// differenceSearch reports whether the gradient search takes the
// acquisition's derivatives by central differences (inputSearchDecls), not
// through the kernel's analytic gradient.
func (g *generator) differenceSearch() bool { return g.inputModel() || g.unscented() }

// planUnscented checks what an unscented acquisition's Check hook vetted.
func (g *generator) planUnscented() {
	if g.unscented() && (len(g.p.InputNoise) == 0 || g.inputModel() || !g.gradientSearch() || g.acquisition.Joint) {
		g.internal(g.p.Acquisition.Span, "acquisition %s reached code generation without input noise, with a model over it, without a gradient search, or joint", g.p.Acquisition.Plugin)
	}
}

// simulatesInputNoise reports whether Run simulates the input noise: an
// expression objective is evaluated where the query lands. Any other
// objective meets the noise in the world.
func (g *generator) simulatesInputNoise() bool {
	return len(g.p.InputNoise) > 0 && g.p.Objective.Binding.Kind == ir.ExprBinding
}

// landing are Run's statements that declare landed, where the evaluation
// of x lands: x plus a fresh draw of the input noise.
func (g *generator) landing() []jen.Code {
	return []jen.Code{
		jen.Var().Id("base").Index(jen.Id("noiseBaseLen")).Float64(),
		jen.Qual(runtimeNoise, "Fresh").Call(jen.Id("execution"), whole(jen.Id("base"))),
		jen.Var().Id("eps").Id("Point"),
		jen.Id("perturbation").Call(jen.Op("&").Id("x"), whole(jen.Id("base")), jen.Op("&").Id("eps")),
		jen.Id("landed").Op(":=").Id("x"),
		jen.For(jen.List(jen.Id("i"), jen.Id("e")).Op(":=").Range().Id("eps")).Block(jen.Id("landed").Index(jen.Id("i")).Op("+=").Id("noiseScale").Op("*").Id("e")),
	}
}

const (
	// robustSamples is the number of draws of the input noise a robust value
	// averages: its Monte Carlo error is about 1% of the objective's spread
	// under the noise, and less with the quasi-random draws.
	robustSamples = 10000
	// robustSeed fixes the draws of robust values, the same for every point
	// and run, so that robust values compare points on common draws.
	robustSeed = 0x726f627573742d76 // "robust-v"
)

// robustDecls emits Robust, the robust value of a point of an expression
// objective under its input noise.
func (g *generator) robustDecls(f *jen.File) {
	if !g.simulatesInputNoise() {
		return
	}
	f.Comment("robustSamples is the number of draws of the input noise that Robust averages.")
	f.Const().Id("robustSamples").Op("=").Lit(robustSamples)
	f.Comment("robustBase holds the base uniforms of Robust's draws, made once: the same for")
	f.Comment("every point, so that robust values compare points on common draws.")
	f.Var().Defs(
		jen.Id("robustOnce").Qual("sync", "Once"),
		jen.Id("robustBase").Index().Float64(),
		jen.Id("robustErr").Error(),
	)
	f.Comment("Robust returns the robust value of x: the mean of the objective, without")
	f.Comment("observation noise, where x lands under the input noise, E[f(x + s·ε)], over")
	f.Comment("robustSamples quasi-random draws, with s = noiseScale (1: the noise as")
	f.Comment("declared). It is NaN if the draws cannot be made.")
	f.Func().Id("Robust").Params(jen.Id("x").Id("Point"), jen.Id("noiseScale").Float64()).Float64().Block(
		jen.Id("robustOnce").Dot("Do").Call(jen.Func().Params().Block(
			jen.Id("robustBase").Op("=").Make(jen.Index().Float64(), jen.Id("robustSamples").Op("*").Id("noiseBaseLen")),
			jen.Id("robustErr").Op("=").Qual(runtimeNoise, "Base").Call(jen.Id("robustSamples"), jen.Id("noiseBaseLen"), jen.Lit(uint64(robustSeed)), jen.Id("robustBase")),
		)),
		jen.If(jen.Id("robustErr").Op("!=").Nil()).Block(jen.Return(jen.Qual("math", "NaN").Call())),
		jen.Id("sum").Op(":=").Lit(0.0),
		jen.For(jen.Id("j").Op(":=").Range().Id("robustSamples")).Block(
			jen.Var().Id("eps").Id("Point"),
			jen.Id("perturbation").Call(jen.Op("&").Id("x"), jen.Id("robustBase").Index(jen.Id("j").Op("*").Id("noiseBaseLen").Op(":").Parens(jen.Id("j").Op("+").Lit(1)).Op("*").Id("noiseBaseLen")), jen.Op("&").Id("eps")),
			jen.Id("landed").Op(":=").Id("x"),
			jen.For(jen.List(jen.Id("i"), jen.Id("e")).Op(":=").Range().Id("eps")).Block(jen.Id("landed").Index(jen.Id("i")).Op("+=").Id("noiseScale").Op("*").Id("e")),
			jen.Id("sum").Op("+=").Id("noiseFree").Call(jen.Id("landed")),
		),
		jen.Return(jen.Id("sum").Op("/").Id("robustSamples")),
	)
}

// constantNoise reports whether no input-noise parameter depends on the
// domain, so that the optimiser's draws of the noise are the same at every
// point and are made once.
func (g *generator) constantNoise() bool {
	for _, n := range g.p.InputNoise {
		if !constantCall(n.Dist) {
			return false
		}
	}
	return true
}

// constantCall reports whether every argument of c, nested calls included,
// is a constant.
func constantCall(c *ir.Call) bool {
	for _, a := range c.Args {
		if !constantValue(a.Value) {
			return false
		}
	}
	return true
}

func constantValue(v ir.Value) bool {
	switch v := v.(type) {
	case *ir.ConstExpr:
		return true
	case *ir.Call:
		return constantCall(v)
	case *ir.List:
		for _, e := range v.Values {
			if !constantValue(e) {
				return false
			}
		}
		return true
	}
	return false
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
		jen.If(jen.Op("!").Qual(runtimeAcq, "SigmaPoints").Call(whole(jen.Id("centre")), whole(w("cov")), jen.Lit(g.acquisition.Unscented.Kappa),
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

// inflationFields are the optimiser's fields for an inflating model.
func (g *generator) inflationFields() []jen.Code {
	if !g.inflates() {
		return nil
	}
	fields := []jen.Code{jen.Line(),
		jen.Id("inputTrace").Index(jen.Id("Budget")).Float64().Comment("tr Σ_x of the input noise at the evaluated points, unit coordinates"),
		jen.Id("inflatedScale").Float64().Comment("the model's scale when the noises were last inflated")}
	if !g.learnNoise() {
		fields = append(fields, jen.Id("baseNoise").Index(jen.Id("Budget")).Float64().Comment("their noise variances before the inflation, model units"))
	}
	return fields
}

// inflationDecls declares traceAt and inflationAt.
func (g *generator) inflationDecls(f *jen.File) {
	if !g.inflates() {
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
	inf := g.model.Inflation
	f.Comment("inflationAt is the noise variance, on the model's standardised scale, that the")
	f.Comment("input noise adds to evaluated point i: σ_E² = B²·ℓ_k²·tr Σ_x (Oliveira et al.,")
	f.Comment(fmt.Sprintf("Prop. 3), with B = %g and ℓ_k² the kernel's curvature at the current", inf.Bound))
	f.Comment("hyperparameters.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("inflationAt").Params(jen.Id("i").Int()).Float64().Block(
		jen.Return(jen.Lit(inf.Bound * inf.Bound).Op("*").Add(inf.Curvature(hyper, g.p.D)).Op("*").Add(field("inputTrace")).Index(jen.Id("i"))),
	)

	scale := jen.Id("scale").Op("*").Id("scale")
	noise := jen.Add(field("baseNoise")).Index(jen.Id("i")).Op("+").Add(field("inflationAt").Call(jen.Id("i"))).Op("*").Add(scale)
	if g.learnNoise() {
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
	if !g.inflates() {
		return nil, base
	}
	stmts = []jen.Code{field("inputTrace").Index(jen.Id("n")).Op("=").Id("traceAt").Call(jen.Op("&").Id("u"))}
	if !g.learnNoise() {
		stmts = append(stmts, field("baseNoise").Index(jen.Id("n")).Op("=").Add(base))
	}
	return stmts, field("noiseAt").Call(jen.Id("n"), field("model").Dot("Scale").Call())
}

// localises reports whether the optimiser takes localisation estimates with
// observations (ObserveLocalised): a model over input distributions, whose
// values come without a reported sd.
func (g *generator) localises() bool { return g.inputModel() && !g.reportedNoise }

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
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("Observe").Params(jen.Id("x").Id("Point"), jen.Id("y").Float64()).Error().Block(
		jen.Return(field("observe").Call(jen.Id("x"), jen.Id("y"), jen.Nil(), jen.Nil())),
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
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("ObserveLocalised").Params(jen.Id("x").Id("Point"), jen.Id("y").Float64(), jen.Id("landed").Id("Point"), jen.Id("cov").Add(covType)).Error().Block(
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
		jen.Return(field("observe").Call(jen.Id("x"), jen.Id("y"), jen.Op("&").Id("landed"), jen.Op("&").Id("cov"))),
	)

	f.Comment("observe records y at x, measured at the input noise's distribution at x when landed")
	f.Comment("is nil and at the localisation estimate N(landed, cov) otherwise.")
	if g.learning() {
		f.Comment("When the refit schedule says so (refitIfDue), it relearns the hyperparameters.")
	}
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("observe").Params(jen.Id("x").Id("Point"), jen.Id("y").Float64(), jen.Id("landed").Op("*").Id("Point"), jen.Id("cov").Op("*").Add(covType.Clone())).Error().Block(body...)

	g.localiseDecl(f)
}

// localiseDecl emits localise, which represents a localisation estimate.
func (g *generator) localiseDecl(f *jen.File) {
	// A model over moments only needs the check that cov has a square root;
	// one over samples draws the estimate.
	normals, samples := jen.Code(jen.Nil()), jen.Code(jen.Nil())
	if g.inputs.model.Rep != registry.MomentRep {
		normals, samples = whole(field("localNormals")), whole(jen.Id("r").Dot("samples"))
	}
	body := []jen.Code{
		jen.Var().Id("offset").Id("Point"),
		jen.For(jen.Id("i").Op(":=").Range().Id("offset")).Block(
			jen.Id("offset").Index(jen.Id("i")).Op("=").Id("landed").Index(jen.Id("i")).Op("-").Id("x").Index(jen.Id("i")),
		),
		jen.Var().Id("mean").Add(unitArray()),
		jen.Id("c").Op(":=").Op("*").Id("cov"),
		jen.Id("toUnitMoments").Call(jen.Id("u"), jen.Op("&").Id("offset"), jen.Op("&").Id("c"), jen.Op("&").Id("mean")),
		jen.Var().Id("l").Index(jen.Id("Dim").Op("*").Id("Dim")).Float64(),
		jen.If(jen.Op("!").Qual(runtimeNoise, "Gaussian").Call(whole(jen.Id("mean")), whole(jen.Id("c")), normals, samples, whole(jen.Id("l")))).Block(
			jen.Return(jen.False()),
		),
	}
	switch {
	case g.inputs.model.Rep == registry.MomentRep:
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

// width is the width Upper[i] − Lower[i] of component i of the domain, a
// parenthesised expression, which converts lengths between user units and
// unit coordinates.
func width(i jen.Code) jen.Code {
	return jen.Parens(jen.Id("Upper").Index(i).Op("-").Id("Lower").Index(jen.Add(i)))
}
