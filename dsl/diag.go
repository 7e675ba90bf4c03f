package dsl

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"
)

// Severity says whether a diagnostic stops compilation.
type Severity int

const (
	Error Severity = iota
	Warning
)

func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

// Diagnostic is one message about a source file: an error stops compilation, a
// warning does not. Diagnostics are values: every stage returns them instead of
// failing on the first problem.
type Diagnostic struct {
	Severity Severity
	Span     Span
	Message  string // what is wrong, in the user's terms
	Hint     string // how to fix it, if a fix is likely; may be empty
}

// Errorf returns an error diagnostic at span.
func Errorf(span Span, format string, args ...any) Diagnostic {
	return Diagnostic{Severity: Error, Span: span, Message: fmt.Sprintf(format, args...)}
}

// Warningf returns a warning diagnostic at span.
func Warningf(span Span, format string, args ...any) Diagnostic {
	return Diagnostic{Severity: Warning, Span: span, Message: fmt.Sprintf(format, args...)}
}

// WithHint returns d with its hint set.
func (d Diagnostic) WithHint(format string, args ...any) Diagnostic {
	d.Hint = fmt.Sprintf(format, args...)
	return d
}

// String formats d on one line: FILE:LINE:COL: error: message.
func (d Diagnostic) String() string {
	return fmt.Sprintf("%s: %s: %s", d.Span.Start, d.Severity, d.Message)
}

// Diagnostics is a list of diagnostics; it implements error so that a stage can
// return it where an error is expected.
type Diagnostics []Diagnostic

// HasErrors reports whether any diagnostic is an error.
func (ds Diagnostics) HasErrors() bool {
	for _, d := range ds {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// Errors returns only the errors, in order.
func (ds Diagnostics) Errors() Diagnostics {
	var out Diagnostics
	for _, d := range ds {
		if d.Severity == Error {
			out = append(out, d)
		}
	}
	return out
}

// Sort orders ds by source position, keeping the order of diagnostics at the
// same position.
func (ds Diagnostics) Sort() {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i].Span.Start, ds[j].Span.Start
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Before(b)
	})
}

// Error joins the diagnostics one per line.
func (ds Diagnostics) Error() string {
	lines := make([]string, len(ds))
	for i, d := range ds {
		lines[i] = d.String()
	}
	return strings.Join(lines, "\n")
}

// Render writes every diagnostic in the form compilers use:
//
//	file.bo:3:9: error: unknown kernel "matern42"
//	    model gp(kernel = matern42)
//	                      ^~~~~~~~
//	    hint: did you mean "matern52"?
//
// src is the text of the file the diagnostics refer to; when a line cannot be
// found in it, only the first line is written.
func (ds Diagnostics) Render(w io.Writer, src []byte) {
	for _, d := range ds {
		d.Render(w, src)
	}
}

// Render writes one diagnostic; see Diagnostics.Render.
func (d Diagnostic) Render(w io.Writer, src []byte) {
	fmt.Fprintln(w, d.String())
	if line, ok := sourceLine(src, d.Span.Start.Line); ok {
		text := strings.ReplaceAll(string(line), "\t", " ")
		col := d.Span.Start.Col
		if col < 1 {
			col = 1
		}
		width := 1
		if d.Span.End.Line == d.Span.Start.Line && d.Span.End.Col > col {
			width = d.Span.End.Col - col
		}
		text, col = excerpt(text, col)
		if col-1+width > len(text)+1 {
			width = max(1, len(text)+1-(col-1))
		}
		fmt.Fprintf(w, "    %s\n", text)
		fmt.Fprintf(w, "    %s^%s\n", strings.Repeat(" ", col-1), strings.Repeat("~", width-1))
	}
	if d.Hint != "" {
		fmt.Fprintf(w, "    hint: %s\n", d.Hint)
	}
}

// excerptWidth is how much of a long line a diagnostic quotes: a line of a
// generated file can hold megabytes.
const excerptWidth = 120

// excerpt cuts a line longer than excerptWidth to the part around column col
// (from 1, in bytes), marking the cuts with "...", and returns col's column
// in the excerpt.
func excerpt(text string, col int) (string, int) {
	if len(text) <= excerptWidth {
		return text, col
	}
	from := max(0, min(col-1-excerptWidth/3, len(text)-excerptWidth))
	for from > 0 && !utf8.RuneStart(text[from]) {
		from--
	}
	to := min(len(text), from+excerptWidth)
	for to < len(text) && !utf8.RuneStart(text[to]) {
		to++
	}
	out, col := text[from:to], col-from
	if from > 0 {
		out, col = "..."+out, col+3
	}
	if to < len(text) {
		out += "..."
	}
	return out, col
}

func sourceLine(src []byte, n int) ([]byte, bool) {
	if n < 1 || src == nil {
		return nil, false
	}
	for i := 1; i < n; i++ {
		j := bytes.IndexByte(src, '\n')
		if j < 0 {
			return nil, false
		}
		src = src[j+1:]
	}
	if j := bytes.IndexByte(src, '\n'); j >= 0 {
		src = src[:j]
	}
	return bytes.TrimRight(src, "\r"), true
}
