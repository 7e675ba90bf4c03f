package gobuild

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// carriedFS is a small module standing in for the runtime: like it, it depends
// on gonum, which must come from the local module cache.
func carriedFS(t *testing.T) fstest.MapFS {
	t.Helper()
	sum, err := os.ReadFile("../../go.sum")
	if err != nil {
		t.Fatal(err)
	}
	return fstest.MapFS{
		"go.mod": {Data: []byte("module example.com/carried\n\ngo 1.26\n\nrequire gonum.org/v1/gonum v0.17.0\n")},
		"go.sum": {Data: sum},
		"stats/stats.go": {Data: []byte(`package stats

import "gonum.org/v1/gonum/floats"

func Total(xs []float64) float64 { return floats.Sum(xs) }
`)},
		"stats/stats_test.go": {Data: []byte("package stats\n\nimport \"testing\"\n\nfunc TestNothing(t *testing.T) {}\n")},
	}
}

// userModule writes a module on disk like the one holding a user's Go-bound
// objective and returns it. Like many monorepo modules, it gets a dependency
// through a replace directive with a relative path.
func userModule(t *testing.T, goVersion string) LocalModule {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, "user")
	writeFile(t, filepath.Join(dir, "go.mod"), `module example.com/user

go `+goVersion+`

require example.com/helper v0.0.0

replace example.com/helper => ../helper

// A replacement of the carried module must not override the program's.
replace example.com/carried => ../elsewhere
`)
	writeFile(t, filepath.Join(dir, "field", "field.go"),
		"package field\n\nimport \"example.com/helper\"\n\nfunc Scale() float64 { return helper.Ten }\n")
	writeFile(t, filepath.Join(root, "helper", "go.mod"), "module example.com/helper\n\ngo 1.26\n")
	writeFile(t, filepath.Join(root, "helper", "helper.go"), "package helper\n\nconst Ten = 10\n")
	return LocalModule{Path: "example.com/user", Dir: dir}
}

const mainSource = `package main

import (
	"fmt"

	"bocprog/lib"
	"example.com/carried/stats"
)

func main() { fmt.Println(stats.Total([]float64{1, 2, lib.Three()})) }
`

var libFile = File{Path: "lib/lib.go", Content: []byte("package lib\n\nfunc Three() float64 { return 3 }\n")}

// offlineEnv is the test's environment with the module proxy switched off, so
// a build that needed the network would fail.
func offlineEnv() []string {
	return append(os.Environ(), "GOPROXY=off", "GOSUMDB=off")
}

func TestBuildOffline(t *testing.T) {
	requireGo(t)
	user := userModule(t, "1.26")
	withUser := `package main

import (
	"fmt"

	"bocprog/lib"
	"example.com/carried/stats"
	"example.com/user/field"
)

func main() { fmt.Println(stats.Total([]float64{1, 2, lib.Three()}) * field.Scale()) }
`
	tests := []struct {
		name string
		prog Program
		want string
	}{
		{"carried module only", Program{Files: []File{{Path: "main.go", Content: []byte(mainSource)}, libFile}}, "6\n"},
		{"with a user module", Program{Files: []File{{Path: "main.go", Content: []byte(withUser)}, libFile}, Uses: []LocalModule{user}}, "60\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := &Builder{Carried: carriedFS(t), CacheDir: t.TempDir(), Env: offlineEnv()}
			exe := filepath.Join(t.TempDir(), "prog")
			if err := b.Build(context.Background(), tt.prog, exe); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command(exe).Output()
			if err != nil || string(out) != tt.want {
				t.Errorf("program printed %q, %v; want %q", out, err, tt.want)
			}
		})
	}
}

