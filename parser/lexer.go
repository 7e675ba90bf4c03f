package parser

import (
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
)

// keywords are the reserved words of the language (LANGUAGE.md, "Lexical"). They
// lex as Keyword tokens, so they are never taken for a name.
var keywords = []string{
	"problem", "let", "domain", "in", "candidates", "objective", "maximize",
	"minimize", "input", "observation", "noise", "constraint", "require", "model",
	"acquisition", "search", "budget", "init", "seed", "stop", "when", "learn",
	"go", "exec", "external", "file", "if", "then", "else", "and", "or", "not",
}

// statementKeywords are the words a top-level statement starts with, in the
// order LANGUAGE.md lists the statements; "did you mean" hints choose from them.
var statementKeywords = []string{
	"problem", "let", "domain", "candidates", "objective", "input", "observation",
	"constraint", "require", "model", "acquisition", "search", "budget", "init", "seed", "stop",
}

// comparisonOperators are the comparison tokens.
var comparisonOperators = []string{"<=", ">=", "<", ">", "==", "!="}

// Token types, named in grammar tags by their symbol. The Bad* types and
// Invalid carry text no other type accepts, so that scanning never fails and
// the splitter can report the problem as a diagnostic.
const (
	tokIdent lexer.TokenType = iota + 1
	tokKeyword
	tokNumber
	tokString
	tokPunct
	tokNewline
	tokArgName // assigned by the splitter: a word naming an argument
	tokBadString
	tokBadComment
	tokInvalid
	tokComment // kept only by scanComments, for the formatter
)

// boLexer is the lexer definition the grammar is built with.
var boLexer lexerDefinition

type lexerDefinition struct{}

func (lexerDefinition) Symbols() map[string]lexer.TokenType {
	return map[string]lexer.TokenType{
		"EOF": lexer.EOF, "Ident": tokIdent, "Keyword": tokKeyword, "Number": tokNumber,
		"String": tokString, "Punct": tokPunct, "Newline": tokNewline, "ArgName": tokArgName,
		"UnterminatedString": tokBadString, "UnterminatedComment": tokBadComment, "Invalid": tokInvalid,
	}
}

func (lexerDefinition) Lex(filename string, r io.Reader) (lexer.Lexer, error) {
	src, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	toks := scan(filename, string(src))
	return &tokenLexer{tokens: toks, eof: lexer.EOFToken(endPosition(filename, string(src)))}, nil
}

// endPosition is the position just past the end of src.
func endPosition(filename, src string) lexer.Position {
	line := 1 + strings.Count(src, "\n")
	return lexer.Position{Filename: filename, Offset: len(src), Line: line, Column: len(src) - strings.LastIndexByte(src, '\n')}
}

// scan splits src into tokens, dropping spaces and comments; a block comment
// that spans lines still ends a line, as in Go. Columns count bytes.
func scan(filename, src string) []lexer.Token { return scanTokens(filename, src, false) }

// scanComments is scan keeping each comment as a tokComment token (a block
// comment that spans lines is followed by its newline).
func scanComments(filename, src string) []lexer.Token { return scanTokens(filename, src, true) }

