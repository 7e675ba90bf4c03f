package codegen

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/bocdev/boc/dsl/ir"
	"github.com/dave/jennifer/jen"
)

// component is one scalar component of a point and how it maps to the unit
// interval the optimiser works in. A categorical component holds its level's
// index, a whole number, so it is integer too; its unit coordinate is the
// middle of the level's equal share of [0, 1], (index + ½)/levels, so that
// uniform unit points draw every level equally often.
type component struct {
	name    string
	lo, hi  float64
	integer bool
	log     bool
	levels  []string // a categorical component's level names
}

func components(p *ir.Program) []component {
	out := make([]component, p.D)
	for _, d := range p.Dims {
		for i := 0; i < d.Size; i++ {
			out[d.Offset+i] = component{name: p.ComponentName(d.Offset + i), lo: d.Lo, hi: d.Hi,
				integer: d.Integer || d.Categorical(), log: d.Log, levels: d.Levels}
		}
	}
	return out
}

// scale returns the offset and width of the component on the scale it is
// searched on: user units, or their logarithm for a log component.
func (c component) scale() (offset, width float64) {
	if c.log {
		return math.Log(c.lo), math.Log(c.hi) - math.Log(c.lo)
	}
	return c.lo, c.hi - c.lo
}

// fromUnit is the user value at unit coordinate u: offset + width·u on the
// search scale, rounded for integer components and clamped to [lo, hi] so
// that floating-point rounding never leaves the domain.
func (c component) fromUnit(u jen.Code) jen.Code {
	if c.levels != nil {
		n := float64(len(c.levels))
		return jen.Min(jen.Max(jen.Qual("math", "Floor").Call(jen.Lit(n).Op("*").Add(u)), jen.Lit(0.0)), jen.Lit(n-1))
	}
	offset, width := c.scale()
	v := jen.Code(jen.Add(u))
	if width != 1 {
		v = jen.Lit(width).Op("*").Add(u)
	}
	switch {
	case offset > 0:
		v = jen.Lit(offset).Op("+").Add(v)
	case offset < 0:
		v = jen.Add(v).Op("-").Lit(-offset)
	}
	if c.log {
		v = jen.Qual("math", "Exp").Call(v)
	}
	if c.integer {
		v = jen.Qual("math", "Round").Call(v)
	}
	return jen.Min(jen.Max(v, jen.Lit(c.lo)), jen.Lit(c.hi))
}

// toUnit is the unit coordinate of the user value x, a primary expression.
func (c component) toUnit(x jen.Code) jen.Code {
	if c.levels != nil {
		return jen.Parens(jen.Add(x).Op("+").Lit(0.5)).Op("/").Lit(float64(len(c.levels)))
	}
	offset, width := c.scale()
	if c.log {
		x = jen.Qual("math", "Log").Call(x)
	}
	switch {
	case offset > 0:
		x = jen.Parens(jen.Add(x).Op("-").Lit(offset))
	case offset < 0:
		x = jen.Parens(jen.Add(x).Op("+").Lit(-offset))
	}
	if width == 1 {
		return x
	}
	return jen.Add(x).Op("/").Lit(width)
}

func (g *generator) hasCategorical() bool {
	for _, c := range g.components {
		if c.levels != nil {
			return true
		}
	}
	return false
}

func intLits(xs []int) []jen.Code {
	out := make([]jen.Code, len(xs))
	for i, x := range xs {
		out[i] = jen.Lit(x)
	}
	return out
}

func stringLits(names []string) []jen.Code {
	out := make([]jen.Code, len(names))
	for i, n := range names {
		out[i] = jen.Lit(n)
	}
	return out
}

// hasInteger reports whether some component takes whole numbers (integer
// and categorical ones).
func (g *generator) hasInteger() bool {
	for _, c := range g.components {
		if c.integer {
			return true
		}
	}
	return false
}

// errorf is a fmt.Errorf call whose message starts with the package name,
// as Go errors do.
func (g *generator) errorf(format string, args ...jen.Code) *jen.Statement {
	return jen.Qual("fmt", "Errorf").Call(append([]jen.Code{jen.Lit(g.pkg + ": " + format)}, args...)...)
}

// newError is an errors.New with the package name in front.
func (g *generator) newError(msg string) *jen.Statement {
	return jen.Qual("errors", "New").Call(jen.Lit(g.pkg + ": " + msg))
}

