package parser

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/bocdev/boc/dsl"
)

// syntaxError turns a participle error for statement st into a diagnostic in
// the user's terms: what was found, what would have been accepted there, and a
// hint when the mistake is a common one.
func syntaxError(src *source, st statement, err error) dsl.Diagnostic {
	unexpected, ok := err.(*participle.UnexpectedTokenError)
	if !ok {
		// participle reports only unexpected tokens for this grammar; keep
		// anything else readable rather than lose it.
		perr, ok := err.(participle.Error)
		if !ok {
			return dsl.Errorf(src.tokensSpan(st.tokens), "%s", err)
		}
		return dsl.Errorf(src.point(perr.Position().Offset), "%s", perr.Message())
	}
	tok := unexpected.Unexpected
	found, at := quoteToken(tok), src.tokenSpan(tok)
	if tok.EOF() {
		found, at = "end of line", src.point(st.end)
		if st.atEOF {
			found = "end of file"
		}
	}
	items := firstSet(expectation(unexpected))
	msg := "unexpected " + found
	if len(items) == 0 {
		msg += "; expected end of line"
	} else {
		prev := previousToken(st.tokens, tok.Pos.Offset)
		afterComma := prev.Value == "," || closerOf[prev.Value] != ""
		msg += "; expected " + describeExpected(items, enclosingOpener(src, st.tokens, tok.Pos.Offset), afterComma)
	}
	d := dsl.Errorf(at, "%s", msg)
	if hint := hintFor(tok, items, st); hint != "" {
		d = d.WithHint("%s", hint)
	}
	return d
}

// expectation extracts the grammar text participle says it expected, e.g.
// `"]"`, `Expr ".." Expr` or `(<newline> "}") | "}"`; "" when it names none.
func expectation(u *participle.UnexpectedTokenError) string {
	rest, ok := strings.CutPrefix(u.Message(), fmt.Sprintf("unexpected token %q", u.Unexpected))
	if !ok {
		return ""
	}
	rest, ok = strings.CutPrefix(rest, " (expected ")
	if !ok {
		return ""
	}
	return strings.TrimSuffix(rest, ")")
}

// hintFor suggests a fix for the common mistakes.
func hintFor(tok lexer.Token, expected []string, st statement) string {
	expectsName := slices.Contains(expected, "Ident") || slices.Contains(expected, "<ident>")
	expectsExpr := slices.ContainsFunc(expected, func(item string) bool {
		return productionDescriptions[item] == describeExpression
	})
	switch {
	case tok.Type == tokKeyword && expectsName:
		return fmt.Sprintf("`%s` is a keyword and cannot be used as a name", tok.Value)
	case tok.Type == tokArgName:
		return "`=` names arguments in a call; to compare, write `==`"
	case slices.Contains(statementKeywords, tok.Value): // a keyword, or one the splitter took for a name
		return "each statement starts on its own line"
	case tok.Type == tokIdent:
		var words []string
		for _, item := range expected {
			if w, err := strconv.Unquote(item); err == nil && w != "" && isLetter(w[0]) {
				words = append(words, w)
			}
		}
		if s, ok := dsl.Suggest(tok.Value, words); ok {
			return fmt.Sprintf("did you mean `%s`?", s)
		}
	case tok.Value == "=" && st.tokens[0].Value == "constraint":
		return "a constraint compares with `<=` or `>=`"
	case tok.Value == "=" && len(expected) == 0:
		return "to compare, write `==`"
	case slices.Contains(comparisonOperators, tok.Value) && !expectsExpr && !expectsName:
		return "comparisons do not chain; combine them with `and`"
	}
	return ""
}

// Descriptions of what participle may say it expected: every production but
// the statements (which are chosen by their keyword) and the token types.
// Productions are named by their grammar struct, capitalised, without type
// parameters.
const describeExpression = "an expression"

var productionDescriptions = map[string]string{
	"Expr": describeExpression, "Arith": describeExpression, "Operand": describeExpression,
	"Prefixed": describeExpression, "IfExpr": describeExpression, "Primary": describeExpression,
	"ParenExpr": describeExpression, "Arg": describeExpression,
	"BinaryOperand": "an operator", "ArithOperand": "an operator",
	"Binding":            "an expression, `go`, `exec` or `external`",
	"Side":               "an expression, `go`, `exec`, `reported` or `simulated`",
	"Ident":              "a name",
	"ArgName":            "an argument name",
	"StringLit":          "a string",
	"NumberLit":          "a number",
	"Call":               "a call such as `ucb(beta = 2)`",
	"VecLit":             "a vector `[...]`",
	"Block":              "`{`",
	"Dim":                "a dimension such as `x in [0, 1]`",
	"Interval":           "an interval `[lo, hi]`",
	"IntRange":           "a range `lo..hi`",
	"LevelSet":           "level names `{\"a\", \"b\"}`",
	"LevelName":          "a level name (a string)",
	"TableKey":           "a level name (a string) and `:`",
	"NoiseDecl":          "a declaration such as `x ~ normal(0, 0.1)`",
	"Target":             "a dimension to perturb",
	"TargetAtom":         "a dimension to perturb",
	"Option":             "an option (`seed`, `kernel` or `noise ~`)",
	"CmpOp":              "a comparison `<=` or `>=`",
	"Learn":              "`learn`",
	"ArgList":            "`(`",
	"Suffix":             "`[`",
	"SliceEnd":           "`:`",
	"GoBinding":          "`go`",
	"MeasuredObjectives": "a binding (`go`, `exec`, `external`)",
	"MeasuredBinding":    "`go`, `exec` or `external`",
	"ObjectiveLine":      "`maximize NAME` or `minimize NAME`",
	"ExecBinding":        "`exec`",
	"<ident>":            "a name",
	"<argname>":          "an argument name",
	"<keyword>":          "a keyword",
	"<string>":           "a string",
	"<number>":           "a number",
	"<newline>":          "a new line",
}