func TestBuildPrefersLocalCopyOfCarriedModule(t *testing.T) {
	requireGo(t)
	// A checkout of the carried module whose Total differs from the carried one.
	checkout := filepath.Join(t.TempDir(), "checkout")
	carried := carriedFS(t)
	writeFile(t, filepath.Join(checkout, "go.mod"), string(carried["go.mod"].Data))
	writeFile(t, filepath.Join(checkout, "stats", "stats.go"), "package stats\n\nfunc Total(xs []float64) float64 { return -1 }\n")

	cache := t.TempDir()
	b := &Builder{Carried: carried, CacheDir: cache, Env: offlineEnv()}
	exe := filepath.Join(t.TempDir(), "prog")
	prog := Program{
		Files: []File{{Path: "main.go", Content: []byte(mainSource)}, libFile},
		Uses:  []LocalModule{{Path: "example.com/carried", Dir: checkout}},
	}
	if err := b.Build(context.Background(), prog, exe); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(exe).Output(); err != nil || string(out) != "-1\n" {
		t.Errorf("program printed %q, %v; want the checkout's -1", out, err)
	}
	if entries, _ := os.ReadDir(cache); len(entries) != 0 {
		t.Errorf("carried module extracted although a local copy was used: %d cache entries", len(entries))
	}
}

func TestBuildFailureCarriesOutput(t *testing.T) {
	requireGo(t)
	b := &Builder{Carried: carriedFS(t), CacheDir: t.TempDir(), Env: offlineEnv()}
	bad := File{Path: "main.go", Content: []byte("package main\n\nfunc main() { undefinedThing() }\n")}
	err := b.Build(context.Background(), Program{Files: []File{bad}}, filepath.Join(t.TempDir(), "prog"))
	var be *BuildError
	if !errors.As(err, &be) {
		t.Fatalf("Build = %v, want a *BuildError", err)
	}
	if !strings.Contains(be.Output, "undefined: undefinedThing") || !strings.Contains(err.Error(), "undefinedThing") {
		t.Errorf("build error does not carry the compiler's message:\n%v", err)
	}
}

func TestWriteModule(t *testing.T) {
	requireGo(t) // to read the user module's go.mod
	carried := carriedFS(t)
	cache := t.TempDir()
	newer := userModule(t, "1.99.1")
	writeFile(t, filepath.Join(newer.Dir, "go.sum"), "example.com/dep v1.0.0 h1:abc=\n")

	tests := []struct {
		name         string
		uses         []LocalModule
		wantGo       string
		wantUserDeps bool
	}{
		{"runtime only", nil, "1.26", false},
		{"newer user module raises the go version", []LocalModule{newer}, "1.99.1", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := &Builder{Carried: carried, CacheDir: cache}
			dir := t.TempDir()
			if err := b.writeModule(Program{Files: []File{libFile}, Uses: tt.uses}, dir); err != nil {
				t.Fatal(err)
			}
			extracted, err := Extract(carried, cache)
			if err != nil {
				t.Fatal(err)
			}
			deps := append([]LocalModule{{Path: "example.com/carried", Dir: extracted}}, tt.uses...)
			var replaces []replacement
			for _, d := range deps {
				replaces = append(replaces, replacement{Old: d.Path, New: d.Dir})
			}
			if tt.wantUserDeps {
				// The user's relative replacement, made absolute; not its
				// replacement of the carried module.
				replaces = append(replaces, replacement{Old: "example.com/helper", New: filepath.Join(filepath.Dir(newer.Dir), "helper")})
			}
			gomod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(moduleFile(ProgramModule, tt.wantGo, deps, replaces)), string(gomod)); diff != "" {
				t.Errorf("go.mod (-want +got):\n%s", diff)
			}
			sum, err := os.ReadFile(filepath.Join(dir, "go.sum"))
			if err != nil {
				t.Fatal(err)
			}
			wantSum := mergeSums(carried["go.sum"].Data)
			if tt.wantUserDeps {
				wantSum = mergeSums(carried["go.sum"].Data, []byte("example.com/dep v1.0.0 h1:abc=\n"))
			}
			if diff := cmp.Diff(string(wantSum), string(sum)); diff != "" {
				t.Errorf("go.sum (-want +got):\n%s", diff)
			}
			if got, err := os.ReadFile(filepath.Join(dir, "lib", "lib.go")); err != nil || string(got) != string(libFile.Content) {
				t.Errorf("lib/lib.go = %q, %v", got, err)
			}
		})
	}
}

func requireGo(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
}
