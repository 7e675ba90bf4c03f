package gobuild

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

func sampleFS() fstest.MapFS {
	return fstest.MapFS{
		"go.mod":                        {Data: []byte("module example.com/rt\n\ngo 1.26\n")},
		"go.sum":                        {Data: []byte("")},
		"rt/rt.go":                      {Data: []byte("package rt\n")},
		"rt/rt_test.go":                 {Data: []byte("package rt\n")},
		"rt/testdata/golden.txt":        {Data: []byte("golden\n")},
		"rt/sub/sub.go":                 {Data: []byte("package sub\n")},
		"rt/sub/testdata/deeper/x.go":   {Data: []byte("package x\n")},
		"rt/sub/notes_testdata_like.go": {Data: []byte("package sub\n")},
	}
}

// tree lists the regular files under dir, slash-separated.
func tree(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		files = append(files, filepath.ToSlash(rel))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	return files
}

func TestExtractSkipsTestsAndTestdata(t *testing.T) {
	dir, err := Extract(sampleFS(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"go.mod", "go.sum", "rt/rt.go", "rt/sub/notes_testdata_like.go", "rt/sub/sub.go"}
	if diff := cmp.Diff(want, tree(t, dir)); diff != "" {
		t.Errorf("extracted files (-want +got):\n%s", diff)
	}
	got, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil || string(got) != "module example.com/rt\n\ngo 1.26\n" {
		t.Errorf("extracted go.mod = %q, %v", got, err)
	}
}

func TestExtractIsContentAddressed(t *testing.T) {
	cache := t.TempDir()
	first, err := Extract(sampleFS(), cache)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(filepath.Base(first), extractPrefix) || filepath.Dir(first) != cache {
		t.Errorf("Extract = %s, want %s<hash> in %s", first, extractPrefix, cache)
	}

	// A marker file proves the second call reuses the directory, not rewrites it.
	marker := filepath.Join(first, "marker")
	writeFile(t, marker, "kept")
	again, err := Extract(sampleFS(), cache)
	if err != nil || again != first {
		t.Fatalf("second Extract = %s, %v; want %s", again, err, first)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Errorf("second Extract rewrote the directory: %v", err)
	}

	changes := []struct {
		name   string
		change func(fstest.MapFS)
	}{
		{"content", func(m fstest.MapFS) { m["rt/rt.go"] = &fstest.MapFile{Data: []byte("package rt // changed\n")} }},
		{"name", func(m fstest.MapFS) { m["rt/rt2.go"] = m["rt/rt.go"]; delete(m, "rt/rt.go") }},
		{"added file", func(m fstest.MapFS) { m["rt/more.go"] = &fstest.MapFile{Data: []byte("package rt\n")} }},
	}
	for _, c := range changes {
		m := sampleFS()
		c.change(m)
		dir, err := Extract(m, cache)
		if err != nil {
			t.Fatal(err)
		}
		if dir == first {
			t.Errorf("changed %s: Extract reused %s", c.name, dir)
		}
	}

	// Test files and testdata are not part of the content address.
	m := sampleFS()
	m["rt/rt_test.go"] = &fstest.MapFile{Data: []byte("package rt // edited test\n")}
	if dir, err := Extract(m, cache); err != nil || dir != first {
		t.Errorf("edited test file: Extract = %s, %v; want %s", dir, err, first)
	}
}

func TestExtractConcurrent(t *testing.T) {
	cache := t.TempDir()
	const n = 8
	dirs := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { dirs[i], errs[i] = Extract(sampleFS(), cache) })
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil || dirs[i] != dirs[0] {
			t.Errorf("extraction %d: %s, %v; want %s", i, dirs[i], errs[i], dirs[0])
		}
	}
	entries, err := os.ReadDir(cache)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Errorf("cache holds %d entries after concurrent extraction, want 1 (no leftover temporaries)", len(entries))
	}
}

func TestExtractEmpty(t *testing.T) {
	if _, err := Extract(fstest.MapFS{"testdata/x": {Data: []byte("x")}}, t.TempDir()); err == nil {
		t.Error("Extract of a tree with nothing to extract succeeded")
	}
}