// scanTokens scans src, keeping comments when asked.
//
// Numbers are decimal: `1`, `0.5`, `.5`, `1e-3`, `2.5E+4`. A dot must be
// followed by a digit to belong to a number, which keeps `1..10` three tokens;
// an exponent must have digits, so `2e` is the number 2 and the name e.
func scanTokens(filename, src string, comments bool) []lexer.Token {
	var (
		out       []lexer.Token
		line      = 1
		lineStart = 0
	)
	emit := func(t lexer.TokenType, start, end int) {
		if len(out) == cap(out) { // double: append grows large slices by a quarter, which costs 5 times the final size
			out = append(make([]lexer.Token, 0, 2*cap(out)+len(src)/4+16), out...)
		}
		out = append(out, lexer.Token{Type: t, Value: src[start:end], Pos: lexer.Position{
			Filename: filename, Offset: start, Line: line, Column: start - lineStart + 1,
		}})
	}
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '\n':
			emit(tokNewline, i, i+1)
			i++
			line, lineStart = line+1, i
		case strings.HasPrefix(src[i:], "//"):
			if comments {
				emit(tokComment, i, i+lineLength(src[i:]))
			}
			i += lineLength(src[i:])
		case strings.HasPrefix(src[i:], "/*"):
			n := strings.Index(src[i+2:], "*/")
			if n < 0 {
				emit(tokBadComment, i, len(src))
				return out
			}
			end := i + 2 + n + 2
			if comments {
				emit(tokComment, i, end)
			}
			if nl := strings.IndexByte(src[i:end], '\n'); nl >= 0 {
				emit(tokNewline, i+nl, i+nl+1)
				line += strings.Count(src[i:end], "\n")
				lineStart = i + strings.LastIndexByte(src[i:end], '\n') + 1
			}
			i = end
		case isLetter(c):
			end := i + 1
			for end < len(src) && (isLetter(src[end]) || isDigit(src[end])) {
				end++
			}
			t := tokIdent
			if slices.Contains(keywords, src[i:end]) {
				t = tokKeyword
			}
			emit(t, i, end)
			i = end
		case isDigit(c) || c == '.' && i+1 < len(src) && isDigit(src[i+1]):
			end := numberEnd(src, i)
			emit(tokNumber, i, end)
			i = end
		case c == '"':
			end, closed := stringEnd(src, i)
			if closed {
				emit(tokString, i, end)
			} else {
				emit(tokBadString, i, end)
			}
			i = end
		case i+1 < len(src) && isTwoCharOperator(src[i:i+2]):
			emit(tokPunct, i, i+2)
			i += 2
		case strings.IndexByte("-+*/^<>=~:,.()[]{}", c) >= 0:
			emit(tokPunct, i, i+1)
			i++
		default:
			_, size := utf8.DecodeRuneInString(src[i:])
			emit(tokInvalid, i, i+size)
			i += size
		}
	}
	return out
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' }

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isTwoCharOperator(s string) bool {
	return s == "<=" || s == ">=" || s == "==" || s == "!=" || s == ".."
}

// lineLength is the length of s up to, not including, its first newline.
func lineLength(s string) int {
	if n := strings.IndexByte(s, '\n'); n >= 0 {
		return n
	}
	return len(s)
}

// digitsEnd returns the end of the run of digits starting at i.
func digitsEnd(src string, i int) int {
	for i < len(src) && isDigit(src[i]) {
		i++
	}
	return i
}

// numberEnd returns the end of the number starting at i.
func numberEnd(src string, i int) int {
	i = digitsEnd(src, i)
	if i+1 < len(src) && src[i] == '.' && isDigit(src[i+1]) {
		i = digitsEnd(src, i+1)
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		j := i + 1
		if j < len(src) && (src[j] == '+' || src[j] == '-') {
			j++
		}
		if j < len(src) && isDigit(src[j]) {
			i = digitsEnd(src, j)
		}
	}
	return i
}

// stringEnd returns the end of the string literal starting at the quote at i
// and whether it is closed on its line. A backslash escapes the next byte;
// what the escape means is checked when the string is unquoted.
func stringEnd(src string, i int) (int, bool) {
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '"':
			return j + 1, true
		case '\n':
			return j, false
		case '\\':
			if j+1 < len(src) && src[j+1] != '\n' {
				j++
			}
		}
	}
	return len(src), false
}

// isStatementKeyword reports whether t is a keyword that starts a statement.
func isStatementKeyword(t lexer.Token) bool {
	return t.Type == tokKeyword && slices.Contains(statementKeywords, t.Value)
}

// isWord reports whether t is a name or a keyword.
func isWord(t lexer.Token) bool { return t.Type == tokIdent || t.Type == tokKeyword }

// tokenLexer hands participle a run of scanned tokens.
type tokenLexer struct {
	tokens []lexer.Token
	eof    lexer.Token
}

func (l *tokenLexer) Next() (lexer.Token, error) {
	if len(l.tokens) == 0 {
		return l.eof, nil
	}
	t := l.tokens[0]
	l.tokens = l.tokens[1:]
	return t, nil
}
