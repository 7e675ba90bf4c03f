package parser

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ast"
)

var update = flag.Bool("update", false, "rewrite the golden .ast files in testdata")

func TestStatementForms(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"problem", "problem drone_survey", "(problem drone_survey)"},
		{"let", "let spread = 0.05", "(let spread 0.05)"},
		{"domain", "domain {\n  x in [0, 1]\n  n in 1..10\n  p[4] in [0, pi]\n  lr in [1e-4, 1e-1] log\n}",
			"(domain (dim x _ 0 1) (dim-int n _ 1 10) (dim p 4 0 pi) (dim-log lr _ 1e-4 1e-1))"},
		{"domain on one line", "domain { x in [0, 1] }", "(domain (dim x _ 0 1))"},
		{"empty domain", "domain {}", "(domain)"},
		{"domain with blank lines and comments", "domain { // dims\n\n  x in [0, 1] // first\n\n\n  y in [0, 1]\n\n}",
			"(domain (dim x _ 0 1) (dim y _ 0 1))"},
		{"brace on the next line", "domain\n{\n  x in [0, 1]\n}", "(domain (dim x _ 0 1))"},
		{"integer range of expressions", "domain {\n  k in lo + 1..2 * hi log\n}", "(domain (dim-int-log k _ (+ lo 1) (* 2 hi)))"},
		{"candidates call", "candidates uniform_ball(n = 100, radius = 1)", "(candidates (call uniform_ball n=100 radius=1) _)"},
		{"candidates file", `candidates file "x.csv"`, `(candidates _ "x.csv")`},
		{"objective expression", "objective minimize branin(x1, x2)", "(minimize (call branin x1 x2))"},
		{"objective go", `objective maximize go "example.com/survey/field".Measure`, `(maximize (go "example.com/survey/field" Measure))`},
		{"objective exec", `objective maximize exec "./run" "--fast"`, `(maximize (exec "./run" "--fast"))`},
		{"objective external", "objective minimize external", "(minimize external)"},
		{"several objectives measured", "objective exec \"./rig\" {\n    maximize throughput >= 100\n    minimize latency\n}",
			`(objectives (exec "./rig") (maximize throughput _ >= 100) (minimize latency _))`},
		{"several objectives computed", "objective {\n    minimize f1 = x^2 <= 4\n    minimize f2 = (x - 2)^2\n}",
			"(objectives _ (minimize f1 (^ x 2) <= 4) (minimize f2 (^ (paren (- x 2)) 2)))"},
		{"several objectives with options", "objective external {\n    maximize y >= 1 { noise ~ normal(0, 2) }\n    minimize c {\n        kernel se\n        noise ~ normal(0, 1)\n    }\n}",
			"(objectives external (maximize y _ >= 1 (noise (call normal 0 2))) (minimize c _ (kernel se) (noise (call normal 0 1))))"},
		{"input noise one line", "input noise x ~ normal(0, spread)", "(input-noise (~ x (call normal 0 spread)))"},
		{"input noise component", "input noise p[2] ~ normal(0, 0.1)", "(input-noise (~ (index p 2) (call normal 0 0.1)))"},
		{"input noise slice", "input noise p[0:2] ~ iid(normal(0, 1), 2)", "(input-noise (~ (slice p 0 2) (call iid (call normal 0 1) 2)))"},
		{"input noise tuple", "input noise (x, p[1]) ~ circle(0.1)", "(input-noise (~ (tuple x (index p 1)) (call circle 0.1)))"},
		{"input noise block", "input noise {\n  x ~ normal(0, 0.01 + 0.1 * x)\n  y ~ beta(0.4, 0.2, scale = 0.1)\n}",
			"(input-noise (~ x (call normal 0 (+ 0.01 (* 0.1 x)))) (~ y (call beta 0.4 0.2 scale=0.1)))"},
		{"observation noise dist", "observation noise ~ normal(0, 0.1)", "(observation-noise (call normal 0 0.1) _)"},
		{"observation noise learn", "observation noise learn", "(observation-noise _ (learn))"},
		{"observation noise learn args", "observation noise learn(init = 0.3, bounds = [0.01, 10])",
			"(observation-noise _ (learn init=0.3 bounds=[0.01 10]))"},
		{"observation noise reported", "observation noise reported", "(observation-noise reported)"},
		{"known constraint", "constraint budget_ok: x + y <= 1.5", "(constraint budget_ok (+ x y) <= 1.5)"},
		{"other comparison for the checker", "constraint c: x < 1", "(constraint c x < 1)"},
		{"go constraint with options", "constraint battery: go \"m/f\".Battery >= 0.2 {\n  seed [[0.1, 0.1], [0.2, 0.15]]\n  kernel matern52(lengthscale = learn)\n  noise ~ normal(0, 0.05)\n}",
			`(constraint battery (go "m/f" Battery) >= 0.2 (seed [[0.1 0.1] [0.2 0.15]]) (kernel (call matern52 lengthscale=(learn))) (noise (call normal 0 0.05)))`},
		{"exec and reported sides", `constraint heat: 40 >= exec "./thermo" "-c"`, `(constraint heat 40 >= (exec "./thermo" "-c"))`},
		{"reported side", "constraint safe: reported >= 0", "(constraint safe reported >= 0)"},
		{"simulated side", "constraint heat: simulated 60 + 30 * x <= 80", "(constraint heat (simulated (+ 60 (* 30 x))) <= 80)"},
		{"model", "model mmd(kernel = rqmix(lengthscale = learn), samples = 100)", "(model (call mmd kernel=(call rqmix lengthscale=(learn)) samples=100))"},
		{"bare acquisition", "acquisition ei", "(acquisition ei)"},
		{"empty argument list", "acquisition ei()", "(acquisition (call ei))"},
		{"search", "search lbfgs(restarts = 10, raw = 512)", "(search (call lbfgs restarts=10 raw=512))"},
		{"budget", "budget 60", "(budget 60)"},
		{"init call", "init sobol(8)", "(init (call sobol 8))"},
		{"init points", "init [[0.1, 0.2], [0.3, 0.4]]", "(init [[0.1 0.2] [0.3 0.4]])"},
		{"seed", "seed 42", "(seed 42)"},
		{"stop when", "stop when acquisition < 0.001", "(stop (< acquisition 0.001))"},
		{"keyword as argument name", "init sobol(8, seed = 3)", "(init (call sobol 8 seed=3))"},
		{"multi-line arguments", "model gp(\n  kernel = matern52,\n  noise = learn,\n)", "(model (call gp kernel=matern52 noise=(learn)))"},
		{"comment inside a statement", "budget /* evaluations */ 60 // total", "(budget 60)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := parse(t, tt.src)
			if len(f.Stmts) != 1 {
				t.Fatalf("got %d statements, want 1", len(f.Stmts))
			}
			if got := sexpr(f.Stmts[0]); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestExpressions(t *testing.T) {
	tests := []struct {
		src, want string
	}{
		// precedence, loosest first
		{"if c then a else b + 1", "(if c a (+ b 1))"},
		{"a or b and c", "(or a (and b c))"},
		{"a and b or c", "(or (and a b) c)"},
		{"not a and b", "(and (not a) b)"},
		{"not a < b", "(not (< a b))"},
		{"not not a", "(not (not a))"},
		{"a < b + c", "(< a (+ b c))"},
		{"a + b == c * d", "(== (+ a b) (* c d))"},
		{"a + b * c", "(+ a (* b c))"},
		{"a * b + c", "(+ (* a b) c)"},
		{"-a * b", "(* (- a) b)"},
		{"-2^2", "(- (^ 2 2))"},
		{"-a^b * c", "(* (- (^ a b)) c)"},
		{"2^-1", "(^ 2 (- 1))"},
		{"a^b[1]", "(^ a (index b 1))"},
		{"-x[0]", "(- (index x 0))"},
		{"a + if c then 1 else 2", "(+ a (if c 1 2))"},
		{"if a then if b then 1 else 2 else 3", "(if a (if b 1 2) 3)"},
		{"if x < 0.6 then 0.5 else 7.0", "(if (< x 0.6) 0.5 7.0)"},
		// associativity
		{"a - b - c", "(- (- a b) c)"},
		{"a / b / c", "(/ (/ a b) c)"},
		{"a or b or c", "(or (or a b) c)"},
		{"2^3^2", "(^ 2 (^ 3 2))"},
		{"a - -b", "(- a (- b))"},
		{"- - a", "(- (- a))"},
		// postfix
		{"v[i + 1]", "(index v (+ i 1))"},
		{"m[1][2]", "(index (index m 1) 2)"},
		{"v[1:3]", "(slice v 1 3)"},
		{"v[:2]", "(slice v _ 2)"},
		{"v[2:]", "(slice v 2 _)"},
		{"v[:]", "(slice v _ _)"},
		{"f(x)[0]", "(index (call f x) 0)"},
		{"(a + b)[0]", "(index (paren (+ a b)) 0)"},
		// primaries
		{"(a)", "(paren a)"},
		{"(a, b, c)", "(tuple a b c)"},
		{"[]", "[]"},
		{"[1, 2,]", "[1 2]"},
		{"[[1, 0], [0, 1]]", "[[1 0] [0 1]]"},
		{"[\n  [1, 0],\n  [0, 1]\n]", "[[1 0] [0 1]]"},
		{"f()", "(call f)"},
		{"f(1, name = 2)", "(call f 1 name=2)"},
		{"learn", "(learn)"},
		{"learn(init = 0.3)", "(learn init=0.3)"},
		{`"a\tb"`, `"a\tb"`},
		{"acquisition", "acquisition"},
		{".5 + 1e-3 + 2.5E+4 + 7", "(+ (+ (+ .5 1e-3) 2.5E+4) 7)"},
		{"x\t*\ty", "(* x y)"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			f := parse(t, "let v = "+tt.src)
			if got := sexpr(f.Stmts[0].(*ast.LetStmt).Value); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestNumberLiterals(t *testing.T) {
	tests := []struct {
		text  string
		value float64
		isInt bool
	}{
		{"7", 7, true},
		{"0.5", 0.5, false},
		{".5", 0.5, false},
		{"1e-3", 0.001, false},
		{"2.5E+4", 25000, false},
		{"1e3", 1000, false},
	}
	for _, tt := range tests {
		f := parse(t, "budget "+tt.text)
		n := f.Stmts[0].(*ast.ValueStmt).Value.(*ast.NumberLit)
		if n.Text != tt.text || n.Value != tt.value || n.Int != tt.isInt {
			t.Errorf("%s: got %+v, want value %g int %v", tt.text, n, tt.value, tt.isInt)
		}
	}
}

// TestPositions checks the spans of representative nodes: start at the first
// byte, end just past the last, columns in bytes.
func TestPositions(t *testing.T) {
	tests := []struct {
		name string
		src  string
		node func(f *ast.File) dsl.Span
		want string
	}{
		{"statement", "let a = 1 + 2 * 3", func(f *ast.File) dsl.Span { return f.Stmts[0].Span() }, "1:1-1:18"},
		{"binary covers both operands", "let a = 1 + 2 * 3", func(f *ast.File) dsl.Span { return letValue(f).Span() }, "1:9-1:18"},
		{"operator", "let a = 1 + 2 * 3", func(f *ast.File) dsl.Span { return letValue(f).(*ast.BinaryExpr).OpPos }, "1:11-1:12"},
		{"right operand", "let a = 1 + 2 * 3", func(f *ast.File) dsl.Span { return letValue(f).(*ast.BinaryExpr).Y.Span() }, "1:13-1:18"},
		{"two-byte operator", "let a = x <= 2", func(f *ast.File) dsl.Span { return letValue(f).(*ast.BinaryExpr).OpPos }, "1:11-1:13"},
		{"unary covers its operand", "let a = -2^2", func(f *ast.File) dsl.Span { return letValue(f).Span() }, "1:9-1:13"},
		{"not", "let a = not b", func(f *ast.File) dsl.Span { return letValue(f).Span() }, "1:9-1:14"},
		{"if", "let a = if c then 1 else 2", func(f *ast.File) dsl.Span { return letValue(f).Span() }, "1:9-1:27"},
		{"index", "let a = v[10]", func(f *ast.File) dsl.Span { return letValue(f).Span() }, "1:9-1:14"},
		{"call", "let a = f(x, k = 2)", func(f *ast.File) dsl.Span { return letValue(f).Span() }, "1:9-1:20"},
		{"named argument", "let a = f(x, k = 2)", func(f *ast.File) dsl.Span { return letValue(f).(*ast.CallExpr).Args[1].Span() }, "1:14-1:19"},
		{"string with escapes", `let a = "\"q\""`, func(f *ast.File) dsl.Span { return letValue(f).Span() }, "1:9-1:16"},
		{"multi-line vector", "let a = [1,\n  2,\n  3]", func(f *ast.File) dsl.Span { return letValue(f).Span() }, "1:9-3:5"},
		{"element on a later line", "let a = [1,\n  2,\n  3]", func(f *ast.File) dsl.Span { return letValue(f).(*ast.VecLit).Elems[2].Span() }, "3:3-3:4"},
		{"block statement", "domain {\n  x in [0, 1]\n}", func(f *ast.File) dsl.Span { return f.Stmts[0].Span() }, "1:1-3:2"},
		{"dimension without trailing comment", "domain {\n  x in [0, 1] log // c\n}",
			func(f *ast.File) dsl.Span { return f.Stmts[0].(*ast.DomainStmt).Dims[0].Span() }, "2:3-2:18"},
		{"tabs count one byte", "let\ta =\t\tb", func(f *ast.File) dsl.Span { return letValue(f).Span() }, "1:10-1:11"},
		{"columns count bytes, not runes", "let s = \"é\" // ü\nlet b = c",
			func(f *ast.File) dsl.Span { return f.Stmts[0].(*ast.LetStmt).Value.Span() }, "1:9-1:13"},
		{"after a multi-byte comment", "// ééé\nlet b = c", func(f *ast.File) dsl.Span { return letValue(f).Span() }, "2:9-2:10"},
		{"constraint operator", "constraint c: x + 1 >= 2", func(f *ast.File) dsl.Span { return f.Stmts[0].(*ast.ConstraintStmt).OpPos }, "1:21-1:23"},
		{"go binding", `objective maximize go "p".F`, func(f *ast.File) dsl.Span { return f.Stmts[0].(*ast.ObjectiveStmt).Binding.Span() }, "1:20-1:28"},
		{"objective threshold", "objective external {\n  maximize a >= -1\n  minimize b\n}",
			func(f *ast.File) dsl.Span { return f.Stmts[0].(*ast.ObjectiveStmt).Lines[0].Threshold.Span() }, "2:17-2:19"},
		{"tuple target", "input noise (x, y) ~ d", func(f *ast.File) dsl.Span { return f.Stmts[0].(*ast.InputNoiseStmt).Decls[0].Target.Span() }, "1:13-1:19"},
		{"constraint option name", "constraint c: x >= 0 {\n  noise ~ d\n}",
			func(f *ast.File) dsl.Span { return f.Stmts[0].(*ast.ConstraintStmt).Options[0].Name.Span() }, "2:3-2:8"},
		{"CRLF line ends", "let a = 1\r\nlet b = 2\r\n", func(f *ast.File) dsl.Span { return f.Stmts[1].Span() }, "2:1-2:10"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := parse(t, tt.src)
			span := tt.node(f)
			if got := spanText(span); got != tt.want {
				t.Errorf("span %s, want %s", got, tt.want)
			}
			if err := checkSpan([]byte(tt.src), "test.bo", span); err != nil {
				t.Error(err)
			}
		})
	}
}

func letValue(f *ast.File) ast.Expr { return f.Stmts[0].(*ast.LetStmt).Value }

// syntaxErrors are broken inputs with where the first error must be reported
// and fragments of its message and hint (no hint when empty). The fuzz test
// starts from them too.
var syntaxErrors = []struct {
	name, src, at, msg, hint string
}{
	{"not a statement", "x in [0, 1]", "1:1", "unexpected `x`; a statement starts with a keyword such as domain", ""},
	{"misspelt keyword", "aquisition ei", "1:1", "unexpected `aquisition`", "did you mean `acquisition`?"},
	{"misspelt keyword in upper case", "Budget 10", "1:1", "unexpected `Budget`", "did you mean `budget`?"},
	{"noise alone", "noise ~ normal(0, 1)", "1:1", "unexpected `noise`", "`input noise` or `observation noise`"},
	{"operator at line start", "= 3", "1:1", "unexpected `=`; a statement starts", ""},
	{"missing name", "let = 3", "1:5", "unexpected `=`; expected a name", ""},
	{"keyword as name", "let in = 3", "1:5", "expected a name", "`in` is a keyword"},
	{"unclosed vector", "let x = [1, 2\nbudget 3", "1:14", "expected `]` to close the vector started at 1:9", ""},
	{"unclosed argument list", "model gp(\n  kernel = matern52\nacquisition ei", "2:20", "expected `)` to close the argument list started at 1:9", ""},
	{"unclosed block", "domain {\n  x in [0, 1]\n\nobjective maximize x", "2:14", "expected `}` to close the domain block started at 1:8", ""},
	{"mismatched bracket", "domain {\n  x in [0, 1\n}", "3:1", "expected `]` to close the interval started at 2:8", ""},
	{"unopened bracket", "let x = 3)", "1:10", "unexpected `)`: there is no `(` to close", ""},
	{"missing comma", "let x = [1 2]", "1:12", "unexpected `2`; expected `,` or `]` to close the vector started at 1:9", ""},
	{"matrix missing a comma", "init [[0.1, 0.2] [0.3, 0.4]]", "1:18", "expected `,` or `]` to close the vector started at 1:6", ""},
	{"double comma", "let x = [1, , 2]", "1:13", "unexpected `,`; expected an expression", ""},
	{"double comma in arguments", "let x = f(1, , 2)", "1:14", "unexpected `,`; expected an expression", ""},
	{"missing operand", "objective maximize x +", "1:23", "unexpected end of file; expected an expression", ""},
	{"missing operand at line end", "let x = 1 *\nbudget 3", "1:12", "unexpected end of line; expected an expression", ""},
	{"chained comparison", "let x = a < b < c", "1:15", "comparisons do not chain", "combine them with `and`"},
	{"not as an arithmetic operand", "let x = a * not b", "1:13", "`not` needs parentheses here", "(not ...)"},
	{"missing else", "let x = if a then b", "1:20", "expected `else`", ""},
	{"misspelt sense", "objective maximise f(x)", "1:11", "expected `maximize`, `minimize`, a binding (`go`, `exec`, `external`) or `{`", "did you mean `maximize`?"},
	{"misspelt when", "stop whn x < 1", "1:6", "expected `when`", "did you mean `when`?"},
	{"go binding without dot", `objective maximize go "a/b" F`, "1:29", "unexpected `F`; expected `.`", ""},
	{"exec without command", "objective maximize exec", "1:24", "expected a string", ""},
	{"objective line without a name", "objective external {\n  maximize >= 3\n}", "2:12", "unexpected `>=`; expected a name", ""},
	{"several objectives without a block", `objective exec "./rig"`, "1:23", "expected `{`", ""},
	{"two items on a line", "domain {\n  x in [0, 1] y in [0, 1]\n}", "2:15", "expected a new line or `}`", ""},
	{"bad dimension", "domain {\n  x in [0, 1]\n  3 in [0, 1]\n}", "3:3", "expected a dimension such as `x in [0, 1]`", ""},
	{"interval with three bounds", "domain {\n  x in [0, 1, 2]\n}", "2:13", "expected `]` to close the interval started at 2:8", ""},
	{"missing colon", "constraint c x >= 0", "1:14", "unexpected `x`; expected `:`", ""},
	{"assignment in constraint", "constraint c: x = 0", "1:17", "expected a comparison", "a constraint compares with `<=` or `>=`"},
	{"not on a constraint side", "constraint c: not x >= 0", "1:15", "`not` needs parentheses here", "(not ...)"},
	{"chained constraint", "constraint c: 0 <= x <= 1", "1:22", "unexpected `<=`; expected end of line", "comparisons do not chain"},
	{"noise option without tilde", "constraint c: x >= 0 {\n  noise normal(0, 1)\n}", "2:9", "unexpected `normal`; expected `~`", ""},
	{"observation noise without tilde", "observation noise normal(0, 1)", "1:19", "expected `~`, `learn` or `reported`", ""},
	{"input noise without tilde", "input noise x normal(0, 1)", "1:15", "unexpected `normal`; expected `~`", ""},
	{"one-element tuple target", "input noise (x) ~ normal(0, 1)", "1:15", "expected `,`", ""},
	{"statement after a statement", "budget 10 seed 3", "1:11", "unexpected `seed`; expected end of line", "each statement starts on its own line"},
	{"assignment in expression", "stop when x = 3", "1:13", "unexpected `=`; expected end of line", "to compare, write `==`"},
	{"plugin is not a number", "model 3", "1:7", "expected a call such as `ucb(beta = 2)`", ""},
	{"empty index", "let x = v[]", "1:11", "expected `:` or an expression", ""},
	{"number too large", "let x = 1e999", "1:9", "number 1e999 is too large", "1.8e308"},
	{"bad escape", `let s = "a\qb"`, "1:11", "invalid escape sequence `\\q` in string", "escapes are Go's"},
	{"unterminated string", "let s = \"abc\nbudget 3", "1:9", "string is not terminated", "on the same line"},
	{"unterminated comment", "let x = 3 /* never closed\nbudget 3", "1:11", "comment is not terminated", "`*/`"},
	{"invalid character", "let x = 3 @ 4", "1:11", "unexpected character `@`", ""},
	{"C operator", "let x = a && b", "1:11", "unexpected character `&`", "write `and`"},
	{"invisible character", "let x = 3\u200b", "1:10", "unexpected character U+200B (invisible)", ""},
	{"byte order mark inside", "let x = 3\nlet y\ufeff = 4", "2:6", "unexpected character U+FEFF (invisible)", ""},
	{"nested too deeply", "let x = " + strings.Repeat("(", maxNesting+1) + "1" + strings.Repeat(")", maxNesting+1), "1:509", "nested too deeply", "split it with `let`"},
}

func TestSyntaxErrors(t *testing.T) {
	for _, tt := range syntaxErrors {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := ParseFile("test.bo", []byte(tt.src))
			if len(diags) == 0 {
				t.Fatalf("no diagnostics for %q", tt.src)
			}
			d := diags[0]
			if d.Severity != dsl.Error {
				t.Errorf("severity %v, want error", d.Severity)
			}
			if at := d.Span.Start.String(); at != "test.bo:"+tt.at {
				t.Errorf("at %s, want test.bo:%s (%s)", at, tt.at, d.Message)
			}
			if !strings.Contains(d.Message, tt.msg) {
				t.Errorf("message %q does not contain %q", d.Message, tt.msg)
			}
			if tt.hint == "" && d.Hint != "" || !strings.Contains(d.Hint, tt.hint) {
				t.Errorf("hint %q, want one containing %q", d.Hint, tt.hint)
			}
			if err := checkSpan([]byte(tt.src), "test.bo", d.Span); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestErrorRecovery checks that each broken statement is reported once, in
// source order, and that the statements around them still parse.
func TestErrorRecovery(t *testing.T) {
	src := strings.Join([]string{
		"problem p",
		"domain {",
		"  x in [0, 1",
		"}",
		"let ok = 1",
		"objective maximize x +",
		"budget 10",
		"aquisition ei",
		"seed 3",
	}, "\n")
	f, diags := ParseFile("test.bo", []byte(src))
	var got []string
	for _, d := range diags {
		got = append(got, d.Span.Start.String()+" "+d.Message)
	}
	want := []string{
		"test.bo:4:1 expected `]` to close the interval started at 3:8",
		"test.bo:6:23 unexpected end of line; expected an expression",
		"test.bo:8:1 unexpected `aquisition`; a statement starts with a keyword such as domain, objective, model",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var kept []string
	for _, s := range f.Stmts {
		kept = append(kept, sexpr(s))
	}
	if got, want := strings.Join(kept, " "), "(problem p) (let ok 1) (budget 10) (seed 3)"; got != want {
		t.Errorf("kept %s, want %s", got, want)
	}
}

// TestGolden compares the dump of every testdata/*.bo file, followed by its
// rendered diagnostics, with testdata/*.ast. Run with -update to rewrite them.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.bo"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	for _, path := range files {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			got := dumpWithDiagnostics(name, src)
			golden := strings.TrimSuffix(path, ".bo") + ".ast"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./parser -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("dump of %s differs from %s (run go test ./parser -update and review the diff):\n%s", name, golden, got)
			}
		})
	}
}

func dumpWithDiagnostics(name string, src []byte) []byte {
	f, diags := ParseFile(name, src)
	var buf bytes.Buffer
	ast.Fprint(&buf, f)
	if len(diags) > 0 {
		buf.WriteString("-- diagnostics --\n")
		diags.Render(&buf, src)
	}
	return buf.Bytes()
}

// TestLanguageExample parses the complete example of LANGUAGE.md.
func TestLanguageExample(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "drone_survey.bo"))
	if err != nil {
		t.Fatal(err)
	}
	f, diags := ParseFile("drone_survey.bo", src)
	if len(diags) > 0 {
		t.Fatalf("diagnostics:\n%s", diags.Error())
	}
	var kinds []string
	for _, s := range f.Stmts {
		kind := strings.TrimPrefix(sexpr(s), "(")
		kinds = append(kinds, kind[:strings.IndexAny(kind, " )")])
	}
	want := "problem let domain maximize input-noise observation-noise constraint model acquisition budget init seed"
	if got := strings.Join(kinds, " "); got != want {
		t.Errorf("statements %s, want %s", got, want)
	}
}

