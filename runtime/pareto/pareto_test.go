package pareto

import (
	"math"
	"math/rand/v2"
	"testing"
)

// inclusionExclusion is the hypervolume of points above ref by the
// inclusion–exclusion formula over every subset: the reference the
// decomposition is checked against, for a few points.
func inclusionExclusion(points []float64, m int, ref []float64) float64 {
	n := len(points) / m
	hv := 0.0
	for mask := 1; mask < 1<<n; mask++ {
		v, count := 1.0, 0
		for j := range m {
			lowest := math.Inf(1)
			for i := range n {
				if mask&(1<<i) != 0 {
					lowest = min(lowest, points[i*m+j])
				}
			}
			v *= max(lowest-ref[j], 0)
		}
		for i := range n {
			if mask&(1<<i) != 0 {
				count++
			}
		}
		if count%2 == 1 {
			hv += v
		} else {
			hv -= v
		}
	}
	return hv
}

// randomFront draws n vectors of m objectives, some on a curved front and
// some behind it or below the reference point (0).
func randomFront(rng *rand.Rand, n, m int) []float64 {
	points := make([]float64, n*m)
	for i := range n {
		norm := 0.0
		for j := range m {
			v := rng.NormFloat64()
			points[i*m+j] = math.Abs(v)
			norm += v * v
		}
		scale := 1 / math.Sqrt(norm)
		if rng.IntN(3) == 0 {
			scale *= 0.5 + 0.5*rng.Float64() // behind the front
		}
		for j := range m {
			points[i*m+j] = points[i*m+j]*scale - 0.1*rng.Float64()
		}
	}
	return points
}

func TestDominates(t *testing.T) {
	for _, tc := range []struct {
		a, b []float64
		want bool
	}{
		{[]float64{1, 2}, []float64{1, 1}, true},
		{[]float64{1, 1}, []float64{1, 1}, false},
		{[]float64{2, 0}, []float64{1, 1}, false},
		{[]float64{1, 1, 1}, []float64{0, 1, 1}, true},
	} {
		if got := Dominates(tc.a, tc.b); got != tc.want {
			t.Errorf("Dominates(%v, %v) = %v", tc.a, tc.b, got)
		}
	}
	keep := make([]bool, 4)
	if n := NonDominated([]float64{1, 0, 0, 1, 1, 0, 0.5, 0.5}, 2, keep); n != 3 || !keep[0] || keep[2] {
		t.Errorf("NonDominated kept %d: %v (the repeated (1, 0) once)", n, keep)
	}
}

// TestHypervolume: the decomposition's hypervolume, and the improvement of
// a vector, are the inclusion–exclusion formula's, in 2-D and 3-D.
func TestHypervolume(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, m := range []int{2, 3} {
		ref := make([]float64, m)
		for trial := range 50 {
			n := 1 + trial%9
			points := randomFront(rng, n, m)
			d, err := New(m, ref, 12)
			if err != nil {
				t.Fatal(err)
			}
			if err := d.Update(points); err != nil {
				t.Fatal(err)
			}
			want := inclusionExclusion(points, m, ref)
			if got := d.Hypervolume(); math.Abs(got-want) > 1e-12 {
				t.Fatalf("m=%d, %d points: hypervolume %v, inclusion–exclusion %v", m, n, got, want)
			}
			y := randomFront(rng, 1, m)
			for j := range y {
				y[j] *= 1.2
			}
			with := inclusionExclusion(append(points, y...), m, ref)
			if got := d.Improvement(y); math.Abs(got-(with-want)) > 1e-12 {
				t.Fatalf("m=%d, %d points: improvement %v, want %v", m, n, got, with-want)
			}
			for i := 0; i < len(d.Front()); i += m {
				if got := d.Improvement(d.Front()[i : i+m]); got != 0 {
					t.Fatalf("m=%d: a front vector improves by %v", m, got)
				}
			}
		}
	}
}

// TestEHVIAgainstMonteCarlo: the exact EHVI is the mean improvement of
// draws of the outcome, within four standard errors of 200,000 draws.
func TestEHVIAgainstMonteCarlo(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, m := range []int{2, 3} {
		ref := make([]float64, m)
		for trial := range 6 {
			d, _ := New(m, ref, 10)
			if err := d.Update(randomFront(rng, 2+trial, m)); err != nil {
				t.Fatal(err)
			}
			mean, sd := make([]float64, m), make([]float64, m)
			for j := range m {
				mean[j], sd[j] = 0.2+0.7*rng.Float64(), 0.05+0.3*rng.Float64()
			}
			got := d.EHVI(mean, sd, make([]float64, d.ScratchLen()))
			const draws = 200000
			y := make([]float64, m)
			sum, squares := 0.0, 0.0
			for range draws {
				for j := range m {
					y[j] = mean[j] + sd[j]*rng.NormFloat64()
				}
				v := d.Improvement(y)
				sum, squares = sum+v, squares+v*v
			}
			mc := sum / draws
			se := math.Sqrt((squares/draws - mc*mc) / draws)
			if math.Abs(got-mc) > 4*se+1e-12 {
				t.Errorf("m=%d trial %d: EHVI %v, Monte Carlo %v ± %v", m, trial, got, mc, se)
			}
		}
	}
}

