package typecheck

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ast"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
)

// invalid is the result of an expression that failed to check: a constant of
// the invalid type. Whatever is built on it is invalid too, silently, so that
// one mistake yields one message.
func invalid(sp dsl.Span) ir.Expr {
	return &ir.ConstExpr{At: sp, Value: dsl.Value{Type: dsl.Type{Kind: dsl.Invalid}}}
}

func isInvalid(e ir.Expr) bool { return e == nil || e.Type().Kind == dsl.Invalid }

func constant(sp dsl.Span, v dsl.Value) ir.Expr { return &ir.ConstExpr{At: sp, Value: v} }

// constOf returns the value of a folded constant expression.
func constOf(e ir.Expr) (dsl.Value, bool) {
	if k, ok := e.(*ir.ConstExpr); ok && k.Value.Type.Kind != dsl.Invalid {
		return k.Value, true
	}
	return dsl.Value{}, false
}

// requireConst returns ctx for a part of an expression that must be constant
// (bounds, sizes, indices); why completes "x is a domain variable; <why>".
func (ctx exprCtx) requireConst(why string) exprCtx {
	ctx.domain = false
	ctx.why = why
	return ctx
}

// constExpr checks e in ctx and requires a constant value.
func (c *checker) constExpr(e ast.Expr, ctx exprCtx) (dsl.Value, bool) {
	x := c.expr(e, ctx)
	if isInvalid(x) {
		return dsl.Value{}, false
	}
	v, ok := constOf(x)
	if !ok {
		c.errorf(x.Span(), "%s; this value is only known at run time", ctx.why)
	}
	return v, ok
}

// constInt checks e as a constant int; what names it in messages ("budget",
// "an index").
func (c *checker) constInt(e ast.Expr, what string, ctx exprCtx) (int, bool) {
	v, ok := c.constExpr(e, ctx.requireConst(what+" must be constant"))
	if !ok {
		return 0, false
	}
	if v.Type.Kind != dsl.Int {
		hint := ""
		if v.Type.Kind == dsl.Real && v.Float() == math.Trunc(v.Float()) && math.Abs(v.Float()) <= maxExactInt {
			hint = fmt.Sprintf("write %d", int64(v.Float()))
		}
		c.errorHint(e.Span(), hint, "%s must be an int, got %s %s", what, v.Type, v)
		return 0, false
	}
	return int(v.Float()), true
}

// expr checks an expression, folding what is constant.
func (c *checker) expr(e ast.Expr, ctx exprCtx) ir.Expr {
	if isNil(e) {
		c.incomplete("expression")
		return invalid(c.stmtSpan)
	}
	switch e := e.(type) {
	case *ast.NumberLit:
		return c.number(e)
	case *ast.StringLit:
		return constant(e.Pos, dsl.Value{Type: dsl.StringType, Text: e.Value})
	case *ast.Ident:
		return c.ident(e, ctx)
	case *ast.ParenExpr:
		return c.expr(e.X, ctx)
	case *ast.VecLit:
		return c.vecLit(e, ctx)
	case *ast.TableLit:
		return c.tableLit(e, ctx)
	case *ast.UnaryExpr:
		return c.unary(e, ctx)
	case *ast.BinaryExpr:
		return c.binary(e, ctx)
	case *ast.IfExpr:
		return c.cond(e, ctx)
	case *ast.IndexExpr:
		return c.index(e, ctx)
	case *ast.SliceExpr:
		return c.slice(e, ctx)
	case *ast.CallExpr:
		return c.funcCall(e, ctx)
	case *ast.TupleExpr:
		c.errorf(e.Pos, "a tuple (a, b) is only allowed as an input-noise target")
	case *ast.LearnExpr:
		c.errorHint(e.Pos, "e.g. kernel = matern52(lengthscale = learn)",
			"learn is only allowed as the value of a learnable hyperparameter")
	default:
		c.errorf(e.Span(), "unexpected %T in an expression", e)
	}
	return invalid(e.Span())
}

// maxExactInt is the largest int a float64 holds exactly; .bo ints live in
// float64 values, so larger ones are rejected rather than rounded.
const maxExactInt = 1 << 53

func intValue(x float64) dsl.Value { return dsl.Value{Type: dsl.IntType, Numbers: []float64{x}} }

