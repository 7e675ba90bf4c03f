package typecheck

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	boparser "github.com/bocdev/boc/parser"
	"github.com/bocdev/boc/stdlib/registry"
)

// TestConfigPlugins: the checker resolves plugins in the registry it is
// given, not in a plugin set of its own.
func TestConfigPlugins(t *testing.T) {
	without := registry.New()
	for _, p := range registry.All() {
		if p.ID() != "acquisition.ucb" {
			without.Register(p)
		}
	}
	src := "problem p\ndomain { x in [0, 1] }\nobjective minimize x\nbudget 5\nacquisition ucb\n"
	f, diags := boparser.ParseFile("p.bo", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if _, diags := Check(f, Config{}); diags.HasErrors() {
		t.Fatalf("with the default registry: %v", diags)
	}
	_, diags = Check(f, Config{Plugins: without})
	if !strings.Contains(diags.Error(), `unknown acquisition function "ucb"`) {
		t.Errorf("with a registry without ucb: %v", diags)
	}
}

// TestImports: the checker is given its plugins and the syntax tree; it
// imports neither a plugin package nor the parser.
func TestImports(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if p == "github.com/bocdev/boc/parser" || p == "github.com/bocdev/boc/stdlib" {
				t.Errorf("%s imports %s", path, p)
			}
		}
	}
}