// describeExpected joins the descriptions of the expected items, without
// repeats: "a dimension such as `x in [0, 1]` or `}` to close the domain block
// started at 1:8". The bracket that would close open comes last, described
// with it; in a comma-separated list a comma is offered too, unless one was
// just written.
func describeExpected(items []string, open *opener, afterComma bool) string {
	var parts []string
	add := func(d string) {
		if d != "" && !slices.Contains(parts, d) {
			parts = append(parts, d)
		}
	}
	closing := ""
	for _, item := range items {
		lit, err := strconv.Unquote(item)
		switch {
		case err == nil && open != nil && lit == closerOf[open.tok.Value]:
			closing = fmt.Sprintf("`%s` to close %s", lit, open)
		case err == nil:
			add("`" + lit + "`")
		default:
			name, _, _ := strings.Cut(item, "[") // Block[...dim] is Block
			add(productionDescriptions[name])
		}
	}
	if closing != "" {
		if commaLists[open.what] && !afterComma {
			add("`,`")
		}
		add(closing)
	}
	switch len(parts) {
	case 0:
		return "something else"
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}

// commaLists are the brackets whose contents are separated by commas.
var commaLists = map[string]bool{"vector": true, "argument list": true, "parenthesis": true}

// previousToken returns the token before offset in a statement.
func previousToken(toks []lexer.Token, offset int) lexer.Token {
	var prev lexer.Token
	for _, t := range toks {
		if t.Pos.Offset >= offset {
			break
		}
		prev = t
	}
	return prev
}

// enclosingOpener returns the innermost bracket open at offset in a statement
// whose brackets are balanced, or nil.
func enclosingOpener(src *source, toks []lexer.Token, offset int) *opener {
	var stack []opener
	for i, t := range toks {
		if t.Pos.Offset >= offset {
			break
		}
		switch {
		case closerOf[t.Value] != "":
			stack = append(stack, newOpener(src, toks[:i], t))
		case openerOf[t.Value] != "":
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) == 0 {
		return nil
	}
	return &stack[len(stack)-1]
}

// firstSet reads participle's rendering of the rest of a production (EBNF:
// "lit", <token>, Production, groups with |, (?= ...) and (?! ...)
// lookaheads, ~negation, and ? * + ! modifiers) and returns the items that can
// come first.
func firstSet(ebnf string) []string {
	r := ebnfReader{s: ebnf}
	first, _ := r.alternatives()
	return first
}

type ebnfReader struct {
	s string
	i int
}

func (r *ebnfReader) more() bool { return r.i < len(r.s) }

func (r *ebnfReader) skipSpaces() {
	for r.more() && r.s[r.i] == ' ' {
		r.i++
	}
}

// alternatives reads `a | b | ...` up to a closing `)` or the end.
func (r *ebnfReader) alternatives() (first []string, nullable bool) {
	for {
		f, n := r.sequence()
		first, nullable = append(first, f...), nullable || n
		r.skipSpaces()
		if !r.more() || r.s[r.i] != '|' {
			return first, nullable
		}
		r.i++
	}
}

// sequence reads terms up to `|`, `)` or the end. Its first set is that of its
// leading terms up to the first one that cannot match nothing.
func (r *ebnfReader) sequence() (first []string, nullable bool) {
	nullable = true
	for {
		r.skipSpaces()
		if !r.more() || r.s[r.i] == '|' || r.s[r.i] == ')' {
			return first, nullable
		}
		start := r.i
		f, n := r.term()
		if r.i == start { // unknown text: skip it rather than loop
			r.i++
		}
		if nullable {
			first, nullable = append(first, f...), n
		}
	}
}

// term reads one item and its modifiers.
func (r *ebnfReader) term() (first []string, nullable bool) {
	rest := r.s[r.i:]
	switch {
	case rest[0] == '"':
		q, err := strconv.QuotedPrefix(rest)
		if err != nil {
			r.i = len(r.s)
			return nil, true
		}
		r.i += len(q)
		first = []string{q}
	case strings.HasPrefix(rest, "(?="), strings.HasPrefix(rest, "(?!"):
		// A lookahead consumes nothing: a positive one says what must come
		// next, a negative one only what must not.
		r.i += 3
		f, _ := r.alternatives()
		r.closeGroup()
		if rest[2] == '!' {
			return nil, true
		}
		return f, false
	case rest[0] == '(':
		r.i++
		first, nullable = r.alternatives()
		r.closeGroup()
	case rest[0] == '~':
		r.i++
		r.term()
		return nil, false // anything but the negated item
	default:
		end := r.i
		for depth := 0; end < len(r.s); end++ {
			c := r.s[end]
			if c == '[' {
				depth++
			} else if c == ']' {
				depth--
			} else if depth == 0 && strings.IndexByte(" |()?*+!", c) >= 0 {
				break
			}
		}
		// A production is capitalised, as participle names struct ones;
		// it names those it hands to Parseable by their Go type (`expr`).
		first = []string{strings.ToUpper(r.s[r.i:r.i+1]) + r.s[r.i+1:end]}
		r.i = end
	}
	for r.more() && strings.IndexByte("?*+!", r.s[r.i]) >= 0 {
		if r.s[r.i] == '?' || r.s[r.i] == '*' {
			nullable = true
		}
		r.i++
	}
	return first, nullable
}

func (r *ebnfReader) closeGroup() {
	r.skipSpaces()
	if r.more() && r.s[r.i] == ')' {
		r.i++
	}
}