// TestEHVIGradient checks EHVIGrad's derivatives against central
// differences, and its value against EHVI's.
func TestEHVIGradient(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, m := range []int{2, 3} {
		d, _ := New(m, make([]float64, m), 10)
		if err := d.Update(randomFront(rng, 7, m)); err != nil {
			t.Fatal(err)
		}
		scratch := make([]float64, d.ScratchLen())
		mean, sd := make([]float64, m), make([]float64, m)
		for j := range m {
			mean[j], sd[j] = 0.3+0.5*rng.Float64(), 0.1+0.2*rng.Float64()
		}
		dMean, dSD := make([]float64, m), make([]float64, m)
		v := d.EHVIGrad(mean, sd, scratch, dMean, dSD)
		if w := d.EHVI(mean, sd, scratch); math.Abs(v-w) > 1e-15 {
			t.Fatalf("EHVIGrad %v, EHVI %v", v, w)
		}
		const h = 1e-6
		for j := range m {
			for _, p := range []struct {
				x    []float64
				want float64
			}{{mean, dMean[j]}, {sd, dSD[j]}} {
				p.x[j] += h
				up := d.EHVI(mean, sd, scratch)
				p.x[j] -= 2 * h
				down := d.EHVI(mean, sd, scratch)
				p.x[j] += h
				if fd := (up - down) / (2 * h); math.Abs(fd-p.want) > 1e-6*max(1, math.Abs(fd)) {
					t.Errorf("m=%d objective %d: derivative %v, central difference %v", m, j, p.want, fd)
				}
			}
		}
	}
}

func TestRefuses(t *testing.T) {
	if _, err := New(4, make([]float64, 4), 10); err == nil {
		t.Error("four objectives accepted")
	}
	if _, err := New(2, []float64{0, math.NaN()}, 10); err == nil {
		t.Error("a reference point that is not a number accepted")
	}
	d, _ := New(2, []float64{0, 0}, 2)
	if err := d.Update(make([]float64, 6)); err == nil {
		t.Error("three vectors beyond a capacity of 2 accepted")
	}
	if err := d.Update([]float64{1, math.NaN()}); err == nil {
		t.Error("a value that is not a number accepted")
	}
}

// TestAllocationFree: Update and EHVIGrad allocate nothing.
func TestAllocationFree(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	d, _ := New(3, make([]float64, 3), 40)
	points := randomFront(rng, 40, 3)
	scratch := make([]float64, d.ScratchLen())
	mean, sd, dMean, dSD := []float64{0.5, 0.5, 0.5}, []float64{0.2, 0.2, 0.2}, make([]float64, 3), make([]float64, 3)
	if a := testing.AllocsPerRun(5, func() {
		if err := d.Update(points); err != nil {
			t.Fatal(err)
		}
		d.EHVIGrad(mean, sd, scratch, dMean, dSD)
	}); a != 0 {
		t.Errorf("%v allocations", a)
	}
}

// TestHypervolumeAnyDimension: the sliced hypervolume is the
// inclusion–exclusion formula's in 2 to 4 dimensions, and the
// decomposition's in 2 and 3.
func TestHypervolumeAnyDimension(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for _, m := range []int{2, 3, 4} {
		ref := make([]float64, m)
		for trial := range 30 {
			points := randomFront(rng, 1+trial%9, m)
			want := inclusionExclusion(points, m, ref)
			if got := Hypervolume(points, m, ref); math.Abs(got-want) > 1e-12 {
				t.Fatalf("m=%d, %d points: hypervolume %v, inclusion–exclusion %v", m, len(points)/m, got, want)
			}
			if m > 3 {
				continue
			}
			d, _ := New(m, ref, 12)
			if err := d.Update(points); err != nil {
				t.Fatal(err)
			}
			if got := Hypervolume(points, m, ref); math.Abs(got-d.Hypervolume()) > 1e-12 {
				t.Fatalf("m=%d: sliced %v, decomposition %v", m, got, d.Hypervolume())
			}
		}
	}
}

// TestHypervolumeOf: objectives in their own senses give the hypervolume of
// the maximised vectors, and no objective gives 0.
func TestHypervolumeOf(t *testing.T) {
	// (min 1, max 3) and (min 2, max 4) below ref (min 3, max 0).
	got := HypervolumeOf([]float64{1, 3, 2, 4}, []bool{false, true}, []float64{3, 0})
	if want := Hypervolume([]float64{-1, 3, -2, 4}, 2, []float64{-3, 0}); got != want || want != 2*3+1*1 {
		t.Errorf("HypervolumeOf = %v, want %v (7)", got, want)
	}
	if v := Hypervolume(nil, 0, nil); v != 0 {
		t.Errorf("no objective: %v", v)
	}
}
