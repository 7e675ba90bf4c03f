package parser

import (
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/bocdev/boc/dsl"
)

// maxNesting bounds how deeply one statement may nest brackets and
// right-recursive operators (unary minus, not, ^, if). The grammar is parsed by
// recursion, so without a bound a pathological file could exhaust the stack.
// Operands joined by left-associative operators do not nest: a sum of any
// number of terms is one level.
const maxNesting = 500

// statement is the run of tokens of one top-level statement. Newline tokens are
// kept only where they separate the items of a brace block; inside () and []
// lines join freely.
type statement struct {
	tokens []lexer.Token
	end    int             // offset just past the last token: where "end of line" is
	atEOF  bool            // the statement is the last thing in the file
	err    *dsl.Diagnostic // the first lexical or bracket problem, if any
}

// opener is an unclosed bracket and what it opened, for messages.
type opener struct {
	tok   lexer.Token
	start dsl.Pos
	what  string // "vector", "argument list", "domain block", ...
	outer scope  // the nesting around the bracket, restored when it closes
}

func newOpener(src *source, before []lexer.Token, t lexer.Token) opener {
	return opener{tok: t, start: src.pos(t.Pos.Offset), what: describeOpener(before, t)}
}

// String returns "the vector started at 3:12".
func (o opener) String() string {
	return fmt.Sprintf("the %s started at %d:%d", o.what, o.start.Line, o.start.Col)
}

var (
	closerOf = map[string]string{"(": ")", "[": "]", "{": "}"}
	openerOf = map[string]string{")": "(", "]": "[", "}": "{"}
)

// splitter cuts the token stream of a file into statements: a newline ends a
// statement unless a bracket is open. It also matches brackets, so that an
// unclosed bracket is reported where it was opened rather than as a confusing
// grammar error, and it recovers from one: a line that starts with a statement
// keyword inside brackets (`objective ...` after a `domain {` that was never
// closed) starts a new statement.
//
// The statements' tokens are kept in toks itself, compacted in place (a
// statement drops the newlines inside brackets), so a large file costs one
// token array.
type splitter struct {
	src   *source
	toks  []lexer.Token // significant tokens and newlines
	kept  int           // toks[:kept] are the statements' tokens
	first int           // the current statement's first token in toks
	stack []opener
	scope scope // the nesting inside the innermost open bracket
	cur   statement
	out   []statement
}

// splitStatements scans text and returns its statements in source order.
func splitStatements(src *source, text []byte) []statement {
	sp := &splitter{src: src, toks: scan(src.name, string(text))}
	for i, t := range sp.toks {
		sp.add(i, t)
	}
	if len(sp.stack) > 0 {
		sp.fail(sp.unclosed(sp.src.point(sp.cur.end)))
	}
	sp.flush(true)
	return sp.out
}

func (sp *splitter) add(i int, t lexer.Token) {
	switch {
	case t.Type == tokNewline:
		sp.newline(i)
		return
	case t.Type == tokBadComment:
		opening := lexer.Token{Value: "/*", Pos: t.Pos}
		sp.fail(dsl.Errorf(sp.src.tokenSpan(opening), "comment is not terminated").WithHint("close it with `*/`"))
	case t.Type == tokBadString:
		sp.fail(dsl.Errorf(sp.src.tokenSpan(t), "string is not terminated").WithHint("close it with `\"` on the same line"))
	case t.Type == tokInvalid:
		d := dsl.Errorf(sp.src.tokenSpan(t), "unexpected character %s", quoteToken(t))
		if hint, ok := foreignOperatorHints[t.Value]; ok {
			d = d.WithHint("%s", hint)
		}
		sp.fail(d)
	case closerOf[t.Value] != "":
		o := newOpener(sp.src, sp.cur.tokens, t)
		o.outer, sp.scope = sp.scope, scope{base: sp.scope.depth() + 1}
		sp.stack = append(sp.stack, o)
		sp.nest(t)
	case openerOf[t.Value] != "":
		sp.close(t)
	default:
		if sp.scope.step(t.Value, t.Value == "-" && sp.startsOperand()) {
			sp.nest(t)
		}
	}
	if isWord(t) && sp.namesArgument(i) {
		t.Type = tokArgName
	} else if sp.namesValue(i, t) {
		t.Type = tokIdent
	}
	sp.keep(t)
	sp.cur.end = tokenEnd(t)
}

