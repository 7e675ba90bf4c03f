package codegen

import (
	"fmt"
	"strings"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/plan"
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

// The model's kernel is emitted as straight-line Go through the kernel
// plugins' hooks (stdlib/registry/emit.go): its value, its gradient in the
// first input and, when some hyperparameters are learned, its gradient in
// their logarithms. Learned hyperparameters live in the optimiser, in a
// hyperparameters array the kernel functions take; fixed ones are literals.
//
// Hyperparameters are relearned by maximising the marginal likelihood times
// the weak prior the learn bounds imply (runtime/fit), on a schedule: once the
// initial design has been observed, then whenever the number of observations
// has grown by fit.Growth (fit.Due). A refit costs O(n³); between refits
// Observe stays O(n²).

const (
	// gradStep is the step of the central differences that give the input
	// gradient of a kernel without analytic derivatives (unit coordinates).
	gradStep = 1e-6
)

// planKernel resolves the hooks of kernel c and the kernels nested in it;
// the plan has checked that each has one of the kernel hook types.
func (g *generator) planKernel(c *ir.Call) {
	if c == nil {
		g.internal(dsl.Span{}, "the IR lacks a kernel call")
		return
	}
	p, ok := registry.ByID(c.Plugin)
	if !ok {
		g.internal(c.Span, "no plugin %s is registered", c.Plugin)
		return
	}
	switch h := p.Emit.(type) {
	case registry.KernelDiffEmit, registry.KernelEmit:
		if isNilFunc(h) {
			g.internal(c.Span, "kernel %s has a nil Emit hook", c.Plugin)
			return
		}
	default:
		g.internal(c.Span, "plugin %s has an Emit hook of type %T, want %T or %T", c.Plugin, p.Emit,
			registry.KernelDiffEmit(nil), registry.KernelEmit(nil))
		return
	}
	for _, a := range c.Args {
		g.planKernelArg(a.Value)
	}
}

func (g *generator) planKernelArg(v ir.Value) {
	switch v := v.(type) {
	case *ir.Call:
		g.planKernel(v)
	case *ir.List:
		for _, e := range v.Values {
			g.planKernelArg(e)
		}
	}
}

// kernelCode emits kernel c with derivatives grad, its locals named by names.
func (g *generator) kernelCode(c *ir.Call, grad registry.GradKind, d int, names *namer) registry.KernelCode {
	empty := registry.KernelCode{Value: jen.Lit(0.0)}
	if c == nil {
		return empty
	}
	p, ok := registry.ByID(c.Plugin)
	if !ok {
		return empty
	}
	kg := &registry.KernelGen{Args: registry.Args{Call: c}, D: d, A: "a", B: "b", Fresh: names.fresh,
		Grad: grad, NumHyper: g.o.Hyper.Size, Levels: g.levelCounts(d)}
	kg.Hyper = func(name string, i int) registry.Hyper { return g.hyperValue(&kg.Args, name, i) }
	kg.Kernel = func(nested *ir.Call) registry.KernelCode {
		if nested == nil {
			g.internal(c.Span, "%s: a nested kernel is missing", c.Plugin)
			return registry.KernelCode{Value: jen.Lit(0.0), Grad: make([]jen.Code, kg.GradLen())}
		}
		return g.kernelCode(nested, grad, d, names)
	}
	var code registry.KernelCode
	switch h := p.Emit.(type) {
	case registry.KernelDiffEmit:
		code = h(kg)
	case registry.KernelEmit:
		code.Stmts, code.Value = h(kg)
	default:
		return empty
	}
	g.checkArgs(&kg.Args)
	if len(code.Grad) != kg.GradLen() {
		g.internal(c.Span, "kernel %s emitted %d derivatives, want %d", c.Plugin, len(code.Grad), kg.GradLen())
		code.Grad = make([]jen.Code, kg.GradLen())
	}
	return code
}

// levelCounts is KernelGen.Levels for a kernel over d components: the
// point's, when some are categorical; nil otherwise.
func (g *generator) levelCounts(d int) []int {
	if !g.hasCategorical() || d != len(g.components) {
		return nil
	}
	out := make([]int, d)
	for i, c := range g.components {
		out[i] = len(c.levels)
	}
	return out
}

// hyperValue is component i of the hyperparameter name of a's call.
func (g *generator) hyperValue(a *registry.Args, name string, i int) registry.Hyper {
	if s := g.o.Hyper.Slot(a.Call, name); s != nil {
		j := s.Index + min(i, s.Size-1)
		return registry.Hyper{Code: jen.Id("h").Index(jen.Lit(j)), Index: j}
	}
	v, _ := a.Const(name)
	x := v.Float()
	if len(v.Numbers) > 1 && i < len(v.Numbers) {
		x = v.Numbers[i]
	}
	return registry.Hyper{Code: jen.Lit(x), Fixed: true, Value: x, Index: -1}
}

// kernelFunc is the function name(h *hyper, a, b *[dim]float64) float64 of
// the planned kernel or, with derivatives, name(h, a, b, g) writing them to
// g (a *[dim]float64 for GradInput, a *hyper for GradHyper).
func (g *generator) kernelFunc(name string, grad registry.GradKind, d int, dim, hyper jen.Code) jen.Code {
	names := newNamer("h", "a", "b", "g")
	code := g.kernelCode(g.kernel, grad, d, names)
	params := []jen.Code{jen.Id("h").Op("*").Add(hyper), jen.List(jen.Id("a"), jen.Id("b")).Op("*").Index(dim).Float64()}
	switch grad {
	case registry.GradInput:
		params = append(params, jen.Id("g").Op("*").Index(dim).Float64())
	case registry.GradHyper:
		params = append(params, jen.Id("g").Op("*").Add(hyper))
	}
	body := code.Stmts
	for j, v := range code.Grad {
		if v == nil {
			v = jen.Lit(0.0)
		}
		body = append(body, jen.Id("g").Index(jen.Lit(j)).Op("=").Add(v))
	}
	return jen.Func().Id(name).Params(params...).Float64().Block(append(body, jen.Return(code.Value))...)
}

// kernelAt is the emitted call k(a, b) of the model's kernel with the
// optimiser's hyperparameters; a and b are *[Dim]float64 expressions.
func kernelAt(a, b jen.Code) *jen.Statement {
	return jen.Id("kernel").Call(jen.Op("&").Add(field("hyper")), a, b)
}

// kernelDecls declares the hyperparameters and the kernel functions.
func (g *generator) kernelDecls(f *jen.File) {
	kp := &g.o.Hyper
	dim, hyper := jen.Id("Dim"), jen.Id("hyperparameters")
	f.Comment("numHyper is the number of learned kernel hyperparameter values.")
	f.Const().Id("numHyper").Op("=").Lit(kp.Size)
	if kp.Size == 0 {
		f.Comment("hyperparameters would hold the learned kernel hyperparameters; this kernel")
		f.Comment("has none, so the kernel functions ignore it.")
	} else {
		f.Comment("hyperparameters holds the learned kernel hyperparameters, in natural units:")
		for _, s := range kp.Slots {
			for i := range s.Size {
				f.Comment(fmt.Sprintf("  h[%d]: %s", s.Index+i, g.hyperLabel(s, i)))
			}
		}
	}
	f.Type().Id("hyperparameters").Index(jen.Id("numHyper")).Float64()

	what := callString(g.kernel)
	f.Comment(fmt.Sprintf("kernel is the model's covariance, %s,", what))
	f.Comment("between two points in unit coordinates.")
	f.Add(g.kernelFunc("kernel", registry.NoGrad, g.p.D, dim, hyper))
	if g.o.InputModel() {
		return // its derivatives are taken by differences of the kernel over distributions
	}
	if kp.ValueOnly == nil {
		f.Comment("kernelGradA is kernel(h, a, b), and writes its gradient with respect to a to g.")
		f.Add(g.kernelFunc("kernelGradA", registry.GradInput, g.p.D, dim, hyper))
	} else {
		g.kernelGradAByDifferences(f)
	}
	if kp.Size > 0 {
		f.Comment("kernelGradHyper is kernel(h, a, b), and writes its derivatives with respect to")
		f.Comment("the logarithms of the learned hyperparameters to g.")
		f.Add(g.kernelFunc("kernelGradHyper", registry.GradHyper, g.p.D, dim, hyper))
	}
}

// hyperLabel names component i of a learned hyperparameter for comments.
func (g *generator) hyperLabel(s plan.Slot, i int) string {
	label := pluginName(s.Call.Plugin) + "'s " + s.Param
	switch {
	case s.Size == 1:
	case s.PerComponent:
		label += " for " + g.p.ComponentName(i)
	default:
		label += fmt.Sprintf(" %d of %d", i+1, s.Size)
	}
	return label
}

// kernelGradAByDifferences emits kernelGradA by central differences, for a
// kernel whose plugin has no analytic derivatives.
func (g *generator) kernelGradAByDifferences(f *jen.File) {
	f.Comment("kernelGradA is kernel(h, a, b), and writes its gradient with respect to a to g,")
	f.Comment("by central differences: a kernel of this model has no analytic derivatives.")
	f.Func().Id("kernelGradA").Params(jen.Id("h").Op("*").Id("hyperparameters"),
		jen.List(jen.Id("a"), jen.Id("b")).Op("*").Add(unitArray()), jen.Id("g").Op("*").Add(unitArray())).Float64().Block(
		jen.Id("x").Op(":=").Op("*").Id("a"),
		jen.For(jen.Id("i").Op(":=").Range().Id("x")).Block(
			jen.Id("x").Index(jen.Id("i")).Op("=").Id("a").Index(jen.Id("i")).Op("+").Lit(gradStep),
			jen.Id("up").Op(":=").Id("kernel").Call(jen.Id("h"), jen.Op("&").Id("x"), jen.Id("b")),
			jen.Id("x").Index(jen.Id("i")).Op("=").Id("a").Index(jen.Id("i")).Op("-").Lit(gradStep),
			jen.Id("down").Op(":=").Id("kernel").Call(jen.Id("h"), jen.Op("&").Id("x"), jen.Id("b")),
			jen.Id("x").Index(jen.Id("i")).Op("=").Id("a").Index(jen.Id("i")),
			jen.Id("g").Index(jen.Id("i")).Op("=").Parens(jen.Id("up").Op("-").Id("down")).Op("/").Lit(2*gradStep),
		),
		jen.Return(jen.Id("kernel").Call(jen.Id("h"), jen.Id("a"), jen.Id("b"))),
	)
}

// learnDecls declares the starting values and bounds of the refits.
func (g *generator) learnDecls(f *jen.File) {
	if !g.o.Learning() {
		return
	}
	var init, lo, hi []jen.Code
	var names []string
	for _, s := range g.o.Hyper.Slots {
		for i := range s.Size {
			init, lo, hi = append(init, jen.Lit(s.Init[i])), append(lo, jen.Lit(s.Lo)), append(hi, jen.Lit(s.Hi))
			names = append(names, g.hyperLabel(s, i))
		}
	}
	if g.o.Noise != nil {
		init, lo, hi = append(init, jen.Lit(g.o.Noise.Init)), append(lo, jen.Lit(g.o.Noise.Lo)), append(hi, jen.Lit(g.o.Noise.Hi))
		names = append(names, "the observation-noise variance (standardised units)")
	}
	f.Comment("numFit is the number of values a refit learns: the kernel's hyperparameters")
	if g.o.Noise != nil {
		f.Comment("and, last, the observation-noise variance in standardised units.")
	} else {
		f.Comment("(the observation noise is not learned).")
	}
	f.Const().Id("numFit").Op("=").Lit(g.o.NumFit())
	f.Comment("The refits start from fitStart and stay within [fitLower, fitUpper], for")
	f.Comment(strings.Join(names, "; ") + ".")
	f.Var().Defs(
		jen.Id("fitStart").Op("=").Index(jen.Id("numFit")).Float64().Values(init...),
		jen.Id("fitLower").Op("=").Index(jen.Id("numFit")).Float64().Values(lo...),
		jen.Id("fitUpper").Op("=").Index(jen.Id("numFit")).Float64().Values(hi...),
	)
}

// learnFields are the optimiser's fields for learned hyperparameters.
func (g *generator) learnFields() []jen.Code {
	fields := []jen.Code{
		jen.Line(),
		jen.Id("hyper").Id("hyperparameters").Comment("the kernel's learned hyperparameters"),
	}
	if !g.o.Learning() {
		return fields
	}
	fields = append(fields,
		jen.Id("fitter").Op("*").Qual(runtimeFit, "Fitter"),
		jen.Id("theta").Index(jen.Id("numFit")).Float64().Comment("the values refits learn, natural units"),
		jen.Id("fitZ").Index(g.modelCapacity()).Float64().Comment("standardised observations, for refits"),
		jen.Id("fitNoise").Index(g.modelCapacity()).Float64().Comment("their fixed noise variances, standardised"),
		jen.Id("fitted").Int().Comment("observations at the last refit"),
	)
	if g.o.Noise != nil {
		fields = append(fields, jen.Id("noiseVar").Float64().Comment("the learned noise variance, standardised units"))
	}
	return fields
}

// runtimeFit is the import path of the hyperparameter fitter.
const (
	runtimeFit = "github.com/bocdev/boc/runtime/fit"
	runtimeGP  = "github.com/bocdev/boc/runtime/gp"
)

// standardisation is the shift and scale the model standardises its values
// with: the whole run's for a local model (runtime/subset), its own
// otherwise.
func (g *generator) standardisation() jen.Code {
	if g.local() {
		return field("observations").Dot("Standardisation").Call(g.priorMean())
	}
	return field("model").Dot("Standardisation").Call()
}

// priorMean is the model's runtime/gp.PriorMean (ModelSpec.Mean): the
// worst value observed is the least, the model maximising.
func (g *generator) priorMean() jen.Code {
	if g.o.Model.Mean == registry.MeanWorst {
		return jen.Qual(runtimeGP, "Least")
	}
	return jen.Qual(runtimeGP, "Average")
}

// learnInit are New's statements setting the starting hyperparameters.
func (g *generator) learnInit() []jen.Code {
	if !g.o.Learning() {
		return nil
	}
	stmts := []jen.Code{
		field("theta").Op("=").Id("fitStart"),
		jen.Copy(whole(field("hyper")), whole(field("theta"))),
		field("fitter").Op("=").Qual(runtimeFit, "New").Call(g.modelCapacity(), jen.Id("numHyper"), jen.Lit((g.o.Noise != nil)), field("fillKernel")),
	}
	if g.o.Noise != nil {
		stmts = append(stmts, field("noiseVar").Op("=").Add(field("theta")).Index(jen.Id("numHyper")))
	}
	return stmts
}

// refitCall is Observe's statement that refits when the schedule says so.
func (g *generator) refitCall() []jen.Code {
	if !g.o.Learning() {
		return nil
	}
	return []jen.Code{jen.If(jen.Id("err").Op(":=").Add(method("refitIfDue")), jen.Id("err").Op("!=").Nil()).Block(
		jen.Return(g.errorf("refitting the hyperparameters after observing %v: %w", jen.Id("x"), jen.Id("err"))),
	)}
}

// learnedNoise is the noise variance, in the model's units, of a new
// observation when the noise is learned.
func learnedNoise() jen.Code {
	s := field("model").Dot("Scale").Call()
	return field("noiseVar").Op("*").Add(s).Op("*").Add(s)
}

// refitDecls declares the refit schedule, the refit and the kernel filler.
func (g *generator) refitDecls(f *jen.File) {
	if !g.o.Learning() {
		return
	}
	y := func(i jen.Code) jen.Code { return field("model").Dot("Y").Call(i) }
	fixedNoise := jen.Code(jen.Lit(0.0))
	if g.o.Inflates() {
		fixedNoise = field("inflationAt").Call(jen.Id("i"))
	}
	if !(g.o.Noise != nil) {
		fixedNoise = field("model").Dot("Noise").Call(jen.Id("i")).Op("/").Parens(jen.Id("scale").Op("*").Id("scale"))
	}
	// apply makes theta the hyperparameters the kernel and the noise use.
	apply := []jen.Code{jen.Copy(whole(field("hyper")), field("theta").Index(jen.Empty().Op(":").Id("numHyper")))}
	if g.o.Noise != nil {
		apply = append(apply, field("noiseVar").Op("=").Add(field("theta")).Index(jen.Id("numHyper")))
	}
	f.Comment("refitIfDue relearns the hyperparameters by maximising the marginal likelihood,")
	f.Comment("times the weak prior their learn bounds imply (runtime/fit), once the initial")
	f.Comment("design has been observed and then whenever the number of observations has")
	f.Comment("grown by fit.Growth since the last refit. When the fit fails")
	f.Comment("the hyperparameters stay as they were; when the GP cannot be factorised with")
	f.Comment("the fitted ones, it is rebuilt with the previous ones.")
	body := []jen.Code{
		jen.Id("n").Op(":=").Add(field("model").Dot("Len").Call()),
		jen.If(jen.Op("!").Qual(runtimeFit, "Due").Call(g.refitCount(), field("designSize"), field("fitted"))).Block(
			jen.Return(jen.Nil()),
		),
	}
	body = append(body, g.rewarpCall()...)
	// The values are standardised as the model will be once rebuilt (the
	// subset of a local one as every observation is: reselect).
	body = append(body, jen.List(jen.Id("shift"), jen.Id("scale")).Op(":=").Add(g.standardisation()))
	body = append(body,
		jen.For(jen.Id("i").Op(":=").Range().Id("n")).Block(
			field("fitZ").Index(jen.Id("i")).Op("=").Parens(jen.Add(y(jen.Id("i"))).Op("-").Id("shift")).Op("/").Id("scale"),
			field("fitNoise").Index(jen.Id("i")).Op("=").Add(fixedNoise),
		),
		field("fitted").Op("=").Add(g.refitCount()),
		jen.Id("previous").Op(":=").Add(field("theta")),
	)
	body = append(body,
		jen.If(jen.List(jen.Id("_"), jen.Id("err")).Op(":=").Add(field("fitter").Dot("Fit").Call(
			field("fitZ").Index(jen.Empty().Op(":").Id("n")), field("fitNoise").Index(jen.Empty().Op(":").Id("n")),
			whole(field("theta")), whole(jen.Id("fitLower")), whole(jen.Id("fitUpper")))), jen.Id("err").Op("!=").Nil()).Block(
			jen.Return(jen.Nil()),
		),
	)
	rebuild := field("rebuild").Call(jen.Id("scale"))
	body = append(body, apply...)
	body = append(body,
		jen.If(jen.Add(rebuild).Op("==").Nil()).Block(jen.Return(jen.Nil())),
		field("theta").Op("=").Id("previous"),
	)
	body = append(body, apply...)
	body = append(body, jen.Return(rebuild))
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("refitIfDue").Params().Error().Block(body...)

	g.rebuildDecl(f)
	if g.o.InputModel() {
		g.fillByDifferencesDecls(f)
		return
	}
	f.Comment("fillKernel is the fitter's view of the kernel: the matrix K and its derivatives")
	f.Comment("∂K/∂log θ_j at the evaluated points for hyperparameters theta (runtime/fit.FillFunc).")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("fillKernel").Params(
		jen.Id("theta").Index().Float64(), jen.Id("n").Int(), jen.List(jen.Id("k"), jen.Id("dk")).Index().Float64()).Block(
		g.fillKernelBody()...)
}

// refitCount is the number of observations the refit schedule counts:
// all of them, also when a local model holds a subset.
func (g *generator) refitCount() *jen.Statement {
	if g.local() {
		return g.observationCount()
	}
	return jen.Id("n")
}

// rebuildDecl declares rebuild, which recomputes the model's kernel matrix
// with the current hyperparameters and refactors it.
func (g *generator) rebuildDecl(f *jen.File) {
	w, _ := ownWork()
	rowLoop := []jen.Code{
		jen.Id("row").Op(":=").Add(field("model").Dot("KernelRow").Call(jen.Id("i"))),
		jen.For(jen.Id("j").Op(":=").Range().Id("row")).Block(
			jen.Id("row").Index(jen.Id("j")).Op("=").Add(g.storedKernel(w, jen.Id("i"), jen.Id("j"), jen.Id("i").Op("==").Id("j"))),
		),
	}
	switch base := field("noiseVar").Op("*").Id("scale").Op("*").Id("scale"); {
	case g.o.Inflates():
		rowLoop = append(rowLoop, field("model").Dot("SetNoise").Call(jen.Id("i"), field("noiseAt").Call(jen.Id("i"), jen.Id("scale"))))
	case (g.o.Noise != nil):
		rowLoop = append(rowLoop, field("model").Dot("SetNoise").Call(jen.Id("i"), base))
	}
	f.Comment("rebuild recomputes the model's kernel matrix with the current hyperparameters")
	f.Comment("and refactors it, O(n³); scale is the deviation of the observations, which")
	f.Comment("the model standardises with.")
	refactor := []jen.Code{jen.Return(field("model").Dot("Refactor").Call())}
	if g.o.Inflates() {
		// Refactor standardises by scale, which the noises were inflated with.
		refactor = []jen.Code{
			jen.If(jen.Id("err").Op(":=").Add(field("model").Dot("Refactor").Call()), jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Id("err"))),
			field("inflatedScale").Op("=").Add(field("model").Dot("Scale").Call()),
			jen.Return(jen.Nil()),
		}
	}
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("rebuild").Params(jen.Id("scale").Float64()).Error().Block(
		append(append(g.refinish(w),
			jen.For(jen.Id("i").Op(":=").Range().Add(field("model").Dot("Len").Call())).Block(rowLoop...)),
			refactor...)...,
	)
}

