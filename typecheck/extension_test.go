package typecheck

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/parser"
	"github.com/bocdev/boc/stdlib/registry"
)

// testPlugins are the plugins this file registers, as a custom boc would
// register its own: the checker must handle them like the built-in ones, with
// no change to it.
var testPlugins = map[string]bool{"candidates.lattice": true, "function.test_double": true}

func init() {
	registry.Register(&registry.Plugin{Kind: registry.Candidates, Name: "lattice",
		Doc: "test plugin: a regular lattice of n points per axis",
		Params: []registry.Param{
			{Name: "n", Type: registry.IntParam, Range: &registry.Range{Lo: 1, Hi: math.Inf(1)}},
			{Name: "jitter", Type: registry.RealParam, Default: registry.Real(0), Range: &registry.Range{Lo: 0, Hi: 1}},
		},
		Check: func(c *registry.CheckContext) {
			if n := c.Call.Arg("n"); n.Value.(*ir.ConstExpr).Value.Float() > 100 {
				c.Report(dsl.Errorf(n.Span, "lattice has more than 100 points per axis"))
			}
		},
		Emit: registry.CandidateEmit(func(g *registry.CandidateGen) ([][]float64, error) {
			n := g.Int("n")
			if len(g.Components) != 1 {
				return nil, errors.New("lattice works in one dimension")
			}
			c := g.Components[0]
			points := make([][]float64, n)
			for i := range points {
				points[i] = []float64{c.Lo + (c.Hi-c.Lo)*float64(i)/float64(max(1, n-1))}
			}
			return points, nil
		})})
	registry.Register(&registry.Plugin{Kind: registry.Function, Name: "test_double",
		Doc: "test plugin: twice a real",
		Result: func(ops []registry.Operand) (dsl.Type, error) {
			if len(ops) != 1 || !ops[0].Type.IsNumeric() {
				return dsl.Type{}, errors.New("test_double takes one real")
			}
			return dsl.RealType, nil
		},
		Fold: func(args []dsl.Value) (dsl.Value, error) { return dsl.RealValue(2 * args[0].Float()), nil }})
}

func TestRegisteredPlugins(t *testing.T) {
	tests := []struct {
		name, src string
		check     func(t *testing.T, p *ir.Program)
		errs      []string
	}{
		{name: "generator", src: "candidates lattice(n = 5)",
			check: func(t *testing.T, p *ir.Program) {
				if p.Candidates == nil || p.Candidates.Call.Plugin != "candidates.lattice" || len(p.Candidates.Points) != 5 || p.Candidates.Points[4][0] != 1 {
					t.Errorf("candidates = %+v", p.Candidates)
				}
			}},
		{name: "function", src: "let two = test_double(1)\nacquisition ucb(beta = two)",
			check: func(t *testing.T, p *ir.Program) {
				if call, ok := p.Objective.Binding.Expr.(*ir.CallExpr); !ok || call.Plugin != "function.test_double" {
					t.Errorf("objective = %s, want a call of function.test_double", ir.SExpr(p.Objective.Binding.Expr))
				}
			}},
		{name: "check hook", src: "candidates lattice(500)", errs: []string{"lattice has more than 100 points per axis"}},
		{name: "result hook", src: "let a = test_double([1, 2])\nseed a", errs: []string{"test_double takes one real"}},
		{name: "fold hook", src: "let a = test_double(3)\nseed a", errs: []string{"seed must be an int, got real 6"}},
		{name: "range", src: "candidates lattice(3, jitter = 2)", errs: []string{"lattice's jitter must be in [0, 1], got 2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "problem ext\ndomain { x in [0, 1] }\nobjective minimize test_double(x)\nbudget 10\n" + tt.src + "\n"
			f, pdiags := parser.ParseFile("ext.bo", []byte(src))
			if pdiags.HasErrors() {
				t.Fatalf("syntax errors: %v", pdiags)
			}
			p, diags := Check(f, Config{})
			var got []string
			for _, d := range diags.Errors() {
				got = append(got, d.Message)
			}
			if strings.Join(got, "\n") != strings.Join(tt.errs, "\n") {
				t.Fatalf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.errs, "\n"))
			}
			if tt.check != nil {
				tt.check(t, p)
			}
		})
	}
}
