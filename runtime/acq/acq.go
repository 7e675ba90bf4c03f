// Package acq holds the acquisition functions of Bayesian optimisation under
// the maximisation convention: given the posterior mean and standard
// deviation of the objective at a point, each returns how desirable it is to
// evaluate there. All functions are pure, allocation-free and safe for
// concurrent use.
//
// Expected improvement is computed so that it keeps full relative accuracy
// far into the tail, where the textbook formula z·Φ(z) + φ(z) cancels
// catastrophically and then underflows: below z = -5 it is evaluated as
// φ(z)·T/(|z| + T) with T from Laplace's continued fraction for the Mills
// ratio, which has no cancellation. LogEI returns its logarithm, which stays
// finite and strictly increasing long after EI itself underflows (at
// z ≈ -38 for sd = 1), so optimisers can still rank hopeless candidates;
// LogPI does the same for the probability of improvement. Emitted optimisers
// search these logarithms and report the acquisition itself.
//
// Beyond the textbook acquisitions the package has corrected noisy EI and
// PI (noisy.go), noisy EI by Monte Carlo over the evaluated points' latent
// values (nei.go), the knowledge gradient (kg.go), GP-Hedge's portfolio
// (hedge.go), the unscented transform (unscented.go), UCB's exploration
// schedules with their β conventions (schedule.go), and each acquisition's
// derivatives with respect to the posterior mean and standard deviation for
// gradient-based search (grad.go).
package acq

import "math"

const (
	invSqrt2Pi    = 0.398942280401432677939946059934381868475858631164934657665925 // 1/√(2π)
	logSqrt2Pi    = 0.918938533204672741780329736405617639861397473637783412817152 // log √(2π)
	sqrt1_2       = 0.707106781186547524400844362104849039284835937688474036588340 // 1/√2
	sqrt1_2Low    = -4.8336466567264565185935844299127932213411660e-17             // 1/√2 − float64(1/√2)
	twoOverSqrtPi = 1.12837916709551257389615890312154517168810125865799771368817  // 2/√π
	tailThreshold = -5.0                                                           // below this z, EI uses the continued fraction
	minNormal     = 0x1p-1022                                                      // smallest normal float64
)

// NormPDF is the standard normal density φ(z), accurate to a few ulp even in
// the far tail: z² is split exactly into a rounded part and its rounding
// error (with a fused multiply-add), because a relative error ε in z²/2
// becomes an error εz²/2 in e^{−z²/2}.
func NormPDF(z float64) float64 {
	square := z * z
	residual := math.FMA(z, z, -square) // z² = square + residual exactly
	return invSqrt2Pi * math.Exp(-0.5*square) * (1 - 0.5*residual)
}

// NormCDF is the standard normal distribution function Φ(z), accurate to a
// few ulp in relative terms in both tails. Above z = -5 it is erfc(−z/√2)/2
// with a first-order correction for the rounding of −z/√2 (erfc magnifies
// that rounding by 2x², and EI's cancellation magnifies it again); below, it
// is φ(z)·R(−z) with the Mills ratio R from its continued fraction.
func NormCDF(z float64) float64 {
	if z >= tailThreshold {
		x := -z * sqrt1_2
		residual := math.FMA(-z, sqrt1_2, -x) - z*sqrt1_2Low // −z/√2 − x, to first order
		return 0.5 * (math.Erfc(x) - residual*twoOverSqrtPi*math.Exp(-x*x))
	}
	q := -z
	return NormPDF(z) / (q + millsTail(q))
}

// UCB is the upper confidence bound mean + beta·sd. beta multiplies sd
// directly (the uGP-UCB/AIRBO convention), unlike SGP-UCB's √β.
func UCB(mean, sd, beta float64) float64 {
	return mean + beta*sd
}

// PI is the probability of improvement P(f > best + xi) for f ~ N(mean, sd²).
// With sd <= 0 the prediction is certain: 1 if mean > best + xi, else 0.
func PI(mean, sd, best, xi float64) float64 {
	improvement := mean - best - xi
	if !(sd > 0) {
		if improvement > 0 {
			return 1
		}
		return 0
	}
	return NormCDF(improvement / sd)
}

// LogPI is log PI(mean, sd, best, xi), finite and strictly increasing in
// mean long after PI underflows: below z = -5 it is log φ(z) − log(q + T),
// q = −z, from the Mills ratio's continued fraction. −Inf when PI is exactly
// zero (sd <= 0 and no improvement).
func LogPI(mean, sd, best, xi float64) float64 {
	improvement := mean - best - xi
	if !(sd > 0) {
		return math.Log(PI(mean, sd, best, xi))
	}
	z := improvement / sd
	switch {
	case z > 0:
		return math.Log1p(-NormCDF(-z)) // log Φ(z) without Φ's rounding to 1
	case z >= tailThreshold:
		return math.Log(NormCDF(z))
	default:
		q := -z
		return logNormPDF(z) - math.Log(q+millsTail(q))
	}
}

