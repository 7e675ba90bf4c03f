package subset

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/bocdev/boc/runtime/gp"
)

// filled is an archive of n random points of dim components, with a grid's
// duplicates when dup (ties in every distance).
func filled(n, dim int, dup bool) *Archive {
	rng := rand.New(rand.NewPCG(3, 9))
	a := New(n, dim)
	u := make([]float64, dim)
	for i := range n {
		for j := range u {
			u[j] = rng.Float64()
			if dup {
				u[j] = float64(i%7) / 6
			}
		}
		a.Add(u, float64(i), 0.01)
	}
	return a
}

// byDistance is every index, nearest to c first, ties to the earlier.
func byDistance(a *Archive, c, ls []float64) []int {
	order := make([]int, a.Len())
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int {
		di, dj := a.distance(a.Unit(i), c, ls), a.distance(a.Unit(j), c, ls)
		switch {
		case di < dj:
			return -1
		case di > dj:
			return 1
		}
		return 0
	})
	return order
}

func TestSelect(t *testing.T) {
	tests := []struct {
		name string
		n    int
		dim  int
		size int
		ls   []float64
		dup  bool
	}{
		{"everything fits", 30, 2, 40, nil, false},
		{"exactly full", 40, 2, 40, nil, false},
		{"euclidean", 500, 3, 64, nil, false},
		{"lengthscales", 500, 3, 64, []float64{0.1, 10, 0.3}, false},
		{"ties", 300, 2, 40, nil, true},
		{"one dimension", 200, 1, 16, []float64{0.5}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := filled(tt.n, tt.dim, tt.dup)
			centre := make([]float64, tt.dim)
			for j := range centre {
				centre[j] = 0.3 + 0.1*float64(j)
			}
			out := make([]int, tt.size)
			got := a.Select(centre, tt.ls, tt.size, out)
			if want := min(tt.n, tt.size); len(got) != want {
				t.Fatalf("%d observations chosen, want %d", len(got), want)
			}
			if !slices.IsSorted(got) || len(slices.Compact(slices.Clone(got))) != len(got) {
				t.Fatalf("not increasing and distinct: %v", got)
			}
			lo, hi := make([]float64, tt.dim), make([]float64, tt.dim)
			if boxed := a.Box(lo, hi); boxed != (tt.n > tt.size) {
				t.Fatalf("Box reports %v with %d observations for %d", boxed, tt.n, tt.size)
			}
			if tt.n <= tt.size {
				return
			}
			spread, recent := int(SpreadFraction*float64(tt.size)), int(RecentFraction*float64(tt.size))
			for i := tt.n - recent; i < tt.n; i++ {
				if !slices.Contains(got, i) {
					t.Errorf("observation %d is among the %d latest but not chosen", i, recent)
				}
			}
			order := slices.DeleteFunc(byDistance(a, centre, tt.ls), func(i int) bool { return i >= tt.n-recent })
			near := tt.size - spread - recent
			wantLo, wantHi := slices.Clone(centre), slices.Clone(centre)
			for _, i := range order[:near] {
				if !slices.Contains(got, i) {
					t.Errorf("observation %d is among the %d nearest but not chosen", i, near)
				}
				for j, v := range a.Unit(i) {
					wantLo[j], wantHi[j] = min(wantLo[j], v), max(wantHi[j], v)
				}
			}
			if !slices.Equal(lo, wantLo) || !slices.Equal(hi, wantHi) {
				t.Errorf("box [%v, %v], want the nearest part's and the centre's [%v, %v]", lo, hi, wantLo, wantHi)
			}
			// The first spread point is the farthest of all from the centre.
			if far := order[len(order)-1]; spread > 0 && !tt.dup && !slices.Contains(got, far) {
				t.Errorf("the farthest observation %d is not chosen", far)
			}
			again := a.Select(centre, tt.ls, tt.size, make([]int, tt.size))
			if !slices.Equal(got, again) {
				t.Errorf("a second selection differs: %v, then %v", got, again)
			}
			if allocs := testing.AllocsPerRun(3, func() { a.Select(centre, tt.ls, tt.size, out) }); allocs != 0 {
				t.Errorf("Select allocates %v times", allocs)
			}
		})
	}
}

// TestSelectIgnoresLongLengthscales: a component whose lengthscale is huge
// does not decide who is near.
func TestSelectIgnoresLongLengthscales(t *testing.T) {
	a := New(4, 2)
	a.Add([]float64{0.5, 0.9}, 0, 0) // near in the first component, far in the ignored second
	a.Add([]float64{0.9, 0.5}, 0, 0)
	a.Add([]float64{0.55, 0.0}, 0, 0)
	a.Add([]float64{0.0, 0.5}, 0, 0)
	// size 2 spreads and keeps nothing (⌊0.25·2⌋ = 0): the two nearest are taken.
	got := a.Select([]float64{0.5, 0.5}, []float64{0.1, 1e6}, 2, make([]int, 2))
	if want := []int{0, 2}; !slices.Equal(got, want) {
		t.Errorf("chose %v, want %v", got, want)
	}
	got = a.Select([]float64{0.5, 0.5}, nil, 2, make([]int, 2))
	if want := []int{0, 1}; !slices.Equal(got, want) {
		t.Errorf("without lengthscales chose %v, want %v", got, want)
	}
}

func TestArchive(t *testing.T) {
	a := New(2, 3)
	if mean, sd := a.Standardisation(gp.Average); mean != 0 || sd != 1 {
		t.Errorf("empty archive's standardisation %v, %v; want 0, 1", mean, sd)
	}
	a.Add([]float64{0.1, 0.2, 0.3}, 4, 0.5)
	if a.Len() != 1 || a.Y(0) != 4 || a.Noise(0) != 0.5 || !slices.Equal(a.Unit(0), []float64{0.1, 0.2, 0.3}) {
		t.Errorf("archive holds %v %v %v", a.Unit(0), a.Y(0), a.Noise(0))
	}
	a.Add([]float64{0, 0, 0}, 1, 0)
	for _, c := range []struct {
		mean  gp.PriorMean
		shift float64
	}{{gp.Average, 2.5}, {gp.Least, 1}, {gp.Greatest, 4}} {
		if shift, sd := a.Standardisation(c.mean); shift != c.shift || sd != 1.5 {
			t.Errorf("standardisation under prior mean %d: %v, %v; want %v, 1.5", c.mean, shift, sd, c.shift)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("Add to a full archive did not panic")
		}
	}()
	a.Add([]float64{0, 0, 0}, 1, 0)
}

func BenchmarkSelect(b *testing.B) {
	a := filled(10000, 4, false)
	centre, ls := []float64{0.3, 0.4, 0.5, 0.6}, []float64{0.2, 0.3, 0.4, 0.5}
	out := make([]int, 256)
	b.ReportAllocs()
	for b.Loop() {
		a.Select(centre, ls, 256, out)
	}
}
