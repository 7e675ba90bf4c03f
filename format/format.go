// Package format lays out .bo source in its canonical form, as gofmt does Go:
// the same tokens, comments included, with canonical spacing and
// indentation. It changes only the space between tokens and collapses runs
// of blank lines, never where a line ends inside a statement, so a formatted
// file parses and checks to the same program, and formatting it again
// changes nothing.
//
// The layout: statements start in column 1 and the contents of a { } block
// are indented by four spaces per level; a line that continues inside
// brackets is indented one level more than its statement. Binary operators,
// =, ~ and comparisons take a space on each side; ^, the .. of integer
// ranges, the . of a Go binding, a unary sign, the bracket of an index or a
// call and the : of a slice take none; a comma and a constraint's name's :
// are followed by one space. The braces of a keyed table or a categorical
// dimension's level names (`{"a": 1}`, `{"a", "b"}`) lay out as brackets,
// not as blocks: no space inside them, line ends kept where they are. At most one blank line separates statements,
// and a file ends with one newline.
package format

import (
	"bytes"
	"strings"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/parser"
)

// Source formats the .bo file src, named name in diagnostics. A file with
// syntax errors is not formatted: its diagnostics are returned instead.
func Source(name string, src []byte) ([]byte, dsl.Diagnostics) {
	if _, diags := parser.ParseFile(name, src); diags.HasErrors() {
		return nil, diags
	}
	p := &printer{}
	p.print(parser.Tokens(src))
	return p.out.Bytes(), nil
}

// printer lays out one file's tokens.
type printer struct {
	out bytes.Buffer
	// braces and brackets count the open { } blocks and ( ) [ ] pairs.
	braces   int
	brackets []string
	// line holds the current line's tokens; blank counts the empty lines
	// before it.
	line  []parser.Token
	blank int
	// started is set once a line was written.
	started bool
}

// literalBrace is the kind print gives the braces of a table or a level
// set, so that nothing takes them for a block's.
const literalBrace parser.TokenKind = -1

func (p *printer) print(toks []parser.Token) {
	markLiteralBraces(toks)
	toks = openBlocks(toks)
	for i, t := range toks {
		if t.Kind != parser.Newline {
			p.line = append(p.line, t)
			continue
		}
		if i > 0 && toks[i-1].Kind == parser.Comment && strings.Contains(toks[i-1].Text, "\n") {
			continue // the line end a block comment over lines stands for
		}
		if len(p.line) == 0 {
			p.blank++
			continue
		}
		p.flush()
	}
	if len(p.line) > 0 {
		p.flush()
	}
}

// openBlocks lays a { } block that spans lines out as one: its contents
// start on the line after { (unless a comment ends that line) and } gets a
// line of its own. Line ends inside a block separate its entries, so this
// changes no entry.
func openBlocks(toks []parser.Token) []parser.Token {
	newline := parser.Token{Kind: parser.Newline, Text: "\n"}
	out := make([]parser.Token, 0, len(toks))
	var multiline []bool // per open block: whether it spans lines
	for i, t := range toks {
		switch {
		case isPunct(t, "{"):
			multiline = append(multiline, spansLines(toks[i+1:]))
			out = append(out, t)
			if multiline[len(multiline)-1] && i+1 < len(toks) && toks[i+1].Kind != parser.Newline && !endsWithComment(toks[i+1:]) {
				out = append(out, newline)
			}
			continue
		case isPunct(t, "}") && len(multiline) > 0:
			if multiline[len(multiline)-1] && len(out) > 0 && out[len(out)-1].Kind != parser.Newline {
				out = append(out, newline)
			}
			multiline = multiline[:len(multiline)-1]
		}
		out = append(out, t)
	}
	return out
}

// markLiteralBraces gives literalBrace to the braces whose contents start
// with a string: a table's or a level set's, as no block's item starts with
// one.
func markLiteralBraces(toks []parser.Token) {
	var literal []bool // per open brace
	for i, t := range toks {
		switch {
		case isPunct(t, "{"):
			literal = append(literal, startsWithString(toks[i+1:]))
			if literal[len(literal)-1] {
				toks[i].Kind = literalBrace
			}
		case isPunct(t, "}") && len(literal) > 0:
			if literal[len(literal)-1] {
				toks[i].Kind = literalBrace
			}
			literal = literal[:len(literal)-1]
		}
	}
}

// startsWithString reports whether the first token of toks that is not a
// line end or a comment is a string.
func startsWithString(toks []parser.Token) bool {
	for _, t := range toks {
		if t.Kind != parser.Newline && t.Kind != parser.Comment {
			return t.Kind == parser.String
		}
	}
	return false
}

