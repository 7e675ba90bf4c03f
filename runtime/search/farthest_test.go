package search

import (
	"math"
	"testing"
)

// TestFarthest: the chosen point keeps away from the evaluated ones, obeys
// the constraints, and depends only on the seed.
func TestFarthest(t *testing.T) {
	evaluated := [][2]float64{{0.1, 0.1}, {0.2, 0.15}, {0.15, 0.3}}
	coord := func(i, j int) float64 { return evaluated[i][j] }
	var a, b [2]float64
	if err := Farthest(len(evaluated), 2, coord, nil, 7, a[:]); err != nil {
		t.Fatal(err)
	}
	if err := Farthest(len(evaluated), 2, coord, nil, 7, b[:]); err != nil || a != b {
		t.Fatalf("same seed: %v then %v (%v)", a, b, err)
	}
	for _, e := range evaluated {
		if d := math.Hypot(a[0]-e[0], a[1]-e[1]); d < 0.7 {
			t.Errorf("%v is %.2f from the evaluated %v; the far corner is over 1 away", a, d, e)
		}
	}
	lower := func(u []float64) bool { return u[1] < 0.5 }
	if err := Farthest(len(evaluated), 2, coord, lower, 7, a[:]); err != nil || a[1] >= 0.5 || a[0] < 0.7 {
		t.Errorf("with u[1] < 0.5: %v (%v), want a point near (1, 0.5)", a, err)
	}
	if err := Farthest(len(evaluated), 2, coord, func([]float64) bool { return false }, 7, a[:]); err != ErrNoFeasible {
		t.Errorf("no feasible candidate: %v", err)
	}
}

func TestFarthestAllocations(t *testing.T) {
	evaluated := [][3]float64{{0.5, 0.5, 0.5}}
	var out [3]float64
	allocs := testing.AllocsPerRun(10, func() {
		_ = Farthest(1, 3, func(i, j int) float64 { return evaluated[i][j] }, nil, 1, out[:])
	})
	if allocs != 0 {
		t.Errorf("Farthest allocates %v times", allocs)
	}
}
