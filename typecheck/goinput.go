package typecheck

import (
	"fmt"
	"go/types"
	"reflect"

	"github.com/bocdev/boc/dsl/ast"
	"github.com/bocdev/boc/dsl/ir"
)

// A bound Go function takes the point as [D]float64, or as a named struct
// with a field per dimension, matched by name as the returned values' are
// (fieldKey, or a `boc:"NAME"` tag):
//
//	real x in [a, b]            float64
//	integer n in a..b           int
//	categorical c in {"a", ...} string, or a type whose underlying type is
//	                            string (typed constants, say)
//	vector p[n] in [a, b]       [n]float64
//	conditional ... when COND   a pointer to the above, nil where the
//	                            dimension does not exist
//
// A domain with categorical or conditional dimensions needs the struct: a
// level is a name, and [D]float64 cannot leave a value out.

// pointInput returns the type a bound function takes the point in: its
// first parameter after the context when that is a struct, else [D]float64.
func (c *checker) pointInput(sig *types.Signature, ctxType types.Type) types.Type {
	params := sig.Params()
	at := 0
	if params.Len() > 0 && ctxType != nil && types.Identical(params.At(0).Type(), ctxType) {
		at = 1
	}
	if at < params.Len() {
		if _, isStruct := params.At(at).Type().Underlying().(*types.Struct); isStruct {
			return params.At(at).Type()
		}
	}
	return types.NewArray(types.Typ[types.Float64], int64(c.prog.D))
}

// goInput checks a struct input against the domain; nil and true for
// [D]float64, which a domain of choices or conditions refuses.
func (c *checker) goInput(fn *ast.Ident, declared string, in types.Type) (*ir.GoStruct, bool) {
	st, isStruct := in.Underlying().(*types.Struct)
	if !isStruct {
		if d := c.needsStruct(); d != nil {
			c.errorHint(fn.Pos, fmt.Sprintf("take a struct with a field per dimension, e.g. func(s Settings) float64 with %s", fieldSuggestion(d)),
				"%s; a %s dimension (%s) cannot be passed in [%d]float64", declared, dimNoun(d), d.Name, c.prog.D)
			return nil, false
		}
		return nil, true
	}
	named, isNamed := in.(*types.Named)
	if !isNamed {
		c.errorHint(fn.Pos, "declare the struct as a type: type Settings struct { ... }", "%s; its point's struct needs a name", declared)
		return nil, false
	}
	typeName := named.Obj().Name()
	if !named.Obj().Exported() {
		c.errorHint(fn.Pos, "export it: give it a name that starts with an upper-case letter",
			"%s; its point's type %s is not exported, so the generated code cannot make one", declared, typeName)
		return nil, false
	}
	out := &ir.GoStruct{Package: named.Obj().Pkg().Path(), Name: typeName}
	ok := true
	fail := func(hint, format string, args ...any) {
		c.errorHint(fn.Pos, hint, "%s: "+format, append([]any{declared}, args...)...)
		ok = false
	}
	tag := func(i int) string { return reflect.StructTag(st.Tag(i)).Get("boc") }
	used := make([]bool, st.NumFields())
	for _, d := range c.prog.Dims {
		match := -1
		for i := range st.NumFields() {
			if t := tag(i); t == d.Name || t == "" && fieldKey(st.Field(i).Name()) == fieldKey(d.Name) {
				if match < 0 || t == d.Name {
					match = i
				}
			}
		}
		if match < 0 {
			fail(fmt.Sprintf("add a field %s to %s, or tag one `boc:%q`", fieldSuggestion(d), typeName, d.Name), "%s has no field for dimension %s", typeName, d.Name)
			continue
		}
		f := st.Field(match)
		if used[match] {
			fail("give each dimension its own field, tagged `boc:\"NAME\"` where names clash", "field %s of %s matches two dimensions, the second %s", f.Name(), typeName, d.Name)
			continue
		}
		used[match] = true
		if !f.Exported() {
			fail("export it: give it a name that starts with an upper-case letter", "field %s of %s, dimension %s, is not exported; the generated code cannot set it", f.Name(), typeName, d.Name)
			continue
		}
		field := ir.GoField{Dim: d, Name: f.Name()}
		t := f.Type()
		if p, isPointer := t.(*types.Pointer); isPointer && d.When != nil {
			field.Pointer, t = true, p.Elem()
		}
		if !fitsDim(t, d) || (d.When != nil) != field.Pointer {
			fail(fmt.Sprintf("declare it %s", fieldSuggestion(d)), "field %s of %s is %s, which cannot hold dimension %s", f.Name(), typeName,
				types.TypeString(f.Type(), types.RelativeTo(f.Pkg())), d.Name)
			continue
		}
		if n, isNamed := t.(*types.Named); isNamed && n.Obj().Pkg() != nil {
			if !n.Obj().Exported() {
				fail("export the type", "field %s of %s has the type %s, which is not exported, so the generated code cannot convert to it", f.Name(), typeName, n.Obj().Name())
				continue
			}
			field.ElemPackage, field.ElemName = n.Obj().Pkg().Path(), n.Obj().Name()
		}
		out.Fields = append(out.Fields, field)
	}
	for i, u := range used {
		if !u && st.Field(i).Exported() && tag(i) != "-" {
			fail(fmt.Sprintf("remove it, or tag it `boc:\"-\"` if the function sets it itself; the dimensions are %s", c.componentList()),
				"field %s of %s is no dimension of the domain", st.Field(i).Name(), typeName)
		}
	}
	return out, ok
}

// fitsDim reports whether a field of type t (a conditional dimension's
// pointer taken off) holds dimension d.
func fitsDim(t types.Type, d *ir.Dim) bool {
	u := t.Underlying()
	switch {
	case d.Vector:
		a, isArray := u.(*types.Array)
		return isArray && a.Len() == int64(d.Size) && types.Identical(a.Elem(), types.Typ[types.Float64])
	case d.Categorical():
		return types.Identical(u, types.Typ[types.String])
	case d.Integer:
		return types.Identical(u, types.Typ[types.Int])
	}
	return types.Identical(u, types.Typ[types.Float64])
}

// fieldSuggestion is the field that would hold d: "Gamma *float64".
func fieldSuggestion(d *ir.Dim) string {
	t := "float64"
	switch {
	case d.Vector:
		t = fmt.Sprintf("[%d]float64", d.Size)
	case d.Categorical():
		t = "string"
	case d.Integer:
		t = "int"
	}
	if d.When != nil {
		t = "*" + t
	}
	return goFieldName(d.Name) + " " + t
}

// needsStruct returns the first dimension [D]float64 cannot carry: a
// categorical or conditional one; nil when there is none.
func (c *checker) needsStruct() *ir.Dim {
	for _, d := range c.prog.Dims {
		if d.Categorical() || d.When != nil {
			return d
		}
	}
	return nil
}

// dimNoun says what kind of dimension d is.
func dimNoun(d *ir.Dim) string {
	if d.When != nil {
		return "conditional"
	}
	return "categorical"
}
