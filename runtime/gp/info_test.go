package gp

import (
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestInformationGain compares InformationGain and NoiseSD with a dense
// computation of ½ log det(I + Λ^{-1/2} K Λ^{-1/2}) (the symmetric form of
// I + Λ⁻¹K, with the same determinant) for heteroscedastic noise, across
// re-standardisations.
func TestInformationGain(t *testing.T) {
	for _, n := range []int{1, 2, 7, 40} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			p := newProblem(uint64(n), n, 2, 0.3, true)
			g := New(n)
			kvec := make([]float64, n)
			for i := range n {
				if err := p.add(g, i, kvec); err != nil {
					t.Fatal(err)
				}
			}
			scale := g.Scale()
			m := mat.NewSymDense(n, nil)
			largest := 0.0
			for i := range n {
				li := p.noise[i] / (scale * scale)
				largest = max(largest, li)
				for j := range i + 1 {
					lj := p.noise[j] / (scale * scale)
					v := p.kernel(p.x[i], p.x[j]) / math.Sqrt(li*lj)
					if i == j {
						v++
					}
					m.SetSym(i, j, v)
				}
			}
			var chol mat.Cholesky
			if !chol.Factorize(m) {
				t.Fatal("reference matrix is not positive definite")
			}
			if got, want := g.InformationGain(), 0.5*chol.LogDet(); !closeTo(got, want, 1e-10) {
				t.Errorf("InformationGain = %v, want %v", got, want)
			}
			if got, want := g.NoiseSD(), math.Sqrt(largest); !closeTo(got, want, 1e-14) {
				t.Errorf("NoiseSD = %v, want %v", got, want)
			}
		})
	}
}

// TestInformationGainSingle checks the one-observation closed form
// ½ log(1 + k/λ) and the empty GP.
func TestInformationGainSingle(t *testing.T) {
	g := New(2)
	if gain, sd := g.InformationGain(), g.NoiseSD(); gain != 0 || sd != 0 {
		t.Errorf("empty GP: gain %v, noise sd %v, want 0 and 0", gain, sd)
	}
	const kself, noise = 2.5, 0.1
	if err := g.Add(nil, kself, 3, noise); err != nil {
		t.Fatal(err)
	}
	if got, want := g.InformationGain(), 0.5*math.Log(1+kself/noise); !closeTo(got, want, 1e-14) {
		t.Errorf("InformationGain = %v, want %v", got, want)
	}
}
