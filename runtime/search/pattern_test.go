package search

import (
	"errors"
	"math"
	"testing"

	"github.com/bocdev/boc/runtime/bench"
)

// braninUnit is −Branin on the unit square mapped to its usual box, so its
// three maximisers are the unit images of Branin's minimisers.
func braninUnit(u []float64) float64 {
	x := [2]float64{-5 + 15*u[0], 15 * u[1]}
	return -bench.Branin(x[:])
}

func braninUnitMaximisers() [][]float64 {
	opt, _ := bench.Known("branin", 2)
	var us [][]float64
	for _, x := range opt.X {
		us = append(us, []float64{(x[0] + 5) / 15, x[1] / 15})
	}
	return us
}

// quadratic returns a concave quadratic with unequal curvatures and its
// maximiser, off-centre.
func quadratic(dim int) (func([]float64) float64, []float64) {
	centre := make([]float64, dim)
	weights := make([]float64, dim)
	for j := range centre {
		centre[j] = 0.2 + 0.6*math.Mod(0.37*float64(j+1), 1)
		weights[j] = 1 + 4*math.Mod(0.61*float64(j+1), 1)
	}
	return func(u []float64) float64 {
		s := 0.0
		for j, c := range centre {
			d := u[j] - c
			s -= weights[j] * d * d
		}
		return s
	}, centre
}

func distance(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += (a[i] - b[i]) * (a[i] - b[i])
	}
	return math.Sqrt(s)
}

func TestFindsSmoothOptima(t *testing.T) {
	tests := []struct {
		name      string
		dim       int
		f         func([]float64) float64
		optima    [][]float64
		raw       int
		restarts  int
		tolerance float64
	}{
		{"quadratic d=1", 1, nil, nil, 64, 2, 1e-4},
		{"quadratic d=3", 3, nil, nil, 256, 3, 1e-4},
		{"quadratic d=6", 6, nil, nil, 512, 4, 1e-4},
		{"branin", 2, braninUnit, braninUnitMaximisers(), 512, 4, 1e-4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, optima := tc.f, tc.optima
			if f == nil {
				q, centre := quadratic(tc.dim)
				f, optima = q, [][]float64{centre}
			}
			p := NewPattern(tc.dim, tc.raw, tc.restarts)
			out := make([]float64, tc.dim)
			for seed := range uint64(3) {
				value, err := p.Maximize(f, nil, seed, out)
				if err != nil {
					t.Fatal(err)
				}
				nearest := math.Inf(1)
				for _, opt := range optima {
					nearest = min(nearest, distance(out, opt))
				}
				if nearest > tc.tolerance || value != f(out) {
					t.Fatalf("seed %d: found %v (f = %v), %.2g from the nearest optimum", seed, out, value, nearest)
				}
			}
		})
	}
}

// TestRespectsFeasibility: with the feasible set a disk, f is never called
// outside it, the answer lies inside it and is close to the constrained
// maximiser on the boundary.
func TestRespectsFeasibility(t *testing.T) {
	const radius = 0.3
	inDisk := func(u []float64) bool {
		return (u[0]-0.5)*(u[0]-0.5)+(u[1]-0.5)*(u[1]-0.5) <= radius*radius
	}
	outside := 0
	f := func(u []float64) float64 {
		if !inDisk(u) {
			outside++
		}
		return u[0] + u[1]
	}
	p := NewPattern(2, 1024, 4)
	out := make([]float64, 2)
	value, err := p.Maximize(f, inDisk, 5, out)
	if err != nil {
		t.Fatal(err)
	}
	if outside > 0 || !inDisk(out) {
		t.Fatalf("%d evaluations outside the disk; answer %v", outside, out)
	}
	best := 1 + 2*radius/math.Sqrt2
	if value > best || best-value > 0.01 {
		t.Fatalf("value %v, constrained maximum %v", value, best)
	}
}