// TestSpansNest checks every node of the golden inputs: its span is valid and
// lies within its statement's.
func TestSpansNest(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.bo"))
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, _ := ParseFile("test.bo", src)
		for _, s := range f.Stmts {
			outer := s.Span()
			walk(s, func(n ast.Node) {
				span := n.Span()
				if err := checkSpan(src, "test.bo", span); err != nil {
					t.Errorf("%s: %T: %v", path, n, err)
				}
				if span.Start.Offset < outer.Start.Offset || span.End.Offset > outer.End.Offset {
					t.Errorf("%s: %T at %s outside its statement %s", path, n, spanText(span), spanText(outer))
				}
			})
		}
	}
}

func TestEmptyInput(t *testing.T) {
	for _, src := range []string{"", "\n\n", "// only a comment", "/* block */\n  \t\n"} {
		f, diags := ParseFile("empty.bo", []byte(src))
		if len(diags) > 0 || len(f.Stmts) > 0 || f.Name != "empty.bo" {
			t.Errorf("%q: got %d statements, diagnostics %v", src, len(f.Stmts), diags)
		}
	}
}

func BenchmarkParseFile(b *testing.B) {
	src, err := os.ReadFile(filepath.Join("testdata", "statements.bo"))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, diags := ParseFile("statements.bo", src); len(diags) > 0 {
			b.Fatal(diags)
		}
	}
}

