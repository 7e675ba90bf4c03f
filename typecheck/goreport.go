package typecheck

import (
	"fmt"
	"go/types"
	"reflect"
	"slices"
	"strings"
	"unicode"

	"github.com/bocdev/boc/dsl/ast"
)

// A Go objective reports the values of the constraints declared `reported`
// in a struct it returns after the value (and the noise sd):
//
//	func Mill(x [2]float64) (float64, Reading, error)
//	type Reading struct{ Temperature float64 }
//
// Each reported constraint reads one float64 field: the one tagged
// `boc:"name"`, or else the untagged one whose name is the constraint's,
// ignoring case and underscores. Other fields are left alone, so one
// function can serve problems that keep to different constraints. The struct is checked here, against the loaded package,
// so that a missing or misspelt field is an error in the .bo file rather
// than a value that never arrives.

// reportedConstraints are the names of the constraints the objective's
// evaluation reports (`constraint NAME: reported CMP LIMIT`), in source order.
func (c *checker) reportedConstraints() []string {
	var names []string
	for _, s := range c.stmts.constraints {
		_, lhs := s.LHS.(*ast.ExternalBinding)
		_, rhs := s.RHS.(*ast.ExternalBinding)
		if (lhs || rhs) && s.Name != nil {
			names = append(names, s.Name.Name)
		}
	}
	return names
}

// splitValues finds the struct of constraint values in sig's results, right
// after the value (and the sd when sd), and returns its type and sig
// without it; nil and sig when there is none.
func splitValues(sig *types.Signature, sd bool) (types.Type, *types.Signature) {
	at := 1
	if sd {
		at = 2
	}
	results := sig.Results()
	if results.Len() <= at {
		return nil, sig
	}
	if _, ok := results.At(at).Type().Underlying().(*types.Struct); !ok {
		return nil, sig
	}
	var rest []*types.Var
	for i := range results.Len() {
		if i != at {
			rest = append(rest, results.At(i))
		}
	}
	return results.At(at).Type(), types.NewSignatureType(nil, nil, nil, sig.Params(), types.NewTuple(rest...), false)
}

// wantValues is the struct a Go objective should return for the reported
// constraints, for the "want" of a message: a float64 field for each.
func wantValues(reports []string) types.Type {
	fields := make([]*types.Var, len(reports))
	for i, name := range reports {
		fields[i] = types.NewField(0, nil, goFieldName(name), types.Typ[types.Float64], false)
	}
	return types.NewStruct(fields, nil)
}

// goFieldName is the exported Go name a constraint's field would have:
// max_torque → MaxTorque.
func goFieldName(name string) string {
	var b strings.Builder
	for part := range strings.SplitSeq(name, "_") {
		if part == "" {
			continue
		}
		r := []rune(part)
		r[0] = unicode.ToUpper(r[0])
		b.WriteString(string(r))
	}
	return b.String()
}

// fieldKey is how a field's name and a constraint's name are compared when
// no tag decides: without case and underscores.
func fieldKey(name string) string { return strings.ToLower(strings.ReplaceAll(name, "_", "")) }

// valueFields maps each reported constraint, and each of several
// objectives (objectives, its first names), to its field of values, the
// struct the Go function declared (`declared` describes it) returns; errors
// are reported at the function's name in the .bo file.
func (c *checker) valueFields(fn *ast.Ident, declared string, values types.Type, objectives, reports []string) (map[string]string, bool) {
	st := values.Underlying().(*types.Struct)
	typeName := types.TypeString(values, types.RelativeTo(nil))
	if named, ok := values.(*types.Named); ok {
		typeName = named.Obj().Name()
	}
	ok := true
	fail := func(hint, format string, args ...any) {
		c.errorHint(fn.Pos, hint, "%s: "+format, append([]any{declared}, args...)...)
		ok = false
	}
	tag := func(i int) string { return reflect.StructTag(st.Tag(i)).Get("boc") }
	what := func(name string) string {
		if slices.Contains(objectives, name) {
			return "objective " + name
		}
		return "constraint " + name
	}
	fields := map[string]string{}
	for _, name := range append(slices.Clone(objectives), reports...) {
		var tagged, named []int
		for i := range st.NumFields() {
			switch t := tag(i); {
			case t == name:
				tagged = append(tagged, i)
			case t == "" && fieldKey(st.Field(i).Name()) == fieldKey(name):
				named = append(named, i)
			}
		}
		match := tagged
		if len(match) == 0 {
			match = named
		}
		switch {
		case len(match) == 0:
			hint := fmt.Sprintf("add a field `%s float64` to %s, or tag one `boc:%q`", goFieldName(name), typeName, name)
			for i := range st.NumFields() {
				if t := tag(i); t != "" && fieldKey(st.Field(i).Name()) == fieldKey(name) {
					hint += fmt.Sprintf(" (field %s is tagged boc:%q)", st.Field(i).Name(), t)
				}
			}
			reported := ", which the objective reports"
			if slices.Contains(objectives, name) {
				reported = ""
			}
			fail(hint, "%s has no field for %s%s", typeName, what(name), reported)
			continue
		case len(match) > 1:
			fail(fmt.Sprintf("tag the field to use `boc:%q`", name),
				"fields %s and %s of %s both match %s", st.Field(match[0]).Name(), st.Field(match[1]).Name(), typeName, what(name))
			continue
		}
		f := st.Field(match[0])
		switch {
		case !f.Exported():
			fail("export it: give it a name that starts with an upper-case letter",
				"field %s of %s, the value of %s, is not exported; the generated code cannot read it", f.Name(), typeName, what(name))
		case !types.Identical(f.Type().Underlying(), types.Typ[types.Float64]):
			fail("", "field %s of %s, the value of %s, is %s; want float64", f.Name(), typeName, what(name),
				types.TypeString(f.Type(), types.RelativeTo(f.Pkg())))
		default:
			fields[name] = f.Name()
		}
	}
	if len(fields) == 0 {
		return nil, ok
	}
	return fields, ok
}

// constraintList renders "constraint a", "constraints a and b", "constraints
// a, b and c".
func constraintList(names []string) string {
	if len(names) == 1 {
		return "constraint " + names[0]
	}
	return "constraints " + strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
