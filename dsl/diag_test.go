package dsl

import (
	"bytes"
	"strings"
	"testing"
)

func TestRender(t *testing.T) {
	src := []byte("problem p\nmodel gp(kernel = matern42)\n\tbudget x\n" +
		"let v = " + strings.Repeat("x + ", 248) + "y + " + strings.Repeat("x + ", 250) + "x\n")
	at := func(line, col, endCol int) Span {
		return Span{Start: Pos{File: "f.bo", Line: line, Col: col}, End: Pos{File: "f.bo", Line: line, Col: endCol}}
	}
	tests := []struct {
		name string
		diag Diagnostic
		want string
	}{
		{"caret under the span, with hint",
			Errorf(at(2, 19, 27), "unknown kernel %q", "matern42").WithHint(`did you mean "matern52"?`),
			"f.bo:2:19: error: unknown kernel \"matern42\"\n    model gp(kernel = matern42)\n                      ^~~~~~~~\n    hint: did you mean \"matern52\"?\n"},
		{"tabs become spaces so the caret lines up",
			Warningf(at(3, 9, 10), "x"),
			"f.bo:3:9: warning: x\n     budget x\n            ^\n"},
		{"span past the line's end is cut at the end",
			Errorf(at(1, 9, 40), "p"),
			"f.bo:1:9: error: p\n    problem p\n            ^~\n"},
		{"a long line is quoted around the span",
			Errorf(Span{Start: Pos{File: "f.bo", Line: 4, Col: 1001}, End: Pos{File: "f.bo", Line: 4, Col: 1002}}, "p"),
			"f.bo:4:1001: error: p\n    ..." + strings.Repeat("x + ", 10) + "y + " + strings.Repeat("x + ", 19) + "...\n" +
				"       " + strings.Repeat(" ", 40) + "^\n"},
		{"no source line: only the message",
			Errorf(at(9, 1, 2), "missing"),
			"f.bo:9:1: error: missing\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			tt.diag.Render(&b, src)
			if b.String() != tt.want {
				t.Errorf("got\n%q\nwant\n%q", b.String(), tt.want)
			}
		})
	}
}

func TestDiagnosticsSortAndFilter(t *testing.T) {
	pos := func(line, col int) Span { return Span{Start: Pos{File: "f.bo", Line: line, Col: col}} }
	ds := Diagnostics{
		Errorf(pos(3, 1), "c"),
		Warningf(pos(1, 5), "b"),
		Errorf(pos(1, 2), "a"),
		Errorf(pos(1, 2), "a2"),
	}
	ds.Sort()
	var got string
	for _, d := range ds {
		got += d.Message
	}
	if got != "aa2bc" {
		t.Errorf("sorted order %q, want %q (stable at equal positions)", got, "aa2bc")
	}
	if !ds.HasErrors() || len(ds.Errors()) != 3 {
		t.Errorf("HasErrors/Errors wrong: %v", ds.Errors())
	}
	if (Diagnostics{Warningf(pos(1, 1), "w")}).HasErrors() {
		t.Error("a warning counts as an error")
	}
	if want := "f.bo:1:2: error: a\nf.bo:1:2: error: a2\nf.bo:1:5: warning: b\nf.bo:3:1: error: c"; ds.Error() != want {
		t.Errorf("Error() = %q, want %q", ds.Error(), want)
	}
}

func TestPosString(t *testing.T) {
	tests := []struct {
		pos  Pos
		want string
	}{
		{Pos{File: "a.bo", Line: 3, Col: 7}, "a.bo:3:7"},
		{Pos{Line: 3, Col: 7}, "3:7"},
		{Pos{File: "a.bo"}, "a.bo"},
		{Pos{}, "-"},
	}
	for _, tt := range tests {
		if got := tt.pos.String(); got != tt.want {
			t.Errorf("%#v.String() = %q, want %q", tt.pos, got, tt.want)
		}
	}
}