// TestStatementKeywords checks that every statement keyword has a parser and
// is reserved, so that hints and recovery agree with the grammar.
func TestStatementKeywords(t *testing.T) {
	if len(statementParsers) != len(statementKeywords) {
		t.Errorf("%d statement parsers for %d statement keywords", len(statementParsers), len(statementKeywords))
	}
	for _, k := range statementKeywords {
		if statementParsers[k] == nil {
			t.Errorf("no parser for statement keyword %q", k)
		}
		if toks := scan("k.bo", k); len(toks) != 1 || toks[0].Type != tokKeyword {
			t.Errorf("%q does not scan as a keyword", k)
		}
	}
}

// TestConcurrentParses checks that ParseFile keeps no state between calls:
// parses running at once give the same trees (run with -race to check more).
func TestConcurrentParses(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "statements.bo"))
	if err != nil {
		t.Fatal(err)
	}
	want := dumpWithDiagnostics("statements.bo", src)
	results := make(chan []byte, 8)
	for range cap(results) {
		go func() { results <- dumpWithDiagnostics("statements.bo", src) }()
	}
	for range cap(results) {
		if got := <-results; !bytes.Equal(got, want) {
			t.Fatalf("a concurrent parse differs:\n%s", got)
		}
	}
}

// TestExpectationDescriptions checks that every production a syntax error can
// name as expected has a description in the user's terms.
func TestExpectationDescriptions(t *testing.T) {
	for _, line := range strings.Split(grammar.String(), "\n") {
		name, _, ok := strings.Cut(line, " = ")
		if !ok || strings.HasSuffix(name, "Stmt") {
			continue
		}
		name, _, _ = strings.Cut(name, "[")
		if productionDescriptions[name] == "" {
			t.Errorf("production %s has no description", name)
		}
	}
	for _, typ := range []string{"<ident>", "<argname>", "<keyword>", "<string>", "<number>", "<newline>"} {
		if productionDescriptions[typ] == "" {
			t.Errorf("token type %s has no description", typ)
		}
	}
}

