package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// writeStudyFile writes a Branin problem of budget 8 minimising objective.
func writeStudyFile(t *testing.T, objective string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tiny.bo")
	src := "problem tiny\ndomain {\n    x1 in [-5, 10]\n    x2 in [0, 15]\n}\nobjective minimize " + objective + "\nbudget 8\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestStudyErrors(t *testing.T) {
	branin := writeStudyFile(t, "branin(x1, x2)")
	command := writeStudyFile(t, `exec "./objective"`)
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string // a regexp
	}{
		{"no file", []string{"study"}, exitUsage, `missing FILE.bo`},
		{"no seeds", []string{"study", branin, "--seeds", "0"}, exitUsage, `--seeds must be at least 1`},
		{"no jobs", []string{"study", branin, "--jobs", "0"}, exitUsage, `--jobs must be at least 1`},
		{"two formats", []string{"study", branin, "--json", "--markdown"}, exitUsage, `exclude each other`},
		{"bad budget", []string{"study", branin, "--budgets", "4,x"}, exitUsage, `--budgets: "x" is not a positive number`},
		{"decreasing budgets", []string{"study", branin, "--budgets", "5,4"}, exitUsage, `budgets must increase, got 4 after 5`},
		{"unbalanced call", []string{"study", branin, "--acquisition", "ucb(beta = 2"}, exitUsage, `unbalanced brackets`},
		{"empty call", []string{"study", branin, "--acquisition", "ei,,ucb"}, exitUsage, `--acquisition: empty call`},
		{"budget beyond the file's", []string{"study", branin, "--budgets", "4,9"}, exitFail, `--budgets goes up to 9, beyond the file's budget 8`},
		{"not an expression", []string{"study", command, "--budgets", "4"}, exitFail, `not an expression, so its noise-free values are unknown`},
		{"empty model", []string{"study", branin, "--model", ","}, exitUsage, `--model: empty call`},
		{"misspelt model", []string{"study", branin, "--budgets", "4", "--model", "gq"}, exitFail, `unknown model "gq"`},
		{"plots into a file", []string{"study", branin, "--budgets", "4", "--plot", filepath.Join(branin, "plots")}, exitFail, `^boc: --plot: cannot write into \S+plots: mkdir `},
		{"misspelt acquisition", []string{"study", branin, "--budgets", "4", "--acquisition", "eii"}, exitFail, `(?s)unknown acquisition function "eii".*did you mean "ei"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runBoc(tt.args...)
			if code != tt.code || !regexp.MustCompile(tt.stderr).MatchString(stderr) {
				t.Errorf("exit %d, want %d; stderr:\n%s\nwant it to match %q", code, tt.code, stderr, tt.stderr)
			}
			if stdout != "" {
				t.Errorf("a failed study wrote to stdout: %q", stdout)
			}
		})
	}
}

// TestStudyDefaultBudgets: without --budgets, boc study reports the
// quarters of the smallest file budget, so the README's
// `boc study problem.bo --random` works on the examples.
func TestStudyDefaultBudgets(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs programs")
	}
	code, stdout, stderr := runBoc("study", "../examples/quickstart.bo", "--random", "--seeds", "1")
	if code != exitOK || !regexp.MustCompile(`(?m)^problem +method +8 +15 +23 +30$`).MatchString(stdout) {
		t.Fatalf("study of the quickstart example without --budgets: exit %d\n%s\n%s", code, stdout, stderr)
	}
}
