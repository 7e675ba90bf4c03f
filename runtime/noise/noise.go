// Package noise supplies the random numbers of input noise: a query x of an
// optimiser with uncertain inputs lands at x̃ = x + ε with ε drawn from the
// input-noise distribution P_x. The emitted optimiser represents P_x by m
// draws ε_1..ε_m that are a deterministic, smooth function of P_x's
// parameters: it fixes base uniforms once (Base, a randomised Sobol design)
// and pushes them through each distribution's quantile function (Normal,
// Beta, Chi2, Pick for mixtures). Reusing the same uniforms for every x —
// common random numbers — keeps a Monte-Carlo acquisition smooth in x instead
// of jagged (AIRBO, Fig. 3). Fresh draws new uniforms for the execution noise
// a program simulates at each evaluation, and FreshAt draws for a point
// independent of every other point's (AIRBO's own sampling).
//
// Quantile functions take u strictly inside (0, 1) and valid parameters. At
// u = 0 and 1 they return the ends of the support (±Inf for Normal); for
// invalid arguments they return NaN rather than panic. They do not allocate.
package noise

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/bocdev/boc/runtime/design"
	"gonum.org/v1/gonum/mathext"

	"github.com/bocdev/boc/runtime/internal/psd"
	"github.com/bocdev/boc/runtime/internal/splitmix"
)

// Bounds of a base uniform: 2⁻⁵³ and 1 − 2⁻⁵³ are the float64 values nearest
// 0 and 1 that Sobol points can take, and their quantiles are finite.
const (
	minUniform = 0x1p-53
	maxUniform = 1 - 0x1p-53
)

// Base fills out (m×q row-major) with base uniforms strictly inside (0, 1):
// the first m points of a q-dimensional Sobol sequence (design.NewSobol(q,
// seed): digitally shifted for seed != 0), each value clamped to
// [2⁻⁵³, 1 − 2⁻⁵³] so quantile functions stay finite. q ≤ design.MaxSobolDim.
// With seed 0 the first point is the origin, whose quantiles are the far
// tails (Φ⁻¹(2⁻⁵³) ≈ −8.1), so emitted programs pass a non-zero seed.
func Base(m, q int, seed uint64, out []float64) error {
	if m < 0 {
		return fmt.Errorf("noise: %d base points, want at least 0", m)
	}
	if len(out) != m*q {
		return fmt.Errorf("noise: out has %d values, want %d×%d = %d", len(out), m, q, m*q)
	}
	sobol, err := design.NewSobol(q, seed)
	if err != nil {
		return fmt.Errorf("noise: %w", err)
	}
	for i := range m {
		row := out[i*q : (i+1)*q]
		sobol.Next(row)
		for j, u := range row {
			row[j] = min(max(u, minUniform), maxUniform)
		}
	}
	return nil
}

// Fresh fills out with independent pseudo-random uniforms in (0, 1) from rng:
// the execution noise an emitted program simulates, fresh at each evaluation.
// Each value is the midpoint of one of 2⁵³ equal cells, so none is 0 or 1. It
// does not allocate.
func Fresh(rng *rand.Rand, out []float64) {
	for i := range out {
		out[i] = (float64(rng.Uint64()>>11) + 0.5) * 0x1p-53
	}
}

// FreshAt fills out with independent pseudo-random uniforms in (0, 1) that
// depend on seed and on every bit of the point u: the draws of mmd's
// draws = "fresh", which reproduce AIRBO's i.i.d. samples at every call while
// staying deterministic whatever the order in which parallel searches
// evaluate points. Two points that differ in any bit get unrelated draws, so
// the acquisition is jagged in x, as the authors' is. It does not allocate.
func FreshAt(seed uint64, u, out []float64) {
	h := uint64(0x9e3779b97f4a7c15)
	for _, x := range u {
		h = splitmix.Mix(h ^ math.Float64bits(x))
	}
	rng := rand.NewPCG(seed, h)
	for i := range out {
		out[i] = (float64(rng.Uint64()>>11) + 0.5) * 0x1p-53
	}
}

// Normal returns Φ⁻¹(u), the quantile of the standard normal distribution.
// It uses Wichura's AS 241 (gonum's mathext.NormalQuantile), accurate to about
// 1e-16 relative in both tails; math.Erfinv would lose the lower tail to the
// rounding of 2u − 1.
func Normal(u float64) float64 {
	if !(u >= 0 && u <= 1) {
		return math.NaN()
	}
	return mathext.NormalQuantile(u)
}

// Beta returns the quantile of the Beta(a, b) distribution on [0, 1] at u.
// Above the median it returns 1 − (the quantile of Beta(b, a) at 1 − u): the
// distance from 1 is then computed to full relative precision, where cephes'
// incbi alone can be dozens of ulps off in a heavy upper tail.
func Beta(a, b, u float64) float64 {
	if !(a > 0 && b > 0 && u >= 0 && u <= 1) || math.IsInf(a, 0) || math.IsInf(b, 0) {
		return math.NaN()
	}
	if u > 0.5 {
		return 1 - mathext.InvRegIncBeta(b, a, 1-u)
	}
	return mathext.InvRegIncBeta(a, b, u)
}

// Chi2 returns the quantile of the χ²(df) distribution at u: twice the
// quantile of Gamma(df/2, 1) (gamma.go).
func Chi2(df, u float64) float64 {
	if !(df > 0 && u >= 0 && u <= 1) || math.IsInf(df, 0) {
		return math.NaN()
	}
	return 2 * gammaQuantile(df/2, u)
}

// Pick returns the index of the mixture component for base uniform u: the
// first k with u < w_0 + … + w_k. The weights sum to 1; the last component
// catches u above a sum that rounding left short of 1. Weights must be
// non-empty.
func Pick(weights []float64, u float64) int {
	sum := 0.0
	for k, w := range weights[:len(weights)-1] {
		sum += w
		if u < sum {
			return k
		}
	}
	return len(weights) - 1
}

// Gaussian writes to out (m×d, row-major) the m draws mean + L·z_j of the
// Gaussian N(mean, cov), z_j the rows of normals (m×d standard normals, the
// common random numbers) and L a square root of cov (d×d, row-major,
// positive semi-definite; directions without variance are allowed), which it
// computes in work (d×d). It returns false if cov is not positive
// semi-definite; with out empty it only checks that. It does not allocate.
func Gaussian(mean, cov, normals, out, work []float64) bool {
	d := len(mean)
	if !psd.Factor(cov, 1, work, d) {
		return false
	}
	for j := 0; j+d <= len(out); j += d {
		z, s := normals[j:j+d], out[j:j+d]
		for i := range d {
			v := mean[i]
			for k := range i + 1 {
				v += work[i*d+k] * z[k]
			}
			s[i] = v
		}
	}
	return true
}
