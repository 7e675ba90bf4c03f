package program

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/bocdev/boc/runtime/journal"
)

// TestPenalties: a failed trial of several objectives counts as worse than
// every value told in each objective by their spread, and as breaking each
// requirement beyond its limit (or its worst value) by the spread of its
// values; there is none before a value is told, nor with safety
// constraints.
func TestPenalties(t *testing.T) {
	p := Problem{Objectives: []Objective{{Name: "yield", Maximize: true}, {Name: "cost"}},
		Constraints: []Constraint{{Name: "purity", Limit: 0.8, AtLeast: true, Required: true}}}
	s := &study{}
	if _, _, ok := s.penalties(p); ok {
		t.Error("penalties before any value")
	}
	tell := func(yield, cost, purity float64) {
		e := journal.Event{Kind: journal.KindTell, Objectives: map[string]float64{"yield": yield, "cost": cost},
			Constraints: map[string]float64{"purity": purity}}
		s.told = append(s.told, &trial{result: &e})
	}
	tell(3, 2, 0.9)
	tell(5, 7, 0.95)
	s.told = append(s.told, &trial{result: &journal.Event{Kind: journal.KindFail}})
	objectives, constraints, ok := s.penalties(p)
	// yield: worst 3, spread 2 → 1; cost: worst 7, spread 5 → 12; purity:
	// broken below the limit 0.8 by the spread to the best 0.95 → 0.65.
	if !ok || !slices.Equal(objectives, []float64{1, 12}) || len(constraints) != 1 || math.Abs(constraints[0]-0.65) > 1e-12 {
		t.Errorf("penalties %v %v %v, want [1 12] [0.65]", objectives, constraints, ok)
	}
	p.Constraints[0].Required = false // a safety constraint
	if _, _, ok := s.penalties(p); ok {
		t.Error("penalties with a safety constraint")
	}
}

// TestObjectiveValues: tell's values of several objectives, each by name,
// every one of them, once.
func TestObjectiveValues(t *testing.T) {
	p := Problem{Objectives: []Objective{{Name: "yield", Maximize: true}, {Name: "cost"}}}
	for _, tc := range []struct {
		values []string
		want   string
	}{
		{[]string{"yield=3", "cost=2.5"}, ""},
		{[]string{"3"}, "give each as --value NAME=V (yield, cost)"},
		{[]string{"yield=3"}, "give objective cost's measured value"},
		{[]string{"yield=3", "costs=1"}, "the problem has no objective costs"},
		{[]string{"yield=3", "yield=4", "cost=1"}, "objective yield is given twice"},
		{[]string{"yield=3", "cost=0x10"}, "--value cost 0x10: not a finite number"},
		{[]string{"yield=1e200", "cost=1"}, "too large to model"},
	} {
		got, msg := objectiveValues(p, tc.values, flagSyntax)
		if tc.want == "" && (msg != "" || got["yield"] != 3 || got["cost"] != 2.5) || tc.want != "" && !strings.Contains(msg, tc.want) {
			t.Errorf("%v: %v %q, want %q", tc.values, got, msg, tc.want)
		}
	}
}
