package bench

import (
	"math"
	"slices"
	"testing"
)

func TestNames(t *testing.T) {
	want := []string{"ackley", "branin", "double_peak", "griewank", "hartmann3", "hartmann6",
		"levy", "michalewicz", "powell", "rkhs1d", "sphere"}
	if got := Names(); !slices.Equal(got, want) {
		t.Fatalf("Names() = %v, want %v", got, want)
	}
	if _, ok := Lookup("matern"); ok {
		t.Fatal("Lookup of an unknown name succeeded")
	}
}

// TestKnownOptima evaluates every function at its recorded optimisers and
// checks the value against the literature's, and that no nearby point is
// better (within the published rounding).
func TestKnownOptima(t *testing.T) {
	tests := []struct {
		name string
		dim  int
		want float64 // the literature's value
		tol  float64 // its rounding
	}{
		{"branin", 2, 0.397887, 5e-7},
		{"hartmann3", 3, -3.86278, 5e-6},
		{"hartmann6", 6, -3.32237, 5e-6},
		{"michalewicz", 2, -1.8013, 5e-5},
		{"michalewicz", 5, -4.687658, 5e-7},
		{"michalewicz", 10, -9.66015, 5e-6},
		{"sphere", 3, 0, 0},
		{"levy", 4, 0, 1e-15},
		{"griewank", 6, 0, 0},
		{"powell", 8, 0, 0},
		{"powell", 5, 0, 0},
		{"ackley", 5, 0, 1e-15},
		{"rkhs1d", 1, 5.73839, 5e-6},
	}
	for _, tc := range tests {
		opt, ok := Known(tc.name, tc.dim)
		if !ok {
			t.Fatalf("Known(%q, %d) missing", tc.name, tc.dim)
		}
		if math.Abs(opt.F-tc.want) > tc.tol {
			t.Errorf("%s d=%d: optimum %v, literature %v", tc.name, tc.dim, opt.F, tc.want)
		}
		f, _ := Lookup(tc.name)
		sign := 1.0 // compare as a minimisation
		if opt.Maximize {
			sign = -1
		}
		for _, x := range opt.X {
			if got := f(x); math.Abs(got-opt.F) > tc.tol {
				t.Errorf("%s at %v = %v, want %v", tc.name, x, got, opt.F)
			}
			for i := range x {
				for _, delta := range []float64{-1e-3, 1e-3} {
					y := slices.Clone(x)
					y[i] += delta
					if sign*f(y) < sign*opt.F-tc.tol {
						t.Errorf("%s: %v beats the optimum (%v < %v)", tc.name, y, f(y), opt.F)
					}
				}
			}
		}
	}
}

func TestBraninHasThreeMinimisers(t *testing.T) {
	opt, _ := Known("branin", 2)
	if len(opt.X) != 3 {
		t.Fatalf("%d minimisers, want 3", len(opt.X))
	}
	for _, x := range [][]float64{{-math.Pi, 12.275}, {math.Pi, 2.275}, {9.42478, 2.475}} {
		if got := Branin(x); math.Abs(got-0.397887) > 5e-6 {
			t.Errorf("Branin(%v) = %v, want 0.397887", x, got)
		}
	}
}

func TestMichalewiczTwoDimensionalMinimiser(t *testing.T) {
	opt, _ := Known("michalewicz", 2)
	x := opt.X[0]
	if math.Abs(x[0]-2.20) > 0.005 || math.Abs(x[1]-1.57) > 0.005 {
		t.Fatalf("minimiser %v, want (2.20, 1.57)", x)
	}
}

// TestRKHS1DMaximum checks MATH.md §8's global maximum by a dense scan. The
// maximiser is 0.8923598, which MATH.md prints truncated as 0.89235.
func TestRKHS1DMaximum(t *testing.T) {
	opt, _ := Known("rkhs1d", 1)
	if !opt.Maximize || math.Abs(opt.X[0][0]-0.89235) > 2e-5 || math.Abs(opt.F-5.73839) > 5e-6 {
		t.Fatalf("maximum %v at %v, want 5.73839 at 0.89235", opt.F, opt.X[0][0])
	}
	for i := 0; i <= 200000; i++ {
		x := float64(i) / 200000
		if v := RKHS1D([]float64{x}); v > opt.F {
			t.Fatalf("RKHS1D(%v) = %v exceeds the maximum %v", x, v, opt.F)
		}
	}
}

