package typecheck

import (
	"go/token"
	"strings"
	"testing"

	"github.com/bocdev/boc/parser"
)

// TestHints checks the suggestions that come with errors. The inline
// expectations of testdata/errors check messages and positions; hints are
// checked here.
func TestHints(t *testing.T) {
	const field = `"github.com/bocdev/boc/typecheck/testdata/field"`
	tests := []struct {
		name, src, msg, hint string
	}{
		{"kernel typo prefers the common kernel", "model gp(kernel = matern42)",
			`unknown kernel "matern42"`, `did you mean "matern52"?`},
		{"model typo", "model gq", `unknown model "gq"`, `did you mean "gp"?`},
		{"no close model", "model zzzzzz", `unknown model "zzzzzz"`, "available: erbf, gp, mmd, skl, ugp"},
		{"let typo", "let spread = 0.1\nobservation noise ~ normal(0, spred)", "unknown name spred", `did you mean "spread"?`},
		{"stop name typo", "stop when evaluation > 3", "unknown name evaluation", `did you mean "evaluations"?`},
		{"function typo", "let a = sqr(4)\nseed a", "unknown function sqr", `did you mean "sqrt"?`},
		{"parameter typo", "model mmd(landmark = 3)", "mmd has no parameter landmark", `did you mean "landmarks"?`},
		{"missing argument", "input noise x ~ normal(0)", "normal needs an argument sd", "signature: normal(mean = 0, sd)"},
		{"too many arguments", `acquisition pi(1, "mean", 2)`, "too many arguments: pi takes 2", `signature: pi(xi = 0, incumbent = "observed")`},
		{"duplicate argument", "acquisition ucb(1, beta = 2)", "beta is given twice", "the first is at 8:17"},
		{"Go function typo", "constraint c: go " + field + ".Batery >= 0", "has no function Batery", `did you mean "Battery"?`},
		{"unexported Go function", "constraint c: go " + field + ".unexported >= 0", "unexported is not exported", "export it: rename it to Unexported"},
		{"duplicate statement", "model gp\nmodel ugp", "duplicate model statement", "the first model statement is at line 8"},
		{"strict comparison", "constraint c: x > 0.5", "not >", "use >=: a constraint includes its boundary"},
		{"real budget", "seed 4.0", "seed must be an int, got real 4", "write 4"},
		{"huge int", "seed 1000000000000000000000", "integer 1000000000000000000000 is too large",
			"a count (budget, n, ...) must be at most 2^53 = 9007199254740992; where a real is expected, write it as one, e.g. 1e+21"},
		{"one-dimensional noise on two components", "input noise (x, y) ~ normal(0, 0.1)", "normal gives a dist[1]",
			"use iid(DIST, 2) for independent copies, or declare each component"},
		{"constraint option typo", "constraint c: reported >= 0 {\n  kernal se\n}", "unknown constraint option kernal", `did you mean "kernel"?`},
		{"target typo", "input noise xx ~ normal(0, 1)", "xx is not a domain variable", `did you mean "x"?`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "problem hints\ndomain {\n  x in [0, 1]\n  y in [0, 1]\n}\nobjective minimize x + y\nbudget 10\n" + tt.src + "\n"
			f, pdiags := parser.ParseFile("hints.bo", []byte(src))
			if pdiags.HasErrors() {
				t.Fatalf("syntax errors: %v", pdiags)
			}
			_, diags := Check(f, Config{Dir: "testdata/ok"})
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

// TestPackageNameLike: the name a problem-name hint suggests is itself
// accepted, Go keywords and main included.
func TestPackageNameLike(t *testing.T) {
	for name, want := range map[string]string{
		"Func": "func_problem", "Main": "main_problem", "My-Opt": "my_opt", "9lives": "problem_9lives", "Ünï": "n",
	} {
		got := packageNameLike(name)
		if got != want {
			t.Errorf("packageNameLike(%q) = %q, want %q", name, got, want)
		}
		if !goPackageName.MatchString(got) || token.IsKeyword(got) || got == "main" {
			t.Errorf("packageNameLike(%q) = %q, which is refused", name, got)
		}
	}
}
