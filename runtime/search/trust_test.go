package search

import (
	"math"
	"testing"
)

// TestTrustRegionResizes: successes in a row double the side (up to the
// maximum), failures in a row halve it, and below the minimum the region
// restarts with no centre; the centre follows the best observation.
func TestTrustRegionResizes(t *testing.T) {
	r := NewTrustRegion(0.8, 0.1, 1.6, 2, 3)
	if r.Centre() != -1 {
		t.Fatalf("a new region is centred on %d, want none", r.Centre())
	}
	r.Tell(0, 1)
	r.Tell(1, 2)
	r.Tell(2, 3)
	if r.Length() != 1.6 || r.Centre() != 2 {
		t.Fatalf("after two improvements: length %v centre %d, want 1.6 and 2", r.Length(), r.Centre())
	}
	r.Tell(3, 4)
	r.Tell(4, 5)
	if r.Length() != 1.6 {
		t.Fatalf("the side grew past the maximum: %v", r.Length())
	}
	// 5.001 is within 10⁻³ of 5: a failure, though it becomes the centre.
	for i, y := range []float64{5.001, 1, 0} {
		r.Tell(5+i, y)
	}
	if r.Length() != 0.8 || r.Centre() != 5 {
		t.Fatalf("after three failures: length %v centre %d, want 0.8 and 5", r.Length(), r.Centre())
	}
	for i := range 12 { // 0.8 → 0.4 → 0.2 → 0.1 → 0.05 < 0.1
		r.Tell(8+i, 0)
	}
	if r.Centre() != -1 || r.Restarts() != 1 || r.Length() != 0.8 {
		t.Fatalf("after collapsing: centre %d, restarts %d, length %v; want -1, 1, 0.8", r.Centre(), r.Restarts(), r.Length())
	}
	r.Tell(20, -3)
	if r.Centre() != 20 {
		t.Fatalf("the first point after a restart centres the region: %d", r.Centre())
	}
}

// TestTrustRegionBox: the box's sides follow the lengthscales relative to
// their geometric mean, and the cube clips it.
func TestTrustRegionBox(t *testing.T) {
	r := NewTrustRegion(0.4, 0.01, 1.6, 3, 4)
	lo, hi := make([]float64, 2), make([]float64, 2)
	r.Box([]float64{0.5, 0.9}, []float64{0.2, 0.8}, lo, hi)
	// Geometric mean 0.4: weights 0.5 and 2, sides 0.2 and 0.8.
	want := [2][2]float64{{0.4, 0.6}, {0.5, 1}}
	for i := range lo {
		if math.Abs(lo[i]-want[i][0]) > 1e-12 || math.Abs(hi[i]-want[i][1]) > 1e-12 {
			t.Errorf("component %d: [%v, %v], want %v", i, lo[i], hi[i], want[i])
		}
	}
	r.Box([]float64{0.5, 0.5}, nil, lo, hi)
	if lo[0] != 0.3 || hi[1] != 0.7 {
		t.Errorf("without lengthscales: [%v, %v], want a cube of side 0.4", lo, hi)
	}
}

// TestLBFGSSearchesTheBox: with a box set, every point scored and the
// maximiser lie in it, even when the function's maximum lies outside and a
// start was given outside; SetBox(nil, nil) searches the cube again.
func TestLBFGSSearchesTheBox(t *testing.T) {
	s := NewLBFGS(2, 64, 2)
	lo, hi := []float64{0.1, 0.2}, []float64{0.3, 0.5}
	s.SetBox(lo, hi, nil)
	s.AddStart([]float64{0.9, 0.9})
	outside := 0
	f := func(_ int, u, grad []float64) float64 {
		for j := range u {
			if u[j] < lo[j] || u[j] > hi[j] {
				outside++
			}
		}
		if grad != nil {
			grad[0], grad[1] = 1, 1
		}
		return u[0] + u[1] // largest at the box's corner (0.3, 0.5)
	}
	out := make([]float64, 2)
	v, err := s.Maximize(f, nil, 1, out)
	if err != nil || outside > 0 || math.Abs(out[0]-0.3) > 1e-9 || math.Abs(out[1]-0.5) > 1e-9 {
		t.Fatalf("in the box: %v at %v (err %v), %d evaluations outside", v, out, err, outside)
	}
	s.SetBox(nil, nil, nil)
	lo, hi = []float64{0, 0}, []float64{1, 1}
	if _, err := s.Maximize(f, nil, 1, out); err != nil || out[0] < 0.999 || out[1] < 0.999 {
		t.Fatalf("the whole cube again: %v (err %v)", out, err)
	}
}

// TestLBFGSPerturbsTheCentre: with a centre, a raw candidate in 40
// dimensions keeps most components at the centre (about 20 move), every
// one moves at least one, and the moved ones stay in the box.
func TestLBFGSPerturbsTheCentre(t *testing.T) {
	const dim = 40
	s := NewLBFGS(dim, 256, 1)
	lo, hi, centre := make([]float64, dim), make([]float64, dim), make([]float64, dim)
	for j := range centre {
		lo[j], hi[j], centre[j] = 0.2, 0.6, 0.4
	}
	s.SetBox(lo, hi, centre)
	moved, scored := 0, 0
	f := func(_ int, u, grad []float64) float64 {
		if grad == nil { // a raw candidate, scored without its gradient
			scored++
			m := 0
			for j, v := range u {
				if v < lo[j] || v > hi[j] {
					t.Fatalf("component %d at %v, outside the box", j, v)
				}
				if v != centre[j] {
					m++
				}
			}
			if m == 0 {
				t.Fatalf("a candidate at the centre")
			}
			moved += m
		} else {
			for j := range grad {
				grad[j] = 0
			}
		}
		return 0
	}
	if _, err := s.Maximize(f, nil, 3, make([]float64, dim)); err != nil {
		t.Fatal(err)
	}
	if scored < 256 {
		t.Fatalf("%d candidates scored, want the 256 raw ones", scored)
	}
	if mean := float64(moved) / float64(scored); mean < 15 || mean > 25 {
		t.Errorf("candidates move %v components on average, want about 20 of %d", mean, dim)
	}
}
