package typecheck

import (
	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ast"
	"github.com/bocdev/boc/dsl/ir"
)

func (c *checker) checkObjective() {
	s := c.stmts.objective
	if s == nil {
		return
	}
	c.stmtSpan = s.Pos
	if s.Lines != nil {
		c.checkObjectives(s)
		return
	}
	var b ir.Binding
	ok := false
	if e, isExpr := s.Binding.(*ast.ExprBinding); isExpr && e != nil {
		b, ok = c.objectiveExpr(e)
	} else {
		shape := objectiveValue
		if c.stmts.obsNoise != nil && c.stmts.obsNoise.Reported {
			shape = objectiveValueSD
		}
		b, ok = c.measuredBinding(s.Binding, "external", shape)
	}
	if ok {
		c.prog.Objective = ir.Objective{Maximize: s.Maximize, Binding: b}
	}
}

// objectiveExpr checks an objective given as an expression over the domain.
func (c *checker) objectiveExpr(e *ast.ExprBinding) (ir.Binding, bool) {
	x := c.expr(e.X, exprCtx{domain: true})
	if isInvalid(x) {
		return ir.Binding{}, false
	}
	if !x.Type().IsNumeric() {
		hint := ""
		if isArray(x.Type()) {
			hint = "reduce it to one number, e.g. with sum, norm or a benchmark function"
		}
		c.errorHint(x.Span(), hint, "the objective must be a real number, got %s", x.Type())
		return ir.Binding{}, false
	}
	if !usesDomain(x) {
		c.report(dsl.Warningf(x.Span(), "the objective does not depend on any domain variable"))
	}
	return ir.Binding{Kind: ir.ExprBinding, Span: x.Span(), Expr: toReal(x)}, true
}

// measuredBinding checks a binding that measures a value: a go function, an
// exec command, or values reported from outside. keyword is the word the
// context uses for the last: `external` for an objective, `reported` for a
// constraint. shape says what a go function must return.
func (c *checker) measuredBinding(b ast.Binding, keyword string, shape valueShape) (ir.Binding, bool) {
	if isNil(b) {
		c.incomplete("binding")
		return ir.Binding{}, false
	}
	switch b := b.(type) {
	case *ast.GoBinding:
		return c.goBinding(b, shape)
	case *ast.ExecBinding:
		return c.execBinding(b)
	case *ast.ExternalBinding:
		if b.Keyword != keyword {
			c.errorHint(b.Pos, "write `"+keyword+"`", "`%s` is not allowed here", b.Keyword)
			return ir.Binding{}, false
		}
		return ir.Binding{Kind: ir.ExternalBinding, Span: b.Pos}, true
	}
	c.errorf(b.Span(), "expected go \"import/path\".Func, exec \"command\" or %s", keyword)
	return ir.Binding{}, false
}

func (c *checker) execBinding(b *ast.ExecBinding) (ir.Binding, bool) {
	if len(b.Args) == 0 || b.Args[0] == nil {
		c.errorHint(b.Pos, `e.g. exec "./simulate" "--fast"`, "exec needs a command")
		return ir.Binding{}, false
	}
	if b.Args[0].Value == "" {
		c.errorf(b.Args[0].Pos, "the command of exec is empty")
		return ir.Binding{}, false
	}
	args := make([]string, 0, len(b.Args))
	for _, a := range b.Args {
		if a == nil {
			c.incomplete("exec binding")
			return ir.Binding{}, false
		}
		args = append(args, a.Value)
	}
	return ir.Binding{Kind: ir.ExecBinding, Span: b.Pos, Exec: args}, true
}