// keep appends t to the current statement's tokens.
func (sp *splitter) keep(t lexer.Token) {
	sp.toks[sp.kept] = t
	sp.kept++
	sp.cur.tokens = sp.toks[sp.first:sp.kept:sp.kept]
}

// namesArgument reports whether the word at i names an argument: it is
// directly inside parentheses and followed by `=`.
func (sp *splitter) namesArgument(i int) bool {
	inParens := len(sp.stack) > 0 && sp.stack[len(sp.stack)-1].tok.Value == "("
	return inParens && i+1 < len(sp.toks) && sp.toks[i+1].Value == "="
}

// namesValue reports whether the statement keyword t at i is used as a
// name (a dimension called model or seed): anywhere after the start of a
// statement, except at the start of a line in a block, where it is a name
// only when `in` follows (`model in {"a", "b"}` declares a dimension;
// `seed [[0, 0]]` is a constraint's option).
func (sp *splitter) namesValue(i int, t lexer.Token) bool {
	if !isStatementKeyword(t) || len(sp.cur.tokens) == 0 {
		return false
	}
	if last := sp.cur.tokens[len(sp.cur.tokens)-1]; last.Type == tokNewline || last.Value == "{" {
		return sp.followedByIn(i)
	}
	return true
}

// followedByIn reports whether the token after i is `in`.
func (sp *splitter) followedByIn(i int) bool { return i+1 < len(sp.toks) && sp.toks[i+1].Value == "in" }

// foreignOperatorHints help users of other languages.
var foreignOperatorHints = map[string]string{
	"&": "write `and`",
	"|": "write `or`",
	"!": "write `not`",
	"%": "there is no remainder operator",
	";": "put each statement on its own line",
}

// startsOperand reports whether a minus sign at this point is unary: at the
// start of a statement or after an operator or opening bracket.
func (sp *splitter) startsOperand() bool {
	if len(sp.cur.tokens) == 0 {
		return true
	}
	prev := sp.cur.tokens[len(sp.cur.tokens)-1]
	switch prev.Type {
	case tokIdent, tokNumber, tokString:
		return false
	}
	return prev.Value != ")" && prev.Value != "]" && prev.Value != "}" && prev.Value != "learn"
}

// nest reports a statement nested deeper than the parser's recursion bound,
// at the token that goes too deep.
func (sp *splitter) nest(t lexer.Token) {
	if sp.cur.err == nil && sp.scope.depth() > maxNesting {
		sp.fail(dsl.Errorf(sp.src.tokenSpan(t), "expression is nested too deeply (more than %d levels)", maxNesting).
			WithHint("split it with `let`"))
	}
}

// describeOpener names what bracket t opens, for "expected `]` to close the
// vector started at 3:12"; before are the statement's tokens up to t.
func describeOpener(before []lexer.Token, t lexer.Token) string {
	var prev lexer.Token
	if n := len(before); n > 0 {
		prev = before[n-1]
	}
	switch t.Value {
	case "[":
		switch {
		case prev.Type == tokIdent || prev.Value == ")" || prev.Value == "]":
			return "index"
		case prev.Value == "in":
			return "interval"
		}
		return "vector"
	case "(":
		if prev.Type == tokIdent || prev.Value == "learn" {
			return "argument list"
		}
		return "parenthesis"
	}
	if len(before) > 0 {
		switch before[0].Value {
		case "domain":
			return "domain block"
		case "input":
			return "input noise block"
		case "constraint", "require":
			return "constraint options"
		}
	}
	return "block"
}