// domainDecls declares the problem's constants, the Point type and the maps
// between user units and unit coordinates.
func (g *generator) domainDecls(f *jen.File) {
	p := g.p
	names := make([]string, len(g.components))
	lower := make([]jen.Code, len(g.components))
	upper := make([]jen.Code, len(g.components))
	for i, c := range g.components {
		names[i] = c.name
		lower[i] = jen.Lit(c.lo)
		upper[i] = jen.Lit(c.hi)
	}
	f.Comment("Dim is the number of scalar components of a Point.")
	f.Const().Id("Dim").Op("=").Lit(p.D)
	f.Comment("Budget is the number of objective evaluations the optimiser is built for,")
	f.Comment("initial design included: it holds at most this many observations.")
	f.Const().Id("Budget").Op("=").Lit(p.Budget)
	f.Comment("Seed is the problem's seed; the same seed gives the same run.")
	f.Const().Id("Seed").Uint64().Op("=").Op(strconv.FormatUint(p.Seed, 10))
	if !g.several() {
		f.Comment("Maximize reports whether the objective is maximised (false: minimised).")
		f.Const().Id("Maximize").Op("=").Lit(p.Objective.Maximize)
	}
	if s := g.o.Safety; s != nil {
		seeds := len(s.Seeds)
		if s.DrawSeeds > 0 {
			seeds = s.DrawSeeds
		}
		f.Comment("InitialDesign is the number of seed points, known to be safe: a safe")
		f.Comment("acquisition starts from them (a study's baseline, from none).")
		f.Const().Id("InitialDesign").Op("=").Lit(seeds)
	} else {
		f.Comment(fmt.Sprintf("InitialDesign is the number of points of the initial design, %s.", g.initDescription()))
		f.Const().Id("InitialDesign").Op("=").Lit(g.p.Init.Size())
	}

	f.Comment("Point is a point of the domain in user units. Its components, in")
	f.Comment("declaration order (vector dimensions flattened): " + strings.Join(names, ", ") + ".")
	f.Type().Id("Point").Index(jen.Id("Dim")).Float64()

	nameLits := make([]jen.Code, len(names))
	for i, n := range names {
		nameLits[i] = jen.Lit(n)
	}
	f.Comment("ComponentNames are the display names of a Point's components.")
	f.Var().Id("ComponentNames").Op("=").Index(jen.Id("Dim")).String().Values(nameLits...)
	f.Comment("Lower and Upper bound each component of a Point.")
	f.Var().Defs(
		jen.Id("Lower").Op("=").Id("Point").Values(lower...),
		jen.Id("Upper").Op("=").Id("Point").Values(upper...),
	)
	f.Comment("Integer marks the components that take whole numbers (a categorical one its")
	f.Comment("level's index), Log those searched on a logarithmic scale.")
	f.Var().Defs(
		jen.Id("Integer").Op("=").Index(jen.Id("Dim")).Bool().Values(flags(g.components, func(c component) bool { return c.integer })...),
		jen.Id("Log").Op("=").Index(jen.Id("Dim")).Bool().Values(flags(g.components, func(c component) bool { return c.log })...),
	)

	value := jen.Id("b").Dot("WriteString").Call(jen.Qual("strconv", "FormatFloat").Call(jen.Id("v"), jen.LitRune('g'), jen.Lit(-1), jen.Lit(64)))
	if g.hasCategorical() {
		levels := make([]jen.Code, len(g.components))
		for i, c := range g.components {
			levels[i] = jen.Nil()
			if c.levels != nil {
				levels[i] = jen.Index().String().Values(stringLits(c.levels)...)
			}
		}
		f.Comment("Levels are the level names of each categorical component, whose value is")
		f.Comment("the index of its level; nil for the others.")
		f.Var().Id("Levels").Op("=").Index(jen.Id("Dim")).Index().String().Values(levels...)
		value = jen.If(jen.Id("l").Op(":=").Id("Levels").Index(jen.Id("i")).Op(";").Id("l").Op("!=").Nil().Op("&&").Id("v").Op(">=").Lit(0).Op("&&").
			Id("v").Op("<").Float64().Call(jen.Len(jen.Id("l")))).Block(
			jen.Id("b").Dot("WriteString").Call(jen.Id("l").Index(jen.Int().Call(jen.Id("v")))),
		).Else().Block(value)
	}
	f.Comment("String formats x as name=value pairs in declaration order.")
	f.Func().Params(jen.Id("x").Id("Point")).Id("String").Params().String().Block(
		jen.Var().Id("b").Qual("strings", "Builder"),
		jen.For(jen.List(jen.Id("i"), jen.Id("v")).Op(":=").Range().Id("x")).Block(
			jen.If(jen.Id("i").Op(">").Lit(0)).Block(jen.Id("b").Dot("WriteByte").Call(jen.LitRune(' '))),
			jen.Id("b").Dot("WriteString").Call(jen.Id("ComponentNames").Index(jen.Id("i"))),
			jen.Id("b").Dot("WriteByte").Call(jen.LitRune('=')),
			value,
		),
		jen.Return(jen.Id("b").Dot("String").Call()),
	)

	g.fromUnitDecl(f)
	g.toUnitDecl(f)
	if g.hasInteger() {
		g.snapDecl(f)
	}
	g.conditionalDecls(f)
}

