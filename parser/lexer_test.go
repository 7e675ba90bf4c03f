package parser

import (
	"fmt"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"
)

func TestScan(t *testing.T) {
	names := map[lexer.TokenType]string{}
	for name, typ := range boLexer.Symbols() {
		names[typ] = name
	}
	tests := []struct {
		src  string
		want string // Type:`value`@line:col, space-separated
	}{
		{"let x1 = y_2", "Keyword:`let`@1:1 Ident:`x1`@1:5 Punct:`=`@1:8 Ident:`y_2`@1:10"},
		{"letter inx", "Ident:`letter`@1:1 Ident:`inx`@1:8"},
		{"n in 1..10", "Ident:`n`@1:1 Keyword:`in`@1:3 Number:`1`@1:6 Punct:`..`@1:7 Number:`10`@1:9"},
		{".5 1.25 1e-3 2.5E+4 7", "Number:`.5`@1:1 Number:`1.25`@1:4 Number:`1e-3`@1:9 Number:`2.5E+4`@1:14 Number:`7`@1:21"},
		{"2e 1.", "Number:`2`@1:1 Ident:`e`@1:2 Number:`1`@1:4 Punct:`.`@1:5"},
		{"3x", "Number:`3`@1:1 Ident:`x`@1:2"},
		{"<= >= == != < > = ~ : , . ^", "Punct:`<=`@1:1 Punct:`>=`@1:4 Punct:`==`@1:7 Punct:`!=`@1:10 Punct:`<`@1:13 Punct:`>`@1:15 Punct:`=`@1:17 Punct:`~`@1:19 Punct:`:`@1:21 Punct:`,`@1:23 Punct:`.`@1:25 Punct:`^`@1:27"},
		{"([{}])", "Punct:`(`@1:1 Punct:`[`@1:2 Punct:`{`@1:3 Punct:`}`@1:4 Punct:`]`@1:5 Punct:`)`@1:6"},
		{"a // comment\nb", "Ident:`a`@1:1 Newline:`\n`@1:13 Ident:`b`@2:1"},
		{"a /* one line */ b", "Ident:`a`@1:1 Ident:`b`@1:18"},
		{"a /* two\nlines */ b", "Ident:`a`@1:1 Newline:`\n`@1:9 Ident:`b`@2:10"},
		{"a/b", "Ident:`a`@1:1 Punct:`/`@1:2 Ident:`b`@1:3"},
		{`"a\"b" "c\\"`, "String:`\"a\\\"b\"`@1:1 String:`\"c\\\\\"`@1:8"},
		{"\"open\nx", "UnterminatedString:`\"open`@1:1 Newline:`\n`@1:6 Ident:`x`@2:1"},
		{"x /* open", "Ident:`x`@1:1 UnterminatedComment:`/* open`@1:3"},
		{"a @ é", "Ident:`a`@1:1 Invalid:`@`@1:3 Invalid:`é`@1:5"},
		{"\xff", "Invalid:`\xff`@1:1"},
		{"\"é\" x", "String:`\"é\"`@1:1 Ident:`x`@1:6"},
		{"a\r\n\tb", "Ident:`a`@1:1 Newline:`\n`@1:3 Ident:`b`@2:2"},
		{"learn acquisition seed", "Keyword:`learn`@1:1 Keyword:`acquisition`@1:7 Keyword:`seed`@1:19"},
	}
	for _, tt := range tests {
		var got []string
		for _, tok := range scan("t.bo", tt.src) {
			got = append(got, fmt.Sprintf("%s:`%s`@%d:%d", names[tok.Type], tok.Value, tok.Pos.Line, tok.Pos.Column))
			if tt.src[tok.Pos.Offset:tokenEnd(tok)] != tok.Value {
				t.Errorf("%q: token %q at offset %d does not match the text", tt.src, tok.Value, tok.Pos.Offset)
			}
		}
		if g := strings.Join(got, " "); g != tt.want {
			t.Errorf("%q:\ngot  %s\nwant %s", tt.src, g, tt.want)
		}
	}
}

// TestLexerDefinition checks the participle side of the lexer: reading from a
// reader gives the same tokens and an EOF at the end of the text.
func TestLexerDefinition(t *testing.T) {
	src := "budget 10\nseed é"
	lex, err := boLexer.Lex("t.bo", strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	toks, err := lexer.ConsumeAll(lex)
	if err != nil {
		t.Fatal(err)
	}
	want := scan("t.bo", src)
	if len(toks) != len(want)+1 {
		t.Fatalf("got %d tokens, want %d and EOF", len(toks), len(want))
	}
	for i, tok := range want {
		if toks[i] != tok {
			t.Errorf("token %d: got %#v, want %#v", i, toks[i], tok)
		}
	}
	eof := toks[len(toks)-1]
	if !eof.EOF() || eof.Pos.Offset != len(src) || eof.Pos.Line != 2 || eof.Pos.Column != 8 {
		t.Errorf("EOF %#v, want offset %d at 2:8", eof, len(src))
	}
}
