package parser

import (
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ast"
)

// Operator precedence, loosest first:
//
//	or
//	and
//	not                       (prefix)
//	< <= > >= == !=           (non-associative: a < b < c is an error)
//	+ -
//	* /
//	-                         (prefix)
//	^                         (right-associative; -2^2 is -(2^2), 2^-1 is allowed)
//
// then indexing and slicing, which the grammar attaches to their operand.
// if-then-else is an operand whose else branch takes the rest of the
// expression.
const (
	precOr = iota + 1
	precAnd
	precNot
	precCompare
	precAdd
	precMul
	precNeg
	precPow
)

var binaryPrecedence = map[string]int{
	"or": precOr, "and": precAnd,
	"<": precCompare, "<=": precCompare, ">": precCompare, ">=": precCompare, "==": precCompare, "!=": precCompare,
	"+": precAdd, "-": precAdd, "*": precMul, "/": precMul, "^": precPow,
}

var prefixPrecedence = map[string]int{"not": precNot, "-": precNeg}

// climber applies precedence to a flat list `x0 op1 x1 op2 x2 ...` by
// precedence climbing. ops[i] stands between operands i and i+1.
type climber struct {
	c        *converter
	operands []*operand
	ops      []lexer.Token
	cur      int  // the operand being read
	afterNot bool // the operand being read follows a `not`
}

// climb builds the tree of x followed by rest, an expression whose loosest
// operators have precedence minPrec.
func climb[T operatorOperand](c *converter, minPrec int, x *operand, rest []T) ast.Expr {
	p := &climber{c: c, operands: make([]*operand, 1, len(rest)+1), ops: make([]lexer.Token, 0, len(rest))}
	p.operands[0] = x
	for _, r := range rest {
		p.ops = append(p.ops, r.tokens()[0])
		p.operands = append(p.operands, r.right())
	}
	return p.binary(minPrec)
}

// operatorOperand is the `OP y` part of a flat expression; its first token is
// the operator.
type operatorOperand interface {
	production
	right() *operand
}

func (o *binaryOperand) right() *operand { return o.Y }
func (o *arithOperand) right() *operand  { return o.Y }

// binary reads operands joined by operators of precedence at least minPrec.
func (p *climber) binary(minPrec int) ast.Expr {
	x := p.unary(minPrec)
	compared := false
	for p.cur-1 < len(p.ops) {
		op := p.ops[p.cur-1]
		prec := binaryPrecedence[op.Value]
		if prec < minPrec {
			break
		}
		if prec == precCompare && compared {
			p.c.fail(dsl.Errorf(p.c.src.tokenSpan(op), "comparisons do not chain").
				WithHint("combine them with `and`: `a < b and b < c`"))
		}
		compared = prec == precCompare
		next := prec + 1 // left-associative: the right operand binds tighter
		if prec == precPow {
			next = prec
		}
		x = p.c.binary(x, op, p.binary(next))
	}
	return x
}

// unary reads the current operand. A prefix operator applies to what binds
// tighter than itself: -a^b is -(a^b), not a < b is not (a < b).
func (p *climber) unary(minPrec int) ast.Expr {
	o := p.operands[p.cur]
	if o.Prefix == nil {
		p.cur, p.afterNot = p.cur+1, false
		return p.c.operand(o)
	}
	op := o.Prefix.Tokens[0]
	// `not` binds looser than arithmetic and comparisons, so it cannot be
	// their operand without parentheses; it can follow another not.
	if op.Value == "not" && minPrec > precNot && !p.afterNot {
		p.c.fail(dsl.Errorf(p.c.src.tokenSpan(op), "`not` needs parentheses here").
			WithHint("write `(not ...)`"))
	}
	p.operands[p.cur], p.afterNot = o.Prefix.X, op.Value == "not"
	x := p.binary(prefixPrecedence[op.Value] + 1)
	return &ast.UnaryExpr{Pos: dsl.SpanOf(p.c.src.pos(op.Pos.Offset), x.Span().End), Op: op.Value, X: x}
}
