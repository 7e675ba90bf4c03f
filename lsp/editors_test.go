package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/bocdev/boc/parser"
)

// TestVSCodeExtension: editors/vscode's manifest, language configuration
// and grammar are valid JSON that fit together, the grammar highlights
// every reserved word, and the client starts `boc lsp`.
func TestVSCodeExtension(t *testing.T) {
	dir := filepath.Join("..", "editors", "vscode")
	read := func(name string, v any) {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	var manifest struct {
		Main        string
		Contributes struct {
			Languages []struct {
				ID            string
				Extensions    []string
				Configuration string
			}
			Grammars []struct{ Language, ScopeName, Path string }
		}
	}
	read("package.json", &manifest)
	langs, grammars := manifest.Contributes.Languages, manifest.Contributes.Grammars
	if len(langs) != 1 || langs[0].ID != "bo" || len(langs[0].Extensions) != 1 || langs[0].Extensions[0] != ".bo" || len(grammars) != 1 || grammars[0].Language != "bo" {
		t.Fatalf("package.json: %+v", manifest.Contributes)
	}
	var config map[string]any
	read(langs[0].Configuration, &config)
	var grammar struct {
		ScopeName  string
		Repository map[string]struct{ Match string }
	}
	read(grammars[0].Path, &grammar)
	if grammar.ScopeName != grammars[0].ScopeName {
		t.Errorf("the grammar's scope is %s, the manifest's %s", grammar.ScopeName, grammars[0].ScopeName)
	}
	keywords := regexp.MustCompile("^(?:" + grammar.Repository["keywords"].Match + ")$")
	for _, k := range parser.Keywords() {
		if !keywords.MatchString(k) {
			t.Errorf("the grammar does not highlight %s", k)
		}
	}
	client, err := os.ReadFile(filepath.Join(dir, manifest.Main))
	if err != nil || !regexp.MustCompile(`args: \["lsp"\]`).Match(client) {
		t.Errorf("%s does not start boc lsp (%v)", manifest.Main, err)
	}
}
