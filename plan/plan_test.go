package plan_test

import (
	"bytes"
	"flag"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bocdev/boc/codegen"
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
			out, diags := u.Generate(driver.ProgramOptions)
			if out == nil {
				t.Fatal(diags)
			}
			if linked := runtimeImports(t, out.Library); !slices.Equal(linked, u.Plan.Runtime()) {
				t.Errorf("the plan links %v, the code imports %v", u.Plan.Runtime(), linked)
			}
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

// runtimeImports are the runtime packages files import, sorted.
func runtimeImports(t *testing.T, files []codegen.File) []string {
	t.Helper()
	set := map[string]bool{}
	for _, f := range files {
		parsed, err := parser.ParseFile(token.NewFileSet(), f.Name, f.Content, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range parsed.Imports {
			if path, _ := strconv.Unquote(imp.Path.Value); strings.HasPrefix(path, "github.com/bocdev/boc/runtime/") {
				set[path] = true
			}
		}
	}
	out := make([]string, 0, len(set))
	for path := range set {
		out = append(out, path)
	}
	slices.Sort(out)
	return out
}