func (c *checker) number(e *ast.NumberLit) ir.Expr {
	switch {
	case math.IsInf(e.Value, 0) || math.IsNaN(e.Value):
		c.errorf(e.Pos, "number %s is out of range", e.Text)
	case e.Int && math.Abs(e.Value) > maxExactInt:
		c.errorHint(e.Pos, fmt.Sprintf("a count (budget, n, ...) must be at most 2^53 = %d; where a real is expected, write it as one, e.g. %g", int64(maxExactInt), e.Value),
			"integer %s is too large (the limit is 2^53)", e.Text)
	case e.Int:
		return constant(e.Pos, intValue(math.Trunc(e.Value)))
	default:
		return constant(e.Pos, dsl.RealValue(e.Value))
	}
	return invalid(e.Pos)
}

// vecLit checks [a, b, ...]: a vector of numbers, or a matrix whose rows are
// vectors of equal length.
func (c *checker) vecLit(e *ast.VecLit, ctx exprCtx) ir.Expr {
	if len(e.Elems) == 0 {
		c.errorf(e.Pos, "empty vector: a vector needs at least one element")
		return invalid(e.Pos)
	}
	elems, ok := c.exprs(e.Elems, ctx)
	if !ok {
		return invalid(e.Pos)
	}
	first := elems[0].Type()
	var typ dsl.Type
	switch {
	case first.IsNumeric():
		typ = dsl.VecOf(len(elems))
		for i, x := range elems {
			if !x.Type().IsNumeric() {
				c.errorf(x.Span(), "vector elements must all be numbers; element %d is %s", i, x.Type())
				return invalid(e.Pos)
			}
		}
	case first.Kind == dsl.Vec:
		typ = dsl.MatOf(len(elems), first.Rows)
		for i, x := range elems {
			if t := x.Type(); t.Kind != dsl.Vec || t.Rows != first.Rows {
				c.errorHint(x.Span(), "a matrix is a list of rows of equal length",
					"matrix rows must have equal length: row 0 is %s, row %d is %s", first, i, t)
				return invalid(e.Pos)
			}
		}
	default:
		c.errorf(elems[0].Span(), "vector elements must be numbers (or rows of a matrix), got %s", first)
		return invalid(e.Pos)
	}
	var numbers []float64
	for _, x := range elems {
		v, ok := constOf(x)
		if !ok {
			for i := range elems {
				elems[i] = toReal(elems[i])
			}
			return &ir.VecExpr{At: e.Pos, Elems: elems, Typ: typ}
		}
		numbers = append(numbers, v.Numbers...)
	}
	return constant(e.Pos, dsl.Value{Type: typ, Numbers: numbers})
}

// exprs checks a list of expressions; ok is false if any failed.
func (c *checker) exprs(es []ast.Expr, ctx exprCtx) ([]ir.Expr, bool) {
	out := make([]ir.Expr, len(es))
	ok := true
	for i, e := range es {
		out[i] = c.expr(e, ctx)
		ok = ok && !isInvalid(out[i])
	}
	return out, ok
}

// toReal turns an int constant into a real one, where the context is real.
func toReal(e ir.Expr) ir.Expr {
	if v, ok := constOf(e); ok && v.Type.Kind == dsl.Int {
		return constant(e.Span(), dsl.RealValue(v.Float()))
	}
	return e
}

// isArray reports whether t is a vec or mat: a shape arithmetic works on
// element-wise.
func isArray(t dsl.Type) bool { return t.Kind == dsl.Vec || t.Kind == dsl.Mat }

func (c *checker) unary(e *ast.UnaryExpr, ctx exprCtx) ir.Expr {
	x := c.expr(e.X, ctx)
	if isInvalid(x) {
		return invalid(e.Pos)
	}
	t := x.Type()
	switch {
	case e.Op == "-" && !(t.IsNumeric() || isArray(t)):
		c.errorf(e.Pos, "operator - needs a number, vector or matrix, got %s", t)
		return invalid(e.Pos)
	case e.Op == "not" && t.Kind != dsl.Bool:
		c.errorf(e.Pos, "not needs a bool, got %s", t)
		return invalid(e.Pos)
	case e.Op != "-" && e.Op != "not":
		c.errorf(e.Pos, "unknown operator %q", e.Op)
		return invalid(e.Pos)
	}
	if v, ok := constOf(x); ok {
		return constant(e.Pos, foldUnary(e.Op, v))
	}
	return &ir.UnaryExpr{At: e.Pos, Op: e.Op, X: x, Typ: t}
}

