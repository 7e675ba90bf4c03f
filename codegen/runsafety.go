package codegen

import "github.com/dave/jennifer/jen"

// The parts of Run that one objective's and several objectives' share: the
// measured constraints' progress fields and tallies, and a safe
// exploration's certificates, contradictions and reasons to stop. Each is
// empty where the problem has no use for it.

// stopOnContradictionOption is RunOptions' field that ends a safe run at a
// contradiction.
func (g *generator) stopOnContradictionOption() []jen.Code {
	if g.o.Safety == nil {
		return nil
	}
	return []jen.Code{
		jen.Comment("StopOnContradiction ends the run after an evaluation whose measurement"),
		jen.Comment("contradicted the constraints' model (Optimizer.Contradictions): a sign that the"),
		jen.Comment("model is misspecified, on which a rig's operator may want to halt."),
		jen.Id("StopOnContradiction").Bool(),
	}
}

// measuredProgressFields are Progress's fields of the measured constraints
// and, for a safe exploration, of the evaluation's certificate.
func (g *generator) measuredProgressFields() []jen.Code {
	var fields []jen.Code
	if g.measures() {
		fields = append(fields,
			jen.Id("Constraints").Id("Constraints").Comment("the unknown constraints measured at X"),
			jen.Id("TrueConstraints").Id("Constraints").Comment("their values without noise where simulated, NaN otherwise"))
	}
	if g.o.Safety != nil {
		fields = append(fields,
			jen.Id("Certificate").Id("Certificate").Comment("why X was certified safe (none in a random search)"),
			jen.Id("Contradictions").Index().String().Comment("how this evaluation contradicted the constraints' model, if it did"),
		)
	}
	return fields
}

// noSafePointStop ends Run's loop when Suggest's err says no certified
// point is left to play.
func (g *generator) noSafePointStop() jen.Code {
	if g.o.Safety == nil {
		return jen.Null()
	}
	return jen.If(jen.Qual("errors", "Is").Call(jen.Id("err"), jen.Qual(runtimeSafe, "ErrNoSafePoint"))).Block(
		jen.Id("stopped").Op("=").Id("StoppedNoSafePoint"),
		jen.Break(),
	)
}

// contradictionNotes are Run's statements after Observe that take the
// evaluation's contradictions (notes) and count them.
func (g *generator) contradictionNotes() []jen.Code {
	if g.o.Safety == nil {
		return nil
	}
	return []jen.Code{
		jen.Id("notes").Op(":=").Id("o").Dot("Contradictions").Call(jen.Id("contradictions")),
		jen.Id("contradictions").Op("+=").Len(jen.Id("notes")),
	}
}

// contradictionStop ends Run's loop after a contradiction when the options
// say so.
func (g *generator) contradictionStop() jen.Code {
	if g.o.Safety == nil {
		return jen.Null()
	}
	return jen.If(jen.Id("opt").Dot("StopOnContradiction").Op("&&").Len(jen.Id("notes")).Op(">").Lit(0)).Block(
		jen.Id("stopped").Op("=").Id("StoppedContradiction"),
		jen.Break(),
	)
}

// resultTallies are result's parameters (why the run stopped and the true
// counters), Result's fields they and the safe exploration fill, and the
// loops that count the evaluations whose measured constraints broke a
// limit.
func (g *generator) resultTallies() (params []jen.Code, fields []kv, counts []jen.Code) {
	params = []jen.Code{jen.Id("stopped").String()}
	fields = []kv{{"Evaluations", method("Evaluations")}, {"Stopped", jen.Id("stopped")}}
	for _, t := range g.tallies() {
		params = append(params, jen.Id(t.trueCounter).Int())
		fields = append(fields, kv{t.trueField, jen.Id(t.trueCounter)})
		counts = append(counts, jen.For(jen.List(jen.Id("_"), jen.Id("values")).Op(":=").Range().Add(field("measured")).Index(jen.Empty().Op(":").Id("r").Dot("Evaluations"))).Block(
			g.countBreaks(t, jen.Id("values"), jen.Id("r").Dot(t.field), nil),
		))
	}
	if g.o.Safety != nil {
		fields = append(fields, kv{"SafeSize", field("certificate").Dot("SafeSize")},
			kv{"Contradictions", jen.Len(jen.Id("o").Dot("Contradictions").Call(jen.Lit(0)))})
	}
	return params, fields, counts
}
