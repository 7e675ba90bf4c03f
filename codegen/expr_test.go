package codegen

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/dave/jennifer/jen"
)

// TestExpressions checks the Go emitted for expressions: parentheses only
// where Go needs them, vector arithmetic element by element with scalars
// broadcast, temporaries for values used more than once, conditionals as if
// statements, and calls through the plugins' hooks.
func TestExpressions(t *testing.T) {
	dims := []*ir.Dim{
		{Name: "x", Size: 1, Offset: 0, Lo: 0, Hi: 1},
		{Name: "y", Size: 1, Offset: 1, Lo: 0, Hi: 1},
		{Name: "q", Vector: true, Size: 2, Offset: 2, Lo: -1, Hi: 1},
	}
	x, y, q := &ir.VarExpr{Dim: dims[0]}, &ir.VarExpr{Dim: dims[1]}, &ir.VarExpr{Dim: dims[2]}
	real, vec2, boolean := dsl.RealType, dsl.VecOf(2), dsl.BoolType
	neg := func(e ir.Expr) ir.Expr { return &ir.UnaryExpr{Op: "-", X: e, Typ: e.Type()} }
	sin := func(e ir.Expr) ir.Expr { return fn("function.sin", real, e) }
	tests := []struct {
		name string
		expr ir.Expr
		want string // the emitted statements, then "return" and the value
	}{
		{"negated difference", neg(bin("-", real, x, y)), "return -(x[0] - x[1])"},
		{"right operand grouped", bin("-", real, x, bin("-", real, y, realConst(1))), "return x[0] - (x[1] - 1.0)"},
		{"sum times", bin("*", real, bin("+", real, x, y), realConst(2)), "return (x[0] + x[1]) * 2.0"},
		{"product divisor", bin("/", real, x, bin("*", real, y, realConst(2))), "return x[0] / (x[1] * 2.0)"},
		{"power right-associative", bin("^", real, x, bin("^", real, y, realConst(2))), "return math.Pow(x[0], math.Pow(x[1], 2.0))"},
		{"negative constant", bin("-", real, x, realConst(-2)), "return x[0] + 2.0"},
		{"double negation", neg(neg(x)), "return -(-x[0])"},
		{"logic", &ir.UnaryExpr{Op: "not", Typ: boolean, X: bin("or", boolean,
			bin("and", boolean, bin("<", boolean, x, y), bin("<", boolean, y, realConst(1))),
			bin(">", boolean, x, realConst(0.5)))}, "return !(x[0] < x[1] && x[1] < 1.0 || x[0] > 0.5)"},
		{"broadcast costly scalar", bin("*", vec2, q, sin(x)), "t := math.Sin(x[0])\nreturn [2]float64{x[2] * t, x[3] * t}"},
		{"broadcast cheap scalar", bin("+", vec2, y, q), "return [2]float64{x[1] + x[2], x[1] + x[3]}"},
		{"index", &ir.IndexExpr{X: q, Index: realConst(1), Typ: real}, "return x[3]"},
		{"slice to a benchmark", fn("benchmark.sphere", real, &ir.SliceExpr{X: q, Lo: 1, Hi: 2, Typ: dsl.VecOf(1)}), "return bench.Sphere(x[3:4])"},
		{"whole vector to a benchmark", fn("benchmark.levy", real, q), "return bench.Levy(x[2:4])"},
		{"components to a benchmark", fn("benchmark.branin", real, x, y), "return bench.Branin([]float64{x[0], x[1]})"},
		{"literal vector to a benchmark", fn("benchmark.sphere", real, &ir.VecExpr{Elems: []ir.Expr{x, y}, Typ: vec2}),
			"v := [2]float64{x[0], x[1]}\nreturn bench.Sphere(v[:])"},
		{"costly scalar argument", sin(bin("*", real, x, realConst(3))), "t := x[0] * 3.0\nreturn math.Sin(t)"},
		{"vector function", fn("function.norm", real, bin("-", vec2, q, vecConst(1, 2))),
			"v := [2]float64{x[2] - 1.0, x[3] - 2.0}\nreturn math.Sqrt(v[0]*v[0] + v[1]*v[1])"},
		{"min of a vector", fn("function.min", real, q), "return min(x[2], x[3])"},
		{"dot", fn("function.dot", real, q, q), "return (x[2]*x[2] + x[3]*x[3])"},
		{"conditional", &ir.CondExpr{Cond: bin("<", boolean, x, realConst(0.5)), Then: sin(y), Else: y, Typ: real},
			"var c float64\nif x[0] < 0.5 {\nc = math.Sin(x[1])\n} else {\nc = x[1]\n}\nreturn c"},
		{"vector conditional", &ir.CondExpr{Cond: bin("<", boolean, x, y), Then: q, Else: bin("*", vec2, q, realConst(2)), Typ: vec2},
			"var c [2]float64\nif x[0] < x[1] {\nc = [2]float64{x[2], x[3]}\n} else {\nc = [2]float64{x[2] * 2.0, x[3] * 2.0}\n}\nreturn [2]float64{c[0], c[1]}"},
		{"zeros", fn("function.zeros", vec2, &ir.ConstExpr{Value: dsl.IntValue(2)}), "return [2]float64{0.0, 0.0}"},
		{"constants", vecConst(1.5, -2), "return [2]float64{1.5, -2.0}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := &generator{p: &ir.Program{Dims: dims, D: 4}}
			e := &exprEmitter{g: g, names: newNamer("x"), point: "x"}
			v, ok := e.expr(tt.expr)
			if !ok {
				t.Fatal(g.diags)
			}
			if got := renderBody(append(e.stmts, jen.Return(composite(v)))); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// renderBody renders statements one per line, without indentation.
func renderBody(stmts []jen.Code) string {
	src := fmt.Sprintf("%#v", jen.Func().Id("f").Params().Block(stmts...))
	lines := strings.Split(strings.TrimSpace(src), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSpace(l)
	}
	return strings.Join(lines[1:len(lines)-1], "\n")
}

// TestStopNames: the stop condition reads the names its context defines.
func TestStopNames(t *testing.T) {
	p := quickstartIR()
	p.Stop = bin("or", dsl.BoolType,
		bin("<", dsl.BoolType, &ir.NameExpr{Name: "acquisition", Typ: dsl.RealType}, realConst(1e-3)),
		bin(">=", dsl.BoolType, &ir.NameExpr{Name: "evaluations", Typ: dsl.IntType}, realConst(25)))
	out, diags := generate(t, p, Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	want := "func stopWhen(acquisition, best, evaluations float64) bool {\n\treturn acquisition < 0.001 || evaluations >= 25.0\n}"
	if !strings.Contains(string(out.Library[1].Content), want) {
		t.Errorf("run.go lacks\n%s\n%s", want, out.Library[1].Content)
	}
	p.Objective.Binding.Expr = &ir.NameExpr{Name: "best", Typ: dsl.RealType}
	if _, diags := generate(t, p, Options{}); !strings.Contains(diags.Error(), "the name best is not defined in this context") {
		t.Errorf("a context name in the objective: %v", diags)
	}
}

func TestImportAlias(t *testing.T) {
	for path, want := range map[string]string{
		"example.com/survey/field":   "field",
		"example.com/mod/v2":         "mod",
		"example.com/go-sensor":      "go_sensor",
		"example.com/x/kernel":       "user_kernel",
		"example.com/x/math":         "user_math",
		"example.com/x/3d":           "user_3d",
		"example.com/x":              "user_x",
		"github.com/bocdev/boc/v3/a": "a",
	} {
		if got := importAlias(path); got != want {
			t.Errorf("importAlias(%q) = %q, want %q", path, got, want)
		}
	}
}
