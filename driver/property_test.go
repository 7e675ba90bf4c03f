package driver_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bocdev/boc/codegen"
	"github.com/bocdev/boc/driver"
	"github.com/bocdev/boc/dsl/ir"
)

// repoRoot is the module's root, from this package's directory.
const repoRoot = ".."

// fuzzCorpora are the checked-in corpora of the fuzz targets over .bo text.
var fuzzCorpora = []string{"../typecheck/testdata/fuzz/FuzzCheck", "testdata/fuzz/FuzzCompile"}

// sources returns every .bo file of the repository and every entry of the
// fuzz corpora, by name.
func sources(t testing.TB) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(repoRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && path != repoRoot {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".bo") {
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			out[path] = src
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range fuzzCorpora {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			path := filepath.Join(dir, e.Name())
			if src, ok := corpusEntry(t, path); ok {
				out[path] = src
			}
		}
	}
	return out
}

// corpusEntry decodes a fuzz corpus file of one []byte value.
func corpusEntry(t testing.TB, path string) ([]byte, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		line := sc.Text()
		if lit, ok := strings.CutPrefix(line, "[]byte("); ok {
			s, err := strconv.Unquote(strings.TrimSuffix(lit, ")"))
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			return []byte(s), true
		}
	}
	return nil, false
}

// TestCheckAgreesWithGen: for every .bo file of the repository and every
// fuzz corpus entry, a file that compiles (what `boc check` accepts) is
// generated without a diagnostic (what `boc gen` accepts), and one that does
// not compile is refused before code generation.
func TestCheckAgreesWithGen(t *testing.T) {
	srcs := sources(t)
	if len(srcs) < 100 {
		t.Fatalf("found %d sources; is the walk rooted at the module?", len(srcs))
	}
	accepted := 0
	for path, src := range srcs {
		u := driver.Compile(path, src, driver.Options{Dir: filepath.Dir(path)})
		out, diags := u.Generate(driver.ProgramOptions)
		switch {
		case u.OK() && (out == nil || diags.HasErrors()):
			t.Errorf("%s: checks, but generating it fails: %v", path, diags)
		case !u.OK() && out != nil:
			t.Errorf("%s: does not check, but is generated", path)
		case u.OK():
			accepted++
		}
	}
	t.Logf("%d sources, %d accepted", len(srcs), accepted)
}

// TestAcceptedFilesRun: every .bo file of the repository that compiles
// builds, in one module, and its program runs three evaluations, or, for
// an objective it cannot evaluate here (an external one, a command that is
// not installed), stops with a clean error rather than a crash. The golden
// files are left to codegen's golden module, which builds, vets and tests
// every one of them and runs their programs (ask, tell and journalled runs).
func TestAcceptedFilesRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every accepted file")
	}
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	const module = "bocaccepted"
	files := map[string][]byte{
		"go.mod": fmt.Appendf(nil, "module %s\n\ngo 1.26\n\nrequire github.com/bocdev/boc v0.0.0\n\nreplace github.com/bocdev/boc => %s\n", module, root),
		"go.sum": sum,
	}
	srcs := sources(t)
	paths := make([]string, 0, len(srcs))
	golden := filepath.Join(repoRoot, "testdata", "golden") + string(filepath.Separator)
	for path := range srcs {
		if !strings.Contains(path, "fuzz") && !strings.HasPrefix(path, golden) {
			paths = append(paths, path)
		}
	}
	slices.Sort(paths)
	var programs []string
	kinds := map[string]ir.BindingKind{}
	for _, path := range paths {
		u := driver.Compile(path, srcs[path], driver.Options{Dir: filepath.Dir(path)})
		if !u.OK() {
			continue
		}
		name := fmt.Sprintf("p%03d", len(programs))
		out, diags := u.Generate(codegen.Options{ImportPath: module + "/" + name})
		if out == nil {
			t.Fatalf("%s: %v", path, diags)
		}
		for _, f := range out.Library {
			files[filepath.Join(name, f.Name)] = f.Content
		}
		// The command sits in a directory of its program's name, so that one
		// go build writes every binary under its own name (below).
		for _, f := range out.Main {
			files[filepath.Join(name, name, f.Name)] = f.Content
		}
		programs = append(programs, path)
		kinds[path] = u.Program.Objective.Binding.Kind
	}
	for name, content := range files {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// One go build for all commands links them in parallel, where one build
	// each took most of this test's time; without DWARF (-w) the links are
	// faster still.
	bin := filepath.Join(dir, "bin")
	args := []string{"build", "-ldflags=-w", "-o", bin + string(filepath.Separator)}
	for i := range programs {
		args = append(args, fmt.Sprintf("./p%03d/p%03d", i, i))
	}
	cmd := exec.Command("go", args...)
	cmd.Dir, cmd.Env = dir, append(os.Environ(), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		var names strings.Builder
		for i, path := range programs {
			fmt.Fprintf(&names, "p%03d: %s\n", i, path)
		}
		t.Fatalf("the accepted files do not build: %v\n%s\nprograms:\n%s", err, out, names.String())
	}
	for i, path := range programs {
		cmd := exec.Command(filepath.Join(bin, fmt.Sprintf("p%03d", i)), "run", "--json", "--budget", "3")
		cmd.Dir = filepath.Dir(path)
		out, err := cmd.CombinedOutput()
		switch {
		case strings.Contains(string(out), "goroutine ") || strings.Contains(string(out), "panic:"):
			t.Errorf("%s: the program crashed:\n%s", path, out)
		case err == nil && !strings.Contains(string(out), `"evaluations":3`):
			t.Errorf("%s: ran, but not 3 evaluations:\n%s", path, out)
		case err != nil && kinds[path] == ir.ExprBinding:
			t.Errorf("%s: an expression objective failed: %v\n%s", path, err, out)
		}
	}
	t.Logf("%d accepted files built and ran", len(programs))
}

