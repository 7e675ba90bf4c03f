package noise

import "math"

// The quantile of the Gamma(a, 1) distribution, which χ² draws need for
// every landing point of every candidate an acquisition scores: it must be
// fast as well as exact. gonum's inverse (cephes' igami) took 4–50 µs per
// call for the shapes of input noise; this solves the tail equation by
// Newton's method on the regularised incomplete gamma functions of
// Numerical Recipes §6.2 (the series, and Lentz's continued fraction),
// evaluated with one log-gamma per quantile, in about a microsecond.

// gammaQuantile returns x with P(a, x) = u, P the regularised lower
// incomplete gamma function, for a > 0 and u in [0, 1]. It inverts the
// smaller tail, below the median P(a, x) = u and above it Q(a, x) = 1 − u,
// so that both tails keep their relative accuracy, by Newton's method in
// t = log x on the log of the tail: the log of either tail is concave in t
// (the Gamma density is log-concave in log x), so the iteration converges
// from any start, and from Wilson and Hilferty's approximation, or the
// small-x series x ≈ (u Γ(a+1))^(1/a), in a few steps.
func gammaQuantile(a, u float64) float64 {
	switch {
	case u == 0:
		return 0
	case u == 1:
		return math.Inf(1)
	}
	lgammaA, _ := math.Lgamma(a)
	upper := u > 0.5
	logTarget := math.Log(u)
	if upper {
		logTarget = math.Log1p(-u) // 1 − u is exact above 1/2
	}
	t := wilsonHilferty(a, u)
	// The small-x series bounds the quantile from above where it holds
	// (log Γ(a+1) = log Γ(a) + log a); far in the lower tail it is the
	// better start.
	if series := (logTarget + lgammaA + math.Log(a)) / a; !upper && (math.IsNaN(t) || series < t) {
		t = series
	}
	if t < minLogFloat {
		return 0 // the quantile underflows float64
	}
	previous := math.Inf(1)
	for range maxNewtonSteps {
		x := math.Exp(t)
		p, q := gammaTails(a, x, lgammaA)
		tail := p
		if upper {
			tail = q
		}
		if !(tail > 0) {
			// Beyond what the tails resolve: step back towards the bulk.
			if upper {
				t -= 1
			} else {
				t += 1
			}
			continue
		}
		// d log P / dt = x·density(x) / P, and d log Q / dt its negative
		// with Q for P.
		slope := math.Exp(a*t-x-lgammaA) / tail
		if upper {
			slope = -slope
		}
		step := (math.Log(tail) - logTarget) / slope
		if math.Abs(step) >= previous {
			break // converged as far as the tails' rounding lets it: Newton's steps shrink quadratically until then
		}
		t -= step
		if math.Abs(step) <= 4e-16*max(1, math.Abs(t)) {
			break
		}
		previous = math.Abs(step)
	}
	return math.Exp(t)
}

// wilsonHilferty is the log of Wilson and Hilferty's approximation of the
// Gamma(a) quantile at u, a(1 − 1/(9a) + z/(3√a))³ with z the normal
// quantile, NaN where the cube is not positive (small a, low u).
func wilsonHilferty(a, u float64) float64 {
	z := Normal(u)
	c := 1 - 1/(9*a) + z/(3*math.Sqrt(a))
	if !(c > 0) {
		return math.NaN()
	}
	return math.Log(a) + 3*math.Log(c)
}

// gammaTails returns P(a, x) and Q(a, x) = 1 − P(a, x) for x > 0, lgammaA
// being log Γ(a): the series for P below x = a + 1, where it converges
// fast, and the continued fraction for Q above. Each is accurate in
// relative terms where it is computed, and the complement where it is not
// small.
func gammaTails(a, x, lgammaA float64) (p, q float64) {
	prefix := math.Exp(a*math.Log(x) - x - lgammaA) // x^a e^−x / Γ(a)
	if x < a+1 {
		// P = x^a e^−x / Γ(a) · Σ_n x^n / (a (a+1) ⋯ (a+n)).
		term := 1 / a
		sum := term
		for n := 1; n < maxSeriesTerms; n++ {
			term *= x / (a + float64(n))
			sum += term
			if term < sum*0x1p-54 {
				break
			}
		}
		p = prefix * sum
		return p, 1 - p
	}
	// Q = x^a e^−x / Γ(a) · 1/(x+1−a− 1·(1−a)/(x+3−a− 2·(2−a)/(x+5−a− ⋯))),
	// by the modified Lentz method.
	const tiny = 1e-300
	b := x + 1 - a
	c, d := 1/tiny, 1/b
	h := d
	for i := 1; i < maxSeriesTerms; i++ {
		an := -float64(i) * (float64(i) - a)
		b += 2
		if d = an*d + b; math.Abs(d) < tiny {
			d = tiny
		}
		if c = b + an/c; math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		delta := d * c
		h *= delta
		if math.Abs(delta-1) <= 0x1p-54 {
			break
		}
	}
	q = prefix * h
	return 1 - q, q
}

// maxSeriesTerms bounds the series and the continued fraction; both
// converge in well under it for the shapes of input noise (a few hundred
// terms at a = 10⁴).
const maxSeriesTerms = 10000

// minLogFloat is the logarithm of the smallest positive float64.
var minLogFloat = math.Log(math.SmallestNonzeroFloat64)

// maxNewtonSteps bounds gammaQuantile's iteration; it converges in a
// handful from its start.
const maxNewtonSteps = 100
