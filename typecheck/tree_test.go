package typecheck

import (
	"testing"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ast"
)

// Trees built by hand: partial trees as a parser may leave them after syntax
// errors, and shapes the parser never produces. Check must report errors at
// valid positions, never panic, and never return IR for them.

func at(line, col int) dsl.Span {
	p := dsl.Pos{File: "tree.bo", Line: line, Col: col}
	return dsl.Span{Start: p, End: dsl.Pos{File: "tree.bo", Line: line, Col: col + 1}}
}

func ident(line int, name string) *ast.Ident { return &ast.Ident{Pos: at(line, 10), Name: name} }

func num(line int, x float64) *ast.NumberLit {
	return &ast.NumberLit{Pos: at(line, 20), Text: dsl.RealValue(x).String(), Value: x, Int: x == float64(int(x))}
}

// baseStmts is a valid problem on lines 1-4 that the cases add to.
func baseStmts() []ast.Stmt {
	return []ast.Stmt{
		&ast.ProblemStmt{Pos: at(1, 1), Name: ident(1, "tree")},
		&ast.DomainStmt{Pos: at(2, 1), Dims: []*ast.Dim{{Pos: at(2, 10), Name: ident(2, "x"), Lo: num(2, 0), Hi: num(2, 1)}}},
		&ast.ObjectiveStmt{Pos: at(3, 1), Binding: &ast.ExprBinding{X: ident(3, "x")}},
		&ast.ValueStmt{Pos: at(4, 1), Keyword: "budget", Value: num(4, 10)},
	}
}

func TestBaseTreeChecks(t *testing.T) {
	p, diags := Check(&ast.File{Name: "tree.bo", Stmts: baseStmts()}, Config{})
	if p == nil || len(diags) > 0 {
		t.Fatalf("base tree: %v", diags)
	}
}

