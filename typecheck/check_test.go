package typecheck

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/go/packages"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ast"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/parser"
)

var update = flag.Bool("update", false, "rewrite the golden IR dumps in testdata/ok")

func TestMain(m *testing.M) {
	// Many test files bind to the same Go packages: load each set once.
	loadPackages = memoizeLoads(loadPackages)
	os.Exit(m.Run())
}

// memoizeLoads caches a package loader by directory and paths. The loaded
// packages are only read, so sharing them between checks is safe.
func memoizeLoads(load func(string, []string) ([]*packages.Package, error)) func(string, []string) ([]*packages.Package, error) {
	type result struct {
		pkgs []*packages.Package
		err  error
	}
	var mu sync.Mutex
	cache := map[string]result{}
	return func(dir string, paths []string) ([]*packages.Package, error) {
		key := dir + "\x00" + strings.Join(paths, "\x00")
		mu.Lock()
		defer mu.Unlock()
		if r, ok := cache[key]; ok {
			return r.pkgs, r.err
		}
		pkgs, err := load(dir, paths)
		cache[key] = result{pkgs, err}
		return pkgs, err
	}
}

// expectation is one inline `/* ERROR "rx" */` or `/* WARNING "rx" */`
// comment: a diagnostic of that severity must start at the first non-space
// character after it (after any further expectation comments), with a message
// matching rx.
type expectation struct {
	severity  dsl.Severity
	line, col int
	rx        *regexp.Regexp
	matched   bool
}

var expectationComment = regexp.MustCompile(`/\*\s*(ERROR|WARNING)\s+("(?:[^"\\]|\\.)*")\s*\*/`)

// expectations reads the inline expectations of a test file.
func expectations(t *testing.T, src []byte) []*expectation {
	t.Helper()
	matches := expectationComment.FindAllSubmatchIndex(src, -1)
	var out []*expectation
	for k, m := range matches {
		pattern, err := strconv.Unquote(string(src[m[4]:m[5]]))
		if err != nil {
			t.Fatalf("bad expectation %s: %v", src[m[0]:m[1]], err)
		}
		rx, err := regexp.Compile(pattern)
		if err != nil {
			t.Fatalf("bad expectation regexp %q: %v", pattern, err)
		}
		// The expected position is the first character after the comment
		// that is neither space nor another expectation comment.
		off := m[1]
		for j := k + 1; ; j++ {
			for off < len(src) && strings.ContainsRune(" \t\r\n", rune(src[off])) {
				off++
			}
			if j >= len(matches) || matches[j][0] != off {
				break
			}
			off = matches[j][1]
		}
		e := &expectation{severity: dsl.Error, rx: rx}
		if string(src[m[2]:m[3]]) == "WARNING" {
			e.severity = dsl.Warning
		}
		e.line, e.col = lineCol(src, off)
		out = append(out, e)
	}
	return out
}

// lineCol converts a byte offset to a 1-based line and byte column.
func lineCol(src []byte, off int) (int, int) {
	before := src[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	return line, off - (bytes.LastIndexByte(before, '\n') + 1) + 1
}

// parse parses a test file, which must be free of syntax errors.
func parse(t *testing.T, path string) (*ast.File, []byte) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, diags := parser.ParseFile(filepath.Base(path), src)
	if diags.HasErrors() {
		var b bytes.Buffer
		diags.Render(&b, src)
		t.Fatalf("syntax errors in a type checker test:\n%s", b.String())
	}
	return f, src
}

// checkExpectations matches the diagnostics against the file's expectations:
// each expectation needs a diagnostic, and each diagnostic an expectation.
func checkExpectations(t *testing.T, src []byte, diags dsl.Diagnostics) {
	t.Helper()
	want := expectations(t, src)
	for _, d := range diags {
		found := false
		for _, e := range want {
			if !e.matched && e.severity == d.Severity && e.line == d.Span.Start.Line && e.col == d.Span.Start.Col && e.rx.MatchString(d.Message) {
				e.matched, found = true, true
				break
			}
		}
		if !found {
			var b bytes.Buffer
			d.Render(&b, src)
			t.Errorf("unexpected diagnostic:\n%s", b.String())
		}
	}
	for _, e := range want {
		if !e.matched {
			t.Errorf("%d:%d: missing %s matching %q", e.line, e.col, e.severity, e.rx)
		}
	}
}

// TestErrors checks the files of testdata/errors: each must fail, with
// exactly the diagnostics its inline comments expect, in source order.
func TestErrors(t *testing.T) {
	files, _ := filepath.Glob("testdata/errors/*.bo")
	if len(files) == 0 {
		t.Fatal("no test files")
	}
	cases := 0
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			f, src := parse(t, path)
			p, diags := Check(f, Config{Dir: filepath.Dir(path)})
			if p != nil || !diags.HasErrors() {
				t.Errorf("Check succeeded; want errors")
			}
			checkSorted(t, diags)
			checkExpectations(t, src, diags)
			cases += len(expectations(t, src))
		})
	}
	t.Logf("%d files, %d expected diagnostics", len(files), cases)
}

func checkSorted(t *testing.T, diags dsl.Diagnostics) {
	t.Helper()
	for i := 1; i < len(diags); i++ {
		if diags[i].Span.Start.Before(diags[i-1].Span.Start) {
			t.Errorf("diagnostics out of order: %s before %s", diags[i-1], diags[i])
		}
	}
}

// TestGolden checks the files of testdata/ok: each must check without errors
// (warnings are expected inline) and dump to its .ir file.
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/ok/*.bo")
	if len(files) == 0 {
		t.Fatal("no test files")
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			f, src := parse(t, path)
			p, diags := Check(f, Config{Dir: filepath.Dir(path)})
			checkExpectations(t, src, diags)
			if p == nil {
				t.Fatal("no IR")
			}
			var got bytes.Buffer
			ir.Fprint(&got, p)
			golden := strings.TrimSuffix(path, ".bo") + ".ir"
			if *update {
				if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("IR differs from %s (run go test -update to accept); -want +got:\n%s", golden, cmp.Diff(string(want), got.String()))
			}
		})
	}
}

// BenchmarkCheck measures checking a mid-sized file without go bindings
// (parsing excluded): `boc check` should answer in well under 100 ms.
func BenchmarkCheck(b *testing.B) {
	src, err := os.ReadFile("testdata/ok/distributions.bo")
	if err != nil {
		b.Fatal(err)
	}
	f, diags := parser.ParseFile("distributions.bo", src)
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	for b.Loop() {
		if p, diags := Check(f, Config{}); p == nil {
			b.Fatal(diags)
		}
	}
}
