package codegen

import (
	"fmt"

	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

// The input noise's draws: the layout of their base uniforms (from the
// plan), the perturbation and moments functions emitted from the
// distributions' hooks, and Run's simulated landing of a query.

// baseRow is row j of the base uniforms in base: the noiseBaseLen values one
// draw of the input noise uses.
func baseRow(base *jen.Statement) *jen.Statement {
	return base.Index(jen.Id("j").Op("*").Id("noiseBaseLen").Op(":").Parens(jen.Id("j").Op("+").Lit(1)).Op("*").Id("noiseBaseLen"))
}

// noiseHooks returns the input-noise hooks of declaration n.
func (g *generator) noiseHooks(n *ir.InputNoise) (registry.DistributionEmit, bool) {
	h, ok := hookOf[registry.DistributionEmit](g, n.Dist.Plugin, n.Dist.Span)
	if ok && (h.BaseLen == nil || h.Draw == nil || h.Moments == nil || h.Gaussian == nil) {
		g.internal(n.Dist.Span, "distribution %s lacks an input-noise hook", n.Dist.Plugin)
		return h, false
	}
	return h, ok
}

// drawGen is the DrawGen of distribution c, whose base uniforms start at
// offset in the slice b, with parameters read from the point x; e collects
// the statements its parameters need.
func (g *generator) drawGen(e *exprEmitter, c *ir.Call, offset int) *registry.DrawGen {
	dg := &registry.DrawGen{Args: registry.Args{Call: c}, Fresh: e.names.fresh}
	dg.Uniform = func(i int) jen.Code { return jen.Id("b").Index(jen.Lit(offset + i)) }
	dg.Sub = func(nested *ir.Call, at int) *registry.DrawGen { return g.drawGen(e, nested, offset+at) }
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

	f.Comment("InputNoiseDraws returns n draws of the input noise ε at x (a query aimed at x")
	f.Comment("lands at x + ε), in user units, 0 in the components without noise: the")
	f.Comment("quasi-random draws of Robust's, the same at every call. It allocates.")
	f.Func().Id("InputNoiseDraws").Params(jen.Id("x").Id("Point"), jen.Id("n").Int()).Params(jen.Index().Id("Point"), jen.Error()).Block(
		jen.Id("base").Op(":=").Make(jen.Index().Float64(), jen.Id("n").Op("*").Id("noiseBaseLen")),
		jen.If(jen.Id("err").Op(":=").Qual(runtimeNoise, "Base").Call(jen.Id("n"), jen.Id("noiseBaseLen"), jen.Lit(uint64(robustSeed)), jen.Id("base")),
			jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Id("err"))),
		jen.Id("eps").Op(":=").Make(jen.Index().Id("Point"), jen.Id("n")),
		jen.For(jen.Id("j").Op(":=").Range().Id("eps")).Block(
			jen.Id("perturbation").Call(jen.Op("&").Id("x"), baseRow(jen.Id("base")), jen.Op("&").Id("eps").Index(jen.Id("j"))),
		),
		jen.Return(jen.Id("eps"), jen.Nil()),
	)

	if !g.o.EmitsMoments() {
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
		toUnitMoments(jen.Id("u"), jen.Id("offset"), jen.Id("cov"), jen.Id("mean")),
	)
}

// toUnitMoments converts the moments of the noise around the unit point u,
// its mean's offset from the point and its covariance cov in user units, to
// unit coordinates: the mean to mean, cov in place (runtime/uncertain).
func toUnitMoments(u, offset, cov, mean *jen.Statement) jen.Code {
	return jen.Qual(runtimeUncertain, "ToUnitMoments").Call(whole(u), whole(offset), whole(jen.Id("Lower")), whole(jen.Id("Upper")), whole(cov), whole(mean))
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
