package codegen

import (
	"math"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

// Go's operator precedences, from loosest to tightest, so that emitted
// expressions carry parentheses only where Go needs them.
const (
	precOr = 1 + iota
	precAnd
	precCompare
	precAdd
	precMul
	precUnary
	precPrimary
)

// operand is one element of an emitted expression.
type operand struct {
	code  jen.Code
	prec  int  // precedence of its outermost operator
	cheap bool // a literal, variable or array element: free to repeat
	// literal is the value of a finite number literal, nil otherwise.
	literal *float64
}

// in returns the operand's code as an operand of an operator of precedence
// prec.
func (o operand) in(prec int) jen.Code {
	if o.prec < prec {
		return jen.Parens(o.code)
	}
	return o.code
}

// value is an emitted .bo expression: its type and its elements, row-major
// (reals, ints and bools have one). Reals and ints are float64 in Go.
type value struct {
	typ   dsl.Type
	elems []operand
	// When the elements are consecutive elements of an array variable (the
	// point, or a local), array names it and offset is where they start, so a
	// vec can be passed as a slice without copying; arrayLen is its length.
	array    string
	offset   int
	arrayLen int
	constant *dsl.Value
}

// slice returns a []float64 expression over v's elements; v.array must be set.
func (v value) slice() jen.Code {
	if v.offset == 0 && len(v.elems) == v.arrayLen {
		return jen.Id(v.array).Index(jen.Empty().Op(":"))
	}
	return jen.Id(v.array).Index(jen.Lit(v.offset).Op(":").Lit(v.offset + len(v.elems)))
}

// exprEmitter emits .bo expressions as Go: statements it needs (temporaries,
// conditionals) go to stmts, in order, and each expression becomes a value
// over them.
type exprEmitter struct {
	g     *generator
	names *namer
	stmts []jen.Code
	// point is the Point variable domain variables are read from, with
	// length arrayLen; "" where there is none.
	point   string
	context map[string]operand // names defined by the context (stop when's acquisition, best, evaluations)
}

func (e *exprEmitter) sub() *exprEmitter {
	return &exprEmitter{g: e.g, names: e.names, point: e.point, context: e.context}
}

// expr emits x. It reports what it cannot emit and returns false then.
func (e *exprEmitter) expr(x ir.Expr) (value, bool) {
	switch x := x.(type) {
	case *ir.ConstExpr:
		return e.constant(x)
	case *ir.VarExpr:
		return e.variable(x)
	case *ir.NameExpr:
		o, ok := e.context[x.Name]
		if !ok {
			e.g.internal(x.At, "the name %s is not defined in this context", x.Name)
		}
		return value{typ: x.Typ, elems: []operand{o}}, ok
	case *ir.UnaryExpr:
		return e.unary(x)
	case *ir.BinaryExpr:
		return e.binary(x)
	case *ir.CondExpr:
		return e.cond(x)
	case *ir.IndexExpr:
		return e.index(x)
	case *ir.SliceExpr:
		v, ok := e.expr(x.X)
		if !ok {
			return value{}, false
		}
		if x.Lo < 0 || x.Hi > len(v.elems) || x.Lo > x.Hi {
			e.g.internal(x.At, "slice [%d:%d] of %s", x.Lo, x.Hi, v.typ)
			return value{}, false
		}
		return value{typ: x.Typ, elems: v.elems[x.Lo:x.Hi], array: v.array, offset: v.offset + x.Lo, arrayLen: v.arrayLen}, true
	case *ir.VecExpr:
		out := value{typ: x.Typ}
		for _, el := range x.Elems {
			v, ok := e.expr(el)
			if !ok {
				return value{}, false
			}
			out.elems = append(out.elems, v.elems...)
		}
		return out, true
	case *ir.CallExpr:
		return e.call(x)
	}
	e.g.internal(x.Span(), "cannot emit expression %T", x)
	return value{}, false
}

func (e *exprEmitter) constant(x *ir.ConstExpr) (value, bool) {
	v := x.Value
	out := value{typ: v.Type, constant: &v}
	switch v.Type.Kind {
	case dsl.Bool:
		out.elems = []operand{{code: jen.Lit(v.Truth), prec: precPrimary, cheap: true}}
	case dsl.Real, dsl.Int, dsl.Vec, dsl.Mat:
		for _, n := range v.Numbers {
			out.elems = append(out.elems, number(n))
		}
	default:
		e.g.internal(x.At, "a %s constant in an expression", v.Type)
		return value{}, false
	}
	return out, true
}

// number is a float64 literal, with math.Inf and math.NaN for the values Go
// has no literal for.
func number(x float64) operand {
	switch {
	case math.IsNaN(x):
		return operand{code: jen.Qual("math", "NaN").Call(), prec: precPrimary, cheap: true}
	case math.IsInf(x, 0):
		return operand{code: jen.Qual("math", "Inf").Call(jen.Lit(int(math.Copysign(1, x)))), prec: precPrimary, cheap: true}
	case math.Signbit(x):
		return operand{code: jen.Lit(x), prec: precUnary, cheap: true, literal: &x}
	}
	return operand{code: jen.Lit(x), prec: precPrimary, cheap: true, literal: &x}
}

func (e *exprEmitter) variable(x *ir.VarExpr) (value, bool) {
	if e.point == "" {
		e.g.internal(x.At, "domain variable %s where no point is defined", x.Dim.Name)
		return value{}, false
	}
	d := x.Dim
	v := value{typ: d.Type(), array: e.point, offset: d.Offset, arrayLen: e.g.p.D}
	for i := 0; i < d.Size; i++ {
		v.elems = append(v.elems, operand{code: jen.Id(e.point).Index(jen.Lit(d.Offset + i)), prec: precPrimary, cheap: true})
	}
	return v, true
}

func (e *exprEmitter) unary(x *ir.UnaryExpr) (value, bool) {
	v, ok := e.expr(x.X)
	if !ok {
		return value{}, false
	}
	op := "-"
	if x.Op == "not" {
		op = "!"
	}
	out := value{typ: x.Typ}
	for _, el := range v.elems {
		// Operands of a unary operator are primary, so that -(-x) never
		// prints as the decrement --x.
		out.elems = append(out.elems, operand{code: jen.Op(op).Add(el.in(precPrimary)), prec: precUnary})
	}
	return out, true
}

// binaryOps maps the .bo operators written as Go operators to their Go
// spelling and precedence.
var binaryOps = map[string]struct {
	goOp string
	prec int
}{
	"+": {"+", precAdd}, "-": {"-", precAdd}, "*": {"*", precMul}, "/": {"/", precMul},
	"<": {"<", precCompare}, "<=": {"<=", precCompare}, ">": {">", precCompare}, ">=": {">=", precCompare},
	"==": {"==", precCompare}, "!=": {"!=", precCompare},
	"and": {"&&", precAnd}, "or": {"||", precOr},
}

// flipSign pairs the operators that subtracting a negated operand swaps.
var flipSign = map[string]string{"+": "-", "-": "+"}

func (e *exprEmitter) binary(x *ir.BinaryExpr) (value, bool) {
	l, lok := e.expr(x.X)
	r, rok := e.expr(x.Y)
	if !lok || !rok {
		return value{}, false
	}
	combine := func(a, b operand) operand {
		return operand{code: jen.Qual("math", "Pow").Call(a.code, b.code), prec: precPrimary}
	}
	if op, ok := binaryOps[x.Op]; ok {
		// Left-associative: the right operand binds tighter, so a - (b - c)
		// keeps its parentheses.
		combine = func(a, b operand) operand {
			goOp := op.goOp
			// a - -c reads better as a + c (and a + -c as a - c); both
			// are exact in floating point.
			if flipped, ok := flipSign[goOp]; ok && b.literal != nil && math.Signbit(*b.literal) {
				goOp, b = flipped, number(-*b.literal)
			}
			return operand{code: jen.Add(a.in(op.prec)).Op(goOp).Add(b.in(op.prec + 1)), prec: op.prec}
		}
	} else if x.Op != "^" {
		e.g.internal(x.At, "unknown operator %q", x.Op)
		return value{}, false
	}
	n := max(len(l.elems), len(r.elems))
	if len(l.elems) != n && len(l.elems) != 1 || len(r.elems) != n && len(r.elems) != 1 {
		e.g.internal(x.At, "operands %s and %s of %q have different shapes", l.typ, r.typ, x.Op)
		return value{}, false
	}
	out := value{typ: x.Typ, elems: make([]operand, n)}
	a, b := e.broadcast(l.elems, n), e.broadcast(r.elems, n)
	for i := range out.elems {
		out.elems[i] = combine(a(i), b(i))
	}
	return out, true
}

// broadcast returns element i of elems, repeating a scalar n times; a
// repeated scalar is made cheap first.
func (e *exprEmitter) broadcast(elems []operand, n int) func(i int) operand {
	if len(elems) == 1 && n > 1 {
		o := e.cheap(elems[0])
		return func(int) operand { return o }
	}
	return func(i int) operand { return elems[i] }
}

// cheap returns o, or a temporary holding it when it is costly to repeat.
func (e *exprEmitter) cheap(o operand) operand {
	if o.cheap {
		return o
	}
	t := e.names.fresh("t")
	e.stmts = append(e.stmts, jen.Id(t).Op(":=").Add(o.code))
	return operand{code: jen.Id(t), prec: precPrimary, cheap: true}
}

// goType is the Go type holding a value of type t: a scalar, or an array of
// its elements.
func goType(t dsl.Type) jen.Code {
	switch t.Kind {
	case dsl.Bool:
		return jen.Bool()
	case dsl.Vec:
		return jen.Index(jen.Lit(t.Rows)).Float64()
	case dsl.Mat:
		return jen.Index(jen.Lit(t.Rows * t.Cols)).Float64()
	}
	return jen.Float64()
}

func isScalar(t dsl.Type) bool { return t.Kind != dsl.Vec && t.Kind != dsl.Mat }

// materialize stores v in a new local, so that its elements are cheap.
func (e *exprEmitter) materialize(v value, prefix string) value {
	name := e.names.fresh(prefix)
	e.stmts = append(e.stmts, jen.Id(name).Op(":=").Add(composite(v)))
	return localValue(v.typ, name, len(v.elems))
}

// composite is the Go value of v: its scalar, or an array literal.
func composite(v value) jen.Code {
	if isScalar(v.typ) {
		return v.elems[0].code
	}
	codes := make([]jen.Code, len(v.elems))
	for i, el := range v.elems {
		codes[i] = el.code
	}
	return jen.Add(goType(v.typ)).Values(codes...)
}

// localValue is the value held by local variable name.
func localValue(t dsl.Type, name string, n int) value {
	if isScalar(t) {
		return value{typ: t, elems: []operand{{code: jen.Id(name), prec: precPrimary, cheap: true}}}
	}
	v := value{typ: t, array: name, arrayLen: n}
	for i := 0; i < n; i++ {
		v.elems = append(v.elems, operand{code: jen.Id(name).Index(jen.Lit(i)), prec: precPrimary, cheap: true})
	}
	return v
}

// cond emits `if C then A else B` as a Go if statement assigning a local, so
// that each branch's temporaries are computed only when it is taken.
func (e *exprEmitter) cond(x *ir.CondExpr) (value, bool) {
	c, ok := e.expr(x.Cond)
	if !ok {
		return value{}, false
	}
	name := e.names.fresh("c")
	branch := func(b ir.Expr) ([]jen.Code, bool) {
		s := e.sub()
		v, ok := s.expr(b)
		return append(s.stmts, jen.Id(name).Op("=").Add(composite(v))), ok
	}
	thenStmts, tok := branch(x.Then)
	elseStmts, eok := branch(x.Else)
	if !tok || !eok {
		return value{}, false
	}
	e.stmts = append(e.stmts,
		jen.Var().Id(name).Add(goType(x.Typ)),
		jen.If(c.elems[0].code).Block(thenStmts...).Else().Block(elseStmts...))
	n := 1
	if !isScalar(x.Typ) {
		n = x.Typ.Rows * max(x.Typ.Cols, 1)
	}
	return localValue(x.Typ, name, n), true
}

func (e *exprEmitter) index(x *ir.IndexExpr) (value, bool) {
	v, ok := e.expr(x.X)
	if !ok {
		return value{}, false
	}
	width := 1
	if v.typ.Kind == dsl.Mat {
		width = v.typ.Cols
	}
	c, isConst := x.Index.(*ir.ConstExpr)
	if !isConst {
		return e.lookup(x, v, width)
	}
	i := int(c.Value.Float())
	if i < 0 || (i+1)*width > len(v.elems) {
		e.g.internal(x.At, "index %d out of range for %s", i, v.typ)
		return value{}, false
	}
	return value{typ: x.Typ, elems: v.elems[i*width : (i+1)*width], array: v.array, offset: v.offset + i*width, arrayLen: v.arrayLen}, true
}

// lookup is a constant table v (a vector, or a matrix of rows of width
// values) indexed over the domain, which the checker bounded to the table:
// each element is an array literal of the column indexed by int(index).
func (e *exprEmitter) lookup(x *ir.IndexExpr, v value, width int) (value, bool) {
	if v.constant == nil {
		e.g.internal(x.At, "an index over the domain into a %s that is not constant", v.typ)
		return value{}, false
	}
	index, ok := e.expr(x.Index)
	if !ok {
		return value{}, false
	}
	rows := len(v.elems) / width
	at := jen.Int().Call(index.elems[0].code)
	out := value{typ: x.Typ}
	for j := range width {
		column := make([]jen.Code, rows)
		for r := range rows {
			column[r] = v.elems[r*width+j].code
		}
		out.elems = append(out.elems, operand{code: jen.Index(jen.Lit(rows)).Float64().Values(column...).Index(at), prec: precPrimary})
	}
	return out, true
}

func (e *exprEmitter) call(x *ir.CallExpr) (value, bool) {
	args := make([]registry.ExprValue, len(x.Args))
	ok := true
	for i, a := range x.Args {
		v, vok := e.expr(a)
		if vok {
			args[i] = e.hookArg(v)
		}
		ok = ok && vok
	}
	hook, found := hookOf[registry.CallEmit](e.g, x.Plugin, x.At)
	if !ok || !found {
		return value{}, false
	}
	res, err := hook(args)
	if err != nil {
		e.g.internal(x.At, "cannot emit %s: %v", x.Plugin, err)
		return value{}, false
	}
	want := 1
	if !isScalar(x.Typ) {
		want = x.Typ.Rows * max(x.Typ.Cols, 1)
	}
	if len(res.Elems) != want {
		e.g.internal(x.At, "plugin %s emitted %d elements for a %s", x.Plugin, len(res.Elems), x.Typ)
		return value{}, false
	}
	out := value{typ: x.Typ}
	for _, c := range res.Elems {
		out.elems = append(out.elems, operand{code: c, prec: precPrimary})
	}
	return out, true
}

// hookArg prepares v for a function or benchmark hook: cheap, primary
// elements, and a slice for vectors.
func (e *exprEmitter) hookArg(v value) registry.ExprValue {
	out := registry.ExprValue{Type: v.typ, Const: v.constant}
	if isScalar(v.typ) {
		out.Elems = []jen.Code{e.cheap(v.elems[0]).in(precPrimary)}
		return out
	}
	if v.array == "" || !allCheap(v.elems) {
		v = e.materialize(v, "v")
	}
	for _, el := range v.elems {
		out.Elems = append(out.Elems, el.code)
	}
	if v.typ.Kind == dsl.Vec {
		out.Slice = v.slice()
	}
	return out
}

func allCheap(os []operand) bool {
	for _, o := range os {
		if !o.cheap {
			return false
		}
	}
	return true
}
