package codegen

import (
	"encoding/json"
	"math"
	"testing"
)

// TestStopWhenAcquisition runs testdata/golden/stop_early.bo to its end: the
// largest expected improvement, in the objective's units (not its logarithm,
// which the search maximises), falls below 1e-6 near the maximiser 0.3 of
// −(x − 0.3)², and the run stops there, before the budget of 40.
func TestStopWhenAcquisition(t *testing.T) {
	b := builtModule(t)
	stdout, stderr, code := b.runProgram(t, "stop_early", "run", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r runResult
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatal(err)
	}
	if r.Stopped != "stop when" || r.Evaluations <= 3 || r.Evaluations >= 40 {
		t.Fatalf("stopped %q after %d evaluations, want the stop condition between 4 and 39:\n%s", r.Stopped, r.Evaluations, stdout)
	}
	if r.BestObserved == nil || r.BestObserved.Y < -1e-4 {
		t.Errorf("stopped before getting close to the maximum 0: %s", stdout)
	}
	var x float64
	if err := json.Unmarshal(r.Recommendation["x"], &x); err != nil || math.Abs(x-0.3) > 0.01 {
		t.Errorf("recommendation x = %s, want within 0.01 of 0.3", r.Recommendation["x"])
	}
}
