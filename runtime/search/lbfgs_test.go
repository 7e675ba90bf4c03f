package search

import (
	"errors"
	"math"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/bocdev/boc/runtime/bench"
	"github.com/bocdev/boc/runtime/design"
	"github.com/bocdev/boc/runtime/gp"
)

// braninUnitGrad is braninUnit with its gradient (nil grad: value only).
func braninUnitGrad(_ int, u, grad []float64) float64 {
	const (
		b = 5.1 / (4 * math.Pi * math.Pi)
		c = 5 / math.Pi
		r = 6
		s = 10
		t = 1 / (8 * math.Pi)
	)
	x1, x2 := -5+15*u[0], 15*u[1]
	h := x2 - b*x1*x1 + c*x1 - r
	if grad != nil {
		// −Branin, and the chain rule through x = (−5 + 15u₀, 15u₁).
		grad[0] = -15 * (2*h*(-2*b*x1+c) - s*(1-t)*math.Sin(x1))
		grad[1] = -15 * 2 * h
	}
	return braninUnit(u)
}

// withGradient wraps quadratic with its analytic gradient.
func withGradient(dim int) (ValueGrad, []float64) {
	f, centre := quadratic(dim)
	return func(_ int, u, grad []float64) float64 {
		if grad != nil {
			for j, c := range centre {
				weight := 1 + 4*math.Mod(0.61*float64(j+1), 1)
				grad[j] = -2 * weight * (u[j] - c)
			}
		}
		return f(u)
	}, centre
}

func TestBraninGradient(t *testing.T) {
	u := []float64{0.3, 0.6}
	grad := make([]float64, 2)
	braninUnitGrad(0, u, grad)
	const h = 1e-6
	for j := range u {
		up, um := append([]float64(nil), u...), append([]float64(nil), u...)
		up[j] += h
		um[j] -= h
		fd := (braninUnit(up) - braninUnit(um)) / (2 * h)
		if math.Abs(fd-grad[j]) > 1e-5*max(1, math.Abs(fd)) {
			t.Fatalf("∂/∂u%d = %v, finite differences %v", j, grad[j], fd)
		}
	}
}

func TestLBFGSFindsSmoothOptima(t *testing.T) {
	tests := []struct {
		name     string
		dim      int
		fg       ValueGrad
		optima   [][]float64
		raw      int
		restarts int
	}{
		{"quadratic d=1", 1, nil, nil, 64, 2},
		{"quadratic d=3", 3, nil, nil, 256, 3},
		{"quadratic d=6", 6, nil, nil, 512, 4},
		{"branin", 2, braninUnitGrad, braninUnitMaximisers(), 256, 4},
		{"branin without raw candidates", 2, braninUnitGrad, braninUnitMaximisers(), 0, 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fg, optima := tc.fg, tc.optima
			if fg == nil {
				q, centre := withGradient(tc.dim)
				fg, optima = q, [][]float64{centre}
			}
			s := NewLBFGS(tc.dim, tc.raw, tc.restarts)
			out := make([]float64, tc.dim)
			for seed := range uint64(3) {
				if tc.raw == 0 {
					start := []float64{0.5, 0.5}
					s.AddStart(start)
				}
				value, err := s.Maximize(fg, nil, seed, out)
				if err != nil {
					t.Fatal(err)
				}
				nearest := math.Inf(1)
				for _, opt := range optima {
					nearest = min(nearest, distance(out, opt))
				}
				if nearest > 1e-5 || value != fg(0, out, nil) {
					t.Fatalf("seed %d: found %v (value %v), %.2g from the nearest optimum", seed, out, value, nearest)
				}
			}
		})
	}
}

// TestLBFGSRespectsFeasibility: with the feasible set a disk, the answer lies
// inside it, close to the constrained maximiser on the boundary, and the
// candidates scored are all feasible.
func TestLBFGSRespectsFeasibility(t *testing.T) {
	const radius = 0.3
	inDisk := func(u []float64) bool {
		return (u[0]-0.5)*(u[0]-0.5)+(u[1]-0.5)*(u[1]-0.5) <= radius*radius
	}
	var scoredOutside atomic.Int64
	fg := func(_ int, u, grad []float64) float64 {
		if grad == nil && !inDisk(u) {
			scoredOutside.Add(1)
		}
		if grad != nil {
			grad[0], grad[1] = 1, 1
		}
		return u[0] + u[1]
	}
	s := NewLBFGS(2, 1024, 4)
	out := make([]float64, 2)
	value, err := s.Maximize(fg, inDisk, 5, out)
	if err != nil {
		t.Fatal(err)
	}
	if !inDisk(out) {
		t.Fatalf("answer %v outside the disk", out)
	}
	// Pulling back along the segment lands on the boundary near, not at,
	// the tangent point; pattern search gets within 1e-2.
	want := 1 + 2*radius/math.Sqrt2
	if value > want || want-value > 1e-4 {
		t.Fatalf("value %v at %v, want the constrained maximum %v", value, out, want)
	}
	if n := scoredOutside.Load(); n > 0 {
		t.Fatalf("%d value-only evaluations outside the disk", n)
	}
}

