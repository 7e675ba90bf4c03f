package typecheck

import (
	"fmt"
	"sync"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ast"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/parser"
	"github.com/bocdev/boc/stdlib/registry"
)

// defaultExprs caches the parsed default of each plugin parameter, by source
// text: defaults are few and are parsed once per process.
var defaultExprs sync.Map // string -> parsedDefault

type parsedDefault struct {
	expr ast.Expr
	err  error
}

// parseDefault parses the .bo source of a parameter default. The parser only
// reads whole files, so the default becomes the value of a let.
func parseDefault(src string) (ast.Expr, error) {
	if d, ok := defaultExprs.Load(src); ok {
		return d.(parsedDefault).expr, d.(parsedDefault).err
	}
	d := parsedDefault{}
	f, diags := parser.ParseFile("default", []byte("let _ = "+src+"\n"))
	switch {
	case diags.HasErrors():
		d.err = diags
	case f == nil || len(f.Stmts) != 1:
		d.err = fmt.Errorf("%q is not one expression", src)
	default:
		if let, ok := f.Stmts[0].(*ast.LetStmt); ok && !isNil(let.Value) {
			d.expr = let.Value
		} else {
			d.err = fmt.Errorf("%q is not an expression", src)
		}
	}
	defaultExprs.Store(src, d)
	return d.expr, d.err
}

// defaultValue checks the default of a parameter left out of a call at sp.
// Defaults see the predefined constants only (never the user's lets or
// domain), and anything built from them is placed at the call.
func (c *checker) defaultValue(owner string, prm *registry.Param, sp dsl.Span) (ir.Value, registry.Operand, bool) {
	e, err := parseDefault(prm.Default)
	if err != nil {
		c.errorf(sp, "internal error: the default of %s does not parse: %v", owner, err)
		return nil, registry.Operand{}, false
	}
	ctx := exprCtx{predefinedOnly: true, why: "a default must be constant"}
	return c.paramValue(owner, prm, respan(e, sp), ctx)
}

// respan returns a copy of e with every span set to sp.
func respan(e ast.Expr, sp dsl.Span) ast.Expr {
	if isNil(e) {
		return e
	}
	switch e := e.(type) {
	case *ast.Ident:
		return respanIdent(e, sp)
	case *ast.NumberLit:
		n := *e
		n.Pos = sp
		return &n
	case *ast.StringLit:
		n := *e
		n.Pos = sp
		return &n
	case *ast.VecLit:
		return &ast.VecLit{Pos: sp, Elems: respanAll(e.Elems, sp)}
	case *ast.TupleExpr:
		return &ast.TupleExpr{Pos: sp, Elems: respanAll(e.Elems, sp)}
	case *ast.ParenExpr:
		return &ast.ParenExpr{Pos: sp, X: respan(e.X, sp)}
	case *ast.UnaryExpr:
		return &ast.UnaryExpr{Pos: sp, Op: e.Op, X: respan(e.X, sp)}
	case *ast.BinaryExpr:
		return &ast.BinaryExpr{Pos: sp, Op: e.Op, OpPos: sp, X: respan(e.X, sp), Y: respan(e.Y, sp)}
	case *ast.IfExpr:
		return &ast.IfExpr{Pos: sp, Cond: respan(e.Cond, sp), Then: respan(e.Then, sp), Else: respan(e.Else, sp)}
	case *ast.IndexExpr:
		return &ast.IndexExpr{Pos: sp, X: respan(e.X, sp), Index: respan(e.Index, sp)}
	case *ast.SliceExpr:
		return &ast.SliceExpr{Pos: sp, X: respan(e.X, sp), Lo: respan(e.Lo, sp), Hi: respan(e.Hi, sp)}
	case *ast.CallExpr:
		return &ast.CallExpr{Pos: sp, Fun: respanIdent(e.Fun, sp), Args: respanArgs(e.Args, sp)}
	case *ast.LearnExpr:
		return &ast.LearnExpr{Pos: sp, Args: respanArgs(e.Args, sp)}
	}
	return e
}

func respanIdent(id *ast.Ident, sp dsl.Span) *ast.Ident {
	if id == nil {
		return nil
	}
	return &ast.Ident{Pos: sp, Name: id.Name}
}

func respanAll(es []ast.Expr, sp dsl.Span) []ast.Expr {
	out := make([]ast.Expr, len(es))
	for i, e := range es {
		out[i] = respan(e, sp)
	}
	return out
}

func respanArgs(args []*ast.Arg, sp dsl.Span) []*ast.Arg {
	out := make([]*ast.Arg, len(args))
	for i, a := range args {
		if a != nil {
			out[i] = &ast.Arg{Pos: sp, Name: respanIdent(a.Name, sp), Value: respan(a.Value, sp)}
		}
	}
	return out
}
