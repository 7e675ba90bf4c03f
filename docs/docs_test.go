package docs

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/bocdev/boc/driver"
)

var boBlock = regexp.MustCompile("(?ms)^```bo\n(.*?)^```")

// TestExamplesCheck parses and type-checks every ```bo block of every Markdown
// file in this folder and the repository's README.
func TestExamplesCheck(t *testing.T) {
	files, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, "../README.md")
	total := 0
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range boBlock.FindAllSubmatchIndex(src, -1) {
			line := 1 + bytes.Count(src[:m[2]], []byte("\n"))
			name := fmt.Sprintf("%s:%d", filepath.Base(file), line)
			block := src[m[2]:m[3]]
			total++
			t.Run(name, func(t *testing.T) {
				u := driver.Compile(name, block, driver.Options{Dir: "."})
				if !u.OK() {
					var out bytes.Buffer
					u.Diagnostics.Render(&out, block)
					t.Errorf("example does not check:\n%s", out.String())
				}
			})
		}
	}
	if total < 5 {
		t.Fatalf("found only %d bo examples; the extraction pattern is probably broken", total)
	}
}
