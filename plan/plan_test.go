package plan_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bocdev/boc/driver"
	"github.com/bocdev/boc/plan"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden plan dumps in testdata")

// goldenCases are the golden optimisers' problems; each has its plan dump in
// testdata/NAME.plan.
const goldenCases = "../testdata/golden/*.bo"

// testPluginCases use plugins that only codegen's tests register.
var testPluginCases = map[string]bool{"custom_kernel": true}

// TestGolden compares the plan of every golden problem with its dump;
// -update rewrites them.
func TestGolden(t *testing.T) {
	paths, err := filepath.Glob(goldenCases)
	if err != nil || len(paths) == 0 {
		t.Fatalf("no golden problems: %v", err)
	}
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".bo")
		if testPluginCases[name] {
			continue
		}
		t.Run(name, func(t *testing.T) {
			u, err := driver.Load(path, driver.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !u.OK() {
				t.Fatal(u.Diagnostics)
			}
			var got bytes.Buffer
			plan.Fprint(&got, u.Plan)
			golden := filepath.Join("testdata", name+".plan")
			if *update {
				if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if diff := cmp.Diff(string(want), got.String()); diff != "" {
				t.Errorf("plan of %s (-want +got):\n%s", name, diff)
			}
		})
	}
}
