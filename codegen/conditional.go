package codegen

import (
	"math"
	"strconv"
	"strings"

	"github.com/bocdev/boc/dsl/ir"
	"github.com/dave/jennifer/jen"
)

// Conditional dimensions exist only where their condition holds. A point
// keeps a slot for every component; where a dimension does not exist its
// components are imputed, as BoTorch-style hierarchical spaces do: the value
// at the middle of its unit interval, the same for every such point, so the
// model sees one fixed value there and the search's gradient along it is 0.
// What a user sees (exec JSON, ask, status) leaves them out.

// conditionals returns the conditional dimensions, in declaration order.
func (g *generator) conditionals() []*ir.Dim {
	var out []*ir.Dim
	for _, d := range g.p.Dims {
		if d.When != nil {
			out = append(out, d)
		}
	}
	return out
}

// activeName is the function that reports whether conditional dimension d
// exists at a point: ActiveNAME, NAME capitalised, with d's offset after it
// when an earlier conditional dimension's name capitalises alike (gamma and
// Gamma).
func (g *generator) activeName(d *ir.Dim) string {
	taken := map[string]bool{}
	for _, c := range g.conditionals() {
		name := "Active" + strings.ToUpper(c.Name[:1]) + c.Name[1:]
		if taken[name] {
			name += strconv.Itoa(c.Offset)
		}
		taken[name] = true
		if c == d {
			return name
		}
	}
	return ""
}

// imputedUnit is the unit coordinate component c takes where its dimension
// does not exist: the middle of its unit interval, moved onto its grid.
func (c component) imputedUnit() float64 { return c.unitOf(c.valueAt(0.5)) }

// valueAt is fromUnit's value at unit coordinate u, computed here.
func (c component) valueAt(u float64) float64 {
	if c.levels != nil {
		return min(max(math.Floor(float64(len(c.levels))*u), 0), float64(len(c.levels)-1))
	}
	offset, width := c.scale()
	v := offset + width*u
	if c.log {
		v = math.Exp(v)
	}
	if c.integer {
		v = math.Round(v)
	}
	return min(max(v, c.lo), c.hi)
}

// unitOf is toUnit's unit coordinate of value x, computed here.
func (c component) unitOf(x float64) float64 {
	if c.levels != nil {
		return (x + 0.5) / float64(len(c.levels))
	}
	offset, width := c.scale()
	if c.log {
		x = math.Log(x)
	}
	return (x - offset) / width
}

// conditionalDecls declares each conditional dimension's active function
// and zeroInactive, which the search's gradients call.
func (g *generator) conditionalDecls(f *jen.File) {
	conds := g.conditionals()
	if conds == nil {
		return
	}
	for _, d := range conds {
		e := &exprEmitter{g: g, names: newNamer("x"), point: "x"}
		v, ok := e.expr(d.When)
		if !ok {
			return
		}
		f.Comment(g.activeName(d) + " reports whether " + d.Name + " exists at x: its condition, and those of")
		f.Comment("the choices it depends on.")
		f.Func().Id(g.activeName(d)).Params(jen.Id("x").Op("*").Id("Point")).Bool().Block(append(e.stmts, jen.Return(v.elems[0].code))...)
	}
	var body []jen.Code
	for _, d := range conds {
		var zero []jen.Code
		for i := d.Offset; i < d.Offset+d.Size; i++ {
			zero = append(zero, jen.Id("grad").Index(jen.Lit(i)).Op("=").Lit(0.0))
		}
		body = append(body, jen.If(jen.Op("!").Id(g.activeName(d)).Call(jen.Op("&").Id("x"))).Block(zero...))
	}
	f.Comment("zeroInactive zeroes grad along the components of the dimensions that do not")
	f.Comment("exist at unit coordinates u, where the score does not depend on them; a nil grad")
	f.Comment("(a score without its gradient) is left alone.")
	f.Func().Id("zeroInactive").Params(jen.List(jen.Id("u"), jen.Id("grad")).Index().Float64()).Block(
		append([]jen.Code{
			jen.If(jen.Id("grad").Op("==").Nil()).Block(jen.Return()),
			jen.Id("x").Op(":=").Id("fromUnit").Call(jen.Parens(jen.Op("*").Add(unitArray())).Call(jen.Id("u"))),
		}, body...)...)
}

// imputeValues are fromUnit's statements that impute the components of the
// dimensions that do not exist at x.
func (g *generator) imputeValues() []jen.Code {
	var out []jen.Code
	for _, d := range g.conditionals() {
		var set []jen.Code
		for i := d.Offset; i < d.Offset+d.Size; i++ {
			set = append(set, jen.Id("x").Index(jen.Lit(i)).Op("=").Lit(g.components[i].valueAt(0.5)))
		}
		out = append(out, jen.If(jen.Op("!").Id(g.activeName(d)).Call(jen.Op("&").Id("x"))).Block(set...))
	}
	return out
}

// imputeUnits are snap's statements that move the unit coordinates of the
// dimensions that do not exist at u to their imputed values.
func (g *generator) imputeUnits() []jen.Code {
	conds := g.conditionals()
	if conds == nil {
		return nil
	}
	out := []jen.Code{jen.Id("x").Op(":=").Id("fromUnit").Call(jen.Id("u"))}
	for _, d := range conds {
		var set []jen.Code
		for i := d.Offset; i < d.Offset+d.Size; i++ {
			set = append(set, jen.Id("u").Index(jen.Lit(i)).Op("=").Lit(g.components[i].imputedUnit()))
		}
		out = append(out, jen.If(jen.Op("!").Id(g.activeName(d)).Call(jen.Op("&").Id("x"))).Block(set...))
	}
	return out
}

// activeField is a layout entry's Active: whether the dimension exists at a
// point, for the interfaces that leave it out where it does not; lib names
// the library's identifiers.
func (g *generator) activeField(d *ir.Dim, lib func(string) *jen.Statement) jen.Code {
	return jen.Func().Params(jen.Id("x").Index().Float64()).Bool().Block(
		jen.Return(lib(g.activeName(d)).Call(jen.Parens(jen.Op("*").Add(lib("Point"))).Call(jen.Id("x")))))
}
