package cli

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkCheck measures `boc check` in process on every example that has no
// Go binding (loading Go packages is the go command's time, not boc's). The
// target is well under 100 ms per file; this reports, it does not assert.
func BenchmarkCheck(b *testing.B) {
	files, err := filepath.Glob("../examples/*.bo")
	if err != nil {
		b.Fatal(err)
	}
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			b.Fatal(err)
		}
		if bytes.Contains(src, []byte(`go "`)) {
			continue
		}
		b.Run(strings.TrimSuffix(filepath.Base(file), ".bo"), func(b *testing.B) {
			for b.Loop() {
				if code := Run([]string{"check", file}, nil, io.Discard, io.Discard); code != exitOK {
					b.Fatalf("boc check %s: exit %d", file, code)
				}
			}
		})
	}
}
