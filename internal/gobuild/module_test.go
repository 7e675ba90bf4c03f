package gobuild

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestParseDirective(t *testing.T) {
	tests := []struct {
		name, gomod, directive string
		want                   string
		wantErr                bool
	}{
		{"plain", "module example.com/a\n\ngo 1.26\n", "module", "example.com/a", false},
		{"go version", "module example.com/a\n\ngo 1.26.8\n", "go", "1.26.8", false},
		{"quoted", "module \"example.com/a b\"\n", "module", "example.com/a b", false},
		{"trailing comment", "module example.com/a // the module\n", "module", "example.com/a", false},
		{"commented out first", "// module example.com/old\nmodule example.com/new\n", "module", "example.com/new", false},
		{"not a prefix match", "modules x\nmodule example.com/a\n", "module", "example.com/a", false},
		{"missing", "go 1.26\n", "module", "", true},
		{"bad quote", "module \"example.com/a\n", "module", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseDirective([]byte(tt.gomod), tt.directive)
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Errorf("parseDirective = %q, %v; want %q, error %v", got, err, tt.want, tt.wantErr)
			}
		})
	}
}

func TestFindModule(t *testing.T) {
	root := t.TempDir()
	mod := filepath.Join(root, "mod")
	deep := filepath.Join(mod, "a", "b")
	nested := filepath.Join(mod, "nested")
	for _, d := range []string{deep, nested} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(mod, "go.mod"), "module example.com/mod\n\ngo 1.26\n")
	writeFile(t, filepath.Join(nested, "go.mod"), "module example.com/nested\n")

	tests := []struct {
		dir  string
		want LocalModule
	}{
		{mod, LocalModule{Path: "example.com/mod", Dir: mod}},
		{deep, LocalModule{Path: "example.com/mod", Dir: mod}},
		{nested, LocalModule{Path: "example.com/nested", Dir: nested}},
	}
	for _, tt := range tests {
		got, err := FindModule(tt.dir)
		if err != nil || got != tt.want {
			t.Errorf("FindModule(%s) = %+v, %v; want %+v", tt.dir, got, err, tt.want)
		}
	}
	if _, err := FindModule(root); !errors.Is(err, ErrNoModule) {
		t.Errorf("FindModule outside any module: err = %v, want ErrNoModule", err)
	}
}

func TestModuleFile(t *testing.T) {
	got := string(moduleFile("bocprog", "1.26.8",
		[]LocalModule{{Path: "example.com/a", Dir: "/tmp/a"}, {Path: "example.com/b", Dir: "/tmp/with space/b"}},
		[]replacement{
			{Old: "example.com/a", New: "/tmp/a"},
			{Old: "example.com/b", New: "/tmp/with space/b"},
			{Old: "example.com/c", OldVersion: "v1.2.0", New: "example.com/fork", NewVersion: "v1.2.1"},
		}))
	want := `module bocprog

go 1.26.8

require (
	example.com/a v0.0.0
	example.com/b v0.0.0
)

replace (
	example.com/a => "/tmp/a"
	example.com/b => "/tmp/with space/b"
	example.com/c v1.2.0 => example.com/fork v1.2.1
)
`
	if got != want {
		t.Errorf("moduleFile:\n%s\nwant:\n%s", got, want)
	}
}

func TestMergeSums(t *testing.T) {
	tests := []struct {
		name string
		sums []string
		want string
	}{
		{"none", nil, ""},
		{"empty files", []string{"", "\n"}, ""},
		{"one", []string{"b v1 h1:x\na v1 h1:y\n"}, "a v1 h1:y\nb v1 h1:x\n"},
		{"duplicates and blanks", []string{"a v1 h1:y\n\n", "a v1 h1:y\nc v1 h1:z"}, "a v1 h1:y\nc v1 h1:z\n"},
	}
	for _, tt := range tests {
		bufs := make([][]byte, len(tt.sums))
		for i, s := range tt.sums {
			bufs[i] = []byte(s)
		}
		if got := string(mergeSums(bufs...)); got != tt.want {
			t.Errorf("%s: mergeSums = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestGoVersionAfter(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"1.27", "1.26.8", true},
		{"1.26.8", "1.27", false},
		{"1.26.10", "1.26.9", true},
		{"1.26", "1.26.0", false},
		{"1.26.0", "1.26", false},
		{"1.21rc1", "1.20", true},
		{"2", "1.99", true},
	}
	for _, tt := range tests {
		if got := goVersionAfter(tt.a, tt.b); got != tt.want {
			t.Errorf("goVersionAfter(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
