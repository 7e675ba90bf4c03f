package codegen

import "github.com/dave/jennifer/jen"

// A local model (plan.Optimizer.Local, runtime/subset): the optimiser keeps
// every observation in an archive (observations, with the points as given
// in observed), and the GP holds at most localSize of them. While they fit,
// Observe adds each to the GP as the exact model does; afterwards it
// chooses the subset again around the best observed point (the trust
// region's centre, where there is one) and rebuilds the GP on it, so that
// an evaluation costs the same at n = 10,000 as at n = localSize. Indices
// of observations (bestIndex, the trust region's) are the archive's;
// indices of the model's points (points, units, the incumbent) are the
// subset's.

// runtimeSubset is the import path of the archive.
const runtimeSubset = "github.com/bocdev/boc/runtime/subset"

// local reports whether the model is local.
func (g *generator) local() bool { return g.o.Local > 0 }

// modelCapacity is the number of observations, fantasies included, the
// model and its workspaces hold.
func (g *generator) modelCapacity() *jen.Statement {
	if g.local() {
		return jen.Id("modelSize")
	}
	return jen.Id("Budget")
}

// observationCount is the number of observations.
func (g *generator) observationCount() *jen.Statement {
	if g.local() {
		return field("observations").Dot("Len").Call()
	}
	return field("model").Dot("Len").Call()
}

// storedY is observation i's value as the model was given it.
func (g *generator) storedY(i jen.Code) *jen.Statement {
	if g.local() {
		return field("observations").Dot("Y").Call(i)
	}
	return field("model").Dot("Y").Call(i)
}

// observedPoint is observation i's point.
func (g *generator) observedPoint(i jen.Code) *jen.Statement {
	if g.local() {
		return field("observed").Index(i)
	}
	return field("points").Index(i)
}

// localFields are the optimiser's fields for a local model.
func (g *generator) localFields() []jen.Code {
	if !g.local() {
		return nil
	}
	fields := []jen.Code{
		jen.Line(),
		jen.Id("observations").Op("*").Qual(runtimeSubset, "Archive").Comment("every observation; the model holds a subset"),
		jen.Id("observed").Index(jen.Id("Budget")).Id("Point").Comment("their points"),
		jen.Id("chosen").Index(jen.Id("localSize")).Int().Comment("the subset's indices in observations"),
		jen.List(jen.Id("chosenY"), jen.Id("chosenNoise")).Index(jen.Id("localSize")).Float64().Comment("their values and noise variances"),
		jen.Id("centre").Add(unitArray()).Comment("the point they were chosen around"),
	}
	if g.search.Regions == nil {
		fields = append(fields, jen.List(jen.Id("boxLo"), jen.Id("boxHi")).Add(unitArray()).Comment("the region the subset describes in detail"))
	}
	return fields
}

// localFocus confines the search, once the model holds a subset, to the
// region the subset describes in detail (subset.Archive.Box): beyond it
// the model knows only a sparse sample of the observations, and the
// search would take the gaps for unexplored ground. A trust region
// confines the search itself (regionsSearch).
func (g *generator) localFocus() []jen.Code {
	if !g.local() || g.search.Regions != nil {
		return nil
	}
	return []jen.Code{
		jen.If(field("observations").Dot("Box").Call(whole(field("boxLo")), whole(field("boxHi")))).Block(
			field("search").Dot("SetBox").Call(whole(field("boxLo")), whole(field("boxHi")), jen.Nil()),
		),
	}
}

// localInit makes the archive in New.
func (g *generator) localInit() []jen.Code {
	if !g.local() {
		return nil
	}
	return []jen.Code{field("observations").Op("=").Qual(runtimeSubset, "New").Call(jen.Id("Budget"), jen.Id("Dim"))}
}

