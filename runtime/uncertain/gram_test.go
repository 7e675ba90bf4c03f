package uncertain

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// gramDistributions returns n 1-D Gaussians with spread-out means and
// widths, m samples each drawn with common random numbers (the same base
// normals for every distribution), as the emitted optimisers draw them.
func gramDistributions(n, m int) [][]float64 {
	base := gaussian{[]float64{0}, diag(1)}.samples(m, 77)
	out := make([][]float64, n)
	for i := range out {
		mean := 0.1 + 0.8*float64(i)/float64(n-1)
		sd := 0.02 + 0.08*math.Mod(0.618*float64(i), 1)
		out[i] = make([]float64, m)
		for j, z := range base {
			out[i][j] = mean + sd*z
		}
	}
	return out
}

// TestGramMatricesOfMMDKernel builds K_ij = exp(−α·MMD²_ij) over 30
// distributions for each estimator. The embedding's Gram matrix is a
// Gaussian kernel matrix on R^h, so it must be positive definite (Cholesky
// succeeds, smallest eigenvalue > 0); Nyström's is a Gaussian kernel matrix
// of distances in the base kernel's RKHS, so it must be positive
// semi-definite to rounding (TestNystromGramsArePSD tests that widely). The
// unbiased empirical estimate carries no such guarantee: for it the test
// asserts only symmetry (to rounding) and finiteness. Every smallest
// eigenvalue is logged.
func TestGramMatricesOfMMDKernel(t *testing.T) {
	const n, m, h, alpha = 30, 60, 10, 1.0
	k := seKernel(1, []float64{0.1})
	ps := gramDistributions(n, m)
	self := make([]float64, n)
	nySelf, nyWeights := make([]float64, n), make([][]float64, n)
	ny := NewNystrom(m, h, 1)
	e := NewEmbedding(h, 1)
	e.SetLandmarks([]float64{-0.2}, []float64{1.2})
	if err := e.Prepare(k); err != nil {
		t.Fatal(err)
	}
	mus := make([][]float64, n)
	work := make([]float64, h)
	for i, u := range ps {
		self[i] = SelfMeanKernel(k, u, 1)
		nyWeights[i] = make([]float64, h)
		nySelf[i] = ny.Weights(k, u, nyWeights[i])
		mus[i] = make([]float64, h)
		e.Embed(k, u, mus[i], work)
	}
	nystrom := func(i, j int) float64 {
		return nySelf[i] + nySelf[j] - 2*ny.Cross(k, ps[i], nyWeights[i], ps[j], nyWeights[j])
	}
	estimators := []struct {
		name       string
		mmd2       func(i, j int) float64
		minEig     float64 // the smallest eigenvalue must be above it
		mustFactor bool    // Cholesky must succeed
		symmetryTo float64
	}{
		{"empirical", func(i, j int) float64 { return MMD2(k, ps[i], ps[j], 1, self[i], self[j]) }, math.Inf(-1), false, 1e-12},
		{"nystrom", nystrom, -1e-10, false, 1e-12},
		{"embedding", func(i, j int) float64 { return SqDist(mus[i], mus[j]) }, 0, true, 0},
	}
	for _, est := range estimators {
		g := mat.NewSymDense(n, nil)
		for i := range n {
			g.SetSym(i, i, 1)
			for j := range i {
				kij, kji := math.Exp(-alpha*est.mmd2(i, j)), math.Exp(-alpha*est.mmd2(j, i))
				if math.IsNaN(kij) || math.IsInf(kij, 0) {
					t.Fatalf("%s: K[%d,%d] = %v", est.name, i, j, kij)
				}
				if math.Abs(kij-kji) > est.symmetryTo {
					t.Errorf("%s: K[%d,%d] = %.17g but K[%d,%d] = %.17g", est.name, i, j, kij, j, i, kji)
				}
				g.SetSym(i, j, kij)
			}
		}
		var eig mat.EigenSym
		if !eig.Factorize(g, false) {
			t.Fatalf("%s: eigendecomposition failed", est.name)
		}
		minEig := eig.Values(nil)[0]
		var chol mat.Cholesky
		pd := chol.Factorize(g)
		t.Logf("%s: smallest eigenvalue %.3g, Cholesky succeeds: %v", est.name, minEig, pd)
		if !(minEig > est.minEig) || (est.mustFactor && !pd) {
			t.Errorf("%s: smallest eigenvalue %.3g (must be above %g), Cholesky succeeds: %v", est.name, minEig, est.minEig, pd)
		}
	}
}