func TestNoFeasiblePoint(t *testing.T) {
	p := NewPattern(2, 64, 2)
	out := []float64{0.25, 0.75}
	called := false
	_, err := p.Maximize(func([]float64) float64 { called = true; return 0 },
		func([]float64) bool { return false }, 1, out)
	if !errors.Is(err, ErrNoFeasible) || called || out[0] != 0.25 || out[1] != 0.75 {
		t.Fatalf("err %v, f called %v, out %v", err, called, out)
	}
	// NaN values are skipped like infeasible points.
	if _, err := p.Maximize(func([]float64) float64 { return math.NaN() }, nil, 1, out); !errors.Is(err, ErrNoFeasible) {
		t.Fatalf("all-NaN objective: %v", err)
	}
}

// TestAddStart: a start on a needle that no Sobol candidate comes near is
// refined to the needle's tip; it is used for one call only.
func TestAddStart(t *testing.T) {
	tip := []float64{0.123456, 0.654321}
	needle := func(u []float64) float64 {
		return math.Exp(-distance(u, tip) * distance(u, tip) / (2 * 1e-6))
	}
	p := NewPattern(2, 16, 2)
	out := make([]float64, 2)
	p.AddStart([]float64{0.1236, 0.6542})
	for range 5 { // beyond restarts: ignored
		p.AddStart([]float64{0.9, 0.9})
	}
	if _, err := p.Maximize(needle, nil, 1, out); err != nil {
		t.Fatal(err)
	}
	if distance(out, tip) > 1e-4 {
		t.Fatalf("refined the start to %v, tip at %v", out, tip)
	}
	if _, err := p.Maximize(needle, nil, 1, out); err != nil {
		t.Fatal(err)
	}
	if distance(out, tip) < 1e-2 {
		t.Fatal("the start was reused by a later call")
	}
}

// TestDeterministic: a call is a function of its arguments: two searchers,
// or one called twice, agree on the same seed, while different seeds score
// different candidates.
func TestDeterministic(t *testing.T) {
	var first [][2]float64
	record := func(u []float64) float64 {
		if len(first) < 4 {
			first = append(first, [2]float64{u[0], u[1]})
		}
		return braninUnit(u)
	}
	a, b := NewPattern(2, 128, 3), NewPattern(2, 128, 3)
	outA, outB := make([]float64, 2), make([]float64, 2)
	var previous [][2]float64
	for call := range 3 {
		seed := uint64(42 + call)
		first = nil
		va, _ := a.Maximize(record, nil, seed, outA)
		scored := first
		vb, _ := b.Maximize(braninUnit, nil, seed, outB)
		if va != vb || outA[0] != outB[0] || outA[1] != outB[1] {
			t.Fatalf("call %d: %v at %v vs %v at %v", call, va, outA, vb, outB)
		}
		again, _ := a.Maximize(braninUnit, nil, seed, outB)
		if again != va || outA[0] != outB[0] || outA[1] != outB[1] {
			t.Fatalf("call %d again: %v at %v, first %v at %v", call, again, outB, va, outA)
		}
		if previous != nil && scored[0] == previous[0] {
			t.Fatalf("seed %d scored the same first candidate %v as the previous seed", seed, scored[0])
		}
		previous = scored
	}
}

func TestNoAllocations(t *testing.T) {
	p := NewPattern(4, 256, 4)
	f, _ := quadratic(4)
	feasible := func(u []float64) bool { return u[0] <= 0.9 }
	out := make([]float64, 4)
	start := []float64{0.5, 0.5, 0.5, 0.5}
	n := testing.AllocsPerRun(10, func() {
		p.AddStart(start)
		if _, err := p.Maximize(f, feasible, 3, out); err != nil {
			t.Fatal(err)
		}
	})
	if n != 0 {
		t.Errorf("%v allocations per Maximize", n)
	}
}

func BenchmarkMaximize(b *testing.B) {
	for _, dim := range []int{2, 6} {
		f, _ := quadratic(dim)
		p := NewPattern(dim, 1024, 4)
		out := make([]float64, dim)
		b.Run(map[int]string{2: "d=2", 6: "d=6"}[dim], func(b *testing.B) {
			evals := 0
			counted := func(u []float64) float64 { evals++; return f(u) }
			b.ReportAllocs()
			for b.Loop() {
				if _, err := p.Maximize(counted, nil, 1, out); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(evals)/float64(b.N), "evals/op")
		})
	}
}
