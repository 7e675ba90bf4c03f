package codegen

import "github.com/dave/jennifer/jen"

// The trust region of a search that confines itself to one (search turbo,
// runtime/search.TrustRegion): the optimiser tells it every observation,
// and narrows the search to its box before every search.

// trustFields are the optimiser's fields for the trust region.
func (g *generator) trustFields() []jen.Code {
	if g.search.Region == nil {
		return nil
	}
	return []jen.Code{
		jen.Line(),
		jen.Id("region").Op("*").Qual(runtimeSearch, "TrustRegion").Comment("the box the search is confined to"),
		jen.List(jen.Id("boxLo"), jen.Id("boxHi")).Add(unitArray()).Comment("its corners at the last search"),
	}
}

// trustInit makes the trust region in New.
func (g *generator) trustInit() []jen.Code {
	if g.search.Region == nil {
		return nil
	}
	return []jen.Code{field("region").Op("=").Add(g.search.Region)}
}

// trustFocus narrows the search to the trust region's box around its
// centre, sized by the learned lengthscales (a cube without them), or to
// the whole cube while the region has no centre.
func (g *generator) trustFocus() []jen.Code {
	if g.search.Region == nil {
		return nil
	}
	return []jen.Code{
		jen.If(jen.Id("c").Op(":=").Add(field("region").Dot("Centre").Call()), jen.Id("c").Op(">=").Lit(0)).Block(
			field("region").Dot("Box").Call(g.observedUnit(jen.Id("c")), g.lengthscales(), whole(field("boxLo")), whole(field("boxHi"))),
			field("search").Dot("SetBox").Call(whole(field("boxLo")), whole(field("boxHi")), g.observedUnit(jen.Id("c"))),
		).Else().Block(
			field("search").Dot("SetBox").Call(jen.Nil(), jen.Nil(), jen.Nil()),
		),
	}
}

// lengthscales is the kernel's learned lengthscales, one per component (a
// slice of hyper), or nil when it learns none per component.
func (g *generator) lengthscales() jen.Code {
	if s := g.lengthscaleSlot(); s != nil {
		return field("hyper").Index(jen.Lit(s.Index).Op(":").Lit(s.Index + s.Size))
	}
	return jen.Nil()
}

// trustTell tells the trust region observation n, y as the model
// maximises it (before any warping).
func (g *generator) trustTell() []jen.Code {
	if g.search.Region == nil {
		return nil
	}
	y := jen.Id("y")
	if g.warps() {
		y = field("raw").Index(jen.Id("n"))
	}
	return []jen.Code{field("region").Dot("Tell").Call(jen.Id("n"), y)}
}
