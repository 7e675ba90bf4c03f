package parser

import (
	"sort"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/bocdev/boc/dsl"
)

// source maps byte offsets of one file to dsl positions (line, and column in
// bytes), for token starts as well as for span ends and points between tokens.
type source struct {
	name       string
	lineStarts []int // byte offset at which each line starts
}

func newSource(name string, src []byte) *source {
	s := &source{name: name, lineStarts: []int{0}}
	for i, b := range src {
		if b == '\n' {
			s.lineStarts = append(s.lineStarts, i+1)
		}
	}
	return s
}

// pos returns the position of a byte offset.
func (s *source) pos(offset int) dsl.Pos {
	line := sort.SearchInts(s.lineStarts, offset+1) // lines starting at or before offset
	return dsl.Pos{File: s.name, Offset: offset, Line: line, Col: offset - s.lineStarts[line-1] + 1}
}

// tokenEnd is the offset just past t.
func tokenEnd(t lexer.Token) int { return t.Pos.Offset + len(t.Value) }

// tokenSpan is the span of one token.
func (s *source) tokenSpan(t lexer.Token) dsl.Span {
	return dsl.SpanOf(s.pos(t.Pos.Offset), s.pos(tokenEnd(t)))
}

// tokensSpan is the span from the first to the last of a non-empty run of
// tokens.
func (s *source) tokensSpan(ts []lexer.Token) dsl.Span {
	return dsl.SpanOf(s.pos(ts[0].Pos.Offset), s.pos(tokenEnd(ts[len(ts)-1])))
}

// point is an empty span at an offset, for things missing there.
func (s *source) point(offset int) dsl.Span {
	p := s.pos(offset)
	return dsl.SpanOf(p, p)
}
