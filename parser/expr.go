package parser

import (
	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// Expressions are read by hand, by recursive descent, rather than by
// participle: participle records every alternative it tries, which costs
// kilobytes per token, and a generated objective of a million tokens must
// check in memory proportional to its size. The productions that statements
// use — expr, arith, call, vecLit, suffix and learn — implement
// participle.Parseable, so participle hands their tokens to exprParser, which
// fills the same structs participle would and reports errors the way
// participle does (an UnexpectedTokenError naming what it expected, which
// errors.go words for the user).
//
// The grammar, in participle's EBNF:
//
//	expr      = operand (BINARY operand)*        BINARY: or and < <= > >= == != + - * / ^
//	arith     = operand (ARITH operand)*         ARITH: + - * / ^
//	operand   = primary suffix* | vecLit | tableLit | ("-" | "not") operand
//	          | "if" expr "then" expr "else" expr
//	primary   = call | <number> | <string> | learn | "acquisition" | "(" expr ("," expr)* ")"
//	call      = <ident> argList?
//	learn     = "learn" argList?
//	argList   = "(" (arg ((?= "," ~")") "," arg)* ","?)? ")"
//	arg       = <argname> "=" expr | expr
//	vecLit    = "[" (expr ((?= "," ~"]") "," expr)* ","?)? "]"
//	tableLit  = "{" entry ((?= "," ~"}") "," entry)* ","? "}"
//	entry     = <string> ":" expr
//	levelSet  = "{" <string> ((?= "," ~"}") "," <string>)* ","? "}"
//	suffix    = "[" (sliceEnd | expr sliceEnd?) "]"
//	sliceEnd  = ":" expr?
//
// Newlines inside a table or level set's braces are skipped (the splitter
// keeps them inside braces, where blocks need them).
// It is LL(1), as the statements' grammar is: the next token decides every
// choice, and a production that has consumed a token is committed.

// What an error says was expected, in participle's EBNF (errors.go reads it).
const (
	expectExpr    = "Expr"
	expectOperand = "Operand"
	expectArg     = "Arg"
)

var (
	binaryOperators = map[string]bool{"or": true, "and": true, "<": true, "<=": true, ">": true, ">=": true,
		"==": true, "!=": true, "+": true, "-": true, "*": true, "/": true, "^": true}
	arithOperators = map[string]bool{"+": true, "-": true, "*": true, "/": true, "^": true}
)

// exprParser reads expressions from participle's token stream.
type exprParser struct{ lex *lexer.PeekingLexer }

// entry runs parse when the next token can start the production, and tells
// participle that the production does not match otherwise.
func entry(lex *lexer.PeekingLexer, starts func(exprParser) bool, parse func(exprParser) error) error {
	p := exprParser{lex}
	if !starts(p) {
		return participle.NextMatch
	}
	return parse(p)
}

func (e *expr) Parse(lex *lexer.PeekingLexer) error {
	return entry(lex, exprParser.startsOperand, func(p exprParser) error { return p.expr(e) })
}

func (a *arith) Parse(lex *lexer.PeekingLexer) error {
	return entry(lex, exprParser.startsOperand, func(p exprParser) (err error) {
		a.X, a.Rest, a.Tokens, err = operands(p, arithOperators, func(m matched, op string, y *operand) *arithOperand {
			return &arithOperand{m, op, y}
		})
		return err
	})
}

func (c *call) Parse(lex *lexer.PeekingLexer) error {
	return entry(lex, exprParser.atIdent, func(p exprParser) error { return p.call(c) })
}

func (v *vecLit) Parse(lex *lexer.PeekingLexer) error {
	return entry(lex, exprParser.atBracket, func(p exprParser) error { return p.vecLit(v) })
}

func (l *levelSet) Parse(lex *lexer.PeekingLexer) error {
	return entry(lex, func(p exprParser) bool { return p.at("{") }, func(p exprParser) error { return p.levelSet(l) })
}

func (s *suffix) Parse(lex *lexer.PeekingLexer) error {
	return entry(lex, exprParser.atBracket, func(p exprParser) error { return p.suffix(s) })
}

func (l *learn) Parse(lex *lexer.PeekingLexer) error {
	return entry(lex, exprParser.atLearn, func(p exprParser) error { return p.learn(l) })
}

func (p exprParser) atIdent() bool   { return p.peek().Type == tokIdent }
func (p exprParser) atBracket() bool { return p.at("[") }
func (p exprParser) atLearn() bool   { return p.at("learn") }

func (p exprParser) peek() *lexer.Token { return p.lex.Peek() }
func (p exprParser) next() *lexer.Token { return p.lex.Next() }

func (p exprParser) cursor() lexer.RawCursor { return p.lex.MakeCheckpoint().RawCursor() }

// since is the tokens consumed from start on.
func (p exprParser) since(start lexer.RawCursor) []lexer.Token { return p.lex.Range(start, p.cursor()) }

// one consumes the next token: a production of that token alone, and its
// text.
func (p exprParser) one() (matched, string) {
	start := p.cursor()
	text := p.next().Value
	return matched{p.since(start)}, text
}

// at reports whether the next token is the literal s. As participle's
// literals, it compares the text only.
func (p exprParser) at(s string) bool {
	t := p.peek()
	return !t.EOF() && t.Value == s
}

// atAfterNext reports whether the token after the next one is the literal s.
func (p exprParser) atAfterNext(s string) bool {
	back := p.lex.MakeCheckpoint()
	p.lex.Next()
	is := p.at(s)
	p.lex.LoadCheckpoint(back)
	return is
}

// expected is the error at the next token, which is not what expect says.
func (p exprParser) expected(expect string) error {
	return &participle.UnexpectedTokenError{Unexpected: *p.peek(), Expect: expect}
}

// want consumes the literal s, or fails saying so.
func (p exprParser) want(s string) error {
	if !p.at(s) {
		return p.expected(`"` + s + `"`)
	}
	p.next()
	return nil
}

// startsOperand reports whether the next token can start an operand.
func (p exprParser) startsOperand() bool {
	t := p.peek()
	switch t.Type {
	case tokIdent, tokNumber, tokString:
		return true
	case lexer.EOF:
		return false
	}
	switch t.Value {
	case "learn", "acquisition", "(", "[", "{", "-", "not", "if":
		return true
	}
	return false
}

func (p exprParser) expr(e *expr) error {
	var err error
	e.X, e.Rest, e.Tokens, err = operands(p, binaryOperators, func(m matched, op string, y *operand) *binaryOperand {
		return &binaryOperand{m, op, y}
	})
	return err
}

// operands reads `operand (OP operand)*`, OP among ops, making each `OP
// operand` with join; it returns the first operand, the others and the
// tokens of them all.
func operands[T any](p exprParser, ops map[string]bool, join func(m matched, op string, y *operand) T) (*operand, []T, []lexer.Token, error) {
	start := p.cursor()
	x, err := p.operand()
	if err != nil {
		return nil, nil, nil, err
	}
	var rest []T
	for ops[p.peek().Value] {
		opStart := p.cursor()
		op := p.next().Value
		y, err := p.operand()
		if err != nil {
			return nil, nil, nil, err
		}
		rest = append(rest, join(matched{p.since(opStart)}, op, y))
	}
	return x, rest, p.since(start), nil
}

// requiredExpr reads an expression that must be there.
func (p exprParser) requiredExpr(expect string) (*expr, error) {
	if !p.startsOperand() {
		return nil, p.expected(expect)
	}
	e := &expr{}
	return e, p.expr(e)
}

func (p exprParser) operand() (*operand, error) {
	start := p.cursor()
	o := &operand{}
	var err error
	switch {
	case !p.startsOperand():
		return nil, p.expected(expectOperand)
	case p.at("["):
		o.Vec = &vecLit{}
		err = p.vecLit(o.Vec)
	case p.at("{"):
		o.Table = &tableLit{}
		err = p.tableLit(o.Table)
	case p.at("-") || p.at("not"):
		o.Prefix = &prefixed{Op: p.next().Value}
		o.Prefix.X, err = p.operand()
		o.Prefix.Tokens = p.since(start)
	case p.at("if"):
		o.If, err = p.ifExpr()
	default:
		if o.X, err = p.primary(); err != nil {
			return nil, err
		}
		for p.at("[") && err == nil {
			s := &suffix{}
			err = p.suffix(s)
			o.Suffixes = append(o.Suffixes, s)
		}
	}
	if err != nil {
		return nil, err
	}
	o.Tokens = p.since(start)
	return o, nil
}

func (p exprParser) ifExpr() (*ifExpr, error) {
	start := p.cursor()
	p.next() // if
	var i ifExpr
	var err error
	if i.Cond, err = p.requiredExpr(expectExpr); err != nil {
		return nil, err
	}
	if err = p.want("then"); err != nil {
		return nil, err
	}
	if i.Then, err = p.requiredExpr(expectExpr); err != nil {
		return nil, err
	}
	if err = p.want("else"); err != nil {
		return nil, err
	}
	if i.Else, err = p.requiredExpr(expectExpr); err != nil {
		return nil, err
	}
	i.Tokens = p.since(start)
	return &i, nil
}

// primary reads a primary; the next token starts one (startsOperand).
func (p exprParser) primary() (*primary, error) {
	start := p.cursor()
	var out primary
	var err error
	switch t := p.peek(); {
	case t.Type == tokIdent:
		out.Call = &call{}
		err = p.call(out.Call)
	case t.Type == tokNumber:
		m, text := p.one()
		out.Number = &numberLit{m, text}
	case t.Type == tokString:
		m, quoted := p.one()
		out.String = &stringLit{m, quoted}
	case t.Value == "learn":
		out.Learn = &learn{}
		err = p.learn(out.Learn)
	case t.Value == "acquisition":
		p.next()
		out.Name = true
	default: // "("
		out.Paren, err = p.parenExpr()
	}
	if err != nil {
		return nil, err
	}
	out.Tokens = p.since(start)
	return &out, nil
}

func (p exprParser) parenExpr() (*parenExpr, error) {
	start := p.cursor()
	p.next() // (
	var out parenExpr
	for {
		e, err := p.requiredExpr(expectExpr)
		if err != nil {
			return nil, err
		}
		out.Elems = append(out.Elems, e)
		if !p.at(",") {
			break
		}
		p.next()
	}
	if !p.at(")") {
		return nil, p.expected(`"," | ")"`)
	}
	p.next()
	out.Tokens = p.since(start)
	return &out, nil
}

func (p exprParser) call(c *call) error {
	start := p.cursor()
	m, name := p.one()
	c.Fun = &ident{m, name}
	if p.at("(") {
		c.Args = &argList{}
		if err := p.argList(c.Args); err != nil {
			return err
		}
	}
	c.Tokens = p.since(start)
	return nil
}

func (p exprParser) learn(l *learn) error {
	start := p.cursor()
	p.next() // learn
	if p.at("(") {
		l.Args = &argList{}
		if err := p.argList(l.Args); err != nil {
			return err
		}
	}
	l.Tokens = p.since(start)
	return nil
}

// list reads the comma-separated items of a bracket whose opener is next,
// up to its closer, allowing a trailing comma; item reads one item, which
// must start with the next token (else the error expects expect).
func (p exprParser) list(closer, expect string, item func() error) error {
	p.next() // the opener
	if p.at(closer) {
		p.next()
		return nil
	}
	for {
		if err := item(); err != nil {
			return err
		}
		if !p.at(",") || p.atAfterNext(closer) {
			break
		}
		p.next()
		if !p.startsItem(expect) {
			return p.expected(expect)
		}
	}
	if p.at(",") {
		p.next()
	}
	if !p.at(closer) {
		return p.expected(`"," | "` + closer + `"`)
	}
	p.next()
	return nil
}

// startsItem reports whether the next token can start an item that list's
// expect names.
func (p exprParser) startsItem(expect string) bool {
	return p.startsOperand() || expect == expectArg && p.peek().Type == tokArgName
}

func (p exprParser) argList(l *argList) error {
	start := p.cursor()
	err := p.list(")", expectArg, func() error {
		a, err := p.arg()
		l.Args = append(l.Args, a)
		return err
	})
	l.Tokens = p.since(start)
	return err
}

func (p exprParser) arg() (*arg, error) {
	start := p.cursor()
	var a arg
	if p.peek().Type == tokArgName {
		m, name := p.one()
		a.Name = &argName{m, name}
		if err := p.want("="); err != nil {
			return nil, err
		}
	} else if !p.startsOperand() {
		return nil, p.expected(expectArg)
	}
	var err error
	if a.Value, err = p.requiredExpr(expectExpr); err != nil {
		return nil, err
	}
	a.Tokens = p.since(start)
	return &a, nil
}

func (p exprParser) vecLit(v *vecLit) error {
	start := p.cursor()
	err := p.list("]", expectExpr, func() error {
		e, err := p.requiredExpr(expectExpr + ` | "]"`)
		v.Elems = append(v.Elems, e)
		return err
	})
	v.Tokens = p.since(start)
	return err
}

// braced reads the comma-separated items of a brace pair whose opener is
// next, as list does, skipping the newlines the splitter keeps in braces;
// item must start with the next token, or the error expects expect.
func (p exprParser) braced(expect string, item func() error) error {
	p.next() // {
	for {
		p.skipNewlines()
		if err := item(); err != nil {
			return err
		}
		p.skipNewlines()
		if !p.at(",") {
			break
		}
		p.next()
		p.skipNewlines()
		if p.at("}") {
			break
		}
	}
	if !p.at("}") {
		return p.expected(`"," | "}"`)
	}
	p.next()
	return nil
}

func (p exprParser) skipNewlines() {
	for p.peek().Type == tokNewline {
		p.next()
	}
}

// str reads a string token, or fails expecting what.
func (p exprParser) str(what string) (*stringLit, error) {
	if p.peek().Type != tokString {
		return nil, p.expected(what)
	}
	m, quoted := p.one()
	return &stringLit{m, quoted}, nil
}

func (p exprParser) tableLit(t *tableLit) error {
	start := p.cursor()
	err := p.braced("TableKey", func() error {
		entryStart := p.cursor()
		key, err := p.str("TableKey")
		if err != nil {
			return err
		}
		if err := p.want(":"); err != nil {
			return err
		}
		value, err := p.requiredExpr(expectExpr)
		if err != nil {
			return err
		}
		t.Entries = append(t.Entries, &tableEntry{matched{p.since(entryStart)}, key, value})
		return nil
	})
	t.Tokens = p.since(start)
	return err
}

func (p exprParser) levelSet(l *levelSet) error {
	start := p.cursor()
	err := p.braced("LevelName", func() error {
		name, err := p.str("LevelName")
		l.Names = append(l.Names, name)
		return err
	})
	l.Tokens = p.since(start)
	return err
}

func (p exprParser) suffix(s *suffix) error {
	start := p.cursor()
	p.next() // [
	var err error
	switch {
	case p.at(":"):
		s.OpenLo, err = p.sliceEnd()
	case p.startsOperand():
		s.Index = &expr{}
		if err = p.expr(s.Index); err == nil && p.at(":") {
			s.Slice, err = p.sliceEnd()
		}
	default:
		return p.expected("SliceEnd | " + expectExpr)
	}
	if err != nil {
		return err
	}
	if err := p.want("]"); err != nil {
		return err
	}
	s.Tokens = p.since(start)
	return nil
}

func (p exprParser) sliceEnd() (*sliceEnd, error) {
	start := p.cursor()
	p.next() // :
	var out sliceEnd
	if p.startsOperand() {
		out.Hi = &expr{}
		if err := p.expr(out.Hi); err != nil {
			return nil, err
		}
	}
	out.Tokens = p.since(start)
	return &out, nil
}
