package driver_test

import (
	"fmt"
	"testing"

	"github.com/bocdev/boc/driver"
	"github.com/bocdev/boc/dsl/ir"
)

// TestDefaultSearchByDimension: a file that leaves the model and the search
// out gets lbfgs below 20 components and, from 20 on, the additive recipe:
// the model's kernel over the components one by one, its values warped by
// a power transform, and lbfgs with two coordinate sweeps. A file that
// states its model, or measures a constraint, gets turbo from 20
// components instead; where a trust region is not built either (choices, a
// safe acquisition, candidates, several objectives, a model over input
// distributions) it keeps lbfgs; a search the file states is kept.
func TestDefaultSearchByDimension(t *testing.T) {
	tests := []struct {
		name     string
		d        int
		extra    string
		domain   string
		want     string
		additive bool
	}{
		{"19 components", 19, "", "", "search.lbfgs", false},
		{"20 components", 20, "", "", "search.lbfgs", true},
		{"100 components", 100, "", "", "search.lbfgs", true},
		{"a model stated", 20, "model gp(approx = \"exact\")", "", "search.turbo", false},
		{"a requirement", 30, "require purity: simulated x[0] >= 0.2", "", "search.turbo", false},
		{"a search stated", 30, "search turbo", "", "search.turbo", true},
		{"stated", 30, "search lbfgs", "", "search.lbfgs", true},
		{"choices", 20, "", `    c in {"a", "b"}`, "search.lbfgs", false},
		{"safe", 20, "acquisition safe_ucb\nconstraint heat: simulated x[0] <= 0.8 { seed [[" + zeros(20) + "]] }", "", "search.lbfgs", false},
		{"observation noise", 20, "observation noise ~ normal(0, 0.1)", "", "search.lbfgs", true},
		{"input noise", 20, "input noise x ~ iid(normal(0, 0.01), 20)", "", "search.lbfgs", true},
		{"input distributions", 20, "input noise x ~ iid(normal(0, 0.01), 20)\nmodel ugp", "", "search.lbfgs", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := fmt.Sprintf("problem demo\ndomain {\n    x[%d] in [0, 1]\n%s\n}\nobjective minimize sphere(x)\nbudget 40\n%s\n", tt.d, tt.domain, tt.extra)
			u := driver.Compile("demo.bo", []byte(src), driver.Options{})
			if u.Plan == nil {
				t.Fatalf("not compiled: %v", u.Diagnostics)
			}
			got := u.Plan.Program.Search
			if got == nil || got.Plugin != tt.want {
				t.Fatalf("search %v, want %s", got, tt.want)
			}
			additive := false
			if k := u.Plan.Model.Kernel; k != nil && k.Arg("groups") != nil {
				if v, ok := k.Arg("groups").Value.(*ir.ConstExpr); ok {
					additive = v.Value.Text == "components"
				}
			}
			if additive != tt.additive {
				t.Errorf("kernel over the components one by one: %v, want %v", additive, tt.additive)
			}
			if warp := u.Plan.Model.Warp; tt.additive && warp != "power" {
				t.Errorf("values warped by %q, want the recipe's power transform", warp)
			}
			if tt.additive && tt.extra == "" {
				if v, ok := got.Arg("sweeps").Value.(*ir.ConstExpr); !ok || v.Value.Float() != 2 {
					t.Errorf("search %v: sweeps %v, want the recipe's 2", got, got.Arg("sweeps").Value)
				}
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