// binary checks a chain of binary operators down its left operands in a
// loop, in the order recursion would take, so that a sum of a great many
// terms (a generated objective) does not recurse once per term.
func (c *checker) binary(e *ast.BinaryExpr, ctx exprCtx) ir.Expr {
	var buf [8]*ast.BinaryExpr
	spine := append(buf[:0], e)
	for {
		x, ok := spine[len(spine)-1].X.(*ast.BinaryExpr)
		if !ok {
			break
		}
		spine = append(spine, x)
	}
	x := c.expr(spine[len(spine)-1].X, ctx)
	for i := len(spine) - 1; i >= 0; i-- {
		x = c.binaryOf(spine[i], x, c.expr(spine[i].Y, ctx))
	}
	return x
}

// binaryOf types e given its checked operands.
func (c *checker) binaryOf(e *ast.BinaryExpr, x, y ir.Expr) ir.Expr {
	if isInvalid(x) || isInvalid(y) {
		return invalid(e.Pos)
	}
	if (e.Op == "==" || e.Op == "!=") && (x.Type().Kind == dsl.Level || y.Type().Kind == dsl.Level) {
		return c.levelComparison(e, x, y)
	}
	typ, msg := binaryType(e.Op, x, y)
	if msg != "" {
		c.errorHint(e.OpPos, levelHint(x, y), "%s", msg)
		return invalid(e.Pos)
	}
	xv, xConst := constOf(x)
	yv, yConst := constOf(y)
	if xConst && yConst {
		v, fault := foldBinary(e.Op, xv, yv, typ)
		if fault != "" {
			sp := e.OpPos
			if e.Op == "/" {
				sp = y.Span()
			}
			c.errorf(sp, "%s", fault)
			return invalid(e.Pos)
		}
		return constant(e.Pos, v)
	}
	if typ.Kind == dsl.Real || isArray(typ) || x.Type().Kind == dsl.Real || y.Type().Kind == dsl.Real {
		x, y = toReal(x), toReal(y) // int constants meet reals as reals, comparisons included
	}
	return &ir.BinaryExpr{At: e.Pos, Op: e.Op, X: x, Y: y, Typ: typ}
}

// binaryType types x op y, or says what is wrong. Arithmetic is element-wise
// on vectors and matrices of equal shape, with a scalar operand broadcast.
// Division always gives a real (1/2 is 0.5); int ^ int is an int only when
// the exponent is a non-negative constant.
func binaryType(op string, x, y ir.Expr) (dsl.Type, string) {
	xt, yt := x.Type(), y.Type()
	switch op {
	case "+", "-", "*", "/", "^":
		for _, t := range []dsl.Type{xt, yt} {
			if !t.IsNumeric() && !isArray(t) {
				return dsl.Type{}, fmt.Sprintf("operator %s needs numbers, vectors or matrices, got %s", op, t)
			}
		}
		switch {
		case isArray(xt) && isArray(yt):
			if xt != yt {
				return dsl.Type{}, fmt.Sprintf("mismatched shapes: %s %s %s", xt, op, yt)
			}
			return xt, ""
		case isArray(xt):
			return xt, ""
		case isArray(yt):
			return yt, ""
		}
		if xt.Kind == dsl.Int && yt.Kind == dsl.Int {
			if op == "+" || op == "-" || op == "*" {
				return dsl.IntType, ""
			}
			if yv, ok := constOf(y); ok && op == "^" && yv.Float() >= 0 {
				return dsl.IntType, ""
			}
		}
		return dsl.RealType, ""
	case "<", "<=", ">", ">=":
		if !xt.IsNumeric() || !yt.IsNumeric() {
			return dsl.Type{}, fmt.Sprintf("comparison %s needs two numbers, got %s and %s", op, xt, yt)
		}
		return dsl.BoolType, ""
	case "==", "!=":
		comparable := (xt.IsNumeric() && yt.IsNumeric()) ||
			(xt.Kind == yt.Kind && (xt.Kind == dsl.Bool || xt.Kind == dsl.String))
		if !comparable {
			return dsl.Type{}, fmt.Sprintf("cannot compare %s %s %s", xt, op, yt)
		}
		return dsl.BoolType, ""
	case "and", "or":
		if xt.Kind != dsl.Bool || yt.Kind != dsl.Bool {
			return dsl.Type{}, fmt.Sprintf("%s needs two bools, got %s and %s", op, xt, yt)
		}
		return dsl.BoolType, ""
	}
	return dsl.Type{}, fmt.Sprintf("unknown operator %q", op)
}

