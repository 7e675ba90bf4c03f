package design

import (
	"fmt"
	"testing"
)

func TestLHSStratifiesEveryAxis(t *testing.T) {
	for _, tc := range []struct{ n, dim int }{{1, 1}, {7, 3}, {50, 5}, {256, 2}} {
		t.Run(fmt.Sprintf("n=%d,d=%d", tc.n, tc.dim), func(t *testing.T) {
			out := make([]float64, tc.n*tc.dim)
			LHS(tc.n, tc.dim, 5, out)
			for j := range tc.dim {
				seen := make([]bool, tc.n)
				for i := range tc.n {
					x := out[i*tc.dim+j]
					if x < 0 || x >= 1 {
						t.Fatalf("point %d axis %d = %v outside [0, 1)", i, j, x)
					}
					stratum := int(x * float64(tc.n))
					if seen[stratum] {
						t.Fatalf("axis %d: two points in stratum %d", j, stratum)
					}
					seen[stratum] = true
				}
			}
		})
	}
}

// TestLHSPermutesAxesIndependently guards against the degenerate hypercube in
// which every axis uses the same permutation (all points on the diagonal).
func TestLHSPermutesAxesIndependently(t *testing.T) {
	const n = 64
	out := make([]float64, n*2)
	LHS(n, 2, 9, out)
	diagonal := 0
	for i := range n {
		if int(out[2*i]*n) == int(out[2*i+1]*n) {
			diagonal++
		}
	}
	if diagonal > 4 {
		t.Fatalf("%d of %d points share their stratum on both axes", diagonal, n)
	}
}

func TestRandomIsUniform(t *testing.T) {
	const n, dim, bins = 20000, 3, 10
	out := make([]float64, n*dim)
	Random(n, dim, 17, out)
	counts := make([]int, bins)
	for _, x := range out {
		if x < 0 || x >= 1 {
			t.Fatalf("value %v outside [0, 1)", x)
		}
		counts[int(x*bins)]++
	}
	// Chi-square with 9 degrees of freedom; 27.9 is the 0.999 quantile.
	expected := float64(n*dim) / bins
	chi2 := 0.0
	for _, c := range counts {
		d := float64(c) - expected
		chi2 += d * d / expected
	}
	if chi2 > 27.9 {
		t.Fatalf("chi-square %v over %d bins: %v", chi2, bins, counts)
	}
}

func TestDesignsAreDeterministic(t *testing.T) {
	generators := map[string]func(n, dim int, seed uint64, out []float64){
		"lhs":    LHS,
		"random": Random,
		"sobol": func(n, dim int, seed uint64, out []float64) {
			if err := SobolDesign(n, dim, seed, out); err != nil {
				t.Fatal(err)
			}
		},
	}
	for name, gen := range generators {
		a, b, c := make([]float64, 40), make([]float64, 40), make([]float64, 40)
		gen(10, 4, 3, a)
		gen(10, 4, 3, b)
		gen(10, 4, 4, c)
		if !same(a, b) {
			t.Errorf("%s: same seed, different points", name)
		}
		if same(a, c) {
			t.Errorf("%s: different seeds, same points", name)
		}
	}
}

func TestDesignShapePanics(t *testing.T) {
	for name, gen := range map[string]func(n, dim int, seed uint64, out []float64){"lhs": LHS, "random": Random} {
		for _, tc := range []struct{ n, dim, len int }{{-1, 1, 0}, {2, 0, 4}, {3, 2, 5}} {
			func() {
				defer func() {
					if recover() == nil {
						t.Errorf("%s(%d, %d, out[%d]) did not panic", name, tc.n, tc.dim, tc.len)
					}
				}()
				gen(tc.n, tc.dim, 1, make([]float64, tc.len))
			}()
		}
	}
}
