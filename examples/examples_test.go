// Package examples holds the bundled example problems (the .bo files beside
// this test) and the Go packages robot and spindle that examples/robot.bo
// and examples/spindle.bo are bound to.
package examples

import (
	"bytes"
	"encoding/json"
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/bocdev/boc/cli"
	"github.com/bocdev/boc/driver"
)

func examples(t *testing.T) []string {
	t.Helper()
	paths, err := filepath.Glob("*.bo")
	if err != nil || len(paths) < 5 {
		t.Fatalf("examples: %v %v", paths, err)
	}
	return paths
}

// TestExamplesCompile: every example checks without a diagnostic, not even a
// warning, and generates code.
func TestExamplesCompile(t *testing.T) {
	for _, path := range examples(t) {
		t.Run(path, func(t *testing.T) {
			u, err := driver.Load(path, driver.Options{})
			if err != nil {
				t.Fatal(err)
			}
			u.Generate(driver.ProgramOptions)
			if len(u.Diagnostics) > 0 {
				var b bytes.Buffer
				u.Diagnostics.Render(&b, u.Source)
				t.Errorf("%s", b.String())
			}
		})
	}
}

// TestExamplesRun builds and runs every example through `boc run --json`, the
// README's first command, and checks what each promises.
func TestExamplesRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program per example")
	}
	// The best value each example's run must reach (the objective is minimised
	// in all of them): near the known minimum where the problem has one.
	reach := map[string]float64{
		"quickstart.bo":  0.397887 + 0.05, // Branin's minimum
		"hartmann6.bo":   -3.32237 + 0.5,  // Hartmann6's minimum
		"constrained.bo": 0.034163 + 0.01, // the minimum in the disk, from a fine grid
		"mixed.bo":       0.01,            // minimum 0 at lr = 3e-3, layers = 5
		"robot.bo":       0.05,            // the target is reachable: minimum 0
		"spindle.bo":     1.158837 + 0.02, // the safe minimum (temperature 78.9 °C), from a fine grid
		"svm.bo":         0.12 + 0.01,     // rbf, c = 10, gamma = 10^-1.5
	}
	// The robust examples' recommendations must land near the robust optimum
	// (the program's robust-optimum command finds it on a fine grid), where the
	// nominal optimum lies elsewhere.
	robustNear := map[string]struct{ x, tol float64 }{
		"airbo_double_peak.bo": {0.2523, 0.02}, // not the taller peak at 0.35
		"airbo_rkhs.bo":        {0.0776, 0.02}, // not the narrow peaks near 0.89
	}
	// The median over seeds 1–3 of the robust value E[f(x + ε)] at the
	// recommendation must be at least this good (minimised): Michalewicz's
	// robust optimum is about −2.61 (found by robust-optimum); random search's
	// recommendation after the same budget reaches about −1.3 to −1.8 over
	// seeds 1–3. One seed alone is too chancy a measure: with a search that
	// found better values over eight seeds, seed 1 fell from −1.57 to −1.11.
	robustReach := map[string]float64{"oliveira_michalewicz.bo": -1.3}
	// The noise-free value of the recommendation a maximising example must
	// reach: the SGP-UCB paper's safe optimum is 1.588 (the program's
	// optimum command). Random search over its 100 actions finds it too,
	// but breaks the constraint 59 times in 500 evaluations.
	// safe_landing's chance constraint certifies little beyond its seeds
	// (docs/safe.md): its recommendation must be at least the best seed's
	// speed, 0.15, without a measured violation.
	recommendReach := map[string]float64{"sgp_ucb_paper.bo": 1.588 - 0.25, "safe_landing.bo": 0.15 - 1e-9}
	// The noise-free value of the recommendation an example with requirements
	// must reach (minimised), its recommendation truly meeting them: Gardner's
	// toy problem's minimum is -2.
	requiredReach := map[string]float64{"gardner.bo": -2 + 0.05}
	// The hypervolume an example with several objectives must reach:
	// BraninCurrin's largest is 59.36 below (18, 6); 30 evaluations found
	// 57.30 when the test was written.
	hypervolumeReach := map[string]float64{"branincurrin.bo": 0.9 * 59.36}
	for _, path := range examples(t) {
		t.Run(path, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := cli.Run([]string{"run", "--json", path}, nil, &stdout, &stderr); code != 0 {
				t.Fatalf("boc run exited %d:\n%s", code, stderr.String())
			}
			var result struct {
				Evaluations          int
				BestObserved         struct{ Y float64 } `json:"best_observed"`
				Recommendation       map[string]any
				RecommendationRobust float64 `json:"recommendation_robust"`
				Violations           *int    `json:"violations"`
				RecommendationValue  float64 `json:"recommendation_value"`
				TrulyFeasible        *bool   `json:"truly_feasible"`
				Hypervolume          float64 `json:"hypervolume"`
			}
			if err := json.Unmarshal(stdout.Bytes(), &result); err != nil {
				t.Fatalf("output is not one JSON object: %v\n%s", err, stdout.String())
			}
			if want, ok := hypervolumeReach[path]; ok {
				if result.Hypervolume < want {
					t.Errorf("hypervolume %g, want at least %g", result.Hypervolume, want)
				}
				return
			}
			if want, ok := requiredReach[path]; ok {
				if result.TrulyFeasible == nil || !*result.TrulyFeasible || result.RecommendationValue > want {
					t.Errorf("recommendation's value %g, truly feasible %v; want a feasible one of at most %g", result.RecommendationValue, result.TrulyFeasible, want)
				}
				return
			}
			if result.Violations != nil && *result.Violations != 0 {
				t.Errorf("%d evaluations broke a safety limit", *result.Violations)
			}
			if want, ok := robustNear[path]; ok {
				if x, _ := result.Recommendation["x"].(float64); math.Abs(x-want.x) > want.tol {
					t.Errorf("recommendation x = %g, want within %g of the robust optimum %g", x, want.tol, want.x)
				}
				return
			}
			if want, ok := recommendReach[path]; ok {
				if result.RecommendationValue < want {
					t.Errorf("recommendation's value %g, want at least %g", result.RecommendationValue, want)
				}
				return
			}
			if want, ok := robustReach[path]; ok {
				values := []float64{result.RecommendationRobust}
				for _, seed := range []string{"2", "3"} {
					stdout.Reset()
					if code := cli.Run([]string{"run", "--json", "--seed", seed, path}, nil, &stdout, &stderr); code != 0 {
						t.Fatalf("boc run --seed %s exited %d:\n%s", seed, code, stderr.String())
					}
					if err := json.Unmarshal(stdout.Bytes(), &result); err != nil {
						t.Fatalf("output is not one JSON object: %v\n%s", err, stdout.String())
					}
					values = append(values, result.RecommendationRobust)
				}
				slices.Sort(values)
				if values[1] > want {
					t.Errorf("robust values of the recommendations over seeds 1–3 %v, want a median of at most %g", values, want)
				}
				return
			}
			want, ok := reach[path]
			if !ok {
				t.Fatalf("no expectation for %s: add one", path)
			}
			if result.BestObserved.Y > want {
				t.Errorf("best observed %g after %d evaluations, want at most %g", result.BestObserved.Y, result.Evaluations, want)
			}
		})
	}
}
