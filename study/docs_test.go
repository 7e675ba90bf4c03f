package study

import (
	"bytes"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/plots.md's small study and its chart")

// Where docs/plots.md shows its small study, and the study's settings: the
// page's command says the same.
const (
	docsPage      = "../docs/plots.md"
	docsChart     = "../docs/images/plots/quickstart.svg"
	docsTableOpen = "<!-- the small study's output: TestDocsSmallStudy reruns it -->\n```text\n"
)

var docsStudy = Config{Seeds: 3, Budgets: []int{6, 10, 15}, Random: true}

// TestDocsSmallStudy reruns docs/plots.md's small study and checks that the
// table the page shows and the chart it draws are what the command gives
// now, to the byte, so that a change that moves them cannot leave the page
// stale (go test ./study -run DocsSmallStudy -update rewrites both).
func TestDocsSmallStudy(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs programs")
	}
	cfg := docsStudy
	cfg.Optimum, cfg.Jobs = math.NaN(), 2
	var logs bytes.Buffer
	problems, err := Run(t.Context(), []string{"../examples/quickstart.bo"}, cfg, &logs)
	if err != nil {
		t.Fatalf("%v\n%s", err, logs.String())
	}
	var table bytes.Buffer
	WriteText(&table, cfg, problems)
	dir := t.TempDir()
	if _, err := WritePlots(dir, cfg, problems); err != nil {
		t.Fatal(err)
	}
	chart, err := os.ReadFile(filepath.Join(dir, "quickstart.svg"))
	if err != nil {
		t.Fatal(err)
	}

	page, err := os.ReadFile(docsPage)
	if err != nil {
		t.Fatal(err)
	}
	start := bytes.Index(page, []byte(docsTableOpen))
	if start < 0 {
		t.Fatalf("%s lacks %q", docsPage, docsTableOpen)
	}
	start += len(docsTableOpen)
	end := bytes.Index(page[start:], []byte("```\n"))
	if end < 0 {
		t.Fatalf("%s: the small study's block is not closed", docsPage)
	}
	end += start
	if *update {
		page = append(page[:start:start], append(table.Bytes(), page[end:]...)...)
		if err := os.WriteFile(docsPage, page, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(docsChart, chart, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if shown := string(page[start:end]); shown != table.String() {
		t.Errorf("%s shows\n%s\nthe study prints\n%s", docsPage, shown, table.String())
	}
	committed, err := os.ReadFile(docsChart)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(committed, chart) {
		t.Errorf("%s is not the chart the study draws now (%d bytes, committed %d)", docsChart, len(chart), len(committed))
	}
	if !strings.Contains(string(page), "--seeds 3 --budgets 6,10,15") {
		t.Errorf("%s's command does not give the settings the test reruns", docsPage)
	}
}
