package lsp_test

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// BenchmarkKeystroke times a keystroke in the largest example without Go
// bindings (sgp_ucb_paper.bo): from the didChange that types a character
// to the publishDiagnostics of that version (docs/editors.md).
func BenchmarkKeystroke(b *testing.B) {
	text, err := os.ReadFile("../examples/sgp_ucb_paper.bo")
	if err != nil {
		b.Fatal(err)
	}
	e := startEditor(b)
	path, _ := filepath.Abs("../examples/sgp_ucb_paper.bo")
	u := e.open(path, string(text))
	e.diagnostics(u)
	edits := []string{string(text) + " ", string(text)}
	b.ResetTimer()
	for i := range b.N {
		e.edit(u, edits[i%2])
		e.diagnostics(u)
	}
}

// BenchmarkTenThousandEdits types 10,000 edits, each waited for, and
// reports the server's heap afterwards (the test's side included).
func BenchmarkTenThousandEdits(b *testing.B) {
	text, err := os.ReadFile("../examples/sgp_ucb_paper.bo")
	if err != nil {
		b.Fatal(err)
	}
	for range b.N {
		e := startEditor(b)
		path, _ := filepath.Abs("../examples/sgp_ucb_paper.bo")
		u := e.open(path, string(text))
		e.diagnostics(u)
		start := time.Now()
		for i := range 10000 {
			e.edit(u, string(text)+strings.Repeat(" ", i%7))
			if i%100 == 99 {
				e.diagnostics(u)
			}
		}
		e.diagnostics(u)
		e.forget()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		b.ReportMetric(float64(m.HeapAlloc)/(1<<20), "heap-MiB")
		b.ReportMetric(time.Since(start).Seconds(), "s/10k-edits")
	}
}
