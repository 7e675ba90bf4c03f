package uncertain

import (
	"math"
	"math/rand/v2"
	"testing"
)

// gaussian is a test distribution N(mean, cov), cov d×d row-major.
type gaussian struct {
	mean, cov []float64
}

func (g gaussian) dim() int { return len(g.mean) }

// samples draws m samples of g with the PCG stream (seed, 1).
func (g gaussian) samples(m int, seed uint64) []float64 {
	d := g.dim()
	l := append([]float64(nil), g.cov...)
	if !cholesky(l, d, 0) {
		panic("test covariance not PD")
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	out := make([]float64, m*d)
	z := make([]float64, d)
	for i := range m {
		for j := range z {
			z[j] = rng.NormFloat64()
		}
		for r := range d {
			s := g.mean[r]
			for c := 0; c <= r; c++ {
				s += l[r*d+c] * z[c]
			}
			out[i*d+r] = s
		}
	}
	return out
}

// seKernel returns the SE kernel s2·exp(−½ Σ (a_i−b_i)²/ls_i²).
func seKernel(s2 float64, ls []float64) Kernel {
	return KernelFunc(func(a, b []float64) float64 {
		var r2 float64
		for i, l := range ls {
			t := (a[i] - b[i]) / l
			r2 += t * t
		}
		return s2 * math.Exp(-0.5*r2)
	})
}

// exactMMD2 is MMD²(P, Q) for Gaussians under the SE kernel. With u, u' ~ P
// and v, v' ~ Q all independent, MMD² = E k(u,u') + E k(v,v') − 2 E k(u,v),
// and each expectation is the integral kernel of Oliveira Eq. 80 between
// the two distributions the arguments are drawn from: E k(u, u') is
// IntegralSE(P, P) with Sa = Sb = Σ_P (u − u' ~ N(0, 2Σ_P)), and likewise
// for Q and for the cross term IntegralSE(P, Q).
func exactMMD2(s2 float64, ls []float64, p, q gaussian) float64 {
	w := make([]float64, WorkLen(len(ls)))
	return IntegralSE(s2, ls, p.mean, p.cov, p.mean, p.cov, w) +
		IntegralSE(s2, ls, q.mean, q.cov, q.mean, q.cov, w) -
		2*IntegralSE(s2, ls, p.mean, p.cov, q.mean, q.cov, w)
}

// nystromMMD2 is Nyström's MMD² of the samples u and v, unclamped.
func nystromMMD2(ny *Nystrom, k Kernel, u, v []float64) float64 {
	au, av := make([]float64, ny.h), make([]float64, ny.h)
	return ny.Weights(k, u, au) + ny.Weights(k, v, av) - 2*ny.Cross(k, u, au, v, av)
}

// vstatMMD2 is the V-statistic MMD², dense sums including the i = j terms:
// the quantity the Nyström and embedding estimators approximate.
func vstatMMD2(k Kernel, u, v []float64, d int) float64 {
	return MeanKernel(k, u, u, d) + MeanKernel(k, v, v, d) - 2*MeanKernel(k, u, v, d)
}

func relClose(t *testing.T, name string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol*math.Max(1, math.Abs(want)) {
		t.Errorf("%s = %.17g, want %.17g (tol %g)", name, got, want, tol)
	}
}

func diag(v ...float64) []float64 {
	d := len(v)
	out := make([]float64, d*d)
	for i, x := range v {
		out[i*d+i] = x
	}
	return out
}
