package typecheck

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/bocdev/boc/codegen"
	"github.com/bocdev/boc/parser"
	"github.com/bocdev/boc/plan"
)

// FuzzCheck parses, checks, plans and generates arbitrary text: no stage may
// panic, Check must give either IR or errors, what it accepts and the plan
// accepts must generate without a diagnostic, and every diagnostic must lie
// inside the input.
// The seed corpus is every test file, plus testdata/fuzz/FuzzCheck.
func FuzzCheck(f *testing.F) {
	for _, pattern := range []string{"testdata/ok/*.bo", "testdata/errors/*.bo"} {
		files, _ := filepath.Glob(pattern)
		for _, path := range files {
			src, err := os.ReadFile(path)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(src)
		}
	}
	// Mutated import paths would each run the go command; only the test
	// packages load (once), others fail fast as not found.
	testPackages := map[string]bool{
		"github.com/bocdev/boc/typecheck/testdata/field":     true,
		"github.com/bocdev/boc/typecheck/testdata/field/cmd": true,
		"github.com/bocdev/boc/typecheck/testdata/broken":    true,
	}
	load := loadPackages
	loadPackages = func(dir string, paths []string) ([]*packages.Package, error) {
		for _, p := range paths {
			if !testPackages[p] {
				return nil, os.ErrNotExist
			}
		}
		return load(dir, paths)
	}
	defer func() { loadPackages = load }()
	f.Fuzz(func(t *testing.T, src []byte) {
		file, _ := parser.ParseFile("fuzz.bo", src)
		if file == nil {
			return
		}
		p, diags := Check(file, Config{Dir: "testdata/ok"})
		if (p == nil) != diags.HasErrors() {
			t.Fatalf("IR %v with diagnostics %v", p != nil, diags)
		}
		if p != nil {
			// What the checker accepts goes on through the plan; what the
			// plan accepts, code generation emits without a diagnostic.
			o, pdiags := plan.Build(p)
			diags = append(diags, pdiags...)
			if o != nil {
				if _, gdiags := codegen.Generate(o, codegen.Options{ImportPath: "example.com/fuzz"}); gdiags.HasErrors() {
					t.Fatalf("planned, but generating it fails: %v", gdiags)
				}
			}
		}
		lines := bytes.Count(src, []byte("\n")) + 1
		for _, d := range diags {
			pos := d.Span.Start
			if !pos.IsValid() || pos.Line > lines || pos.Col < 1 || pos.Offset < 0 || pos.Offset > len(src) {
				t.Fatalf("diagnostic outside the input (%d lines, %d bytes): %s", lines, len(src), d)
			}
		}
	})
}
