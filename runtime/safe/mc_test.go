package safe

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestSGPUCBViolations runs SGP-UCB built from this package's primitives on
// functions drawn from the GP prior its model assumes (the setting of
// Theorem 1): phase 1 plays random seeds until the safe set plateaus, phase
// 2 the UCB argmax over the safe set. With Theorem 1's β_t the safe set must
// hold only safe candidates in all but a δ fraction of realisations; the
// test counts realisations with any unsafe evaluation or any unsafe
// candidate in the safe set, and checks that the safe set grew beyond the
// seeds in most of them (so the guarantee is not vacuous).
func TestSGPUCBViolations(t *testing.T) {
	if testing.Short() {
		t.Skip("a Monte-Carlo study")
	}
	const (
		n, rounds, realisations = 40, 60, 40
		delta, noiseSD, h       = 0.1, 0.1, -0.5
		lengthscale             = 0.3
	)
	rng := rand.New(rand.NewPCG(13, 14))
	k := func(a, b [2]float64) float64 {
		dx, dy := (a[0]-b[0])/lengthscale, (a[1]-b[1])/lengthscale
		return math.Exp(-(dx*dx + dy*dy) / 2)
	}
	violated, grew := 0, 0
	for range realisations {
		points := make([][2]float64, n)
		for i := range points {
			points[i] = [2]float64{rng.Float64(), rng.Float64()}
		}
		f, g := drawGP(rng, points, k), drawGP(rng, points, k)
		// Seeds: the safest candidates, two of them, known safe.
		seeds := safest(g, 2)
		if g[seeds[0]] < h || g[seeds[1]] < h {
			continue // no safe seed set in this draw
		}
		var played []int
		var fObs, gObs []float64
		predict := func(ys []float64, mean, sd []float64) {
			fixedPriorPosterior(points, played, ys, k, noiseSD*noiseSD, mean, sd)
		}
		gi := []*Intervals{NewIntervals(n)}
		safe := NewSet(n, seeds)
		plateau := Plateau{Window: 10, Cap: rounds / 2}
		phase1 := true
		fMean, fSD, gMean, gSD := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
		ucb := make([]float64, n)
		unsafe := false
		for t := 1; t <= rounds; t++ {
			beta := Beta(n, t, delta)
			var x int
			if phase1 {
				x = seeds[rng.IntN(len(seeds))]
			} else {
				predict(fObs, fMean, fSD)
				for i := range ucb {
					ucb[i] = fMean[i] + math.Sqrt(beta)*fSD[i]
				}
				x = Argmax(ucb, safe)
			}
			unsafe = unsafe || g[x] < h
			fObs = append(fObs, f[x]+noiseSD*rng.NormFloat64())
			gObs = append(gObs, g[x]+noiseSD*rng.NormFloat64())
			played = append(played, x)
			predict(gObs, gMean, gSD)
			gi[0].Update(gMean, gSD, beta)
			safe.Update(gi, []float64{h})
			if phase1 && plateau.Done(safe.Len()) {
				phase1 = false
			}
		}
		for i, in := range safe.In {
			unsafe = unsafe || in && g[i] < h
		}
		if unsafe {
			violated++
		}
		if safe.Len() > len(seeds) {
			grew++
		}
	}
	if float64(violated) > delta*realisations {
		t.Errorf("%d of %d realisations queried or certified an unsafe candidate; δ = %g", violated, realisations, delta)
	}
	if grew < realisations/2 {
		t.Errorf("the safe set grew beyond the seeds in only %d of %d realisations", grew, realisations)
	}
	t.Logf("%d of %d realisations unsafe, safe set grew in %d", violated, realisations, grew)
}

// fixedPriorPosterior writes the posterior mean and sd at every point of the
// zero-mean, unit-variance GP with kernel k, given observations ys at the
// points played, by brute-force linear algebra: the model Theorem 1 assumes,
// with no standardisation of the observations.
func fixedPriorPosterior(points [][2]float64, played []int, ys []float64, k func(a, b [2]float64) float64, noiseVar float64, mean, sd []float64) {
	m := len(played)
	gram := mat.NewSymDense(m, nil)
	for a := range m {
		for b := range m {
			gram.SetSym(a, b, k(points[played[a]], points[played[b]]))
		}
		gram.SetSym(a, a, 1+noiseVar)
	}
	var chol mat.Cholesky
	chol.Factorize(gram)
	var alpha mat.VecDense
	_ = chol.SolveVecTo(&alpha, mat.NewVecDense(m, ys))
	kx := mat.NewVecDense(m, nil)
	var v mat.VecDense
	for i, x := range points {
		for a := range m {
			kx.SetVec(a, k(x, points[played[a]]))
		}
		_ = chol.SolveVecTo(&v, kx)
		mean[i], sd[i] = mat.Dot(kx, &alpha), math.Sqrt(max(1-mat.Dot(kx, &v), 0))
	}
}

// drawGP draws a function's values at points from the zero-mean GP prior
// with kernel k.
func drawGP(rng *rand.Rand, points [][2]float64, k func(a, b [2]float64) float64) []float64 {
	n := len(points)
	cov := mat.NewSymDense(n, nil)
	for i := range n {
		for j := range n {
			cov.SetSym(i, j, k(points[i], points[j]))
		}
		cov.SetSym(i, i, 1+1e-8)
	}
	var chol mat.Cholesky
	chol.Factorize(cov)
	var l mat.TriDense
	chol.LTo(&l)
	z := mat.NewVecDense(n, nil)
	for i := range n {
		z.SetVec(i, rng.NormFloat64())
	}
	var y mat.VecDense
	y.MulVec(&l, z)
	return y.RawVector().Data
}

// safest returns the indices of the m largest values.
func safest(values []float64, m int) []int {
	var out []int
	taken := make([]bool, len(values))
	for range m {
		best := -1
		for i, v := range values {
			if !taken[i] && (best < 0 || v > values[best]) {
				best = i
			}
		}
		taken[best] = true
		out = append(out, best)
	}
	return out
}
