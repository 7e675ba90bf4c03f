package codegen

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/parser"
	"github.com/bocdev/boc/typecheck"
)

// goldenDir holds NAME.bo cases and, beside each, NAME.golden/ with the
// emitted files.
const goldenDir = "../testdata/golden"

// goldenModulePath is the module the golden programs are built in; a case's
// library is goldenModulePath/NAME.
const goldenModulePath = "bocgolden"

func goldenCases(t *testing.T) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(goldenDir, "*.bo"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no golden cases in %s: %v", goldenDir, err)
	}
	names := make([]string, len(paths))
	for i, p := range paths {
		names[i] = strings.TrimSuffix(filepath.Base(p), ".bo")
	}
	return names
}

// checkFile parses and type-checks a .bo file.
func checkFile(t *testing.T, path string) *ir.Program {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, diags := parser.ParseFile(filepath.Base(path), src)
	if diags.HasErrors() {
		t.Fatalf("parsing %s:\n%s", path, render(diags, src))
	}
	p, diags := typecheck.Check(f, typecheck.Config{Dir: filepath.Dir(path)})
	if diags.HasErrors() {
		t.Fatalf("checking %s:\n%s", path, render(diags, src))
	}
	return p
}

func render(diags dsl.Diagnostics, src []byte) string {
	var b bytes.Buffer
	diags.Render(&b, src)
	return b.String()
}

// generateCase is golden case name's emitted code, as TestGolden checks it
// is on disk: its library, and its main package (main.go) importing the
// library from goldenModulePath/NAME.
func generateCase(t *testing.T, name string) *Output {
	t.Helper()
	dir := filepath.Join(goldenDir, name+".golden")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := &Output{}
	for _, e := range entries {
		content, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		f := File{Name: e.Name(), Content: content}
		if e.Name() == "main.go" {
			out.Main = append(out.Main, f)
		} else {
			out.Library = append(out.Library, f)
		}
	}
	return out
}

// GoldenCases, GoldenDir and GoldenModulePath serve the external golden
// test, which runs the pipeline through the driver.
var GoldenCases = goldenCases

const (
	GoldenDir        = goldenDir
	GoldenModulePath = goldenModulePath
)
