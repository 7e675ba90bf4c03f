package acq

import "math"

// Corrected noisy expected improvement (Zhou, Ma and Blaschko, Eq. 7; MATH.md
// §7). With noisy observations the best observed value is a biased
// incumbent, so the improvement is measured against the incumbent x⁺, the
// evaluated point with the largest posterior mean, and its uncertainty is
// that of the difference f(x) − f(x⁺) under the joint posterior:
//
//	u = μ(x) − μ(x⁺),  σ̃² = σ²(x) + σ²(x⁺) − 2 cov(x, x⁺),
//	α = σ̃ φ(u/σ̃) + u Φ(u/σ̃) = E[max(f(x) − f(x⁺), 0)].
//
// That is EI with mean u and standard deviation σ̃, so the functions below
// reuse EI's tail-safe evaluation. Where σ̃ = 0 the difference is certain and
// α = max(u, 0), the exact expectation; the paper's "α = 0 where σ̃ = 0" is
// the case x = x⁺, where u = 0 too. Without noise at x⁺ (σ(x⁺) = 0, hence
// cov = 0) it is ordinary EI.

// NoisyEI is the corrected noisy EI of a candidate with posterior mean and
// standard deviation sd, given the incumbent's posterior mean bestMean and
// standard deviation bestSD and the posterior covariance cov of the two.
func NoisyEI(mean, sd, bestMean, bestSD, cov float64) float64 {
	return EI(mean, jointSD(sd, bestSD, cov), bestMean, 0)
}

// LogNoisyEI is log NoisyEI, finite where NoisyEI underflows (see LogEI).
func LogNoisyEI(mean, sd, bestMean, bestSD, cov float64) float64 {
	return LogEI(mean, jointSD(sd, bestSD, cov), bestMean, 0)
}

// NoisyEIGrad returns NoisyEI and its derivatives with respect to the
// candidate's mean, standard deviation and covariance with the incumbent.
func NoisyEIGrad(mean, sd, bestMean, bestSD, cov float64) (v, dMean, dSD, dCov float64) {
	s := jointSD(sd, bestSD, cov)
	v, dMean, dS := EIGrad(mean, s, bestMean, 0)
	dSD, dCov = chainJointSD(dS, sd, s)
	return v, dMean, dSD, dCov
}

// LogNoisyEIGrad returns LogNoisyEI and its derivatives, as NoisyEIGrad.
func LogNoisyEIGrad(mean, sd, bestMean, bestSD, cov float64) (v, dMean, dSD, dCov float64) {
	s := jointSD(sd, bestSD, cov)
	v, dMean, dS := LogEIGrad(mean, s, bestMean, 0)
	dSD, dCov = chainJointSD(dS, sd, s)
	return v, dMean, dSD, dCov
}

// Corrected probability of improvement (Ma et al. 2019, a baseline Zhou,
// Ma and Blaschko compare with): the probability that f(x) improves on
// f(x⁺) by more than ξ under the same joint posterior,
//
//	α = P(f(x) − f(x⁺) > ξ) = Φ((u − ξ)/σ̃),
//
// PI with mean u and standard deviation σ̃, so it reuses PI's tail-safe
// logarithm. Where σ̃ = 0 it is 1 if u > ξ, else 0. With ξ = 0, the form
// the papers use, its supremum is usually approached right beside x⁺: there
// u and σ̃ shrink in proportion to the step, so Φ(u/σ̃) tends to the
// probability that f rises in the step's direction, however short the step.
// A positive ξ removes that limit (Φ(−ξ/σ̃) → 0 there).

// NoisyPI is the corrected probability of improvement by more than xi of a
// candidate, with the other arguments of NoisyEI.
func NoisyPI(mean, sd, bestMean, bestSD, cov, xi float64) float64 {
	return PI(mean, jointSD(sd, bestSD, cov), bestMean, xi)
}

// LogNoisyPI is log NoisyPI, finite where NoisyPI underflows (see LogPI).
func LogNoisyPI(mean, sd, bestMean, bestSD, cov, xi float64) float64 {
	return LogPI(mean, jointSD(sd, bestSD, cov), bestMean, xi)
}

// LogNoisyPIGrad returns LogNoisyPI and its derivatives, as NoisyEIGrad.
func LogNoisyPIGrad(mean, sd, bestMean, bestSD, cov, xi float64) (v, dMean, dSD, dCov float64) {
	s := jointSD(sd, bestSD, cov)
	v, dMean, dS := LogPIGrad(mean, s, bestMean, xi)
	dSD, dCov = chainJointSD(dS, sd, s)
	return v, dMean, dSD, dCov
}

// jointSD is σ̃, the posterior standard deviation of f(x) − f(x⁺); rounding
// can make σ̃² slightly negative when x is (almost) x⁺, so it is clamped at 0.
func jointSD(sd, bestSD, cov float64) float64 {
	return math.Sqrt(max(sd*sd+bestSD*bestSD-2*cov, 0))
}

// chainJointSD converts a derivative dS with respect to σ̃ into derivatives
// with respect to sd (∂σ̃/∂sd = sd/σ̃) and cov (∂σ̃/∂cov = −1/σ̃); both are 0
// where σ̃ = 0, whose neighbourhood the clamp makes flat.
func chainJointSD(dS, sd, s float64) (dSD, dCov float64) {
	if !(s > 0) {
		return 0, 0
	}
	return dS * sd / s, -dS / s
}