func TestLBFGSNoFeasiblePoint(t *testing.T) {
	s := NewLBFGS(2, 64, 2)
	out := []float64{0.25, 0.75}
	for _, tc := range []struct {
		name     string
		fg       ValueGrad
		feasible func([]float64) bool
	}{
		{"infeasible", braninUnitGrad, func([]float64) bool { return false }},
		{"NaN everywhere", func(int, []float64, []float64) float64 { return math.NaN() }, nil},
	} {
		if _, err := s.Maximize(tc.fg, tc.feasible, 1, out); !errors.Is(err, ErrNoFeasible) {
			t.Errorf("%s: err = %v, want ErrNoFeasible", tc.name, err)
		}
		if _, _, err := s.MaximizeFinite(tc.fg, tc.feasible, []float64{0.1, 0.2, 0.3, 0.4}); !errors.Is(err, ErrNoFeasible) {
			t.Errorf("%s (finite): err = %v, want ErrNoFeasible", tc.name, err)
		}
		f := func(u []float64) float64 { return tc.fg(0, u, nil) }
		if _, _, err := NewPattern(2, 1, 1).MaximizeFinite(f, tc.feasible, []float64{0.1, 0.2, 0.3, 0.4}); !errors.Is(err, ErrNoFeasible) {
			t.Errorf("%s (pattern, finite): err = %v, want ErrNoFeasible", tc.name, err)
		}
		if out[0] != 0.25 || out[1] != 0.75 {
			t.Fatalf("%s: out changed to %v", tc.name, out)
		}
	}
}

func TestMaximizeFinite(t *testing.T) {
	// 100 points on a grid; the value peaks at (0.3, 0.7), and two points
	// tie for the best value after rounding to a coarse level.
	var points []float64
	for i := range 10 {
		for j := range 10 {
			points = append(points, float64(i)/9, float64(j)/9)
		}
	}
	smooth := func(_ int, u, _ []float64) float64 {
		return -((u[0]-0.3)*(u[0]-0.3) + (u[1]-0.7)*(u[1]-0.7))
	}
	level := func(_ int, u, _ []float64) float64 { return math.Floor(4 * u[0]) }
	tests := []struct {
		name     string
		fg       ValueGrad
		feasible func([]float64) bool
		want     []float64
	}{
		{"nearest grid point", smooth, nil, []float64{3.0 / 9, 6.0 / 9}},
		{"ties go to the first point", level, nil, []float64{1, 0}},
		{"constraint", smooth, func(u []float64) bool { return u[1] < 0.5 }, []float64{3.0 / 9, 4.0 / 9}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, procs := range []int{1, 2, 4} {
				prev := runtime.GOMAXPROCS(procs)
				s := NewLBFGS(2, 0, 4)
				runtime.GOMAXPROCS(prev)
				i, value, err := s.MaximizeFinite(tc.fg, tc.feasible, points)
				if err != nil {
					t.Fatal(err)
				}
				out := points[2*i : 2*i+2]
				if distance(out, tc.want) > 1e-12 || value != tc.fg(0, out, nil) {
					t.Fatalf("GOMAXPROCS=%d: %v (value %v), want %v", procs, out, value, tc.want)
				}
			}
			// Pattern's sequential version agrees.
			f := func(u []float64) float64 { return tc.fg(0, u, nil) }
			i, _, err := NewPattern(2, 0, 1).MaximizeFinite(f, tc.feasible, points)
			if err != nil || distance(points[2*i:2*i+2], tc.want) > 1e-12 {
				t.Fatalf("Pattern: point %d, %v; want %v", i, err, tc.want)
			}
		})
	}
}

