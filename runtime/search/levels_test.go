package search

import (
	"math"
	"runtime"
	"testing"
)

// mixedObjective is a function of one continuous component u[0] and
// categorical components with the given levels (the others): for the level
// combination k, a narrow peak of height height(k) at centre(k), with heavy
// tails so that its gradient leads to it from anywhere. It snaps the
// categorical components itself and gives them a zero gradient, as the
// emitted acquisitions do.
func mixedObjective(levels []int, height, centre func(combo int) float64) ValueGrad {
	const width = 0.02
	return func(_ int, u, grad []float64) float64 {
		combo, radix := 0, 1
		for j, l := range levels {
			if l > 0 {
				combo += radix * levelOf(u[j], l)
				radix *= l
			}
		}
		d := (u[0] - centre(combo)) / width
		v := height(combo) / (1 + d*d)
		if grad != nil {
			for j := range grad {
				grad[j] = 0
			}
			grad[0] = -2 * d / width * v / (1 + d*d)
		}
		return v
	}
}

// TestMixedLBFGSFindsTheBestCombination maximises narrow peaks, one per
// level combination, that raw candidates alone miss: enumerated, the best
// combination's own refinement climbs its peak wherever it is; beyond
// maxEnumerated, the changes of level reach the best combination from a
// refined point when the heights add up per component and the peaks share
// their place.
func TestMixedLBFGSFindsTheBestCombination(t *testing.T) {
	scattered := func(k int) float64 { return 0.1 + 0.8*math.Mod(0.618*float64(k+1), 1) }
	cases := []struct {
		name           string
		levels         []int
		height, centre func(combo int) float64
		best           int
	}{
		// 3·4 = 12 combinations, enumerated; the heights interact.
		{"enumerated", []int{0, 3, 4}, func(k int) float64 { return 1 + math.Mod(0.37*float64(k*k+1), 1) + 2*b2f(k == 7) }, scattered, 7},
		// 6·7 = 42 combinations: levels 4 and 2 are each the best of their
		// component, so single changes climb to them.
		{"moves", []int{0, 6, 7}, func(k int) float64 {
			a, b := k%6, k/6
			return 1 + 0.3*b2f(a == 4) + 0.2*b2f(b == 2) + 0.01*float64(a+b)
		}, func(int) float64 { return 0.37 }, 4 + 6*2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fg := mixedObjective(tc.levels, tc.height, tc.centre)
			s := NewMixedLBFGS(len(tc.levels), 64, 2, tc.levels)
			out := make([]float64, len(tc.levels))
			v, err := s.Maximize(fg, nil, 1, out)
			if err != nil {
				t.Fatal(err)
			}
			if got := s.combination(out); got != tc.best || math.Abs(v-tc.height(tc.best)) > 1e-6 {
				t.Fatalf("combination %d, value %v at %v; want combination %d at its peak %v", got, v, out, tc.best, tc.height(tc.best))
			}
			for j, l := range tc.levels {
				if l > 0 && out[j] != levelCoordinate(levelOf(out[j], l), l) {
					t.Errorf("component %d = %v is not the middle of a level", j, out[j])
				}
			}
		})
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func TestEnumerated(t *testing.T) {
	for _, tc := range []struct {
		levels []int
		want   int
	}{{nil, 0}, {[]int{0, 0}, 0}, {[]int{2, 0, 3}, 6}, {[]int{4, 8}, 32}, {[]int{3, 11}, 0}} {
		if got := enumerated(tc.levels); got != tc.want {
			t.Errorf("enumerated(%v) = %d, want %d", tc.levels, got, tc.want)
		}
	}
}

func TestMixedLBFGSDeterministicAndAllocatesNothing(t *testing.T) {
	levels := []int{0, 5, 5, 5, 0}
	fg := mixedObjective(levels, func(k int) float64 { return 1 + math.Mod(0.37*float64(k), 1) }, func(int) float64 { return 0.6 })
	var reference []float64
	for _, procs := range []int{1, 2} {
		prev := runtime.GOMAXPROCS(procs)
		s := NewMixedLBFGS(len(levels), 128, 4, levels)
		out := make([]float64, len(levels))
		var values []float64
		for seed := range uint64(3) {
			s.AddStart([]float64{0.5, 0.1, 0.5, 0.9, 0.5})
			v, err := s.Maximize(fg, nil, seed, out)
			if err != nil {
				t.Fatal(err)
			}
			values = append(values, v, out[0], out[1], out[2], out[3])
		}
		seed := uint64(10)
		allocs := testing.AllocsPerRun(10, func() {
			seed++
			if _, err := s.Maximize(fg, nil, seed, out); err != nil {
				t.Fatal(err)
			}
		})
		runtime.GOMAXPROCS(prev)
		if allocs != 0 {
			t.Errorf("GOMAXPROCS=%d: Maximize allocates %v times", procs, allocs)
		}
		if reference == nil {
			reference = values
			continue
		}
		for i := range values {
			if values[i] != reference[i] {
				t.Fatalf("GOMAXPROCS=%d: answers %v, with one worker %v", procs, values, reference)
			}
		}
	}
}

// TestMixedLBFGSKeepsToTheFeasibleSet: the changes of level never leave
// the feasible set, even where the best combination lies outside it.
func TestMixedLBFGSKeepsToTheFeasibleSet(t *testing.T) {
	levels := []int{0, 6, 7}
	height := func(k int) float64 { return 1 + 0.3*b2f(k%6 == 4) + 0.2*b2f(k/6 == 2) }
	fg := mixedObjective(levels, height, func(int) float64 { return 0.37 })
	// The best level of the first choice, 4, is forbidden.
	feasible := func(u []float64) bool { return levelOf(u[1], 6) != 4 }
	s := NewMixedLBFGS(len(levels), 64, 2, levels)
	out := make([]float64, len(levels))
	v, err := s.Maximize(fg, feasible, 1, out)
	if err != nil {
		t.Fatal(err)
	}
	if !feasible(out) || levelOf(out[2], 7) != 2 || math.Abs(v-1.2) > 1e-6 {
		t.Fatalf("value %v at %v; want the best feasible combination's peak 1.2, the second choice at level 2", v, out)
	}
}
