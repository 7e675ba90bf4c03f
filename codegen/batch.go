package codegen

import "github.com/dave/jennifer/jen"

// Batched scoring of the search's raw candidates (search.MaximizeBatch):
// the kernel vectors of a batch of candidates, then their posterior at once
// with gp.PredictBatch, which reads the Cholesky factor once per block of
// candidates instead of once per candidate. The refinement still scores one
// point at a time, with gradients.

// batches reports whether the search scores its raw candidates in batches
// (plan.Optimizer.BatchedSearch).
func (g *generator) batches() bool { return g.o.BatchedSearch() }

// batchDecls declares posteriorBatch and the search's batch scorers.
func (g *generator) batchDecls(f *jen.File) {
	if !g.batches() {
		return
	}
	w := func(name string) *jen.Statement { return jen.Id("w").Dot(name) }
	p := jen.Op("&").Id("p")
	point := append([]jen.Code{jen.Id("u").Op(":=").Id("us").Index(jen.Id("j").Op("*").Id("Dim").Op(":").Parens(jen.Id("j").Op("+").Lit(1)).Op("*").Id("Dim"))}, g.unitPoint()...)
	point = append(point,
		jen.Id("row").Op(":=").Add(w("kstar")).Index(jen.Id("j").Op("*").Id("n").Op(":").Parens(jen.Id("j").Op("+").Lit(1)).Op("*").Id("n")),
		jen.For(jen.Id("i").Op(":=").Range().Id("n")).Block(
			jen.Id("row").Index(jen.Id("i")).Op("=").Add(kernelAt(p, jen.Op("&").Add(field("units")).Index(jen.Id("i")))),
		),
		w("kself").Index(jen.Id("j")).Op("=").Add(kernelAt(p, p)),
	)
	f.Comment("posteriorBatch leaves in w.means and w.variances the posterior at the m rows of")
	f.Comment("us (unit coordinates), computed at once (gp.PredictBatch).")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("posteriorBatch").Params(jen.Id("w").Op("*").Id("searchWorker"), jen.Id("us").Index().Float64(), jen.Id("m").Int()).Block(
		jen.Id("n").Op(":=").Add(field("model").Dot("Len").Call()),
		jen.For(jen.Id("j").Op(":=").Range().Id("m")).Block(point...),
		field("model").Dot("PredictBatch").Call(w("kstar").Index(jen.Op(":").Id("m").Op("*").Id("n")), jen.Id("m"),
			w("kself").Index(jen.Op(":").Id("m")), w("means").Index(jen.Op(":").Id("m")), w("variances").Index(jen.Op(":").Id("m"))),
	)

	f.Comment("acquisitionBatchAt writes the acquisition's score at each row of us (unit")
	f.Comment("coordinates) to values; worker names the calling goroutine (search.BatchValue).")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("acquisitionBatchAt").Params(jen.Id("worker").Int(), jen.List(jen.Id("us"), jen.Id("values")).Index().Float64()).Block(
		jen.Id("w").Op(":=").Op("&").Add(field("workers")).Index(jen.Id("worker")),
		field("posteriorBatch").Call(jen.Id("w"), jen.Id("us"), jen.Len(jen.Id("values"))),
		g.acquisitionScores(jen.Id("values")),
	)
	g.sweepDecls(f)
	if !g.o.Explores() {
		return
	}
	f.Comment("sdBatchAt writes the posterior standard deviation at each row of us to values.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("sdBatchAt").Params(jen.Id("worker").Int(), jen.List(jen.Id("us"), jen.Id("values")).Index().Float64()).Block(
		jen.Id("w").Op(":=").Op("&").Add(field("workers")).Index(jen.Id("worker")),
		field("posteriorBatch").Call(jen.Id("w"), jen.Id("us"), jen.Len(jen.Id("values"))),
		jen.For(jen.Id("j").Op(":=").Range().Id("values")).Block(
			jen.Id("values").Index(jen.Id("j")).Op("=").Qual("math", "Sqrt").Call(w("variances").Index(jen.Id("j"))),
		),
	)
}

// acquisitionScores is the loop that writes the acquisition's score at each
// of the posteriors in w.means and w.variances to values.
func (g *generator) acquisitionScores(values jen.Code) jen.Code {
	w := func(name string) *jen.Statement { return jen.Id("w").Dot(name) }
	return jen.For(jen.Id("j").Op(":=").Range().Add(values)).Block(
		jen.List(jen.Id("mean"), jen.Id("sd")).Op(":=").List(w("means").Index(jen.Id("j")), jen.Qual("math", "Sqrt").Call(w("variances").Index(jen.Id("j")))),
		jen.Add(values).Index(jen.Id("j")).Op("=").Id("acquisition").Call(g.acquisitionArgs(jen.Id("cov"), jen.Id("w"), false)...),
	)
}
