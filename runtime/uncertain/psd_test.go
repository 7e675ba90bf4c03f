package uncertain

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/bocdev/boc/runtime/kernel"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"
)

// sampleSet draws n distributions of m samples in R^d: a row-major m×d set
// each, at n targets that BO would produce (spread over the unit cube, and
// a cluster of nearly repeated ones around an optimum).
type sampleSet func(rng *rand.Rand, n, m, d int) [][]float64

// psdTargets returns n targets in [0, 1]^d: n−5 uniform ones, then 5 within
// 1e-3 of one another.
func psdTargets(rng *rand.Rand, n, d int) [][]float64 {
	out := make([][]float64, n)
	centre := make([]float64, d)
	for i := range centre {
		centre[i] = rng.Float64()
	}
	for i := range out {
		out[i] = make([]float64, d)
		for c := range d {
			if i < n-5 {
				out[i][c] = rng.Float64()
			} else {
				out[i][c] = centre[c] + 1e-3*(rng.Float64()-0.5)
			}
		}
	}
	return out
}

var psdSampleSets = []struct {
	name string
	draw sampleSet
}{
	// AIRBO's double-peak noise, 0.1·Beta(0.4, 0.2) per component, with
	// common random numbers as the emitted optimisers draw it: the same
	// offsets at every target.
	{"beta-crn", func(rng *rand.Rand, n, m, d int) [][]float64 {
		beta := distuv.Beta{Alpha: 0.4, Beta: 0.2}
		offsets := make([]float64, m*d)
		for j := range offsets {
			offsets[j] = 0.1 * beta.Quantile(rng.Float64())
		}
		out := psdTargets(rng, n, d)
		for i, x := range out {
			out[i] = make([]float64, m*d)
			for j, e := range offsets {
				out[i][j] = x[j%d] + e
			}
		}
		return out
	}},
	// Input-dependent Gaussian noise, sd 0.01 + 0.1·x_0, common random
	// numbers: fixed standard normals scaled at each target.
	{"normal-crn", func(rng *rand.Rand, n, m, d int) [][]float64 {
		z := make([]float64, m*d)
		for j := range z {
			z[j] = rng.NormFloat64()
		}
		out := psdTargets(rng, n, d)
		for i, x := range out {
			out[i] = make([]float64, m*d)
			for j, e := range z {
				out[i][j] = x[j%d] + (0.01+0.1*x[0])*e
			}
		}
		return out
	}},
	// Independent draws per distribution with random sds in [0.005, 0.1].
	{"normal-independent", func(rng *rand.Rand, n, m, d int) [][]float64 {
		out := psdTargets(rng, n, d)
		for i, x := range out {
			sd := 0.005 + 0.095*rng.Float64()
			out[i] = make([]float64, m*d)
			for j := range out[i] {
				out[i][j] = x[j%d] + sd*rng.NormFloat64()
			}
		}
		return out
	}},
}

// nystromMMD2Matrix returns Nyström's MMD² between every two of dists as an
// emitted mmd model computes it, clamped at 0.
func nystromMMD2Matrix(ny *Nystrom, k Kernel, dists [][]float64) [][]float64 {
	n := len(dists)
	self, weights := make([]float64, n), make([][]float64, n)
	for i, u := range dists {
		weights[i] = make([]float64, ny.h)
		self[i] = ny.Weights(k, u, weights[i])
	}
	out := make([][]float64, n)
	for i := range out {
		out[i] = make([]float64, n)
		for j := range i {
			out[i][j] = max(0, self[i]+self[j]-2*ny.Cross(k, dists[i], weights[i], dists[j], weights[j]))
			out[j][i] = out[i][j]
		}
	}
	return out
}

// TestNystromGramsArePSD is a property test: for random sample sets (three
// noise families, targets spread out and clustered) in d = 1, 2 and 3, for
// every stationary base kernel family boc has, base lengthscales from 0.01
// to 3 (ARD in d > 1) and α from 0.1 to 100, the Gram matrix of
// exp(−α·MMD²) over 13 distributions, MMD² by Nyström, has no eigenvalue
// below −1e-10 of its diagonal (which is exp(0) = 1). Nyström's MMD² is
// the squared distance ‖ν_P − ν_Q‖² of the distributions' Nyström mean
// embeddings in the base kernel's RKHS, each ν_P fixed by P's own samples
// and landmarks, and a Gaussian function of a Hilbert-space distance is a
// positive-definite kernel, so only rounding may show.
func TestNystromGramsArePSD(t *testing.T) {
	const n, tol = 13, 1e-10
	families := []string{"se", "matern12", "matern32", "matern52", "rq", "rqmix"}
	lengthscales := []float64{0.01, 0.03, 0.1, 0.3, 1, 3}
	alphas := []float64{0.1, 1, 10, 100}
	sizes := []struct{ d, m, h int }{{1, 100, 10}, {2, 100, 10}, {3, 50, 20}}
	rng := rand.New(rand.NewPCG(14, 1))
	for _, sz := range sizes {
		ny := NewNystrom(sz.m, sz.h, sz.d)
		for _, set := range psdSampleSets {
			t.Run(fmt.Sprintf("d=%d/%s", sz.d, set.name), func(t *testing.T) {
				dists := set.draw(rng, n, sz.m, sz.d)
				var grams, bad int
				worst := math.Inf(1)
				for _, family := range families {
					for _, l := range lengthscales {
						ls := []float64{l}
						if sz.d > 1 { // ARD, spread around l
							ls = make([]float64, sz.d)
							for i := range ls {
								ls[i] = l * math.Exp(0.5*rng.NormFloat64())
							}
						}
						k, err := kernel.Named(family, 1, 0.7, ls) // rq's shape 0.7
						if err != nil {
							t.Fatal(err)
						}
						mmd2 := nystromMMD2Matrix(ny, KernelFunc(k.Eval), dists)
						for _, alpha := range alphas {
							g := mat.NewSymDense(n, nil)
							for i := range n {
								for j := range i + 1 {
									g.SetSym(i, j, math.Exp(-alpha*mmd2[i][j]))
								}
							}
							var eig mat.EigenSym
							if !eig.Factorize(g, false) {
								t.Fatalf("%s ℓ=%g α=%g: eigendecomposition failed", family, l, alpha)
							}
							minEig := eig.Values(nil)[0]
							grams++
							worst = min(worst, minEig)
							if minEig < -tol {
								bad++
								if bad <= 3 {
									t.Errorf("%s ℓ=%v α=%g: smallest eigenvalue %.3g", family, ls, alpha, minEig)
								}
							}
						}
					}
				}
				t.Logf("%d of %d Gram matrices indefinite beyond %g; smallest eigenvalue %.3g", bad, grams, tol, worst)
			})
		}
	}
}
