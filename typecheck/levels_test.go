package typecheck

import (
	"strings"
	"testing"

	"github.com/bocdev/boc/parser"
)

// TestLevelHints checks the suggestions that come with misspelt or missing
// level names.
func TestLevelHints(t *testing.T) {
	tests := []struct {
		name, src, msg, hint string
	}{
		{"misspelt level", `constraint c: (if catalyst == "Nii" then 1 else 0) <= 0.5`, `"Nii" is not a level of catalyst`, `did you mean "Ni"?`},
		{"unlike any level", `constraint c: (if catalyst == "zzzz" then 1 else 0) <= 0.5`, `"zzzz" is not a level`, `the levels of catalyst are {"Pd", "Ni", "Cu"}`},
		{"missing entry", `let t = {"Pd": 1, "Ni": 2}` + "\nconstraint c: t[catalyst] <= 1", `no entry for level "Cu"`, `every level of catalyst needs an entry: {"Pd", "Ni", "Cu"}`},
		{"misspelt key", `let t = {"Pd": 1, "Ni": 2, "Cuu": 3, "Cu": 4}` + "\nconstraint c: t[catalyst] <= 1", `key "Cuu" is not a level`, `did you mean "Cu"?`},
		{"arithmetic", "constraint c: catalyst + x <= 1", "operator + needs numbers", `catalyst is categorical: compare it with a level name (catalyst == "...") or look it up in a keyed table (t[catalyst])`},
		{"comparison with a number", "constraint c: (if catalyst == 1 then 1 else 0) <= 0.5", "cannot compare", `compare catalyst with one of its levels, e.g. catalyst == "Pd"`},
		{"seed", `init [[0.5, "Cuu"]]`, `"Cuu" is not a level of catalyst`, `did you mean "Cu"?`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "problem hints\ndomain {\n  x in [0, 1]\n  catalyst in {\"Pd\", \"Ni\", \"Cu\"}\n}\nobjective minimize x\nbudget 10\n" + tt.src + "\n"
			f, pdiags := parser.ParseFile("hints.bo", []byte(src))
			if pdiags.HasErrors() {
				t.Fatalf("syntax errors: %v", pdiags)
			}
			_, diags := Check(f, Config{})
			for _, d := range diags {
				if strings.Contains(d.Message, tt.msg) {
					if d.Hint != tt.hint {
						t.Errorf("%s\nhint %q, want %q", d, d.Hint, tt.hint)
					}
					return
				}
			}
			t.Errorf("no diagnostic containing %q in\n%v", tt.msg, diags)
		})
	}
}