// spansLines reports whether the block whose contents start toks closes on
// a later line.
func spansLines(toks []parser.Token) bool {
	depth := 0
	for _, t := range toks {
		switch {
		case t.Kind == parser.Newline:
			return true
		case isPunct(t, "{"):
			depth++
		case isPunct(t, "}"):
			if depth == 0 {
				return false
			}
			depth--
		}
	}
	return false
}

// endsWithComment reports whether toks start with a comment that ends the
// line.
func endsWithComment(toks []parser.Token) bool {
	return len(toks) > 1 && toks[0].Kind == parser.Comment && toks[1].Kind == parser.Newline
}

// flush writes the current line: its indentation, then its tokens with the
// canonical space between them.
func (p *printer) flush() {
	if p.started && p.blank > 0 {
		p.out.WriteByte('\n')
	}
	p.blank, p.started = 0, true
	p.out.WriteString(strings.Repeat("    ", p.indent()))
	for i, t := range p.line {
		if i > 0 && p.space(p.line[i-1], t, i) {
			p.out.WriteByte(' ')
		}
		p.out.WriteString(t.Text)
		p.track(t)
	}
	p.out.WriteByte('\n')
	p.line = p.line[:0]
}

// indent is the current line's level: its block's, one more inside
// brackets; a line that starts by closing takes the level it closes to.
func (p *printer) indent() int {
	braces, brackets := p.braces, len(p.brackets)
	for _, t := range p.line {
		if !isCloser(t) {
			break
		}
		if isPunct(t, "}") {
			braces--
		} else {
			brackets--
		}
	}
	level := max(braces, 0)
	if brackets > 0 {
		level++
	}
	return level
}

// track follows the nesting of blocks and brackets.
func (p *printer) track(t parser.Token) {
	if t.Kind == literalBrace {
		if t.Text == "{" {
			p.brackets = append(p.brackets, t.Text)
		} else if len(p.brackets) > 0 {
			p.brackets = p.brackets[:len(p.brackets)-1]
		}
		return
	}
	if t.Kind != parser.Punct {
		return
	}
	switch t.Text {
	case "{":
		p.braces++
	case "(", "[":
		p.brackets = append(p.brackets, t.Text)
	case "}":
		p.braces--
	case ")", "]":
		if len(p.brackets) > 0 {
			p.brackets = p.brackets[:len(p.brackets)-1]
		}
	}
}

// space reports whether a space goes between a and b, the i-th token of the
// line; the nesting is that before b.
func (p *printer) space(a, b parser.Token, i int) bool {
	inBrackets := len(p.brackets) > 0 && p.brackets[len(p.brackets)-1] == "["
	switch {
	case b.Kind == parser.Comment || a.Kind == parser.Comment:
		return !isOpener(a) && !(isPunct(b, ")", "]", ",") || isCloser(b) && b.Kind == literalBrace)
	case isPunct(b, ",", ")", "]") || b.Kind == literalBrace && b.Text == "}":
		return false
	case isOpener(a):
		return false
	case isPunct(b, "(", "["):
		// A call or an index follows its name or value; a literal or a
		// parenthesised expression follows a keyword or an operator.
		return !(a.Kind == parser.Word && !isKeyword(a.Text) || a.Text == "learn" || isPunct(a, ")", "]"))
	case isPunct(a, "^") || isPunct(b, "^"):
		return false
	case isPunct(a, "..", ".") || isPunct(b, "..", "."):
		return false
	case isPunct(b, ":"):
		return false
	case isPunct(a, ":"):
		return !inBrackets
	case isPunct(a, "-", "+") && p.unary(i-1):
		return false
	}
	return true
}

// unary reports whether the sign at position i of the line is a unary one:
// it starts an operand, after an operator, an opener, a comma or a keyword.
func (p *printer) unary(i int) bool {
	if i == 0 {
		return true
	}
	prev := p.line[i-1]
	switch prev.Kind {
	case parser.Punct:
		return !isPunct(prev, ")", "]", "}")
	case parser.Word:
		return isKeyword(prev.Text)
	case parser.Comment:
		return p.unary(i - 1)
	}
	return false
}

func isPunct(t parser.Token, texts ...string) bool {
	if t.Kind != parser.Punct {
		return false
	}
	for _, s := range texts {
		if t.Text == s {
			return true
		}
	}
	return false
}

// isOpener reports whether t opens brackets: ( [ or a literal's {.
func isOpener(t parser.Token) bool {
	return isPunct(t, "(", "[") || t.Kind == literalBrace && t.Text == "{"
}

// isCloser reports whether t closes brackets or a block.
func isCloser(t parser.Token) bool {
	return isPunct(t, ")", "]", "}") || t.Kind == literalBrace && t.Text == "}"
}

// isKeyword reports whether a word is one of the language's keywords.
func isKeyword(s string) bool { return parser.IsKeyword(s) }
