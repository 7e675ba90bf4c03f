package plan_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bocdev/boc/driver"
	"github.com/bocdev/boc/dsl"
)

// TestAdditiveByDefault: a kernel over components learns its interaction in
// [0.001, 1] when it learns the rest and leaves it out, keeps bounds or a
// value given, is the average alone (0) when its other hyperparameters are
// fixed, and draws a warning when the interaction given is 1.
func TestAdditiveByDefault(t *testing.T) {
	const numbers = "problem p\ndomain {\n    x[3] in [0, 1]\n}\nobjective minimize x[0] + x[1]^2\nbudget 10\n"
	for _, c := range []struct {
		name, kernel string
		bounds       []float64 // of the learned interaction; nil: none learned
		warning      string    // a substring of the one warning; "": none
	}{
		{"left out", `matern52(groups = "components")`, []float64{0.001, 1}, ""},
		{"learned with bounds", `matern52(groups = "components", interaction = learn(bounds = [0.1, 0.9]))`, []float64{0.1, 0.9}, ""},
		{"learned", `se(groups = "components", interaction = learn)`, []float64{0.001, 1}, ""},
		{"given", `matern32(groups = "components", interaction = 0.3)`, nil, ""},
		{"fixed hyperparameters", `se(lengthscale = 0.3, variance = 1, groups = "components")`, nil, ""},
		{"interaction 1", `se(groups = "components", interaction = 1)`, nil, "leaves out the average over components"},
		{"over kinds", `matern52`, nil, ""},
	} {
		u := driver.Compile("p.bo", []byte(numbers+"model gp(kernel = "+c.kernel+")\n"), driver.Options{})
		if !u.OK() {
			t.Errorf("%s: %v", c.name, u.Diagnostics)
			continue
		}
		var bounds []float64
		for _, s := range u.Plan.Hyper.Slots {
			if s.Param == "interaction" {
				bounds = []float64{s.Lo, s.Hi}
			}
		}
		if len(bounds) != len(c.bounds) || len(bounds) == 2 && (bounds[0] != c.bounds[0] || bounds[1] != c.bounds[1]) {
			t.Errorf("%s: interaction learned in %v, want %v", c.name, bounds, c.bounds)
		}
		var warnings []string
		for _, d := range u.Diagnostics {
			if d.Severity == dsl.Warning {
				warnings = append(warnings, d.Message)
			}
		}
		if c.warning == "" && len(warnings) > 0 || c.warning != "" && (len(warnings) != 1 || !strings.Contains(warnings[0], c.warning)) {
			t.Errorf("%s: warnings %q, want %q", c.name, warnings, c.warning)
		}
	}
}

// TestAdditiveResidual: a kernel over components that learns makes the
// plan learn a residual variance when the file says nothing of the
// observation noise, and the acquisition stays the exact objective's
// default; a fixed kernel, a kernel over all components, or noise the file
// declares leave the noise as they would.
func TestAdditiveResidual(t *testing.T) {
	const numbers = "problem p\ndomain {\n    x[3] in [0, 1]\n}\nobjective minimize x[0] + x[1]^2\nbudget 10\n"
	for _, c := range []struct {
		name, lines string
		implied     string // the plan's reason; "-": no noise learned; "": learned as asked
	}{
		{"learning", `model gp(kernel = matern52(groups = "components"))`, "for what the additive kernel leaves out"},
		{"fixed hyperparameters", `model gp(kernel = se(lengthscale = 0.3, variance = 1, groups = "components"))`, "-"},
		{"over all components", `model gp(kernel = matern52)`, "-"},
		{"noise declared", "observation noise ~ normal(0, 0.1)\n" + `model gp(kernel = matern52(groups = "components"))`, "-"},
		{"noise learned", "observation noise learn\n" + `model gp(kernel = matern52(groups = "components"))` + "\nacquisition ei", ""},
	} {
		u := driver.Compile("p.bo", []byte(numbers+c.lines+"\n"), driver.Options{})
		if !u.OK() {
			t.Errorf("%s: %v", c.name, u.Diagnostics)
			continue
		}
		implied := "-"
		if n := u.Plan.Noise; n != nil {
			implied = n.Implied
		}
		if implied != c.implied {
			t.Errorf("%s: noise %q, want %q", c.name, implied, c.implied)
		}
		if acq := u.Program.Acquisition; c.implied != "-" && (acq == nil || acq.Plugin != "acquisition.ei") {
			t.Errorf("%s: acquisition %v, want ei", c.name, acq)
		}
	}
}

// TestSweptByComponent: coordinate sweeps are scored from the kernel's
// terms where the model's kernel is one stationary kernel over the
// components one by one of a family runtime/kernel.Components evaluates,
// learned or fixed, and the domain's components are continuous and always
// there; elsewhere as rows.
func TestSweptByComponent(t *testing.T) {
	const problem = "problem p\ndomain {\n    x[3] in [0, 1]\n%s}\nobjective minimize x[0] + x[1]^2\nbudget 20\n"
	additive := `model gp(kernel = matern52(groups = "components"))`
	for _, c := range []struct {
		name, dims, lines string
		want              bool
	}{
		{"learned", "", additive + "\nsearch lbfgs(sweeps = 1)", true},
		{"fixed", "", `model gp(kernel = se(lengthscale = 0.3, variance = 1, groups = "components"))` + "\nsearch turbo(sweeps = 2)", true},
		{"without sweeps", "", additive, false},
		{"over all components", "", "model gp(kernel = matern52)\nsearch lbfgs(sweeps = 1)", false},
		{"a family of a shape", "", `model gp(kernel = rq(groups = "components"))` + "\nsearch lbfgs(sweeps = 1)", false},
		{"inside a sum", "", `model gp(kernel = matern52(groups = "components") + se)` + "\nsearch lbfgs(sweeps = 1)", false},
		{"an integer", "    n in 1..5\n", additive + "\nsearch lbfgs(sweeps = 1)", false},
	} {
		u := driver.Compile("p.bo", []byte(fmt.Sprintf(problem, c.dims)+c.lines+"\n"), driver.Options{})
		if !u.OK() {
			t.Errorf("%s: %v", c.name, u.Diagnostics)
			continue
		}
		if got := u.Plan.SweptByComponent(); got != c.want {
			t.Errorf("%s: swept by component %v, want %v", c.name, got, c.want)
		}
	}
}