// TestLBFGSDeterministicAcrossWorkers: the same seed gives bit-identical
// answers whatever the number of workers, and each worker index is in range.
func TestLBFGSDeterministicAcrossWorkers(t *testing.T) {
	const dim = 4
	// A multimodal function, so that restarts end in different optima and
	// the reduction order matters.
	fg := func(_ int, u, grad []float64) float64 {
		v := 0.0
		for j := range u {
			v += math.Sin(7*u[j]+float64(j)) - 0.5*u[j]*u[j]
			if grad != nil {
				grad[j] = 7*math.Cos(7*u[j]+float64(j)) - u[j]
			}
		}
		return v
	}
	type answer struct {
		u     [dim]float64
		value float64
	}
	var reference []answer
	for _, procs := range []int{1, 2, 4} {
		prev := runtime.GOMAXPROCS(procs)
		s := NewLBFGS(dim, 128, 8)
		runtime.GOMAXPROCS(prev)
		if want := min(procs, 8); s.Workers() != want {
			t.Fatalf("GOMAXPROCS=%d: %d workers, want %d", procs, s.Workers(), want)
		}
		var badWorker atomic.Bool
		checked := func(w int, u, grad []float64) float64 {
			if w < 0 || w >= s.Workers() {
				badWorker.Store(true)
			}
			return fg(w, u, grad)
		}
		var answers []answer
		for seed := range uint64(4) {
			var a answer
			s.AddStart([]float64{0.1, 0.9, 0.5, 0.5})
			v, err := s.Maximize(checked, nil, seed, a.u[:])
			if err != nil {
				t.Fatal(err)
			}
			a.value = v
			answers = append(answers, a)
		}
		if badWorker.Load() {
			t.Fatalf("GOMAXPROCS=%d: worker index out of range", procs)
		}
		if reference == nil {
			reference = answers
			continue
		}
		for i := range answers {
			if answers[i] != reference[i] {
				t.Fatalf("GOMAXPROCS=%d, call %d: %+v, with one worker %+v", procs, i, answers[i], reference[i])
			}
		}
	}
}