// cond checks `if C then A else B`; with a constant condition it is the
// chosen branch.
func (c *checker) cond(e *ast.IfExpr, ctx exprCtx) ir.Expr {
	parts, ok := c.exprs([]ast.Expr{e.Cond, e.Then, e.Else}, ctx)
	if !ok {
		return invalid(e.Pos)
	}
	cond, then, els := parts[0], parts[1], parts[2]
	if cond.Type().Kind != dsl.Bool {
		c.errorf(cond.Span(), "if needs a bool condition, got %s", cond.Type())
		return invalid(e.Pos)
	}
	typ, ok := unify(then.Type(), els.Type())
	if !ok {
		c.errorf(els.Span(), "if branches have different types: %s and %s", then.Type(), els.Type())
		return invalid(e.Pos)
	}
	if typ.Kind == dsl.Real {
		then, els = toReal(then), toReal(els)
	}
	if v, ok := constOf(cond); ok {
		if v.Truth {
			return then
		}
		return els
	}
	return &ir.CondExpr{At: e.Pos, Cond: cond, Then: then, Else: els, Typ: typ}
}

// unify returns the type both branches convert to: equal types, or real for
// an int and a real.
func unify(a, b dsl.Type) (dsl.Type, bool) {
	switch {
	case a == b:
		return a, true
	case a.IsNumeric() && b.IsNumeric():
		return dsl.RealType, true
	}
	return dsl.Type{}, false
}

// index checks x[i]: an element of a vector or a row of a matrix. The index
// must be a constant, so that every access is checked against the length at
// compile time.
func (c *checker) index(e *ast.IndexExpr, ctx exprCtx) ir.Expr {
	x := c.expr(e.X, ctx)
	if isNil(e.Index) {
		c.incomplete("index")
		return invalid(e.Pos)
	}
	index := c.expr(e.Index, ctx)
	if isInvalid(index) {
		return invalid(e.Pos)
	}
	if v, ok := constOf(x); ok && v.Type.Kind == dsl.Table {
		return c.tableIndex(e, v, index)
	}
	if _, isConst := constOf(index); !isConst {
		return c.lookup(e, x, index)
	}
	i, iok := c.constInt(e.Index, "an index", ctx)
	if isInvalid(x) || !iok {
		return invalid(e.Pos)
	}
	t := x.Type()
	elem, ok := c.elemType(e, t)
	if !ok {
		return invalid(e.Pos)
	}
	if i < 0 || i >= t.Rows {
		c.errorf(e.Index.Span(), "index %d is out of range for %s (valid: 0 to %d)", i, t, t.Rows-1)
		return invalid(e.Pos)
	}
	if v, ok := constOf(x); ok {
		width := len(v.Numbers) / t.Rows
		return constant(e.Pos, dsl.Value{Type: elem, Numbers: slices.Clone(v.Numbers[i*width : (i+1)*width])})
	}
	return &ir.IndexExpr{At: e.Pos, X: x, Index: constant(e.Index.Span(), intValue(float64(i))), Typ: elem}
}

// elemType is the type of an element of t: a real of a vector, a row of a
// matrix.
func (c *checker) elemType(e *ast.IndexExpr, t dsl.Type) (dsl.Type, bool) {
	switch t.Kind {
	case dsl.Vec:
		return dsl.RealType, true
	case dsl.Mat:
		return dsl.VecOf(t.Cols), true
	}
	c.errorf(e.Pos, "cannot index a %s; only vectors and matrices have elements", t)
	return dsl.Type{}, false
}

// slice checks v[lo:hi] on a vector, with constant bounds (0 and the length
// when left out).
func (c *checker) slice(e *ast.SliceExpr, ctx exprCtx) ir.Expr {
	x := c.expr(e.X, ctx)
	bound := func(b ast.Expr, def int) (int, bool) {
		if isNil(b) {
			return def, true
		}
		return c.constInt(b, "a slice bound", ctx)
	}
	if isInvalid(x) {
		return invalid(e.Pos)
	}
	t := x.Type()
	lo, lok := bound(e.Lo, 0)
	hi, hok := bound(e.Hi, t.Rows)
	if !lok || !hok {
		return invalid(e.Pos)
	}
	if t.Kind != dsl.Vec {
		c.errorf(e.Pos, "cannot slice a %s; only vectors can be sliced", t)
		return invalid(e.Pos)
	}
	if msg := sliceProblem(lo, hi, t.Rows); msg != "" {
		c.errorf(e.Pos, "%s", msg)
		return invalid(e.Pos)
	}
	typ := dsl.VecOf(hi - lo)
	if v, ok := constOf(x); ok {
		return constant(e.Pos, dsl.Value{Type: typ, Numbers: slices.Clone(v.Numbers[lo:hi])})
	}
	return &ir.SliceExpr{At: e.Pos, X: x, Lo: lo, Hi: hi, Typ: typ}
}