// TestByteOrderMark: a file that starts with UTF-8's byte order mark, as some
// editors write, parses as without it, at the same positions.
func TestByteOrderMark(t *testing.T) {
	src := "problem p\nbudget 10\n"
	plain, marked := dumpWithDiagnostics("p.bo", []byte(src)), dumpWithDiagnostics("p.bo", []byte("\ufeff"+src))
	if !bytes.Equal(plain, marked) || bytes.Contains(plain, []byte("diagnostics")) {
		t.Errorf("with a byte order mark:\n%s\nwithout:\n%s", marked, plain)
	}
}

// TestNestingIsDepth checks that maxNesting bounds how deeply a statement
// nests, not how many operators it has: long sums of powers, negations and
// parenthesised ifs parse, chains that nest are refused.
func TestNestingIsDepth(t *testing.T) {
	many := func(term, sep string) string {
		return strings.TrimSuffix(strings.Repeat(term+sep, maxNesting+100), sep)
	}
	deep := maxNesting + 1
	tests := []struct {
		name, expr string
		nested     bool
	}{
		{"a sum of squares", many("(x - 0.5)^2", " + "), false},
		{"a sum of negations", many("-x", " + "), false},
		{"conjunctions of nots", many("not a", " and "), false},
		{"parenthesised ifs", many("(if a then 1 else 2)", " * "), false},
		{"arguments", "f(" + many("-x^2", ", ") + ")", false},
		{"a chain of powers", many("2", "^"), true},
		{"prefix minus", strings.Repeat("-", deep) + "x", true},
		{"else if", strings.Repeat("if a then 1 else ", deep) + "2", true},
		{"powers of negations", many("-2", "^"), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := ParseFile("test.bo", []byte("let v = "+tt.expr))
			refused := len(diags) > 0 && strings.Contains(diags[0].Message, "nested too deeply")
			if refused != tt.nested {
				t.Errorf("refused as too deep: %v, want %v (%v)", refused, tt.nested, diags)
			}
			if !tt.nested && len(diags) > 0 {
				t.Errorf("diagnostics: %v", diags)
			}
		})
	}
}
