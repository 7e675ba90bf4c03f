package driver_test

import (
	"fmt"
	"testing"

	"github.com/bocdev/boc/driver"
)

// TestDefaultSearchByDimension: a file that leaves the search out gets
// lbfgs below 20 components and turbo from 20 on, except where a trust
// region is not built (choices, a safe acquisition, candidates, several
// objectives, a model over input distributions), where it keeps lbfgs; a
// search the file states is kept.
func TestDefaultSearchByDimension(t *testing.T) {
	tests := []struct {
		name   string
		d      int
		extra  string
		domain string
		want   string
	}{
		{"19 components", 19, "", "", "search.lbfgs"},
		{"20 components", 20, "", "", "search.turbo"},
		{"60 components", 60, "", "", "search.turbo"},
		{"stated", 30, "search lbfgs", "", "search.lbfgs"},
		{"choices", 20, "", `    c in {"a", "b"}`, "search.lbfgs"},
		{"safe", 20, "acquisition safe_ucb\nconstraint heat: simulated x[0] <= 0.8 { seed [[" + zeros(20) + "]] }", "", "search.lbfgs"},
		{"input distributions", 20, "input noise x ~ iid(normal(0, 0.01), 20)\nmodel ugp", "", "search.lbfgs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := fmt.Sprintf("problem demo\ndomain {\n    x[%d] in [0, 1]\n%s\n}\nobjective minimize sphere(x)\nbudget 40\n%s\n", tt.d, tt.domain, tt.extra)
			u := driver.Compile("demo.bo", []byte(src), driver.Options{})
			if u.Plan == nil {
				t.Fatalf("not compiled: %v", u.Diagnostics)
			}
			if got := u.Plan.Program.Search; got == nil || got.Plugin != tt.want {
				t.Errorf("search %v, want %s", got, tt.want)
			}
		})
	}
}

// zeros is "0, 0, ..., 0", n of them.
func zeros(n int) string {
	s := "0"
	for range n - 1 {
		s += ", 0"
	}
	return s
}
