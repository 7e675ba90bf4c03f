package uncertain

import (
	"math"
	"testing"
)

// laplace is the exponential kernel exp(−|a−b|/ℓ): rough, so its Gram
// matrices are well conditioned and the Nyström pseudo-inverse keeps every
// direction.
func laplace(l float64) Kernel {
	return KernelFunc(func(a, b []float64) float64 { return math.Exp(-math.Sqrt(SqDist(a, b)) / l) })
}

func TestSampleEstimatorsSmall(t *testing.T) {
	// Three 1-D points and two, with k(a, b) = a·b + 1 (symmetric): sums by hand.
	k := KernelFunc(func(a, b []float64) float64 { return a[0]*b[0] + 1 })
	u, v := []float64{1, 2, 3}, []float64{-1, 4}
	// Σ_ij (u_i v_j + 1) = (Σu)(Σv) + 6 = 6·3 + 6 = 24, over 6 pairs.
	relClose(t, "MeanKernel", MeanKernel(k, u, v, 1), 4, 1e-15)
	// Σ_{i≠j} u_i u_j = (Σu)² − Σu² = 36 − 14 = 22, plus 6 ones: 28/6.
	relClose(t, "SelfMeanKernel", SelfMeanKernel(k, u, 1), 28.0/6, 1e-15)
	// v: 2·(−4) + 2 = −6, over 2.
	relClose(t, "MMD2", MMD2(k, u, v, 1, 28.0/6, -3), 28.0/6-3-8, 1e-15)
	relClose(t, "SqDist", SqDist([]float64{1, 2}, []float64{4, -2}), 25, 0)
}

// TestNystromExactWhenFullRank: with h = m every sample is a landmark, so
// K_mh K_h⁺ K_hm = K and ν_u is the samples' mean embedding itself: the
// self terms and Cross equal the dense sums.
func TestNystromExactWhenFullRank(t *testing.T) {
	for _, d := range []int{1, 2} {
		const m = 12
		p := gaussian{make([]float64, d), diag(repeat(0.04, d)...)}
		q := gaussian{repeat(0.1, d), diag(repeat(0.02, d)...)}
		u, v := p.samples(m, 3), q.samples(m, 4)
		k := laplace(0.3)
		ny := NewNystrom(m, m, d)
		au, av := make([]float64, m), make([]float64, m)
		relClose(t, "self term of u", ny.Weights(k, u, au), MeanKernel(k, u, u, d), 1e-10)
		relClose(t, "self term of v", ny.Weights(k, v, av), MeanKernel(k, v, v, d), 1e-10)
		relClose(t, "Cross", ny.Cross(k, u, au, v, av), MeanKernel(k, u, v, d), 1e-10)
		relClose(t, "Cross swapped", ny.Cross(k, v, av, u, au), MeanKernel(k, u, v, d), 1e-10)
	}
}

func repeat(x float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = x
	}
	return out
}

// TestEmbeddingExactOnLandmarks: for a distribution supported on the
// landmarks, k(Z, ·) spans its mean embedding, so μ_Pᵀμ_Q is exact: a point
// mass at z_i embeds to Rᵀe_i, giving μ_iᵀμ_j = K_ij, and the uniform
// distribution on Z gives 1ᵀK1/h².
func TestEmbeddingExactOnLandmarks(t *testing.T) {
	const h, d = 8, 2
	k := laplace(0.5)
	e := NewEmbedding(h, d)
	if err := e.Prepare(k); err != nil {
		t.Fatal(err)
	}
	if e.Jitter() != 0 {
		t.Fatalf("well-conditioned K_ZZ needed jitter %g", e.Jitter())
	}
	z := e.Landmarks()
	mus := make([][]float64, h)
	work := make([]float64, h)
	for i := range h {
		mus[i] = make([]float64, h)
		e.Embed(k, z[i*d:(i+1)*d], mus[i], work)
	}
	for i := range h {
		for j := range h {
			relClose(t, "μ_iᵀμ_j", dot(mus[i], mus[j]), k.Eval(z[i*d:(i+1)*d], z[j*d:(j+1)*d]), 1e-12)
		}
	}
	all := make([]float64, h)
	e.Embed(k, z, all, work)
	relClose(t, "uniform on Z", dot(all, all), MeanKernel(k, z, z, d), 1e-12)
}

func dot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// mmdCase is a pair of Gaussians for the estimator-vs-exact tests.
type mmdCase struct {
	name   string
	ls     []float64
	p, q   gaussian
	lo, hi []float64 // embedding landmark box, covering both
}

var mmdCases = []mmdCase{
	{"1d-shift", []float64{0.2}, gaussian{[]float64{0.4}, diag(0.01)}, gaussian{[]float64{0.6}, diag(0.01)}, []float64{0}, []float64{1}},
	{"1d-scale", []float64{0.2}, gaussian{[]float64{0.5}, diag(0.003)}, gaussian{[]float64{0.5}, diag(0.02)}, []float64{0}, []float64{1}},
	{"2d-full", []float64{0.3, 0.3}, gaussian{[]float64{0.4, 0.5}, []float64{0.01, 0.005, 0.005, 0.01}}, gaussian{[]float64{0.6, 0.4}, diag(0.005, 0.015)}, []float64{0, 0}, []float64{1, 1}},
}