func (g *generator) fillKernelBody() []jen.Code {
	units := func(i string) jen.Code { return jen.Op("&").Add(field("units")).Index(jen.Id(i)) }
	body := []jen.Code{
		jen.Var().Id("h").Id("hyperparameters"),
		jen.Copy(whole(jen.Id("h")), jen.Id("theta")),
	}
	inner := []jen.Code{}
	if g.o.Hyper.Size > 0 {
		body = append(body, jen.Var().Id("grad").Id("hyperparameters"))
		inner = append(inner,
			jen.Id("v").Op(":=").Id("kernelGradHyper").Call(jen.Op("&").Id("h"), units("i"), units("j"), jen.Op("&").Id("grad")),
			jen.List(jen.Id("k").Index(jen.Id("i").Op("*").Id("n").Op("+").Id("j")), jen.Id("k").Index(jen.Id("j").Op("*").Id("n").Op("+").Id("i"))).Op("=").List(jen.Id("v"), jen.Id("v")),
			jen.For(jen.List(jen.Id("m"), jen.Id("d")).Op(":=").Range().Id("grad")).Block(
				jen.List(
					jen.Id("dk").Index(jen.Parens(jen.Id("m").Op("*").Id("n").Op("+").Id("i")).Op("*").Id("n").Op("+").Id("j")),
					jen.Id("dk").Index(jen.Parens(jen.Id("m").Op("*").Id("n").Op("+").Id("j")).Op("*").Id("n").Op("+").Id("i")),
				).Op("=").List(jen.Id("d"), jen.Id("d")),
			),
		)
	} else {
		inner = append(inner,
			jen.Id("v").Op(":=").Id("kernel").Call(jen.Op("&").Id("h"), units("i"), units("j")),
			jen.List(jen.Id("k").Index(jen.Id("i").Op("*").Id("n").Op("+").Id("j")), jen.Id("k").Index(jen.Id("j").Op("*").Id("n").Op("+").Id("i"))).Op("=").List(jen.Id("v"), jen.Id("v")),
		)
	}
	body = append(body, jen.For(jen.Id("i").Op(":=").Range().Id("n")).Block(
		jen.For(jen.Id("j").Op(":=").Lit(0), jen.Id("j").Op("<=").Id("i"), jen.Id("j").Op("++")).Block(inner...),
	))
	return body
}
