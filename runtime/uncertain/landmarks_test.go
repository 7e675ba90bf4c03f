package uncertain

import (
	"errors"
	"math"
	"slices"
	"testing"
)

func TestSetLandmarks(t *testing.T) {
	const h, d = 16, 3
	lo, hi := []float64{-1, 0, 2}, []float64{1, 0.5, 4}
	e := NewEmbedding(h, d)
	e.SetLandmarks(lo, hi)
	z := append([]float64(nil), e.Landmarks()...)
	for j := range h {
		p := z[j*d : (j+1)*d]
		corner := true
		for i, x := range p {
			if x < lo[i] || x >= hi[i] {
				t.Errorf("landmark %d = %v outside the box", j, p)
			}
			corner = corner && (x == lo[i] || x == hi[i])
		}
		if corner {
			t.Errorf("landmark %d = %v is a corner", j, p)
		}
		for i := range j {
			if SqDist(p, z[i*d:(i+1)*d]) == 0 {
				t.Errorf("landmarks %d and %d coincide", i, j)
			}
		}
	}
	// The first landmark is the second Sobol point, the box centre.
	for i := range d {
		if z[i] != (lo[i]+hi[i])/2 {
			t.Errorf("landmark 0 = %v, want the box centre", z[:d])
		}
	}
	e.SetLandmarks(lo, hi)
	for i, x := range e.Landmarks() {
		if x != z[i] {
			t.Fatalf("SetLandmarks not deterministic at %d", i)
		}
	}
}

func TestPrepare(t *testing.T) {
	nan := func(a, b []float64) float64 { return math.NaN() }
	negative := func(a, b []float64) float64 { return -seKernel(1, []float64{0.2}).Eval(a, b) }
	// 1 on the diagonal, 2 off it: K = 2·11ᵀ − I has eigenvalue −1, far
	// beyond any jitter.
	indefinite := func(a, b []float64) float64 {
		if a[0] == b[0] {
			return 1
		}
		return 2
	}
	for _, tc := range []struct {
		name       string
		k          Kernel
		wantErr    bool
		wantJitter bool
	}{
		{"rough", laplace(0.1), false, false},
		{"smooth needs jitter", seKernel(1, []float64{2}), false, true},
		{"nan", KernelFunc(nan), true, false},
		{"negative diagonal", KernelFunc(negative), true, false},
		{"indefinite", KernelFunc(indefinite), true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := NewEmbedding(10, 1)
			err := e.Prepare(tc.k)
			if (err != nil) != tc.wantErr {
				t.Fatalf("Prepare error = %v, want error %v", err, tc.wantErr)
			}
			if err != nil {
				if !errors.Is(err, ErrNotPositiveDefinite) {
					t.Errorf("error %v is not ErrNotPositiveDefinite", err)
				}
				assertPanics(t, "Embed after failed Prepare", func() {
					e.Embed(tc.k, []float64{0.5}, make([]float64, 10), make([]float64, 10))
				})
				return
			}
			if got := e.Jitter() > 0; got != tc.wantJitter {
				t.Errorf("jitter %g, want jitter: %v", e.Jitter(), tc.wantJitter)
			}
			mu := make([]float64, 10)
			e.Embed(tc.k, []float64{0.3, 0.4}, mu, make([]float64, 10))
			for _, x := range mu {
				if math.IsNaN(x) || math.IsInf(x, 0) {
					t.Fatalf("embedding %v not finite", mu)
				}
			}
		})
	}
	e := NewEmbedding(4, 1)
	assertPanics(t, "Embed before Prepare", func() { e.Embed(laplace(1), []float64{0}, make([]float64, 4), make([]float64, 4)) })
}

func TestNewNystromPanics(t *testing.T) {
	for _, s := range [][3]int{{0, 1, 1}, {5, 0, 1}, {5, 6, 1}, {5, 2, 0}} {
		assertPanics(t, "NewNystrom", func() { NewNystrom(s[0], s[1], s[2]) })
	}
	ny := NewNystrom(5, 2, 1)
	assertPanics(t, "Weights with wrong length", func() { ny.Weights(laplace(1), make([]float64, 4), make([]float64, 2)) })
	assertPanics(t, "Cross with wrong length", func() {
		ny.Cross(laplace(1), make([]float64, 5), make([]float64, 2), make([]float64, 4), make([]float64, 2))
	})
}

// TestNystromCoincidingLandmarks: samples whose first ten are five samples
// twice make K_h exactly singular. The pseudo-inverse must give what the
// five distinct landmarks give (the same span, the same samples), and Cross
// of the set with itself its self term.
func TestNystromCoincidingLandmarks(t *testing.T) {
	for _, k := range []Kernel{laplace(0.2), seKernel(1, []float64{0.3})} {
		const m = 100
		s := gaussian{[]float64{0.5}, diag(0.04)}.samples(m, 9)
		// The same 100 samples, 0–4 twice and 10–99, in two orders.
		twice := slices.Concat(s[:5], s[:5], s[10:])
		distinct := slices.Concat(s[:5], s[10:], s[:5])
		a, b := make([]float64, 10), make([]float64, 5)
		self := NewNystrom(m, 10, 1).Weights(k, twice, a)
		relClose(t, "self term", self, NewNystrom(m, 5, 1).Weights(k, distinct, b), 1e-8)
		relClose(t, "Cross(u, u)", NewNystrom(m, 10, 1).Cross(k, twice, a, twice, a), self, 1e-8)
	}
}

func assertPanics(t *testing.T, name string, f func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Errorf("%s: no panic", name)
		}
	}()
	f()
}
