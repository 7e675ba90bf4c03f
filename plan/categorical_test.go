package plan_test

import (
	"strings"
	"testing"

	"github.com/bocdev/boc/driver"
)

// TestMixtureByDefault: over a domain of choices and numbers whose kernel
// learns, every stationary kernel that leaves its interaction out learns
// it; not when the kernel is fixed, when the model is over input
// distributions, when the user gives it, when there are no numbers, or
// over a domain without choices.
func TestMixtureByDefault(t *testing.T) {
	const mixed = "problem p\ndomain {\n    x in [0, 1]\n    y in {\"a\", \"b\"}\n}\nobjective minimize x + (if y == \"a\" then 0 else 1)\nbudget 10\n"
	for _, c := range []struct {
		name, src string
		learned   int // interactions learned
	}{
		{"default kernel", mixed, 1},
		{"a sum of two", mixed + "model gp(kernel = se + matern32)\n", 2},
		{"fixed hyperparameters", mixed + "model gp(kernel = se(lengthscale = 0.3, variance = 1))\n", 0},
		{"given", mixed + "model gp(kernel = matern52(interaction = 1))\n", 0},
		{"given learned", mixed + "model gp(kernel = matern52(interaction = learn))\n", 1},
		{"over input distributions", mixed + "input noise x ~ normal(0, 0.05)\nmodel ugp\n", 0},
		{"choices only", strings.NewReplacer("x in [0, 1]\n", "", "x + ", "").Replace(mixed), 0},
		{"no choices", strings.NewReplacer(`y in {"a", "b"}`, "y in [0, 1]", `(if y == "a" then 0 else 1)`, "y").Replace(mixed), 0},
	} {
		u := driver.Compile("p.bo", []byte(c.src), driver.Options{})
		if !u.OK() {
			t.Errorf("%s: %v", c.name, u.Diagnostics)
			continue
		}
		learned := 0
		for _, s := range u.Plan.Hyper.Slots {
			if s.Param == "interaction" {
				learned++
			}
		}
		if learned != c.learned {
			t.Errorf("%s: %d interactions learned, want %d", c.name, learned, c.learned)
		}
	}
}