// close matches a closing bracket against the open ones.
func (sp *splitter) close(t lexer.Token) {
	for i := len(sp.stack) - 1; i >= 0; i-- {
		if closerOf[sp.stack[i].tok.Value] != t.Value {
			continue
		}
		if i < len(sp.stack)-1 { // brackets opened inside this one were left open
			sp.fail(sp.unclosed(sp.src.tokenSpan(t)))
		}
		sp.stack, sp.scope = sp.stack[:i], sp.stack[i].outer
		return
	}
	sp.fail(dsl.Errorf(sp.src.tokenSpan(t), "unexpected %s: there is no `%s` to close", quoteToken(t), openerOf[t.Value]))
}

// unclosed reports the innermost open bracket at span.
func (sp *splitter) unclosed(at dsl.Span) dsl.Diagnostic {
	o := sp.stack[len(sp.stack)-1]
	return dsl.Errorf(at, "expected `%s` to close %s", closerOf[o.tok.Value], o)
}

// newline ends the statement at top level; inside a brace block it separates
// items; inside () and [] it is ignored unless the next line plainly starts a
// new statement, in which case the open bracket was never closed.
func (sp *splitter) newline(i int) {
	if len(sp.stack) == 0 {
		if !sp.nextLineOpensBlock(i) {
			sp.flush(false)
		}
		return
	}
	if sp.nextLineStartsStatement(i) {
		sp.fail(sp.unclosed(sp.src.point(sp.cur.end)))
		sp.stack = sp.stack[:0]
		sp.flush(false)
		return
	}
	// Blank lines collapse into one Newline, which the block grammar needs to
	// decide with one token of lookahead whether another item follows.
	last := sp.cur.tokens[len(sp.cur.tokens)-1]
	if sp.stack[len(sp.stack)-1].tok.Value == "{" && last.Type != tokNewline {
		sp.keep(sp.toks[i])
		sp.scope = scope{base: sp.scope.base} // the next item
	}
}

// nextLineOpensBlock reports whether the next line starts with `{`: no
// statement does, so it continues the statement above (a brace on its own
// line, as some people write them).
func (sp *splitter) nextLineOpensBlock(i int) bool {
	t, _ := sp.nextLineStart(i)
	return t.Value == "{"
}

// nextLineStart returns the first token after the newline at i and its index;
// an EOF token if there is none.
func (sp *splitter) nextLineStart(i int) (lexer.Token, int) {
	for i < len(sp.toks) && sp.toks[i].Type == tokNewline {
		i++
	}
	if i >= len(sp.toks) {
		return lexer.EOFToken(lexer.Position{}), i
	}
	return sp.toks[i], i
}

// nextLineStartsStatement reports whether the first token after the newline at
// i is a statement keyword used as one: not a named argument (`init = 0.3`) and
// not a constraint option (`seed [[0, 0]]` inside braces).
func (sp *splitter) nextLineStartsStatement(i int) bool {
	t, i := sp.nextLineStart(i)
	if !isStatementKeyword(t) {
		return false
	}
	if i+1 < len(sp.toks) && sp.toks[i+1].Value == "=" || sp.followedByIn(i) {
		return false
	}
	inBraces := sp.stack[len(sp.stack)-1].tok.Value == "{"
	return !(inBraces && t.Value == "seed")
}

// fail records the first problem of the current statement; the statement is
// then skipped, but still split correctly so that the next one is found.
func (sp *splitter) fail(d dsl.Diagnostic) {
	if sp.cur.err == nil {
		sp.cur.err = &d
	}
}

// flush ends the current statement, if it has any tokens.
func (sp *splitter) flush(atEOF bool) {
	if len(sp.cur.tokens) > 0 {
		sp.cur.atEOF = atEOF
		sp.out = append(sp.out, sp.cur)
	}
	sp.cur, sp.first, sp.scope = statement{}, sp.kept, scope{}
}

// quoteToken renders a token for a message: `x`, or the code point of a
// character that would not show, U+200B (invisible).
func quoteToken(t lexer.Token) string {
	if r, size := utf8.DecodeRuneInString(t.Value); size == len(t.Value) && (!unicode.IsPrint(r) || unicode.Is(unicode.Cf, r)) {
		return fmt.Sprintf("%U (invisible)", r)
	}
	return "`" + t.Value + "`"
}
