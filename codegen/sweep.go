package codegen

import (
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

// Coordinate sweeps scored by component (plan.Optimizer.SweptByComponent):
// runtime/kernel.Components keeps the additive kernel's terms from the
// sweep's point to every evaluated point, the search tells it the point
// (search.Sweep's Base) and asks for the acquisition at the values of one
// component (Values), which take the kernel rows from it and the posterior
// from gp.PredictBatch, as a batch of candidates does.

// sweptByComponent reports whether the sweeps are scored by component.
func (g *generator) sweptByComponent() bool { return g.o.SweptByComponent() }

// sweepFields are the Optimizer's fields for sweeps by component.
func (g *generator) sweepFields() []jen.Code {
	if !g.sweptByComponent() {
		return nil
	}
	return []jen.Code{
		jen.Id("components").Op("*").Qual(runtimeKernel, "Components").Comment("the kernel's terms from a coordinate sweep's point"),
		jen.Id("acquisitionSweep").Qual(runtimeSearch, "Sweep").Comment("the sweeps' scores by component"),
		jen.Id("unitAtFn").Func().Params(jen.Int()).Index().Float64().Comment("unitAt, for the kernel's terms"),
	}
}

// sweepInit are New's statements for sweeps by component.
func (g *generator) sweepInit() []jen.Code {
	if !g.sweptByComponent() {
		return nil
	}
	family := ""
	if p, ok := registry.ByID(g.kernel.Plugin); ok {
		family = p.Family
	}
	return []jen.Code{
		field("components").Op("=").Qual(runtimeKernel, "NewComponents").Call(jen.Lit(family), jen.Id("Dim"), jen.Id("Budget")),
		field("acquisitionSweep").Op("=").Qual(runtimeSearch, "Sweep").Values(jen.Dict{
			jen.Id("Base"):   field("sweepBase"),
			jen.Id("Values"): field("acquisitionSweepAt"),
		}),
		field("unitAtFn").Op("=").Add(field("unitAt")),
	}
}

// sweepDecls declares the sweeps' methods: unitAt, sweepBase and
// acquisitionSweepAt, and the kernel's lengthscales when they are fixed.
func (g *generator) sweepDecls(f *jen.File) {
	if !g.sweptByComponent() {
		return
	}
	args := &registry.Args{Call: g.kernel}
	hyper := func(name string) jen.Code { // the optimiser's value of a scalar hyperparameter
		v := g.hyperValue(args, name, 0)
		if v.Fixed {
			return jen.Lit(v.Value)
		}
		return field("hyper").Index(jen.Lit(v.Index))
	}
	var lengthscales jen.Code
	if s := g.o.Hyper.Slot(g.kernel, "lengthscale"); s != nil {
		lengthscales = field("hyper").Index(jen.Lit(s.Index).Op(":").Lit(s.Index + s.Size))
	} else {
		values := make([]jen.Code, g.p.D)
		for i := range values {
			values[i] = jen.Lit(g.hyperValue(args, "lengthscale", i).Value)
		}
		f.Comment("sweepLengthscales are the kernel's fixed lengthscales, for its terms.")
		f.Var().Id("sweepLengthscales").Op("=").Index(jen.Id("Dim")).Float64().Values(values...)
		lengthscales = jen.Id("sweepLengthscales").Index(jen.Op(":"))
	}
	g.checkArgs(args)

	f.Comment("unitAt is evaluated point i in unit coordinates.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("unitAt").Params(jen.Id("i").Int()).Index().Float64().Block(
		jen.Return(field("units").Index(jen.Id("i")).Index(jen.Op(":"))),
	)

	f.Comment("sweepBase sets the point a coordinate sweep varies (search.Sweep's Base): the")
	f.Comment("kernel's terms from it to every evaluated point at the sweeps' start (changed <")
	f.Comment("0), those along component changed after it moved.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("sweepBase").Params(jen.Id("base").Index().Float64(), jen.Id("changed").Int()).Block(
		jen.If(jen.Id("changed").Op(">=").Lit(0)).Block(
			field("components").Dot("Move").Call(jen.Id("changed"), jen.Id("base").Index(jen.Id("changed"))),
			jen.Return(),
		),
		field("components").Dot("Start").Call(hyper("variance"), hyper("interaction"), lengthscales,
			jen.Id("base"), field("model").Dot("Len").Call(), field("unitAtFn")),
	)

	w := func(name string) *jen.Statement { return jen.Id("w").Dot(name) }
	f.Comment("acquisitionSweepAt writes to out the acquisition's score at the sweep's point")
	f.Comment("with component along set to each of values (search.Sweep's Values), computed")
	f.Comment("at once (gp.PredictBatch) from the kernel's terms.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("acquisitionSweepAt").Params(jen.List(jen.Id("worker"), jen.Id("along")).Int(), jen.List(jen.Id("values"), jen.Id("out")).Index().Float64()).Block(
		jen.Id("w").Op(":=").Op("&").Add(field("workers")).Index(jen.Id("worker")),
		jen.List(jen.Id("n"), jen.Id("m")).Op(":=").List(field("model").Dot("Len").Call(), jen.Len(jen.Id("values"))),
		field("components").Dot("Rows").Call(jen.Id("along"), jen.Id("values"), w("kstar").Index(jen.Op(":").Id("m").Op("*").Id("n")), w("kself").Index(jen.Op(":").Id("m"))),
		field("model").Dot("PredictBatch").Call(w("kstar").Index(jen.Op(":").Id("m").Op("*").Id("n")), jen.Id("m"),
			w("kself").Index(jen.Op(":").Id("m")), w("means").Index(jen.Op(":").Id("m")), w("variances").Index(jen.Op(":").Id("m"))),
		g.acquisitionScores(jen.Id("out")),
	)
}