func TestLBFGSAllocatesNothing(t *testing.T) {
	prev := runtime.GOMAXPROCS(2)
	defer runtime.GOMAXPROCS(prev)
	s := NewLBFGS(2, 256, 4)
	out := make([]float64, 2)
	points := []float64{0.1, 0.2, 0.5, 0.5, 0.9, 0.1}
	feasible := func(u []float64) bool { return u[0] < 0.95 }
	seed := uint64(0)
	allocs := testing.AllocsPerRun(20, func() {
		seed++
		s.AddStart(out)
		if _, err := s.Maximize(braninUnitGrad, feasible, seed, out); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.MaximizeFinite(braninUnitGrad, feasible, points); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per call", allocs)
	}
}

// BenchmarkLBFGS compares the searches on Branin at their default sizes.
func BenchmarkLBFGS(b *testing.B) {
	out := make([]float64, 2)
	b.Run("lbfgs", func(b *testing.B) {
		s := NewLBFGS(2, 1024, 4)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := s.Maximize(braninUnitGrad, nil, 1, out); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("pattern", func(b *testing.B) {
		p := NewPattern(2, 1024, 4)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := p.Maximize(braninUnit, nil, 1, out); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// gpUCB is an acquisition surface like the ones emitted optimisers search:
// mean + 2·sd of a GP with a squared-exponential kernel fitted to Hartmann6
// at Sobol points, with per-worker kernel buffers.
type gpUCB struct {
	model       *gp.GP
	points      [][]float64
	lengthscale float64
	kvec, dk    [][]float64 // per worker
	work        [][]float64
	dmean, dvar [][]float64
}

func newGPUCB(t testing.TB, n, workers int) *gpUCB {
	const dim = 6
	a := &gpUCB{model: gp.New(n), lengthscale: 0.3}
	x := make([]float64, n*dim)
	if err := design.SobolDesign(n, dim, 7, x); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		p := x[i*dim : (i+1)*dim]
		kvec := make([]float64, i)
		for l := range kvec {
			kvec[l] = a.kernel(p, a.points[l])
		}
		if err := a.model.Add(kvec, 1, -bench.Hartmann6(p), 1e-6); err != nil {
			t.Fatal(err)
		}
		a.points = append(a.points, p)
	}
	for range workers {
		a.kvec = append(a.kvec, make([]float64, n))
		a.dk = append(a.dk, make([]float64, n*dim))
		a.work = append(a.work, make([]float64, n))
		a.dmean = append(a.dmean, make([]float64, dim))
		a.dvar = append(a.dvar, make([]float64, dim))
	}
	return a
}

func (a *gpUCB) kernel(u, v []float64) float64 {
	r2 := 0.0
	for j := range u {
		d := (u[j] - v[j]) / a.lengthscale
		r2 += d * d
	}
	return math.Exp(-0.5 * r2)
}

// value is the UCB for Pattern.
func (a *gpUCB) value(u []float64) float64 { return a.valueGrad(0, u, nil) }

func (a *gpUCB) valueGrad(w int, u, grad []float64) float64 {
	kvec, dk, dim := a.kvec[w], a.dk[w], len(u)
	for i, p := range a.points {
		kvec[i] = a.kernel(u, p)
		for j := range dim {
			dk[i*dim+j] = -kvec[i] * (u[j] - p[j]) / (a.lengthscale * a.lengthscale)
		}
	}
	if grad == nil {
		mean, variance := a.model.Predict(kvec, 1)
		return mean + 2*math.Sqrt(variance)
	}
	mean, variance := a.model.PredictGrad(kvec, dk, 1, nil, a.work[w], a.dmean[w], a.dvar[w])
	sd := math.Sqrt(variance)
	for j := range grad {
		grad[j] = a.dmean[w][j]
		if sd > 0 {
			grad[j] += a.dvar[w][j] / sd // d(2·sd) = 2·dvar/(2·sd)
		}
	}
	return mean + 2*sd
}

// TestLBFGSAtLeastAsGoodAsPattern: on GP acquisition surfaces, the gradient
// search with the same candidates finds a value at least as high as the
// compass search on every call.
func TestLBFGSAtLeastAsGoodAsPattern(t *testing.T) {
	s, p := NewLBFGS(6, 512, 4), NewPattern(6, 512, 4)
	a := newGPUCB(t, 40, s.Workers())
	out := make([]float64, 6)
	for seed := range uint64(5) {
		vs, err := s.Maximize(a.valueGrad, nil, seed, out)
		if err != nil {
			t.Fatal(err)
		}
		vp, err := p.Maximize(a.value, nil, seed, out)
		if err != nil {
			t.Fatal(err)
		}
		if vs < vp-1e-9*math.Abs(vp) {
			t.Errorf("seed %d: lbfgs %v < pattern %v", seed, vs, vp)
		}
	}
}

// BenchmarkGPAcquisition compares the searches on a GP acquisition surface
// of 200 observations in six dimensions.
func BenchmarkGPAcquisition(b *testing.B) {
	out := make([]float64, 6)
	b.Run("lbfgs", func(b *testing.B) {
		s := NewLBFGS(6, 1024, 4)
		a := newGPUCB(b, 200, s.Workers())
		fg := a.valueGrad // a method value allocates where it is made
		b.ReportAllocs()
		for b.Loop() {
			if _, err := s.Maximize(fg, nil, 1, out); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("pattern", func(b *testing.B) {
		p := NewPattern(6, 1024, 4)
		a := newGPUCB(b, 200, 1)
		f := a.value
		b.ReportAllocs()
		for b.Loop() {
			if _, err := p.Maximize(f, nil, 1, out); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestMaximizeBatch: scoring the raw candidates in batches that give fg's
// values finds what Maximize finds, bit for bit, on any number of workers;
// the batches are at most BatchSize candidates, all feasible, and the
// search allocates nothing.
func TestMaximizeBatch(t *testing.T) {
	feasible := func(u []float64) bool { return u[0] < 0.9 }
	var tooLarge, infeasible atomic.Int64
	batch := func(worker int, us, values []float64) {
		if len(values) > BatchSize || len(us) != 2*len(values) {
			tooLarge.Add(1)
		}
		for k := range values {
			u := us[2*k : 2*k+2]
			if !feasible(u) {
				infeasible.Add(1)
			}
			values[k] = braninUnitGrad(worker, u, nil)
		}
	}
	for _, procs := range []int{1, 2} {
		prev := runtime.GOMAXPROCS(procs)
		want, got := make([]float64, 2), make([]float64, 2)
		s := NewLBFGS(2, 300, 4)
		s.AddStart([]float64{0.2, 0.3})
		wantValue, err := s.Maximize(braninUnitGrad, feasible, 7, want)
		if err != nil {
			t.Fatal(err)
		}
		s.AddStart([]float64{0.2, 0.3})
		gotValue, err := s.MaximizeBatch(braninUnitGrad, batch, feasible, 7, got)
		if err != nil {
			t.Fatal(err)
		}
		if gotValue != wantValue || got[0] != want[0] || got[1] != want[1] {
			t.Errorf("GOMAXPROCS %d: batches found %v at %v, Maximize %v at %v", procs, gotValue, got, wantValue, want)
		}
		seed := uint64(7)
		if allocs := testing.AllocsPerRun(5, func() {
			seed++
			if _, err := s.MaximizeBatch(braninUnitGrad, batch, feasible, seed, got); err != nil {
				t.Fatal(err)
			}
		}); allocs != 0 {
			t.Errorf("GOMAXPROCS %d: %v allocations per batched search", procs, allocs)
		}
		runtime.GOMAXPROCS(prev)
	}
	if tooLarge.Load() > 0 || infeasible.Load() > 0 {
		t.Errorf("%d batches larger than BatchSize, %d infeasible candidates scored", tooLarge.Load(), infeasible.Load())
	}
}
