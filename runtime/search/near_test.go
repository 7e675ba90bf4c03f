package search

import (
	"math"
	"testing"
)

// tent is Π_j max(0, 1 − |u_j − c_j|/halfWidth), with its gradient: zero,
// flat, wherever any component lies halfWidth or more from c's, so that
// in many dimensions no quasi-random point of the cube sees it.
func tent(c []float64, halfWidth float64) ValueGrad {
	return func(_ int, u, grad []float64) float64 {
		value := 1.0
		for j, cj := range c {
			value *= max(0, 1-math.Abs(u[j]-cj)/halfWidth)
		}
		if grad != nil {
			for j, cj := range c {
				grad[j] = 0
				if d := u[j] - cj; value > 0 {
					grad[j] = -math.Copysign(value/(halfWidth-math.Abs(d)), d)
				}
			}
		}
		return value
	}
}

// TestNearBestFindsWhatTheBoxMisses: in 40 dimensions the tent around c is
// zero at every quasi-random candidate and at the start, 0.25 from c along
// one component; with one refinement only a candidate near the start that
// moved that component towards c, and no other far, lies on the tent, and
// the refinement climbs to its top from there.
func TestNearBestFindsWhatTheBoxMisses(t *testing.T) {
	const dim = 40
	c := make([]float64, dim)
	for j := range c {
		c[j] = 0.3 + 0.4*math.Mod(0.618*float64(j+1), 1)
	}
	start := append([]float64(nil), c...)
	start[0] += 0.25
	f := tent(c, 0.2)
	out := make([]float64, dim)
	for _, share := range []float64{0, 0.5} {
		s := NewLBFGS(dim, 1024, 1).WithNearBest(share, 0.1)
		s.AddStart(start)
		value, err := s.Maximize(f, nil, 7, out)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case share == 0 && value != 0:
			t.Errorf("without candidates near the start: value %v, want 0 (nothing on the tent)", value)
		case share > 0 && value < 0.99:
			t.Errorf("with half the candidates near the start: value %v, want the tent's top, 1", value)
		}
	}
}

// TestNearBestCandidates checks where the candidates near the starts lie:
// the last share of the raw ones, each within the width of its start (the
// starts in turn), in the box, moving at least one component and keeping
// the categorical ones; and that they repeat with the seed.
func TestNearBestCandidates(t *testing.T) {
	const dim, raw, width = 30, 64, 0.1
	levels := make([]int, dim)
	levels[dim-1] = 3 // one categorical component, its levels' middles 1/6, 1/2, 5/6
	starts := [][]float64{make([]float64, dim), make([]float64, dim)}
	for j := range dim {
		starts[0][j], starts[1][j] = 0.02*float64(j%5), 1-0.03*float64(j%4)
	}
	starts[0][dim-1], starts[1][dim-1] = 0.5, 5.0/6
	place := func(seed uint64) []float64 {
		s := NewMixedLBFGS(dim, raw, 2, levels).WithNearBest(0.25, width)
		for _, u := range starts {
			s.AddStart(u)
		}
		// What Maximize places before it scores, without the scoring.
		s.sobol.Reset(shiftSeed(seed))
		s.mask.Seed(seed, 0x7475726236)
		for i := range raw {
			s.sobol.Next(s.candidates[i*dim : (i+1)*dim])
		}
		s.placeNear()
		return append([]float64(nil), s.candidates[:raw*dim]...)
	}
	got := place(3)
	near := raw / 4
	for i := raw - near; i < raw; i++ {
		row, start := got[i*dim:(i+1)*dim], starts[(i-(raw-near))%2]
		moved := 0
		for j, v := range row {
			if d := math.Abs(v - start[j]); d > width+1e-15 || v < 0 || v > 1 {
				t.Fatalf("candidate %d component %d: %v, start %v: more than %v away or outside the cube", i, j, v, start[j], width)
			}
			if v != start[j] {
				moved++
			}
		}
		if moved == 0 || row[dim-1] != start[dim-1] {
			t.Errorf("candidate %d moved %d components, its categorical one to %v from %v", i, moved, row[dim-1], start[dim-1])
		}
	}
	again := place(3)
	for i := range got {
		if got[i] != again[i] {
			t.Fatalf("candidates differ at %d with the same seed", i)
		}
	}
}
