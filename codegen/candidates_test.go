package codegen

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// readCandidates reads a golden case's CSV of candidates as "a,b" keys.
func readCandidates(t *testing.T, name string) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(goldenDir, name))
	if err != nil {
		t.Fatal(err)
	}
	points := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		fields := strings.Split(line, ",")
		if strings.HasPrefix(line, "#") {
			continue
		}
		if _, err := strconv.ParseFloat(fields[0], 64); err != nil {
			continue // the header
		}
		points[line] = true
	}
	return points
}

// TestCandidatesPrograms: with a finite decision set every evaluated point,
// the initial design included, is a distinct candidate satisfying the known
// constraints (with the portfolio hedge too, whose arms each score the free
// candidates), and a set smaller than the budget ends the run as exhausted
// once every candidate has been evaluated.
func TestCandidatesPrograms(t *testing.T) {
	b := builtModule(t)
	tests := []struct {
		name, file string
		x, y       string // the components
		feasible   func(x, y float64) bool
		evaluated  int
		stopped    string
	}{
		{"candidates", "candidates.csv", "x1", "x2", func(x, y float64) bool { return x+y <= 20 }, 20, "budget"},
		{"candidates_small", "candidates_small.csv", "x", "k", nil, 5, "exhausted"},
		{"hedge_candidates", "candidates.csv", "x1", "x2", func(x, y float64) bool { return x+y <= 20 }, 20, "budget"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			candidates := readCandidates(t, tc.file)
			r := b.traced(t, tc.name)
			if r.Evaluations != tc.evaluated {
				t.Errorf("%d evaluations, want %d", r.Evaluations, tc.evaluated)
			}
			seen := map[string]bool{}
			for _, s := range r.Trace {
				x, y := coordinate(t, s.X, tc.x), coordinate(t, s.X, tc.y)
				key := fmt.Sprintf("%g,%g", x, y)
				if !candidates[key] || seen[key] || (tc.feasible != nil && !tc.feasible(x, y)) {
					t.Errorf("evaluation %d at %s: not a fresh feasible candidate", s.Evaluation, key)
				}
				seen[key] = true
			}
			stdout, stderr, code := b.runProgram(t, tc.name, "run", "--json")
			var res runResult
			if code != 0 || json.Unmarshal([]byte(stdout), &res) != nil || res.Stopped != tc.stopped {
				t.Errorf("exit %d, %s%s: want stopped %q", code, stdout, stderr, tc.stopped)
			}
		})
	}
}
