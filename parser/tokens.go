package parser

import "slices"

// TokenKind is the kind of a token of .bo source, as Tokens reports it.
type TokenKind int

const (
	Word    TokenKind = iota + 1 // a name or a keyword
	Number                       // a number literal
	String                       // a string literal
	Punct                        // an operator or punctuation
	Newline                      // the end of a line
	Comment                      // a line or block comment, with its delimiters
	Other                        // text no other kind accepts
)

// Token is one token of .bo source.
type Token struct {
	Kind TokenKind
	Text string
}

// Tokens splits src into its tokens, comments and newlines included, as the
// parser scans it: what a formatter needs to lay the same tokens out anew.
func Tokens(src []byte) []Token {
	kinds := map[int]TokenKind{
		int(tokIdent): Word, int(tokKeyword): Word, int(tokNumber): Number, int(tokString): String,
		int(tokPunct): Punct, int(tokNewline): Newline, int(tokComment): Comment,
	}
	scanned := scanComments("", string(src))
	out := make([]Token, len(scanned))
	for i, t := range scanned {
		k, ok := kinds[int(t.Type)]
		if !ok {
			k = Other
		}
		out[i] = Token{Kind: k, Text: t.Value}
	}
	return out
}

// IsKeyword reports whether s is a reserved word of the language.
func IsKeyword(s string) bool { return slices.Contains(keywords, s) }

// Keywords returns the reserved words, for editors (boc lsp).
func Keywords() []string { return slices.Clone(keywords) }

// StatementKeywords returns the words a statement starts with, in the order
// LANGUAGE.md lists the statements.
func StatementKeywords() []string { return slices.Clone(statementKeywords) }