// localObserve are Observe's statements after the checks, for a local
// model: observation n, y at x (unit coordinates u) goes to the model while
// it has room, always to the archive, and the subset is chosen again once
// the model is full.
func (g *generator) localObserve() []jen.Code {
	w, _ := ownWork()
	u := jen.Op("&").Id("u")
	stmts := []jen.Code{
		jen.Id("noise").Op(":=").Add(g.observationNoise(false)),
		jen.If(jen.Id("m").Op(":=").Add(field("model").Dot("Len").Call()), jen.Id("m").Op("<").Id("localSize")).Block(
			jen.For(jen.Id("i").Op(":=").Range().Id("m")).Block(
				field("kvec").Index(jen.Id("i")).Op("=").Add(g.candidateKernel(w, u, nil, jen.Id("i"))),
			),
			jen.If(jen.Id("err").Op(":=").Add(field("model").Dot("Add").Call(
				field("kvec").Index(jen.Empty().Op(":").Id("m")), g.candidateSelf(w, u, nil), jen.Id("y"), jen.Id("noise"))),
				jen.Id("err").Op("!=").Nil()).Block(
				jen.Return(g.errorf("observing %v: %w", jen.Id("x"), jen.Id("err"))),
			),
			jen.List(field("points").Index(jen.Id("m")), field("units").Index(jen.Id("m"))).Op("=").List(jen.Id("x"), jen.Id("u")),
		),
		field("observations").Dot("Add").Call(whole(jen.Id("u")), jen.Id("y"), jen.Id("noise")),
		field("observed").Index(jen.Id("n")).Op("=").Id("x"),
		jen.If(jen.Id("n").Op("==").Lit(0).Op("||").Id("y").Op(">").Add(g.storedY(field("bestIndex")))).Block(
			field("bestIndex").Op("=").Id("n"),
		),
		field("Release").Call(jen.Id("x")),
	}
	stmts = append(stmts, g.trustTell()...)
	stmts = append(stmts,
		jen.If(field("model").Dot("Len").Call().Op("<=").Id("n")).Block(
			jen.If(jen.Id("err").Op(":=").Add(method("reselect")), jen.Id("err").Op("!=").Nil()).Block(
				jen.Return(g.errorf("observing %v: %w", jen.Id("x"), jen.Id("err"))),
			),
		),
	)
	return stmts
}

// localDecls declares the subset's sizes and reselect.
func (g *generator) localDecls(f *jen.File) {
	if !g.local() {
		return
	}
	f.Comment("localSize is the number of observations the model is conditioned on, once there")
	f.Comment("are more; modelSize leaves room for the fantasies of pending points.")
	f.Const().Defs(
		jen.Id("localSize").Op("=").Lit(g.o.Local),
		jen.Id("modelSize").Op("=").Lit(g.o.ModelSize()),
	)
	// Under noise the best observed value is biased upwards: the incumbent,
	// the best posterior mean, is the better centre.
	centre := []jen.Code{jen.Copy(whole(field("centre")), field("observations").Dot("Unit").Call(field("bestIndex")))}
	doc := "the best observed point,"
	if g.o.Replicates() {
		doc = "the incumbent (best posterior mean),"
		centre = []jen.Code{
			jen.List(jen.Id("i"), jen.Id("_")).Op(":=").Add(method("incumbent")),
			field("centre").Op("=").Add(field("units")).Index(jen.Id("i")),
		}
	}
	if g.search.Regions != nil {
		doc = "the trust region's centre or, without one, " + doc
		centre = append(centre, jen.If(jen.Id("c").Op(":=").Add(field("regions").Dot("Centre").Call()), jen.Id("c").Op(">=").Lit(0)).Block(
			jen.Copy(whole(field("centre")), field("observations").Dot("Unit").Call(jen.Id("c"))),
		))
	}
	body := append(centre,
		jen.Id("chosen").Op(":=").Add(field("observations").Dot("Select").Call(
			whole(field("centre")), g.lengthscales(), jen.Id("localSize"), whole(field("chosen")))),
		jen.For(jen.List(jen.Id("k"), jen.Id("i")).Op(":=").Range().Id("chosen")).Block(
			field("points").Index(jen.Id("k")).Op("=").Add(field("observed").Index(jen.Id("i"))),
			jen.Copy(whole(field("units").Index(jen.Id("k"))), field("observations").Dot("Unit").Call(jen.Id("i"))),
			jen.List(field("chosenY").Index(jen.Id("k")), field("chosenNoise").Index(jen.Id("k"))).Op("=").List(
				field("observations").Dot("Y").Call(jen.Id("i")), field("observations").Dot("Noise").Call(jen.Id("i"))),
		),
		jen.Id("m").Op(":=").Len(jen.Id("chosen")),
		field("model").Dot("Load").Call(field("chosenY").Index(jen.Op(":").Id("m")), field("chosenNoise").Index(jen.Op(":").Id("m"))),
		jen.List(jen.Id("shift"), jen.Id("scale")).Op(":=").Add(g.standardisation()),
		field("model").Dot("Standardise").Call(jen.Id("shift"), jen.Id("scale")),
		jen.Return(field("rebuild").Call(jen.Id("scale"))),
	)
	f.Comment("reselect conditions the model on the observations runtime/subset chooses")
	f.Comment("around " + doc)
	f.Comment("in the kernel's metric, standardised as all of them are (gp.Standardise), and")
	f.Comment("rebuilds it: O(localSize³).")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("reselect").Params().Error().Block(body...)
	if !g.o.Learning() {
		g.rebuildDecl(f)
	}
}