func flags(cs []component, flag func(component) bool) []jen.Code {
	out := make([]jen.Code, len(cs))
	for i, c := range cs {
		out[i] = jen.Lit(flag(c))
	}
	return out
}

func (g *generator) initDescription() string {
	if g.p.Init.Call != nil {
		return callString(g.p.Init.Call)
	}
	return "the points given in the problem"
}

func (g *generator) fromUnitDecl(f *jen.File) {
	body := make([]jen.Code, 0, len(g.components)+1)
	for i, c := range g.components {
		body = append(body, jen.Id("x").Index(jen.Lit(i)).Op("=").Add(c.fromUnit(jen.Id("u").Index(jen.Lit(i)))))
	}
	body = append(body, g.imputeValues()...)
	body = append(body, jen.Return(jen.Id("x")))
	f.Comment("fromUnit maps unit coordinates to user units: lo + u·(hi − lo), on the log")
	f.Comment("scale for log components, rounded for integer ones, clamped to the bounds.")
	f.Func().Id("fromUnit").Params(jen.Id("u").Op("*").Index(jen.Id("Dim")).Float64()).Params(jen.Id("x").Id("Point")).Block(body...)
}

func (g *generator) toUnitDecl(f *jen.File) {
	x := func(i any) *jen.Statement { return jen.Id("x").Index(jen.Lit(i)) }
	body := []jen.Code{
		jen.For(jen.List(jen.Id("i"), jen.Id("v")).Op(":=").Range().Id("x")).Block(
			jen.If(jen.Op("!").Parens(jen.Id("v").Op(">=").Id("Lower").Index(jen.Id("i")).Op("&&").Id("v").Op("<=").Id("Upper").Index(jen.Id("i")))).Block(
				jen.Return(jen.Id("u"), g.errorf("%s = %v is outside the domain [%v, %v]",
					jen.Id("ComponentNames").Index(jen.Id("i")), jen.Id("v"), jen.Id("Lower").Index(jen.Id("i")), jen.Id("Upper").Index(jen.Id("i")))),
			),
		),
	}
	for i, c := range g.components {
		if c.integer {
			body = append(body, jen.If(x(i).Op("!=").Qual("math", "Round").Call(x(i))).Block(
				jen.Return(jen.Id("u"), g.errorf("%s = %v is not a whole number", jen.Id("ComponentNames").Index(jen.Lit(i)), x(i))),
			))
		}
	}
	body = append(body, g.imputeValues()...)
	for i, c := range g.components {
		body = append(body, jen.Id("u").Index(jen.Lit(i)).Op("=").Add(c.toUnit(x(i))))
	}
	body = append(body, jen.Return(jen.Id("u"), jen.Nil()))
	f.Comment("toUnit maps a point in user units to unit coordinates. It rejects points")
	f.Comment("outside the domain and integer components that are not whole numbers.")
	f.Func().Id("toUnit").Params(jen.Id("x").Id("Point")).Params(jen.Id("u").Index(jen.Id("Dim")).Float64(), jen.Id("err").Error()).Block(body...)
}

func (g *generator) snapDecl(f *jen.File) {
	var body []jen.Code
	for i, c := range g.components {
		if c.integer {
			u := jen.Id("u").Index(jen.Lit(i))
			body = append(body, jen.Add(u).Op("=").Add(c.toUnit(c.fromUnit(u))))
		}
	}
	body = append(body, g.imputeUnits()...)
	f.Comment("snap moves the integer components of unit coordinates onto whole numbers, so")
	f.Comment("that the acquisition is scored where the objective can be evaluated.")
	f.Func().Id("snap").Params(jen.Id("u").Op("*").Index(jen.Id("Dim")).Float64()).Block(body...)
}
