package parser

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ast"
)

// sexpr renders a node compactly, one parenthesis per node, so that a test can
// state the whole shape of a tree (and so precedence and associativity) in one
// line: `let d = 1 + 2 * 3` is (let d (+ 1 (* 2 3))). Absent parts are _.
func sexpr(n ast.Node) string {
	if n == nil || reflect.ValueOf(n).IsNil() {
		return "_"
	}
	switch n := n.(type) {
	case *ast.Ident:
		return n.Name
	case *ast.NumberLit:
		return n.Text
	case *ast.StringLit:
		return fmt.Sprintf("%q", n.Value)
	case *ast.BinaryExpr:
		return group(n.Op, n.X, n.Y)
	case *ast.UnaryExpr:
		return group(n.Op, n.X)
	case *ast.IfExpr:
		return group("if", n.Cond, n.Then, n.Else)
	case *ast.IndexExpr:
		return group("index", n.X, n.Index)
	case *ast.SliceExpr:
		return group("slice", n.X, n.Lo, n.Hi)
	case *ast.ParenExpr:
		return group("paren", n.X)
	case *ast.TupleExpr:
		return group("tuple", nodes(n.Elems)...)
	case *ast.VecLit:
		parts := make([]string, len(n.Elems))
		for i, e := range n.Elems {
			parts[i] = sexpr(e)
		}
		return "[" + strings.Join(parts, " ") + "]"
	case *ast.CallExpr:
		return group("call", append([]any{n.Fun}, nodes(n.Args)...)...)
	case *ast.LearnExpr:
		return group("learn", nodes(n.Args)...)
	case *ast.Arg:
		if n.Name != nil {
			return n.Name.Name + "=" + sexpr(n.Value)
		}
		return sexpr(n.Value)
	case *ast.ExprBinding:
		return sexpr(n.X)
	case *ast.GoBinding:
		return group("go", n.Path, n.Func)
	case *ast.ExecBinding:
		return group("exec", nodes(n.Args)...)
	case *ast.ExternalBinding:
		return n.Keyword
	case *ast.SimulatedBinding:
		return group("simulated", n.X)
	case *ast.ProblemStmt:
		return group("problem", n.Name)
	case *ast.LetStmt:
		return group("let", n.Name, n.Value)
	case *ast.DomainStmt:
		return group("domain", nodes(n.Dims)...)
	case *ast.Dim:
		head := "dim"
		if n.Integer {
			head += "-int"
		}
		if n.Log {
			head += "-log"
		}
		return group(head, n.Name, n.Size, n.Lo, n.Hi)
	case *ast.CandidatesStmt:
		return group("candidates", n.Call, n.File)
	case *ast.ObjectiveStmt:
		if n.Lines != nil {
			return group("objectives", append([]any{n.Binding}, nodes(n.Lines)...)...)
		}
		if n.Maximize {
			return group("maximize", n.Binding)
		}
		return group("minimize", n.Binding)
	case *ast.ObjectiveLine:
		parts := []any{n.Name, n.Expr}
		if n.Op != "" {
			parts = append(parts, n.Op, n.Threshold)
		}
		return group(n.Sense(), append(parts, nodes(n.Options)...)...)
	case *ast.InputNoiseStmt:
		return group("input-noise", nodes(n.Decls)...)
	case *ast.NoiseDecl:
		return group("~", n.Target, n.Dist)
	case *ast.ObservationNoiseStmt:
		if n.Reported {
			return group("observation-noise", "reported")
		}
		return group("observation-noise", n.Dist, n.Learn)
	case *ast.ConstraintStmt:
		return group("constraint", append([]any{n.Name, n.LHS, n.Op, n.RHS}, nodes(n.Options)...)...)
	case *ast.Option:
		return group(n.Name.Name, n.Value)
	case *ast.PluginStmt:
		return group(n.Keyword, n.Call)
	case *ast.ValueStmt:
		return group(n.Keyword, n.Value)
	}
	return fmt.Sprintf("<%T>", n)
}

// group renders (head part...); a part is a node or literal text, and an
// absent node prints as _.
func group(head string, parts ...any) string {
	var b strings.Builder
	b.WriteString("(" + head)
	for _, p := range parts {
		switch p := p.(type) {
		case string:
			b.WriteString(" " + p)
		case ast.Node:
			b.WriteString(" " + sexpr(p))
		default: // a nil interface
			b.WriteString(" _")
		}
	}
	return b.String() + ")"
}

func nodes[T ast.Node](xs []T) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

// walk calls fn for every node of the tree below n, parents first, by
// reflection over the fields of the ast structs, so that a new node type or
// field is covered without changing the test.
func walk(n ast.Node, fn func(ast.Node)) {
	if n == nil || reflect.ValueOf(n).IsNil() {
		return
	}
	fn(n)
	v := reflect.ValueOf(n).Elem()
	for i := 0; i < v.NumField(); i++ {
		walkValue(v.Field(i), fn)
	}
}

var nodeType = reflect.TypeFor[ast.Node]()

func walkValue(v reflect.Value, fn func(ast.Node)) {
	switch {
	case v.Kind() == reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			walkValue(v.Index(i), fn)
		}
	case (v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer) && !v.IsNil() && v.Type().Implements(nodeType):
		walk(v.Interface().(ast.Node), fn)
	}
}

// parse parses src that must be free of errors.
func parse(t *testing.T, src string) *ast.File {
	t.Helper()
	f, diags := ParseFile("test.bo", []byte(src))
	if len(diags) > 0 {
		t.Fatalf("unexpected diagnostics for %q:\n%s", src, diags.Error())
	}
	return f
}

// spanText renders a span as L:C-L:C.
func spanText(s dsl.Span) string {
	return fmt.Sprintf("%d:%d-%d:%d", s.Start.Line, s.Start.Col, s.End.Line, s.End.Col)
}

// checkPos reports a position that does not agree with src: offset within the
// text and line and column (in bytes) computed from it.
func checkPos(src []byte, file string, p dsl.Pos) error {
	if p.File != file || p.Offset < 0 || p.Offset > len(src) {
		return fmt.Errorf("position %+v outside %s (%d bytes)", p, file, len(src))
	}
	before := src[:p.Offset]
	line := 1 + strings.Count(string(before), "\n")
	col := p.Offset - (strings.LastIndexByte(string(before), '\n') + 1) + 1
	if p.Line != line || p.Col != col {
		return fmt.Errorf("position %+v: offset %d is %d:%d", p, p.Offset, line, col)
	}
	return nil
}

// checkSpan reports a span whose ends are invalid or out of order.
func checkSpan(src []byte, file string, s dsl.Span) error {
	if err := checkPos(src, file, s.Start); err != nil {
		return err
	}
	if err := checkPos(src, file, s.End); err != nil {
		return err
	}
	if s.End.Offset < s.Start.Offset {
		return fmt.Errorf("span %s ends before it starts", spanText(s))
	}
	return nil
}
