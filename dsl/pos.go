// Package dsl holds what every stage of boc shares: source positions, diagnostics
// and the types and constant values of the .bo language. The syntax tree lives in
// dsl/ast and the checked intermediate representation in dsl/ir.
package dsl

import "fmt"

// Pos is a position in a source file. Line and Col count from 1; Col counts bytes.
// The zero Pos is invalid and means "no position".
type Pos struct {
	File   string
	Offset int
	Line   int
	Col    int
}

// IsValid reports whether p refers to a place in a file.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String formats p as file:line:col, the form editors and terminals link to.
func (p Pos) String() string {
	switch {
	case !p.IsValid() && p.File == "":
		return "-"
	case !p.IsValid():
		return p.File
	case p.File == "":
		return fmt.Sprintf("%d:%d", p.Line, p.Col)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Before reports whether p comes before q in the same file.
func (p Pos) Before(q Pos) bool {
	if p.Line != q.Line {
		return p.Line < q.Line
	}
	return p.Col < q.Col
}

// Span is a half-open range [Start, End) of source text.
type Span struct {
	Start Pos
	End   Pos
}

// SpanOf returns a span from start to end.
func SpanOf(start, end Pos) Span { return Span{Start: start, End: end} }
