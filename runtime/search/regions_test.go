package search

import (
	"math"
	"testing"
)

// TestOneRegionIsTuRBO1: with m = 1 every observation goes to the one
// region, which resizes, recentres and restarts as a lone TrustRegion told
// the same values, and its search finds what the search confined to that
// region's box finds.
func TestOneRegionIsTuRBO1(t *testing.T) {
	const dim = 3
	rs := NewRegions(1, dim, 0.8, 0.1, 1.6, 2, 3)
	lone := NewTrustRegion(0.8, 0.1, 1.6, 2, 3)
	scales := []float64{0.2, 0.4, 0.8}
	u := make([]float64, dim)
	for i, y := range []float64{1, 2, 3, 3, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 5} {
		for j := range u {
			u[j] = math.Mod(0.37*float64(i+1)*float64(j+2), 1)
		}
		if k := rs.Tell(i, u, y, scales); k != 0 {
			t.Fatalf("observation %d went to region %d of 1", i, k)
		}
		lone.Tell(i, y)
		r := rs.Region(0)
		if r.Centre() != lone.Centre() || r.Length() != lone.Length() || r.Restarts() != lone.Restarts() {
			t.Fatalf("after observation %d: centre %d length %v restarts %d; alone %d %v %d",
				i, r.Centre(), r.Length(), r.Restarts(), lone.Centre(), lone.Length(), lone.Restarts())
		}
	}
	if rs.Restarts() == 0 || rs.Centre() != lone.Centre() {
		t.Fatalf("restarts %d, centre %d: the sequence was meant to collapse the region and recentre it on %d", rs.Restarts(), rs.Centre(), lone.Centre())
	}

	fg, _ := withGradient(dim)
	s := NewLBFGS(dim, 64, 2)
	got := make([]float64, dim)
	vRegions, err := rs.MaximizeBatch(s, scales, fg, nil, nil, 7, got)
	if err != nil {
		t.Fatal(err)
	}
	lo, hi, whole := rs.Box(0)
	if whole {
		t.Fatal("a region with a centre searched the whole cube")
	}
	want := make([]float64, dim)
	s.SetBox(lo, hi, u)
	vAlone, err := s.MaximizeBatch(fg, nil, nil, 7, want)
	if err != nil {
		t.Fatal(err)
	}
	if vRegions != vAlone || distance(got, want) != 0 {
		t.Fatalf("the region's search found %v (%v), the box's %v (%v)", got, vRegions, want, vAlone)
	}
}

// TestRegionsOwnTheirObservations: the first observations centre the
// regions that have none; a later one goes to the region whose box holds it
// (most centrally where boxes overlap), and changes only that region.
func TestRegionsOwnTheirObservations(t *testing.T) {
	rs := NewRegions(3, 2, 0.4, 0.01, 1.6, 3, 2)
	tells := []struct {
		u     []float64
		y     float64
		owner int
	}{
		{[]float64{0.2, 0.2}, 1, 0},    // no region has a centre: the first
		{[]float64{0.3, 0.25}, 2, 0},   // inside region 0's box [0, 0.4]²: its new centre
		{[]float64{0.8, 0.8}, 0, 1},    // outside it: the next free region
		{[]float64{0.75, 0.85}, -1, 1}, // near region 1's centre: a failure there
		{[]float64{0.2, 0.9}, 5, 2},    // no box holds it: the last free region
		{[]float64{0.5, 0.5}, 0, 0},    // every region has a centre: the nearest box, region 0's
		{[]float64{0.72, 0.8}, 0, 1},   // region 1: its second failure in a row halves it
	}
	for i, tc := range tells {
		if k := rs.Tell(i, tc.u, tc.y, nil); k != tc.owner {
			t.Fatalf("observation %d at %v went to region %d, want %d", i, tc.u, k, tc.owner)
		}
	}
	for k, want := range []struct {
		centre int
		length float64
	}{{1, 0.4}, {2, 0.2}, {4, 0.4}} {
		if r := rs.Region(k); r.Centre() != want.centre || r.Length() != want.length {
			t.Errorf("region %d: centre %d length %v, want %d and %v", k, r.Centre(), r.Length(), want.centre, want.length)
		}
	}
	if rs.Centre() != 4 {
		t.Errorf("the leading region is centred on %d, want 4 (value 5)", rs.Centre())
	}
}

// TestRegionsSearchEveryBox: of two regions around two peaks, the search
// returns the higher peak's maximiser, found in its region's box; a region
// whose box holds no feasible point is passed over.
func TestRegionsSearchEveryBox(t *testing.T) {
	peaks := [][]float64{{0.2, 0.3}, {0.75, 0.7}}
	heights := []float64{1, 2}
	fg := func(_ int, u, grad []float64) float64 {
		v := 0.0
		if grad != nil {
			grad[0], grad[1] = 0, 0
		}
		for p, c := range peaks {
			dx, dy := u[0]-c[0], u[1]-c[1]
			e := heights[p] * math.Exp(-(dx*dx+dy*dy)/0.005)
			v += e
			if grad != nil {
				grad[0] -= e * 2 * dx / 0.005
				grad[1] -= e * 2 * dy / 0.005
			}
		}
		return v
	}
	rs := NewRegions(2, 2, 0.3, 0.01, 1.6, 3, 4)
	rs.Tell(0, []float64{0.25, 0.3}, 1, nil)
	rs.Tell(1, []float64{0.7, 0.7}, 0.5, nil)
	s := NewLBFGS(2, 32, 2)
	out := make([]float64, 2)
	v, err := rs.MaximizeBatch(s, nil, fg, nil, nil, 3, out)
	if err != nil {
		t.Fatal(err)
	}
	if distance(out, peaks[1]) > 1e-4 || math.Abs(v-2) > 1e-6 {
		t.Fatalf("found %v (value %v), want the higher peak %v", out, v, peaks[1])
	}
	// Only region 0's box holds feasible points: its peak.
	left := func(u []float64) bool { return u[0] < 0.5 }
	if v, err = rs.MaximizeBatch(s, nil, fg, nil, left, 3, out); err != nil {
		t.Fatal(err)
	}
	if distance(out, peaks[0]) > 1e-3 || math.Abs(v-1) > 1e-3 {
		t.Fatalf("with region 1 infeasible: found %v (value %v), want the lower peak %v", out, v, peaks[0])
	}
	nowhere := func([]float64) bool { return false }
	if _, err = rs.MaximizeBatch(s, nil, fg, nil, nowhere, 3, out); err != ErrNoFeasible {
		t.Fatalf("with no feasible point: %v, want ErrNoFeasible", err)
	}
	allocs := testing.AllocsPerRun(5, func() {
		rs.Tell(2, out, 0, nil)
		if _, err := rs.MaximizeBatch(s, nil, fg, nil, nil, 3, out); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("Tell and MaximizeBatch allocate %v times", allocs)
	}
}
