package typecheck

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/parser"
)

// TestGoBindings checks objectives bound to the functions of
// testdata/field: the four accepted signatures, each with the noise sd under
// `observation noise reported` and without it otherwise, and the ways a
// binding fails, with the error at the function name (or the import path) in
// the .bo file.
func TestGoBindings(t *testing.T) {
	tests := []struct {
		dims, binding    string
		reported         bool // observation noise reported
		context, sd, err bool
		reports          []string          // constraints reported by the objective
		fields           map[string]string // their fields in the values it returns
		seed             string            // their seed points: [[0.1, 0.1]] unless given
		wantErr, errAt   string            // message fragment; the source text it starts at
	}{
		{dims: "x in [0, 1]\ny in [0, 1]", binding: "field.Measure"},
		{dims: "x in [0, 1]\ny in [0, 1]", binding: "field.MeasureErr", err: true},
		{dims: "x in [0, 1]\ny in [0, 1]", binding: "field.MeasureCtx", context: true},
		{dims: "p[2] in [0, 1]", binding: "field.MeasureCtxErr", context: true, err: true},
		{dims: "p[2] in [0, 1]\nz in [0, 1]", binding: "field.Measure",
			wantErr: "as func(x [2]float64) float64; want func([3]float64) float64 (3 scalar domain components: p[0], p[1], z)", errAt: "Measure"},
		{dims: "x in [0, 1]", binding: "field.MeasureCtxErr",
			wantErr: "want func(context.Context, [1]float64) (float64, error)", errAt: "MeasureCtxErr"},
		{dims: "p[2] in [0, 1]", binding: "field.MeasureTwice",
			wantErr: "as func(x [2]float64) (float64, float64): it returns a value and its noise sd, but the observation noise is not reported", errAt: "MeasureTwice"},
		{dims: "p[2] in [0, 1]", binding: "field.MeasureTwice", reported: true, sd: true},
		{dims: "p[2] in [0, 1]", binding: "field.MeasureWithSD", reported: true, context: true, sd: true, err: true},
		{dims: "p[2] in [0, 1]", binding: "field.MeasureErr", reported: true,
			wantErr: "as func(x [2]float64) (float64, error): it returns no noise sd, but the observation noise is reported", errAt: "MeasureErr"},
		{dims: "x in [0, 1]", binding: "field.MeasureWithSD", reported: true,
			wantErr: "want func(context.Context, [1]float64) (float64, float64, error)", errAt: "MeasureWithSD"},
		{dims: "x in [0, 1]", binding: "field.MeasureSlice", reported: true,
			wantErr: "want func([1]float64) (float64, float64)", errAt: "MeasureSlice"},
		{dims: "p[2] in [0, 1]", binding: "field.Survey", fields: map[string]string{}},
		{dims: "p[2] in [0, 1]", binding: "field.Survey", reports: []string{"battery"}, fields: map[string]string{"battery": "Battery"}},
		{dims: "x in [0, 1]\ny in [0, 1]", binding: "field.SurveyCtxErr", context: true, err: true,
			reports: []string{"gust", "battery"}, fields: map[string]string{"battery": "Battery", "gust": "Wind"}},
		{dims: "p[2] in [0, 1]", binding: "field.Measure", reports: []string{"battery", "gust"},
			wantErr: "as func(x [2]float64) float64: it returns no constraint values, but the objective reports constraints battery and gust", errAt: "Measure"},
		{dims: "p[2] in [0, 1]", binding: "field.Survey", reports: []string{"wind"},
			wantErr: "Reading has no field for constraint wind, which the objective reports", errAt: "Survey"},
		{dims: "p[2] in [0, 1]", binding: "field.Fly", reports: []string{"altitude"},
			wantErr: "field altitude of Flight, the value of constraint altitude, is not exported", errAt: "Fly"},
		{dims: "p[2] in [0, 1]", binding: "field.Fly", reports: []string{"mode"},
			wantErr: "field Mode of Flight, the value of constraint mode, is string; want float64", errAt: "Fly"},
		{dims: "p[2] in [0, 1]", binding: "field.Fly", reports: []string{"speed"},
			wantErr: "fields Speed and SPEED of Flight both match constraint speed", errAt: "Fly"},
		{dims: "p[3] in [0, 1]", binding: "field.SurveyCtxErr", reports: []string{"battery"}, seed: "[[0.1, 0.1, 0.1]]",
			wantErr: "want func(context.Context, [3]float64) (float64, Reading, error)", errAt: "SurveyCtxErr"},
		{dims: "p[2] in [0, 1]", binding: "field.Mesure", wantErr: "has no function Mesure", errAt: "Mesure"},
		{dims: "p[2] in [0, 1]", binding: "broken.Measure", wantErr: "undefined: undefinedScale", errAt: `"github.com`},
		{dims: "p[2] in [0, 1]", binding: "missing.Measure", wantErr: "does not load", errAt: `"github.com`},
	}
	for _, tt := range tests {
		t.Run(tt.binding+"/"+tt.dims, func(t *testing.T) {
			pkg, fn, _ := strings.Cut(tt.binding, ".")
			binding := `go "github.com/bocdev/boc/typecheck/testdata/` + pkg + `".` + fn
			src := "problem gobind\ndomain {\n" + tt.dims + "\n}\nobjective maximize " + binding + "\nbudget 10\n"
			if tt.reported {
				src += "observation noise reported\n"
			}
			if tt.seed == "" {
				tt.seed = "[[0.1, 0.1]]"
			}
			for _, name := range tt.reports {
				src += "constraint " + name + ": reported <= 1 { seed " + tt.seed + " }\n"
			}
			if len(tt.reports) > 0 {
				src += "acquisition safe_ucb\n"
			}
			f, pdiags := parser.ParseFile("gobind.bo", []byte(src))
			if pdiags.HasErrors() {
				t.Fatalf("syntax errors: %v", pdiags)
			}
			p, diags := Check(f, Config{Dir: "testdata/ok"})
			if tt.wantErr == "" {
				if p == nil {
					t.Fatalf("errors: %v", diags)
				}
				want := ir.Binding{Kind: ir.GoBinding, GoPackage: "github.com/bocdev/boc/typecheck/testdata/field", GoFunc: fn,
					GoContext: tt.context, GoSD: tt.sd, GoError: tt.err, GoValues: tt.fields != nil}
				if len(tt.fields) > 0 {
					want.GoFields = tt.fields
				}
				if diff := cmp.Diff(want, p.Objective.Binding, cmpopts.IgnoreFields(ir.Binding{}, "Span")); diff != "" {
					t.Errorf("binding (-want +got):\n%s", diff)
				}
				return
			}
			errs := diags.Errors()
			if len(errs) != 1 || !strings.Contains(errs[0].Message, tt.wantErr) {
				t.Fatalf("errors %v; want one containing %q", errs, tt.wantErr)
			}
			line := strings.Split(src, "\n")[errs[0].Span.Start.Line-1]
			if got := line[errs[0].Span.Start.Col-1:]; !strings.HasPrefix(got, tt.errAt) {
				t.Errorf("error at %q, want at %q", got, tt.errAt)
			}
		})
	}
}
