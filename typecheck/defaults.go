package typecheck

import (
	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ast"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
)

// defaultValue checks the default of a parameter left out of a call at sp.
// Defaults see the predefined constants only (never the user's lets or
// domain), and the syntax built for them is placed at the call.
func (c *checker) defaultValue(owner string, prm *registry.Param, sp dsl.Span) (ir.Value, registry.Operand, bool) {
	ctx := exprCtx{predefinedOnly: true, why: "a default must be constant"}
	return c.paramValue(owner, prm, defaultExpr(prm.Default, sp), ctx)
}

// defaultExpr is the syntax of default v, as if written at sp, so that it is
// checked like user input.
func defaultExpr(v registry.Value, sp dsl.Span) ast.Expr {
	switch v.Kind {
	case registry.RealValue, registry.IntValue:
		if v.Number < 0 {
			return &ast.UnaryExpr{Pos: sp, Op: "-", X: defaultExpr(registry.Value{Kind: v.Kind, Number: -v.Number}, sp)}
		}
		return &ast.NumberLit{Pos: sp, Text: v.String(), Value: v.Number, Int: v.Kind == registry.IntValue}
	case registry.StringValue:
		return &ast.StringLit{Pos: sp, Value: v.Text}
	case registry.LearnValue:
		return &ast.LearnExpr{Pos: sp}
	case registry.PluginValue:
		name := &ast.Ident{Pos: sp, Name: v.Text}
		if len(v.Args) == 0 {
			return name
		}
		args := make([]*ast.Arg, len(v.Args))
		for i, a := range v.Args {
			args[i] = &ast.Arg{Pos: sp, Name: &ast.Ident{Pos: sp, Name: a.Name}, Value: defaultExpr(a.Value, sp)}
		}
		return &ast.CallExpr{Pos: sp, Fun: name, Args: args}
	}
	return nil
}