// TestBoundaryRuns builds and runs a small problem, files at the limits check
// enforces, and a constant objective: what check accepts must run its whole
// budget.
func TestBoundaryRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	tests := []struct {
		name, src string
		budget    string
	}{
		{"quickstart", quickstart, "6"},
		{"widest domain", "problem wide\ndomain { p[1024] in [0, 1] }\nobjective minimize sphere(p)\n" +
			"model gp(kernel = matern52(lengthscale = 0.5))\nbudget 3\ninit sobol(2)\n", "3"},
		{"widest ranges", "problem ranges\ndomain {\n    x in [-1e307, 1e307]\n    n in -9007199254740991..9007199254740991\n}\n" +
			"objective minimize x / 1e307 + n / 9007199254740991\nbudget 3\ninit sobol(2)\n", "3"},
		// Flat, the acquisition and the posterior sd give no direction: the
		// optimiser still spends its budget instead of stopping exhausted.
		{"constant objective", "problem flat\ndomain { x in [0, 1] }\nobjective minimize 0 * x + 1\nbudget 10\n", "10"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := buildAndRun(t, tt.src, "run", "--json", "--budget", tt.budget)
			if err != nil || !strings.Contains(string(got), `"evaluations":`+tt.budget+`,`) {
				t.Fatalf("run: %v\n%s", err, got)
			}
		})
	}
}

// buildAndRun compiles src, builds its program and runs it with args,
// returning its standard output.
func buildAndRun(t *testing.T, src string, args ...string) ([]byte, error) {
	t.Helper()
	u := driver.Compile("case.bo", []byte(src), driver.Options{})
	out, diags := u.Generate(driver.ProgramOptions)
	if out == nil {
		t.Fatal(diags)
	}
	exe := filepath.Join(t.TempDir(), "prog"+driver.ExeSuffix())
	if err := u.Build(context.Background(), out, exe); err != nil {
		t.Fatal(err)
	}
	return exec.Command(exe, args...).Output()
}

// FuzzCompile runs the whole pipeline on arbitrary text: a file that
// compiles must generate without a diagnostic, and every diagnostic must lie
// inside the input. The seed corpus is every .bo file of the repository.
func FuzzCompile(f *testing.F) {
	for _, src := range sources(f) {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		u := driver.Compile("fuzz.bo", src, driver.Options{Dir: "../typecheck/testdata/ok"})
		out, diags := u.Generate(driver.ProgramOptions)
		if u.OK() && (out == nil || diags.HasErrors()) {
			t.Fatalf("compiles, but generating it fails: %v", diags)
		}
		lines := bytes.Count(src, []byte("\n")) + 1
		for _, d := range u.Diagnostics {
			if pos := d.Span.Start; pos.IsValid() && (pos.Line > lines || pos.Offset > len(src)) {
				t.Fatalf("diagnostic outside the input (%d lines): %s", lines, d)
			}
		}
	})
}

// TestLookupTable: a constant vector and matrix indexed by an integer
// dimension evaluate to the table's entries in the emitted program.
func TestLookupTable(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	src := `problem lookup
let w = [0.2, 0.5, 0.9]
let m = [[1, 10], [2, 20], [3, 30]]
domain {
    x in [0, 1]
    k in 1..3
}
objective minimize (x - w[k - 1])^2 + m[3 - k][1] / 100
budget 8
init sobol(4)
`
	got, err := buildAndRun(t, src, "run", "--json", "--trace")
	if err != nil {
		t.Fatalf("run: %v\n%s", err, got)
	}
	var res struct {
		Trace []struct {
			X map[string]float64 `json:"x"`
			Y float64            `json:"y"`
		} `json:"trace"`
	}
	if err := json.Unmarshal(got, &res); err != nil || len(res.Trace) != 8 {
		t.Fatalf("%v: %s", err, got)
	}
	w, m := []float64{0.2, 0.5, 0.9}, [][]float64{{1, 10}, {2, 20}, {3, 30}}
	for _, s := range res.Trace {
		x, k := s.X["x"], int(s.X["k"])
		if want := (x-w[k-1])*(x-w[k-1]) + m[3-k][1]/100; math.Abs(s.Y-want) > 1e-12 {
			t.Errorf("at x = %g, k = %d: y = %g, want %g", x, k, s.Y, want)
		}
	}
}
