package lsp

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/bocdev/boc/dsl"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// document is an open .bo file as the editor holds it, which may differ
// from the file on disk.
type document struct {
	uri     protocol.DocumentURI
	path    string // the file's path, which positions and messages name
	version int32
	text    string
	lines   []int // the byte offset where each line starts
}

func newDocument(u protocol.DocumentURI, version int32, text string) *document {
	d := &document{uri: u, path: uri.URI(u).Filename(), version: version}
	d.setText(text)
	return d
}

func (d *document) setText(text string) {
	d.text = text
	d.lines = append(d.lines[:0], 0)
	for i := range len(text) {
		if text[i] == '\n' {
			d.lines = append(d.lines, i+1)
		}
	}
}

// line is the text of line i (from 0) without its newline.
func (d *document) line(i int) string {
	if i < 0 || i >= len(d.lines) {
		return ""
	}
	end := len(d.text)
	if i+1 < len(d.lines) {
		end = d.lines[i+1] - 1
	}
	return strings.TrimSuffix(d.text[d.lines[i]:end], "\r")
}

// position is the editor's position of byte offset off: a line and a
// column in UTF-16 code units, as LSP counts them.
func (d *document) position(off int) protocol.Position {
	off = min(max(off, 0), len(d.text))
	line := 0
	for line+1 < len(d.lines) && d.lines[line+1] <= off {
		line++
	}
	return protocol.Position{Line: uint32(line), Character: uint32(utf16Len(d.text[d.lines[line]:off]))}
}

// offset is the byte offset of the editor's position p, clamped to its
// line.
func (d *document) offset(p protocol.Position) int {
	if int(p.Line) >= len(d.lines) {
		return len(d.text)
	}
	start := d.lines[p.Line]
	text := d.line(int(p.Line))
	units := 0
	for i, r := range text {
		if units >= int(p.Character) {
			return start + i
		}
		units += utf16.RuneLen(r)
	}
	return start + len(text)
}

// rangeOf is the editor's range of a diagnostic's or a node's span; an
// empty span covers the character at its start.
func (d *document) rangeOf(s dsl.Span) protocol.Range {
	start := d.posOffset(s.Start)
	end := start
	if s.End.IsValid() {
		end = max(d.posOffset(s.End), start)
	}
	if end == start && start < len(d.text) && d.text[start] != '\n' {
		_, size := utf8.DecodeRuneInString(d.text[start:])
		end += size
	}
	return protocol.Range{Start: d.position(start), End: d.position(end)}
}

// posOffset is the byte offset of a position in the document; an invalid
// one is the start.
func (d *document) posOffset(p dsl.Pos) int {
	if !p.IsValid() || p.Line > len(d.lines) {
		return 0
	}
	return min(d.lines[p.Line-1]+p.Col-1, len(d.text))
}

// wordAt is the name (letters, digits, underscores) at byte offset off, and
// where it starts; "" when there is none.
func (d *document) wordAt(off int) (string, int) {
	start, end := off, off
	for start > 0 && isNameByte(d.text[start-1]) {
		start--
	}
	for end < len(d.text) && isNameByte(d.text[end]) {
		end++
	}
	return d.text[start:end], start
}

func isNameByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}
