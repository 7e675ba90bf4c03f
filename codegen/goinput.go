package codegen

import (
	"fmt"

	"github.com/bocdev/boc/dsl/ir"
	"github.com/dave/jennifer/jen"
)

// goInputDecl declares, once per struct type, the function that fills a
// bound Go function's struct from a point: each dimension's field, a
// categorical one with its level's name, a conditional one through a
// pointer, nil where it does not exist. It returns the function's name.
func (g *generator) goInputDecl(f *jen.File, s *ir.GoStruct) string {
	qualified := s.Package + "." + s.Name
	if name, ok := g.goInputs[qualified]; ok {
		return name
	}
	if g.goInputs == nil {
		g.goInputs = map[string]string{}
	}
	// Two packages' types of one name get functions of two names.
	name := fmt.Sprintf("goInput%s%d", s.Name, len(g.goInputs))
	if len(g.goInputs) == 0 {
		name = "goInput" + s.Name
	}
	g.goInputs[qualified] = name
	f.ImportAlias(s.Package, importAlias(s.Package))
	body := []jen.Code{jen.Var().Id("s").Qual(s.Package, s.Name)}
	for _, field := range s.Fields {
		value := g.goFieldValue(field)
		set := jen.Id("s").Dot(field.Name).Op("=").Add(value)
		if field.Pointer {
			set = jen.If(jen.Id(g.activeName(field.Dim)).Call(jen.Id("x"))).Block(
				jen.Id("v").Op(":=").Add(value),
				jen.Id("s").Dot(field.Name).Op("=").Op("&").Id("v"),
			)
		}
		body = append(body, set)
	}
	body = append(body, jen.Return(jen.Id("s")))
	f.Comment(name + " is x as the " + s.Name + " a bound Go function takes.")
	f.Func().Id(name).Params(jen.Id("x").Op("*").Id("Point")).Qual(s.Package, s.Name).Block(body...)
	return name
}

// goFieldValue is the value of field's dimension at x, in the field's
// (element) type.
func (g *generator) goFieldValue(field ir.GoField) jen.Code {
	d := field.Dim
	component := func(i int) *jen.Statement { return jen.Id("x").Index(jen.Lit(i)) }
	var v jen.Code
	switch {
	case d.Vector:
		elems := make([]jen.Code, d.Size)
		for i := range elems {
			elems[i] = component(d.Offset + i)
		}
		v = jen.Index(jen.Lit(d.Size)).Float64().Values(elems...)
	case d.Categorical():
		v = jen.Id("Levels").Index(jen.Lit(d.Offset)).Index(jen.Int().Call(component(d.Offset)))
	case d.Integer:
		v = jen.Int().Call(component(d.Offset))
	default:
		v = component(d.Offset)
	}
	if field.ElemName != "" {
		return jen.Qual(field.ElemPackage, field.ElemName).Call(v)
	}
	return v
}
