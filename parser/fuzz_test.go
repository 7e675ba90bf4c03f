package parser

import (
	"bytes"
	"io"
	"testing"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ast"
)

// FuzzParse checks that no input makes the parser panic, that every input with
// something in it yields statements or diagnostics, that diagnostics are
// errors in source order with positions inside the input, that every node's
// span is valid and inside its statement's, and that parsing is deterministic.
// The committed corpus in testdata/fuzz/FuzzParse holds the golden inputs;
// the syntax-error cases are added here.
func FuzzParse(f *testing.F) {
	for _, tt := range syntaxErrors {
		f.Add([]byte(tt.src))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		const name = "fuzz.bo"
		file, diags := ParseFile(name, src)
		if file == nil || file.Name != name {
			t.Fatalf("no file for %q", src)
		}
		if len(file.Stmts) == 0 && len(diags) == 0 && hasTokens(src) {
			t.Fatalf("neither statements nor diagnostics for %q", src)
		}
		last := 0
		for _, d := range diags {
			if d.Severity != dsl.Error || d.Message == "" {
				t.Errorf("bad diagnostic %+v", d)
			}
			if err := checkSpan(src, name, d.Span); err != nil {
				t.Errorf("diagnostic %q: %v", d.Message, err)
			}
			if d.Span.Start.Offset < last {
				t.Errorf("diagnostic %q at %s is out of source order", d.Message, d.Span.Start)
			}
			last = d.Span.Start.Offset
		}
		diags.Render(io.Discard, src)
		for _, s := range file.Stmts {
			outer := s.Span()
			walk(s, func(n ast.Node) {
				span := n.Span()
				if err := checkSpan(src, name, span); err != nil {
					t.Errorf("%T: %v", n, err)
				}
				if span.Start.Offset < outer.Start.Offset || span.End.Offset > outer.End.Offset {
					t.Errorf("%T at %s outside its statement at %s", n, spanText(span), spanText(outer))
				}
			})
		}
		again, _ := ParseFile(name, src)
		var first, second bytes.Buffer
		ast.Fprint(&first, file)
		ast.Fprint(&second, again)
		if !bytes.Equal(first.Bytes(), second.Bytes()) {
			t.Errorf("two parses of %q differ", src)
		}
	})
}

// hasTokens reports whether src holds anything but spaces, newlines and
// comments.
func hasTokens(src []byte) bool {
	for _, t := range scan("fuzz.bo", string(src)) {
		if t.Type != tokNewline {
			return true
		}
	}
	return false
}
