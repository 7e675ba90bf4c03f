package driver_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bocdev/boc/driver"
)

const quickstart = `problem demo
domain {
    x in [0, 1]
}
objective minimize (x - 0.3)^2
budget 6
init sobol(3)
`

// TestStages: each stage runs only after the one before it succeeded, and
// the unit says how far the file got.
func TestStages(t *testing.T) {
	tests := []struct {
		name      string
		src       string
		tree, ir  bool
		diagnosis string // a fragment of the first diagnostic, "" for none
	}{
		{"valid", quickstart, true, true, ""},
		{"syntax error", "problem demo\ndomain {\n", false, false, "to close the domain block"},
		{"check error", strings.Replace(quickstart, "sobol(3)", "sobol(0)", 1), true, false, "sobol's n must be in"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := driver.Compile("demo.bo", []byte(tt.src), driver.Options{})
			if (u.Tree != nil) != tt.tree || (u.Program != nil) != tt.ir || u.OK() != tt.ir {
				t.Fatalf("tree %v, program %v, ok %v; want tree %v, program %v", u.Tree != nil, u.Program != nil, u.OK(), tt.tree, tt.ir)
			}
			switch {
			case tt.diagnosis == "" && len(u.Diagnostics) > 0:
				t.Errorf("unexpected diagnostics: %v", u.Diagnostics)
			case tt.diagnosis != "" && (len(u.Diagnostics) == 0 || !strings.Contains(u.Diagnostics[0].Message, tt.diagnosis)):
				t.Errorf("diagnostics %v, want one containing %q", u.Diagnostics, tt.diagnosis)
			}
			out, _ := u.Generate(driver.ProgramOptions)
			if (out != nil) != tt.ir {
				t.Errorf("Generate gave output %v, want %v", out != nil, tt.ir)
			}
		})
	}
}

// TestLoadRelative: a file's relative references resolve from its directory.
func TestLoadRelative(t *testing.T) {
	dir := t.TempDir()
	src := quickstart + "candidates file \"points.csv\"\n"
	if err := os.WriteFile(filepath.Join(dir, "demo.bo"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "points.csv"), []byte("x\n0.1\n0.5\n0.9\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	u, err := driver.Load(filepath.Join(dir, "demo.bo"), driver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !u.OK() || len(u.Program.Candidates.Points) != 3 || u.Dir() != dir {
		t.Fatalf("ok %v, dir %s, diagnostics %v", u.OK(), u.Dir(), u.Diagnostics)
	}
	if _, err := driver.Load(filepath.Join(dir, "missing.bo"), driver.Options{}); err == nil {
		t.Error("Load of a missing file succeeded")
	}
}

func ExampleCompile() {
	u := driver.Compile("demo.bo", []byte(quickstart), driver.Options{})
	fmt.Println(u.OK(), u.Program.Name, u.Program.Budget)
	// Output: true demo 6
}
