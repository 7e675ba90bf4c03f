package codegen

import (
	"encoding/json"
	"math"
	"strconv"
	"testing"
)

// safeRun is the JSON of run --json --trace of a problem with unknown
// safety constraints, as far as these tests read it.
type safeRun struct {
	Evaluations  int    `json:"evaluations"`
	Stopped      string `json:"stopped"`
	BestObserved struct {
		Y float64 `json:"y"`
	} `json:"best_observed"`
	Violations        *int  `json:"violations"`
	UnsafeEvaluations *int  `json:"unsafe_evaluations"`
	Unmet             *int  `json:"unmet"`
	TrulyFeasible     *bool `json:"truly_feasible"`
	Trace             []struct {
		X               map[string]json.RawMessage `json:"x"`
		Constraints     map[string]*float64        `json:"constraints"`
		TrueConstraints map[string]*float64        `json:"true_constraints"`
		Certificate     *struct {
			Phase    int                 `json:"phase"`
			Seed     bool                `json:"seed"`
			Beta     float64             `json:"beta"`
			Bounds   map[string]*float64 `json:"bounds"`
			SafeSize int                 `json:"safe_set"`
		} `json:"certificate"`
	} `json:"trace"`
}

// limit is one constraint of a golden safe case: value <= at, or >= with atLeast.
type limit struct {
	at      float64
	atLeast bool
}

func (l limit) holds(v float64) bool {
	if l.atLeast {
		return v >= l.at
	}
	return v <= l.at
}

// TestSafeRuns runs the golden safe cases over several seeds and checks the
// semantics every run must have: each evaluation carries the measured
// constraints and a certificate, a seed point or bounds on the safe side of
// every limit; the phase never goes back; the safe set never shrinks once
// the first phase is over; no simulated constraint is truly broken (the
// problems are easy enough that δ never bites); the counts match the trace;
// a random search has no certificate and breaks limits the optimiser keeps.
// With requirements too, their broken limits are counted apart, and the
// recommendation meets their true values.
func TestSafeRuns(t *testing.T) {
	b := builtModule(t)
	cases := map[string]struct{ limits, required map[string]limit }{
		"safe_grid":       {limits: map[string]limit{"heat": {70, false}}},
		"safe_candidates": {limits: map[string]limit{"reach": {1.4, false}, "load": {0.5, true}}},
		"safe_exec":       {limits: map[string]limit{"load": {1.2, false}, "sphere": {2.5, false}}},
		"safe_gobind":     {limits: map[string]limit{"load": {1.2, false}, "sphere": {2.5, false}}},
		"safe_random":     {limits: map[string]limit{"g": {0, true}}},
		"safe_pool":       {limits: map[string]limit{"heat": {60, false}}},
		"safe_ugp":        {limits: map[string]limit{"load": {0.7, true}}},
		"safe_require":    {limits: map[string]limit{"heat": {70, false}}, required: map[string]limit{"purity": {0.2, true}}},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			stops := 0
			for seed := 1; seed <= 4; seed++ {
				stdout, stderr, code := b.runProgram(t, name, "run", "--json", "--trace", "--seed", strconv.Itoa(seed))
				if code != 0 {
					t.Fatalf("seed %d: exit %d: %s", seed, code, stderr)
				}
				var r safeRun
				if err := json.Unmarshal([]byte(stdout), &r); err != nil {
					t.Fatalf("seed %d: %v\n%s", seed, err, stdout)
				}
				checkSafeRun(t, name, seed, r, c.limits, c.required)
				if name == "safe_exec" || name == "safe_gobind" {
					checkMeasuredConstraints(t, r)
				}
				if name == "safe_grid" && checkStop(t, seed, r) {
					stops++
				}
			}
			if name == "safe_grid" && stops == 0 {
				t.Error("safe_grid: the stop condition never ended a run of seeds 1–4")
			}
			stdout, _, code := b.runProgram(t, name, "run", "--json", "--trace", "--random-search")
			var r safeRun
			if err := json.Unmarshal([]byte(stdout), &r); code != 0 || err != nil {
				t.Fatalf("random search: exit %d, %v", code, err)
			}
			for i, s := range r.Trace {
				if s.Certificate != nil {
					t.Fatalf("random search: evaluation %d has a certificate", i+1)
				}
			}
		})
	}
}