func TestPartialTrees(t *testing.T) {
	var nilIdent *ast.Ident
	var nilNumber *ast.NumberLit
	line := 10
	tests := []struct {
		name string
		stmt ast.Stmt
	}{
		{"nil statement", nil},
		{"typed nil statement", (*ast.LetStmt)(nil)},
		{"let without name", &ast.LetStmt{Pos: at(line, 1), Value: num(line, 1)}},
		{"let without value", &ast.LetStmt{Pos: at(line, 1), Name: ident(line, "a")}},
		{"let with typed nil value", &ast.LetStmt{Pos: at(line, 1), Name: ident(line, "a"), Value: nilIdent}},
		{"unknown plugin statement", &ast.PluginStmt{Pos: at(line, 1), Keyword: "modle", Call: ident(line, "gp")}},
		{"unknown value statement", &ast.ValueStmt{Pos: at(line, 1), Keyword: "budgett", Value: num(line, 1)}},
		{"plugin statement without call", &ast.PluginStmt{Pos: at(line, 1), Keyword: "model"}},
		{"call without name", &ast.PluginStmt{Pos: at(line, 1), Keyword: "model", Call: &ast.CallExpr{Pos: at(line, 7)}}},
		{"nil argument", &ast.PluginStmt{Pos: at(line, 1), Keyword: "model",
			Call: &ast.CallExpr{Pos: at(line, 7), Fun: ident(line, "gp"), Args: []*ast.Arg{nil}}}},
		{"function call without name", &ast.ValueStmt{Pos: at(line, 1), Keyword: "seed", Value: &ast.CallExpr{Pos: at(line, 7)}}},
		{"observation noise without kind", &ast.ObservationNoiseStmt{Pos: at(line, 1)}},
		{"input noise without declarations", &ast.InputNoiseStmt{Pos: at(line, 1)}},
		{"input noise nil declaration", &ast.InputNoiseStmt{Pos: at(line, 1), Decls: []*ast.NoiseDecl{nil}}},
		{"input noise number target", &ast.InputNoiseStmt{Pos: at(line, 1), Decls: []*ast.NoiseDecl{
			{Pos: at(line, 5), Target: num(line, 1), Dist: ident(line, "normal")}}}},
		{"input noise indexed call target", &ast.InputNoiseStmt{Pos: at(line, 1), Decls: []*ast.NoiseDecl{
			{Pos: at(line, 5), Target: &ast.IndexExpr{Pos: at(line, 5), X: &ast.CallExpr{Pos: at(line, 5), Fun: ident(line, "f")}, Index: num(line, 0)},
				Dist: ident(line, "normal")}}}},
		{"input noise typed nil target", &ast.InputNoiseStmt{Pos: at(line, 1), Decls: []*ast.NoiseDecl{
			{Pos: at(line, 5), Target: nilNumber, Dist: ident(line, "normal")}}}},
		{"constraint without sides", &ast.ConstraintStmt{Pos: at(line, 1), Name: ident(line, "c"), Op: ">="}},
		{"constraint nil option", &ast.ConstraintStmt{Pos: at(line, 1), Name: ident(line, "c"), Op: ">=",
			LHS: &ast.ExternalBinding{Pos: at(line, 15), Keyword: "reported"}, RHS: &ast.ExprBinding{X: num(line, 0)},
			Options: []*ast.Option{nil}}},
		{"external constraint side", &ast.ConstraintStmt{Pos: at(line, 1), Name: ident(line, "c"), Op: ">=",
			LHS: &ast.ExternalBinding{Pos: at(line, 15), Keyword: "external"}, RHS: &ast.ExprBinding{X: num(line, 0)}}},
		{"go binding without path", &ast.ConstraintStmt{Pos: at(line, 1), Name: ident(line, "c"), Op: ">=",
			LHS: &ast.GoBinding{Pos: at(line, 15), Func: ident(line, "F")}, RHS: &ast.ExprBinding{X: num(line, 0)}}},
		{"exec without command", &ast.ConstraintStmt{Pos: at(line, 1), Name: ident(line, "c"), Op: ">=",
			LHS: &ast.ExecBinding{Pos: at(line, 15)}, RHS: &ast.ExprBinding{X: num(line, 0)}}},
		{"exec with empty command", &ast.ConstraintStmt{Pos: at(line, 1), Name: ident(line, "c"), Op: ">=",
			LHS: &ast.ExecBinding{Pos: at(line, 15), Args: []*ast.StringLit{{Pos: at(line, 20)}}}, RHS: &ast.ExprBinding{X: num(line, 0)}}},
		{"constraint with empty expression sides", &ast.ConstraintStmt{Pos: at(line, 1), Name: ident(line, "c"), Op: ">=",
			LHS: &ast.ExprBinding{}, RHS: &ast.ExprBinding{}}},
		{"measured constraint with empty threshold", &ast.ConstraintStmt{Pos: at(line, 1), Name: ident(line, "c"), Op: "<=",
			LHS: &ast.ExprBinding{}, RHS: &ast.ExternalBinding{Pos: at(line, 20), Keyword: "reported"}}},
		{"objective with empty expression", &ast.ObjectiveStmt{Pos: at(line, 1), Binding: &ast.ExprBinding{}}},
		{"objective without binding", &ast.ObjectiveStmt{Pos: at(line, 1)}},
		{"input noise index of nothing", &ast.InputNoiseStmt{Pos: at(line, 1), Decls: []*ast.NoiseDecl{
			{Pos: at(line, 5), Target: &ast.IndexExpr{Pos: at(line, 5), Index: num(line, 0)}, Dist: ident(line, "normal")}}}},
		{"input noise slice of nothing", &ast.InputNoiseStmt{Pos: at(line, 1), Decls: []*ast.NoiseDecl{
			{Pos: at(line, 5), Target: &ast.SliceExpr{Pos: at(line, 5)}, Dist: ident(line, "normal")}}}},
		{"typed nil init points", &ast.PluginStmt{Pos: at(line, 1), Keyword: "init", Call: (*ast.VecLit)(nil)}},
		{"typed nil learn", &ast.PluginStmt{Pos: at(line, 1), Keyword: "model",
			Call: &ast.CallExpr{Pos: at(line, 7), Fun: ident(line, "mmd"), Args: []*ast.Arg{{Pos: at(line, 11), Name: ident(line, "alpha"), Value: (*ast.LearnExpr)(nil)}}}}},
		{"candidates without source", &ast.CandidatesStmt{Pos: at(line, 1)}},
		{"dimension without bounds", &ast.DomainStmt{Pos: at(line, 1), Dims: []*ast.Dim{{Pos: at(line, 5), Name: ident(line, "y")}}}},
		{"nil dimension", &ast.DomainStmt{Pos: at(line, 1), Dims: []*ast.Dim{nil}}},
		{"empty domain", &ast.DomainStmt{Pos: at(line, 1)}},
		{"problem without name", &ast.ProblemStmt{Pos: at(line, 1)}},
		{"stop without condition", &ast.ValueStmt{Pos: at(line, 1), Keyword: "stop"}},
		{"slice with typed nil bounds of a scalar", &ast.ValueStmt{Pos: at(line, 1), Keyword: "stop",
			Value: &ast.SliceExpr{Pos: at(line, 5), X: num(line, 1), Lo: nilNumber, Hi: nilNumber}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stmts := baseStmts()
			// Replace the base statement of the same kind, so that duplicates
			// do not hide what is tested.
			if key := stmtKey(tt.stmt); key != "" && !isNil(tt.stmt) {
				for i, s := range stmts {
					if stmtKey(s) == key {
						stmts = append(stmts[:i], stmts[i+1:]...)
						break
					}
				}
			}
			stmts = append(stmts, tt.stmt)
			p, diags := Check(&ast.File{Name: "tree.bo", Stmts: stmts}, Config{})
			if p != nil || !diags.HasErrors() {
				t.Fatalf("got IR and %v; want errors", diags)
			}
			for _, d := range diags {
				if !d.Span.Start.IsValid() {
					t.Errorf("diagnostic without a position: %s", d)
				}
			}
		})
	}
}

func TestNilFile(t *testing.T) {
	p, diags := Check(nil, Config{})
	if p != nil || len(diags.Errors()) != 4 {
		t.Fatalf("Check(nil) = %v, %v; want the 4 missing statements", p, diags)
	}
	for _, d := range diags {
		if got := d.Span.Start; got.Line != 1 || got.Col != 1 {
			t.Errorf("%s: want 1:1", d)
		}
	}
}
