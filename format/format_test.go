package format_test

import (
	"bytes"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/bocdev/boc/driver"
	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/format"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

var update = flag.Bool("update", false, "rewrite the .golden files in testdata")

// TestGolden formats every testdata/NAME.input and compares the result with
// NAME.golden; -update rewrites them.
func TestGolden(t *testing.T) {
	inputs, _ := filepath.Glob("testdata/*.input")
	if len(inputs) < 8 {
		t.Fatalf("%d golden pairs, want at least 8", len(inputs))
	}
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".input")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			got, diags := format.Source(name+".bo", src)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			golden := strings.TrimSuffix(in, ".input") + ".golden"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("formatted %s (-want +got):\n%s", name, diff)
			}
			again, _ := format.Source(name+".bo", got)
			if !bytes.Equal(again, got) {
				t.Errorf("formatting %s twice changes it:\n%s", name, cmp.Diff(string(got), string(again)))
			}
		})
	}
}

// TestRepositoryFiles: every .bo file of the repository that parses formats
// idempotently and, when it checks, to the same program.
func TestRepositoryFiles(t *testing.T) {
	n := 0
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".bo") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		n++
		checkFormatted(t, path, src)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Errorf("formatted %d files; is the walk rooted at the module?", n)
	}
}

// checkFormatted formats src: a file that parses must format idempotently
// and, when it checks, check to the same program, positions aside.
func checkFormatted(t *testing.T, path string, src []byte) {
	t.Helper()
	got, diags := format.Source(path, src)
	if diags.HasErrors() {
		return // a syntax error: nothing is formatted
	}
	if again, _ := format.Source(path, got); !bytes.Equal(again, got) {
		t.Errorf("%s: formatting twice changes it:\n%s", path, cmp.Diff(string(got), string(again)))
	}
	before := driver.Compile(path, src, driver.Options{Dir: filepath.Dir(path)})
	after := driver.Compile(path, got, driver.Options{Dir: filepath.Dir(path)})
	if before.OK() != after.OK() {
		t.Errorf("%s: checks %v before formatting, %v after:\n%s", path, before.OK(), after.OK(), got)
		return
	}
	if !before.OK() {
		return
	}
	if diff := cmp.Diff(before.Program, after.Program, sameProgram); diff != "" {
		t.Errorf("%s: formatting changes the program (-before +after):\n%s", path, diff)
	}
}

// sameProgram compares programs without their source positions.
var sameProgram = cmp.Options{
	cmpopts.IgnoreTypes(dsl.Span{}, dsl.Pos{}),
	cmp.Exporter(func(reflect.Type) bool { return true }),
	cmpopts.IgnoreFields(ir.Program{}, "BudgetSpan"),
	cmpopts.EquateNaNs(), // an objective without a threshold
}

// FuzzFormat: on any input that parses, formatting succeeds, is idempotent,
// and keeps a checking file's program. The seeds are the golden inputs.
func FuzzFormat(f *testing.F) {
	inputs, _ := filepath.Glob("testdata/*.input")
	for _, in := range inputs {
		src, err := os.ReadFile(in)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		checkFormatted(t, "fuzz.bo", src)
	})
}