func checkSafeRun(t *testing.T, name string, seed int, r safeRun, limits, required map[string]limit) {
	t.Helper()
	if r.Violations == nil || len(r.Trace) != r.Evaluations || r.Evaluations == 0 {
		t.Fatalf("%s seed %d: %d evaluations, %d traced, violations %v", name, seed, r.Evaluations, len(r.Trace), r.Violations)
	}
	phase, size, violations, unmet := 1, 0, 0, 0
	for i, s := range r.Trace {
		c := s.Certificate
		if c == nil || len(s.Constraints) != len(limits)+len(required) {
			t.Fatalf("%s seed %d, evaluation %d: certificate %v, constraints %v", name, seed, i+1, c, s.Constraints)
		}
		if c.Phase < phase {
			t.Fatalf("%s seed %d, evaluation %d: phase %d after phase %d", name, seed, i+1, c.Phase, phase)
		}
		if c.Phase == 2 && phase == 2 && c.SafeSize < size {
			t.Fatalf("%s seed %d, evaluation %d: the safe set shrank from %d to %d", name, seed, i+1, size, c.SafeSize)
		}
		phase, size = c.Phase, c.SafeSize
		broke := false
		for k, l := range limits {
			v := s.Constraints[k]
			if v == nil {
				t.Fatalf("%s seed %d, evaluation %d: no value of %s", name, seed, i+1, k)
			}
			broke = broke || !l.holds(*v)
			if bound := c.Bounds[k]; !c.Seed && (bound == nil || !l.holds(*bound)) {
				t.Fatalf("%s seed %d, evaluation %d: not a seed, and %s's certified bound %v is not within %v", name, seed, i+1, k, bound, l)
			}
			if truth := s.TrueConstraints[k]; truth != nil && !l.holds(*truth) {
				t.Errorf("%s seed %d, evaluation %d: %s is truly %v, beyond its limit", name, seed, i+1, k, *truth)
			}
			if c.Beta <= 0 || math.IsNaN(c.Beta) {
				t.Fatalf("%s seed %d: β = %v", name, seed, c.Beta)
			}
		}
		if broke {
			violations++
		}
		for k, l := range required {
			if !l.holds(*s.Constraints[k]) {
				unmet++
				break
			}
		}
	}
	if *r.Violations != violations {
		t.Errorf("%s seed %d: %d violations reported, %d in the trace", name, seed, *r.Violations, violations)
	}
	if len(required) > 0 && (r.Unmet == nil || *r.Unmet != unmet || r.TrulyFeasible == nil || !*r.TrulyFeasible) {
		t.Errorf("%s seed %d: %v unmet requirements reported, %d in the trace; truly feasible %v", name, seed, r.Unmet, unmet, r.TrulyFeasible)
	}
	if r.UnsafeEvaluations != nil && *r.UnsafeEvaluations != 0 {
		t.Errorf("%s seed %d: %d unsafe evaluations", name, seed, *r.UnsafeEvaluations)
	}
}

// checkStop checks a run of safe_grid, whose stop condition is best >
// −0.002: it ends by the condition, early and with such a best value, or by
// the budget, and reports which.
func checkStop(t *testing.T, seed int, r safeRun) bool {
	t.Helper()
	switch {
	case r.Stopped == "stop when" && r.Evaluations < 30 && r.BestObserved.Y > -0.002:
		return true
	case r.Stopped == "budget" && r.Evaluations == 30:
		return false
	}
	t.Errorf("safe_grid seed %d: stopped %q after %d evaluations with best %v", seed, r.Stopped, r.Evaluations, r.BestObserved.Y)
	return false
}

// checkMeasuredConstraints checks the measured values of safe_exec and
// safe_gobind: load, reported by the objective (its command's answer, its
// Go function's values), is the sum of the components; sphere, the
// constraint's own binding, the sum of their squares.
func checkMeasuredConstraints(t *testing.T, r safeRun) {
	t.Helper()
	for i, s := range r.Trace {
		x := coordinate(t, s.X, "x")
		var v []float64
		if err := json.Unmarshal(s.X["v"], &v); err != nil || len(v) != 2 {
			t.Fatalf("evaluation %d: v = %s", i+1, s.X["v"])
		}
		sum, squares := x+v[0]+v[1], x*x+v[0]*v[0]+v[1]*v[1]
		if got := *s.Constraints["load"]; math.Abs(got-sum) > 1e-9 {
			t.Errorf("evaluation %d: load %v, want %v", i+1, got, sum)
		}
		if got := *s.Constraints["sphere"]; math.Abs(got-squares) > 1e-9 {
			t.Errorf("evaluation %d: sphere %v, want %v", i+1, got, squares)
		}
	}
}
