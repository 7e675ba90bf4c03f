package codegen

import (
	"github.com/dave/jennifer/jen"
)

// simulateDecl emits Simulate: one evaluation of a simulated problem (an
// expression objective, or simulated constraints) made as Run makes it,
// but with its noise drawn from streams of the evaluation's own, keyed by
// the seed and the trial's number. A journalled run, whose trials are made
// in any order by any process, so measures each trial the same whenever
// it is made.
func (g *generator) simulateDecl(f *jen.File) {
	keyed := false
	pcg := func(stream string) jen.Code {
		keyed = true
		return jen.Qual("math/rand/v2", "New").Call(jen.Qual("math/rand/v2", "NewPCG").Call(jen.Id("key"), jen.Id(stream)))
	}
	var body []jen.Code
	at := jen.Id("x")
	if g.o.SimulatesInputNoise() {
		body = append(body,
			jen.Id("execution").Op(":=").Add(pcg("executionStream")),
			jen.Id("noiseScale").Op(":=").Lit(1.0),
		)
		body = append(body, g.landing()...)
		at = jen.Id("landed")
	}
	value := jen.Id("y")
	if g.noiseSample != nil {
		value = jen.Id("value")
	}
	results := []jen.Code{jen.Id("y"), jen.Err()}
	measure := jen.Id("Objective")
	if g.measures() {
		results, measure = []jen.Code{jen.Id("y"), jen.Id("measured"), jen.Err()}, jen.Id("Measure")
	}
	if g.noiseSample != nil {
		body = append(body, jen.Var().Id("value").Float64())
		results[0] = value
	}
	body = append(body,
		jen.List(results...).Op("=").Add(measure).Call(jen.Id("ctx"), at),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return()),
	)
	if g.noiseSample != nil {
		body = append(body, jen.Id("y").Op("=").Id("value").Op("+").Id("observationNoise").Call(pcg("noiseStream")))
	}
	if g.measures() && g.constraintNoise {
		body = append(body, jen.Id("constraintNoise").Call(jen.Op("&").Id("measured"), pcg("constraintNoiseStream"), jen.Lit(1.0)))
	}
	body = append(body, jen.Return())
	if keyed {
		// The key mixes the trial into the seed as streamSeed does a search.
		body = append([]jen.Code{jen.Id("key").Op(":=").Id("seed").Op("^").Parens(jen.Id("trial").Op("+").Lit(1)).Op("*").Op("0x9E3779B97F4A7C15")}, body...)
	}
	named := []jen.Code{jen.Id("y").Float64()}
	if g.measures() {
		named = append(named, jen.Id("measured").Id("Constraints"))
	}
	named = append(named, jen.Err().Error())
	f.Comment("Simulate evaluates x as Run does, for trial number trial of a journalled run")
	f.Comment("seeded with seed, with fresh draws of the simulated noise from streams of that")
	f.Comment("trial's own: a trial measures the same whenever, and by whichever process, it is made.")
	f.Func().Id("Simulate").Params(jen.Id("ctx").Qual("context", "Context"), jen.List(jen.Id("seed"), jen.Id("trial")).Uint64(), jen.Id("x").Id("Point")).Params(named...).Block(body...)
}
