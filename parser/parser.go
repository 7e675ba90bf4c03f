// Package parser turns .bo source text into a dsl/ast syntax tree.
//
// Parsing runs in three steps. The scanner (lexer.go) turns the text into tokens.
// The splitter (split.go) cuts them into top-level statements at newlines
// outside brackets, matches brackets and reports unclosed ones. Each statement
// is then parsed on its own by the participle production for its keyword
// (grammar.go), whose expressions are read by hand (expr.go), and converted
// to dsl/ast (convert.go, precedence.go). A broken statement is reported and
// skipped, so one run reports every broken statement of a file, in order.
//
// Lexical choices where LANGUAGE.md is silent:
//   - numbers are decimal: `1`, `0.5`, `.5`, `1e-3`, `2.5E+4`; a dot must be
//     followed by a digit (`1.` is not a number), so `1..10` is a range;
//   - strings are Go's double-quoted strings with Go's escapes; no raw strings;
//   - a newline ends a statement except inside ( ) and [ ], where lines join
//     freely; inside { } each line is one item; a line starting with `{`
//     continues the statement above; a block comment spanning lines ends a
//     line;
//   - vector literals and argument lists may end with a trailing comma;
//   - `acquisition` is a keyword but also a name inside expressions (for
//     `stop when acquisition < 0.001`); any keyword may name an argument
//     (`learn(init = 0.3)`);
//   - `reported` is not reserved, but a constraint side that starts with it is
//     the reported binding (and so is `observation noise reported`); the same
//     holds for `simulated`, which starts a simulated binding;
//   - a constraint side is an arithmetic expression: comparisons, and, or,
//     not and if-then-else need parentheses there.
package parser

import (
	"bytes"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ast"
)

// byteOrderMark is UTF-8's, which some editors write at a file's start.
var byteOrderMark = []byte("\ufeff")

// ParseFile parses one .bo file. filename is used in positions. It returns the
// tree (possibly partial) and every syntax error as a diagnostic.
func ParseFile(filename string, src []byte) (*ast.File, dsl.Diagnostics) {
	src = bytes.TrimPrefix(src, byteOrderMark) // as editors hide it, and Go accepts it
	s := newSource(filename, src)
	file := &ast.File{Name: filename}
	var diags dsl.Diagnostics
	for _, st := range splitStatements(s, src) {
		if st.err != nil {
			diags = append(diags, *st.err)
			continue
		}
		node, ds := parseStatement(s, st)
		diags = append(diags, ds...)
		if node != nil {
			file.Stmts = append(file.Stmts, node)
		}
	}
	return file, diags
}

// parseStatement parses one statement whose brackets are balanced. It returns
// nil and the diagnostics when the statement is broken.
func parseStatement(src *source, st statement) (ast.Stmt, dsl.Diagnostics) {
	first := st.tokens[0]
	parse, ok := statementParsers[first.Value]
	if !ok || first.Type != tokKeyword {
		return nil, dsl.Diagnostics{notAStatement(src, first)}
	}
	eof := lexer.EOFToken(lexer.Position{Filename: src.name, Offset: st.end})
	lex, err := lexer.Upgrade(&tokenLexer{tokens: st.tokens, eof: eof})
	if err != nil { // cannot happen: tokenLexer never fails
		return nil, dsl.Diagnostics{dsl.Errorf(src.tokensSpan(st.tokens), "%s", err)}
	}
	c := &converter{src: src}
	node, err := parse(c, lex)
	if err != nil {
		return nil, dsl.Diagnostics{syntaxError(src, st, err)}
	}
	if len(c.diags) > 0 {
		return nil, c.diags
	}
	return node, nil
}

// notAStatement reports a line that does not start with a statement keyword,
// suggesting the keyword the user probably misspelt.
func notAStatement(src *source, t lexer.Token) dsl.Diagnostic {
	d := dsl.Errorf(src.tokenSpan(t), "unexpected %s; a statement starts with a keyword such as domain, objective, model", quoteToken(t))
	switch {
	case t.Value == "noise":
		return d.WithHint("write `input noise` or `observation noise`")
	case t.Value == "maximize" || t.Value == "minimize":
		return d.WithHint("write `objective %s ...`", t.Value)
	case isWord(t):
		if s, ok := dsl.Suggest(t.Value, statementKeywords); ok {
			return d.WithHint("did you mean `%s`?", s)
		}
	}
	return d
}