// sliceProblem says what is wrong with [lo:hi] on n elements, or "".
func sliceProblem(lo, hi, n int) string {
	switch {
	case lo < 0 || hi > n:
		return fmt.Sprintf("slice [%d:%d] is out of range for vec[%d]", lo, hi, n)
	case lo >= hi:
		return fmt.Sprintf("slice [%d:%d] is empty", lo, hi)
	}
	return ""
}

// funcCall checks a call in an expression: a built-in function or a
// benchmark, typed by the plugin's Result hook and folded by its Fold hook
// when every argument is constant.
func (c *checker) funcCall(e *ast.CallExpr, ctx exprCtx) ir.Expr {
	if e.Fun == nil {
		c.incomplete("call")
		return invalid(e.Pos)
	}
	p := c.pluginNamed(e.Fun.Name, registry.Function, registry.Benchmark)
	args := make([]ir.Expr, 0, len(e.Args))
	ok := true
	for _, a := range e.Args {
		if a == nil {
			c.incomplete("argument list")
			ok = false
			continue
		}
		if a.Name != nil && p != nil {
			c.errorf(a.Pos, "%s takes positional arguments only", p.Name)
			ok = false
		}
		x := c.expr(a.Value, ctx)
		ok = ok && !isInvalid(x)
		args = append(args, x)
	}
	if p == nil {
		c.unknownFunction(e.Fun)
		return invalid(e.Pos)
	}
	if !ok {
		return invalid(e.Pos)
	}
	if p.Result == nil {
		c.errorf(e.Pos, "internal error: %s has no Result hook", p.ID())
		return invalid(e.Pos)
	}
	ops := make([]registry.Operand, len(args))
	var values []dsl.Value
	for i, x := range args {
		ops[i].Type = x.Type()
		if v, ok := constOf(x); ok {
			ops[i].Const = &v
			values = append(values, v)
		}
	}
	typ, err := p.Result(ops)
	if err != nil {
		c.errorf(e.Pos, "%s", err)
		return invalid(e.Pos)
	}
	if p.Fold != nil && len(values) == len(args) {
		v, err := p.Fold(values)
		switch {
		case err != nil:
			c.errorf(e.Pos, "%s", err)
			return invalid(e.Pos)
		case v.Type != typ:
			c.errorf(e.Pos, "internal error: %s folded to a %s, not the %s its Result hook promised", p.ID(), v.Type, typ)
			return invalid(e.Pos)
		}
		return constant(e.Pos, v)
	}
	return &ir.CallExpr{At: e.Pos, Plugin: p.ID(), Args: args, Typ: typ}
}

// unknownFunction reports a call of a name that is no function.
func (c *checker) unknownFunction(id *ast.Ident) {
	if p := c.pluginNamed(id.Name, registry.Kinds...); p != nil {
		c.errorf(id.Pos, "%s is %s, not a function", id.Name, aKind(p.Kind))
		return
	}
	if sym := c.scope.names[id.Name]; sym != nil {
		c.errorf(id.Pos, "%s is a %s, not a function", id.Name, symbolNoun[sym.kind])
		return
	}
	names := append(c.plugins.Names(registry.Function), c.plugins.Names(registry.Benchmark)...)
	sort.Strings(names)
	c.errorHint(id.Pos, dsl.DidYouMean(id.Name, names), "unknown function %s", id.Name)
}

// symbolNoun names each kind of symbol in messages.
var symbolNoun = map[symbolKind]string{constSym: "constant", letSym: "let", dimSym: "domain variable"}

// usesDomain reports whether e depends on a domain variable.
func usesDomain(e ir.Expr) bool {
	switch e := e.(type) {
	case *ir.VarExpr:
		return true
	case *ir.UnaryExpr:
		return usesDomain(e.X)
	case *ir.BinaryExpr:
		return usesDomain(e.X) || usesDomain(e.Y)
	case *ir.CondExpr:
		return usesDomain(e.Cond) || usesDomain(e.Then) || usesDomain(e.Else)
	case *ir.IndexExpr:
		return usesDomain(e.X) || usesDomain(e.Index)
	case *ir.SliceExpr:
		return usesDomain(e.X)
	case *ir.VecExpr:
		return anyUsesDomain(e.Elems)
	case *ir.CallExpr:
		return anyUsesDomain(e.Args)
	}
	return false
}

func anyUsesDomain(es []ir.Expr) bool {
	for _, e := range es {
		if usesDomain(e) {
			return true
		}
	}
	return false
}