// TestMMDEstimatorsVsExact compares each estimator with the exact MMD² of
// two Gaussians under the SE kernel (exactMMD2), all with the same m = 400
// samples per set, averaged over 16 seeds so that the statistical error
// shrinks by 4. Tolerances, in units of s2 = 1: empirical (unbiased) 0.01;
// Nyström (h = 25) and embedding (h = 40) 0.015, which also covers the bias
// of the V-statistic they approximate, (1/m)(k(0) − E k(u,u')) ≤ 0.0025 per
// self term.
func TestMMDEstimatorsVsExact(t *testing.T) {
	const m, seeds = 400, 16
	for _, tc := range mmdCases {
		t.Run(tc.name, func(t *testing.T) {
			d := len(tc.ls)
			k := seKernel(1, tc.ls)
			want := exactMMD2(1, tc.ls, tc.p, tc.q)
			ny := NewNystrom(m, 25, d)
			const he = 40
			e := NewEmbedding(he, d)
			e.SetLandmarks(tc.lo, tc.hi)
			if err := e.Prepare(k); err != nil {
				t.Fatal(err)
			}
			muP, muQ, work := make([]float64, he), make([]float64, he), make([]float64, he)
			var emp, nys, emb float64
			for s := range uint64(seeds) {
				u, v := tc.p.samples(m, 2*s), tc.q.samples(m, 2*s+1)
				emp += MMD2(k, u, v, d, SelfMeanKernel(k, u, d), SelfMeanKernel(k, v, d)) / seeds
				nys += nystromMMD2(ny, k, u, v) / seeds
				e.Embed(k, u, muP, work)
				e.Embed(k, v, muQ, work)
				emb += SqDist(muP, muQ) / seeds
			}
			t.Logf("exact %.5f  empirical %.5f  nystrom %.5f  embedding %.5f", want, emp, nys, emb)
			for _, c := range []struct {
				name     string
				got, tol float64
			}{{"empirical", emp, 0.01}, {"nystrom", nys, 0.015}, {"embedding", emb, 0.015}} {
				if math.Abs(c.got-want) > c.tol {
					t.Errorf("%s MMD² %.5f, exact %.5f: error above %g", c.name, c.got, want, c.tol)
				}
			}
		})
	}
}

// TestErrorShrinksWithLandmarks measures each landmark estimator against
// the dense V-statistic it approximates (m = 200), mean absolute error over
// 8 seeds and the three mmdCases, for h = 2, 5, 10, 25, 50. Required: the
// error at h = 50 is below a tenth of that at h = 2, and no step up in h
// increases the error by more than 20% (Monte Carlo wiggle).
func TestErrorShrinksWithLandmarks(t *testing.T) {
	const m, seeds = 200, 8
	hs := []int{2, 5, 10, 25, 50}
	nysErr, embErr := make([]float64, len(hs)), make([]float64, len(hs))
	for _, tc := range mmdCases {
		d := len(tc.ls)
		k := seKernel(1, tc.ls)
		for s := range uint64(seeds) {
			u, v := tc.p.samples(m, 100+2*s), tc.q.samples(m, 101+2*s)
			dense := vstatMMD2(k, u, v, d)
			for hi, h := range hs {
				ny := NewNystrom(m, h, d)
				nysErr[hi] += math.Abs(nystromMMD2(ny, k, u, v)-dense) / float64(seeds*len(mmdCases))
				e := NewEmbedding(h, d)
				e.SetLandmarks(tc.lo, tc.hi)
				if err := e.Prepare(k); err != nil {
					t.Fatal(err)
				}
				muP, muQ, work := make([]float64, h), make([]float64, h), make([]float64, h)
				e.Embed(k, u, muP, work)
				e.Embed(k, v, muQ, work)
				embErr[hi] += math.Abs(SqDist(muP, muQ)-dense) / float64(seeds*len(mmdCases))
			}
		}
	}
	for _, c := range []struct {
		name string
		err  []float64
	}{{"nystrom", nysErr}, {"embedding", embErr}} {
		t.Logf("%s mean |MMD² error| for h = %v: %.3g", c.name, hs, c.err)
		if c.err[len(hs)-1] > c.err[0]/10 {
			t.Errorf("%s: error at h = %d (%.3g) not below a tenth of h = %d (%.3g)", c.name, hs[len(hs)-1], c.err[len(hs)-1], hs[0], c.err[0])
		}
		for i := 1; i < len(hs); i++ {
			if c.err[i] > 1.2*c.err[i-1] {
				t.Errorf("%s: error grew from %.3g (h = %d) to %.3g (h = %d)", c.name, c.err[i-1], hs[i-1], c.err[i], hs[i])
			}
		}
	}
}