// logNormPDF is log φ(z).
func logNormPDF(z float64) float64 { return -0.5*z*z - logSqrt2Pi }

// EI is the expected improvement E[max(f − best − xi, 0)] for
// f ~ N(mean, sd²), i.e. sd·(zΦ(z) + φ(z)) with z = (mean − best − xi)/sd.
// With sd <= 0 it is max(mean − best − xi, 0). It is positive whenever the
// true value is representable as a float64 and non-decreasing in mean and sd.
func EI(mean, sd, best, xi float64) float64 {
	improvement := mean - best - xi
	if !(sd > 0) {
		return max(improvement, 0)
	}
	z := improvement / sd
	switch {
	case z > 0:
		// h(z) = z + h(−z) keeps the dominant term exact.
		return improvement + sd*lowerImprovement(-z)
	}
	if h := lowerImprovement(z); h >= minNormal {
		return sd * h
	}
	// h(z) is subnormal or zero: combine the scale with the logarithm so
	// that sd·h(z) survives whenever it is representable.
	return math.Exp(math.Log(sd) + logImprovementTail(z))
}

// LogEI is log EI(mean, sd, best, xi), accurate and strictly increasing in
// mean down to z = (mean − best − xi)/sd of about −1e154 (where z² overflows);
// −Inf when EI is exactly zero (sd <= 0 and no improvement).
func LogEI(mean, sd, best, xi float64) float64 {
	improvement := mean - best - xi
	if !(sd > 0) {
		return math.Log(max(improvement, 0))
	}
	z := improvement / sd
	switch {
	case z > 0:
		return math.Log(improvement + sd*lowerImprovement(-z))
	case z >= tailThreshold:
		return math.Log(sd) + math.Log(lowerImprovement(z))
	default:
		return math.Log(sd) + logImprovementTail(z)
	}
}

// lowerImprovement is h(z) = zΦ(z) + φ(z) for z <= 0. Down to z = -5 the
// definition is used: its two terms cancel by at most a factor z² ≈ 25, so
// all but the last two digits survive. Below, h = φ(z)·(1 − qR(q)) with
// q = −z, evaluated without cancellation by millsComplement; it underflows
// for z below about −37.5.
func lowerImprovement(z float64) float64 {
	if z >= tailThreshold {
		return z*NormCDF(z) + NormPDF(z)
	}
	return NormPDF(z) * millsComplement(-z)
}

// logImprovementTail is log h(z) for z < -5, finite long after h underflows.
func logImprovementTail(z float64) float64 {
	return logNormPDF(z) + math.Log(millsComplement(-z))
}

// millsComplement is 1 − qR(q) for q >= 5, where R(q) = Φ(−q)/φ(q) =
// 1/(q + T) is the Mills ratio; as T/(q + T) it is a ratio of positive
// numbers with no cancellation.
func millsComplement(q float64) float64 {
	t := millsTail(q)
	return t / (q + t)
}

// millsTail is T = 1/(q + 2/(q + 3/(q + ...))) from Laplace's continued
// fraction R(q) = 1/(q + T) for the Mills ratio, evaluated bottom-up with as
// many terms as q needs: the fraction converges faster as q grows, and
// millsDepth's counts give, from q = 5 up, the bits of a 400-term
// evaluation (TestMillsTailDepth), so the far tail, where most candidates of
// a search lie, costs a few divisions instead of 60.
func millsTail(q float64) float64 {
	t := 0.0
	for k := millsTerms(q); k >= 1; k-- {
		t = float64(k) / (q + t)
	}
	return t
}

// millsDepth lists, from q = 5 up, the fewest terms from which millsTail
// no longer changes in the last bit, for q at least the entry's start.
var millsDepth = [...]struct {
	from  float64
	terms int
}{{1000, 6}, {100, 8}, {50, 10}, {30, 11}, {20, 14}, {15, 15}, {12, 17}, {10, 20}, {8, 23}, {7, 26}, {6, 33}, {5, 40}}

// millsTerms is the continued fraction's depth for q (q >= 5).
func millsTerms(q float64) int {
	for _, d := range millsDepth {
		if q >= d.from {
			return d.terms
		}
	}
	return millsDepth[len(millsDepth)-1].terms
}
