package codegen

import (
	"github.com/bocdev/boc/dsl/ir"
	"github.com/dave/jennifer/jen"
)

// Robust values: the expectation of an expression objective under the input
// noise, which studies and the robust-optimum command compare points by.

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
	if !g.o.SimulatesInputNoise() {
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
	f.Comment("robustDraws returns the base uniforms of the robust values' draws, robustSamples")
	f.Comment("rows of noiseBaseLen, or nil if they cannot be made.")
	f.Func().Id("robustDraws").Params().Index().Float64().Block(
		jen.Id("robustOnce").Dot("Do").Call(jen.Func().Params().Block(
			jen.Id("robustBase").Op("=").Make(jen.Index().Float64(), jen.Id("robustSamples").Op("*").Id("noiseBaseLen")),
			jen.Id("robustErr").Op("=").Qual(runtimeNoise, "Base").Call(jen.Id("robustSamples"), jen.Id("noiseBaseLen"), jen.Lit(uint64(robustSeed)), jen.Id("robustBase")),
		)),
		jen.If(jen.Id("robustErr").Op("!=").Nil()).Block(jen.Return(jen.Nil())),
		jen.Return(jen.Id("robustBase")),
	)
	f.Comment("Robust returns the robust value of x: the mean of the objective, without")
	f.Comment("observation noise, where x lands under the input noise, E[f(x + s·ε)], over")
	f.Comment("robustSamples quasi-random draws, with s = noiseScale (1: the noise as")
	f.Comment("declared). It is NaN if the draws cannot be made.")
	f.Func().Id("Robust").Params(jen.Id("x").Id("Point"), jen.Id("noiseScale").Float64()).Float64().Block(
		jen.Id("base").Op(":=").Id("robustDraws").Call(),
		jen.If(jen.Id("base").Op("==").Nil()).Block(jen.Return(jen.Qual("math", "NaN").Call())),
		jen.Id("sum").Op(":=").Lit(0.0),
		jen.For(jen.Id("j").Op(":=").Range().Id("robustSamples")).Block(
			append(robustLanding(jen.Id("noiseScale")), jen.Id("sum").Op("+=").Id("noiseFree").Call(jen.Id("landed")))...,
		),
		jen.Return(jen.Id("sum").Op("/").Id("robustSamples")),
	)
}

// robustLanding are the statements of a loop over the robust draws (j,
// from base) that declare landed: x plus draw j of the input noise, times
// scale unless it is nil.
func robustLanding(scale jen.Code) []jen.Code {
	shift := jen.Id("e")
	if scale != nil {
		shift = jen.Add(scale).Op("*").Id("e")
	}
	return []jen.Code{
		jen.Var().Id("eps").Id("Point"),
		jen.Id("perturbation").Call(jen.Op("&").Id("x"), baseRow(jen.Id("base")), jen.Op("&").Id("eps")),
		jen.Id("landed").Op(":=").Id("x"),
		jen.For(jen.List(jen.Id("i"), jen.Id("e")).Op(":=").Range().Id("eps")).Block(jen.Id("landed").Index(jen.Id("i")).Op("+=").Add(shift)),
	}
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

// freshDraws reports whether the model draws every point's samples afresh
// (mmd's draws = "fresh") instead of from common random numbers.
func (g *generator) freshDraws() bool {
	return g.o.Model.Inputs != nil && g.o.Model.Inputs.Fresh
}

// fixedShifts reports whether every point's draws are the same shifts of
// the point: common random numbers of a noise that does not depend on x.
func (g *generator) fixedShifts() bool { return g.constantNoise() && !g.freshDraws() }

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