// TestDoublePeak: exactly two peaks rise above the sinc background, the
// taller one (the global maximum, about 8.98) near 0.35 and the other near
// 0.25; the function starts at sinc(0) = 1.
func TestDoublePeak(t *testing.T) {
	const n = 100000
	var peaks []float64
	prev, cur := DoublePeak([]float64{0}), DoublePeak([]float64{1.0 / n})
	for i := 2; i <= n; i++ {
		next := DoublePeak([]float64{float64(i) / n})
		if cur > prev && cur > next && cur > 2 {
			peaks = append(peaks, float64(i-1)/n)
		}
		prev, cur = cur, next
	}
	if len(peaks) != 2 || math.Abs(peaks[0]-0.25) > 0.01 || math.Abs(peaks[1]-0.35) > 0.01 {
		t.Fatalf("peaks at %v, want near 0.25 and 0.35", peaks)
	}
	opt, _ := Known("double_peak", 1)
	if !opt.Maximize || math.Abs(opt.X[0][0]-peaks[1]) > 1e-4 || opt.F < 8.9 || opt.F > 9 {
		t.Fatalf("optimum %v at %v, want about 8.98 at the peak near 0.35", opt.F, opt.X[0][0])
	}
	if DoublePeak([]float64{peaks[0]}) >= opt.F-1 {
		t.Fatal("the peak near 0.25 is not clearly the lower one")
	}
	if got := DoublePeak([]float64{0}); math.Abs(got-1) > 1e-12 {
		t.Fatalf("DoublePeak(0) = %v, want sinc(0) = 1", got)
	}
}

func TestDimensions(t *testing.T) {
	tests := []struct {
		name string
		good []int
		bad  []int
	}{
		{"branin", []int{2}, []int{0, 1, 3}},
		{"hartmann3", []int{3}, []int{2, 6}},
		{"hartmann6", []int{6}, []int{3}},
		{"powell", []int{4, 5, 8, 12}, []int{0, 3}},
		{"sphere", []int{1, 7}, []int{0}},
		{"rkhs1d", []int{1}, []int{2}},
	}
	for _, tc := range tests {
		f, _ := Lookup(tc.name)
		for _, d := range tc.good {
			if v := f(make([]float64, d)); math.IsNaN(v) {
				t.Errorf("%s of %d inputs is NaN", tc.name, d)
			}
			if _, ok := Known(tc.name, d); !ok {
				t.Errorf("Known(%q, %d) missing", tc.name, d)
			}
			if lo, hi, ok := Domain(tc.name, d); !ok || len(lo) != d || len(hi) != d {
				t.Errorf("Domain(%q, %d) = %v, %v, %v", tc.name, d, lo, hi, ok)
			}
		}
		for _, d := range tc.bad {
			if v := f(make([]float64, d)); !math.IsNaN(v) {
				t.Errorf("%s of %d inputs = %v, want NaN", tc.name, d, v)
			}
			if _, ok := Known(tc.name, d); ok {
				t.Errorf("Known(%q, %d) succeeded", tc.name, d)
			}
		}
	}
	lo, hi, _ := Domain("branin", 2)
	if !slices.Equal(lo, []float64{-5, 0}) || !slices.Equal(hi, []float64{10, 15}) {
		t.Errorf("Branin box %v–%v", lo, hi)
	}
}

// TestKnownReturnsCopies: callers may modify what Known returns.
func TestKnownReturnsCopies(t *testing.T) {
	a, _ := Known("branin", 2)
	a.X[0][0] = 100
	b, _ := Known("branin", 2)
	if b.X[0][0] != -math.Pi {
		t.Fatal("Known shares its points between calls")
	}
}

func TestNoAllocations(t *testing.T) {
	x := []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6}
	for _, name := range Names() {
		f, _ := Lookup(name)
		d := 1
		for ; d < len(x); d++ {
			if _, _, ok := Domain(name, d); ok {
				break
			}
		}
		in := x[:d]
		if n := testing.AllocsPerRun(100, func() { f(in) }); n != 0 {
			t.Errorf("%s: %v allocations", name, n)
		}
	}
}

func BenchmarkFunctions(b *testing.B) {
	x := []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6}
	for _, tc := range []struct {
		name string
		f    func([]float64) float64
		in   []float64
	}{{"hartmann6", Hartmann6, x}, {"michalewicz", Michalewicz, x[:4]}, {"rkhs1d", RKHS1D, x[:1]}} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				tc.f(tc.in)
			}
		})
	}
}
