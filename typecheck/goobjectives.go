package typecheck

import (
	"go/types"
	"slices"

	"github.com/bocdev/boc/dsl/ast"
	"github.com/bocdev/boc/dsl/ir"
)

// A Go function that measures several objectives returns them in a struct,
// a float64 field each, beside the constraints the objective reports, by
// goreport.go's rules (a `boc:"name"` tag, or else the field named so):
//
//	func Rig(x [2]float64) (Outcome, error)
//	type Outcome struct{ Throughput, Latency, Purity float64 }

// goObjectives checks the Go binding of several objectives, named
// objectives: func([N]float64) S or (S, error), optionally with a leading
// context.Context, S a struct with a field per objective and reported
// constraint.
func (c *checker) goObjectives(b *ast.GoBinding, objectives []string) (ir.Binding, bool) {
	gf, ok := c.loadGoFunc(b)
	if !ok {
		return ir.Binding{}, false
	}
	reports := c.reportedConstraints()
	var values types.Type
	if results := gf.sig.Results(); results.Len() > 0 {
		if _, isStruct := results.At(0).Type().Underlying().(*types.Struct); isStruct {
			values = results.At(0).Type()
		}
	}
	in := c.pointInput(gf.sig, gf.ctxType)
	for _, form := range goForms(false) {
		form.outcomes = true
		if values == nil || form.context && gf.ctxType == nil || !types.Identical(gf.sig, goSignature(form, in, gf.ctxType, values)) {
			continue
		}
		fields, ok := c.valueFields(b.Func, gf.declared, values, objectives, reports)
		input, inputOK := c.goInput(b.Func, gf.declared, in)
		return ir.Binding{Kind: ir.GoBinding, Span: b.Pos, GoPackage: b.Path.Value, GoFunc: b.Func.Name,
			GoContext: form.context, GoError: form.err, GoValues: true, GoFields: fields, GoInput: input}, ok && inputOK
	}
	want := goSignature(goForm{err: true, outcomes: true}, in, gf.ctxType, wantValues(append(slices.Clone(objectives), reports...)))
	c.errorHint(b.Func.Pos, "accepted: func([N]float64) S or (S, error), optionally with a leading context.Context, S a struct with a float64 field per objective",
		"%s; want %s, a field for each objective", gf.declared, types.TypeString(want, types.RelativeTo(gf.pkg.pkg.Types)))
	return ir.Binding{}, false
}
