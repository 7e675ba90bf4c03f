package codegen

import "github.com/dave/jennifer/jen"

// The trust regions of a search that confines itself to them (search
// turbo, runtime/search.Regions): the optimiser tells them every
// observation, and its acquisition search looks in each region's box.

// trustFields are the optimiser's fields for the trust regions.
func (g *generator) trustFields() []jen.Code {
	if g.search.Regions == nil {
		return nil
	}
	return []jen.Code{
		jen.Line(),
		jen.Id("regions").Op("*").Qual(runtimeSearch, "Regions").Comment("the boxes the search is confined to"),
	}
}

// trustInit makes the trust regions in New.
func (g *generator) trustInit() []jen.Code {
	if g.search.Regions == nil {
		return nil
	}
	return []jen.Code{field("regions").Op("=").Add(g.search.Regions)}
}

// regionsSearch is the acquisition search in every trust region's box
// (search.Regions.MaximizeSwept), which leaves the search confined to the
// box of the region that won, for the searches after it; nil without trust
// regions.
func (g *generator) regionsSearch(fn string, sweep, batch, feasible, seed jen.Code) jen.Code {
	if g.search.Regions == nil || fn != "acquisitionFn" {
		return nil
	}
	if batch == nil {
		batch = jen.Nil()
	}
	method, args := "MaximizeBatch", []jen.Code{field("search"), g.lengthscales(), field(g.searchFn(fn)), batch}
	if sweep != nil {
		method, args = "MaximizeSwept", append(args, sweep)
	}
	return field("regions").Dot(method).Call(append(args, feasible, seed, whole(field("candidate")))...)
}

// lengthscales is the kernel's learned lengthscales, one per component (a
// slice of hyper), or nil when it learns none per component.
func (g *generator) lengthscales() jen.Code {
	if s := g.lengthscaleSlot(); s != nil {
		return field("hyper").Index(jen.Lit(s.Index).Op(":").Lit(s.Index + s.Size))
	}
	return jen.Nil()
}

// trustTell tells the trust regions observation n at unit coordinates u,
// y as the model maximises it (before any warping).
func (g *generator) trustTell() []jen.Code {
	if g.search.Regions == nil {
		return nil
	}
	y := jen.Id("y")
	if g.warps() {
		y = field("raw").Index(jen.Id("n"))
	}
	return []jen.Code{field("regions").Dot("Tell").Call(jen.Id("n"), whole(jen.Id("u")), y, g.lengthscales())}
}
