package acq

import (
	"math"

	"github.com/bocdev/boc/runtime/internal/psd"
)

// Unscented expected improvement (Nogueira et al. 2016) averages an
// acquisition over the sigma points of the unscented transform of the input
// distribution at a candidate, instead of evaluating it at the candidate
// alone: a candidate is good only if the points the query may land at are.

// SigmaPoints writes the 2d+1 sigma points of the unscented transform of a
// distribution with mean (d values) and covariance cov (d×d, row-major,
// symmetric positive semi-definite) to points ((2d+1)×d, row-major) and
// their weights to weights (2d+1): the mean with weight κ/(d+κ), then
// mean ± the columns of a square root of (d+κ)·cov, each with weight
// 1/(2(d+κ)). The square root is the Cholesky factor, computed in work
// (d×d) so that components without noise (zero rows) give zero columns. It
// returns false if cov is not positive semi-definite or d+κ <= 0. It does not
// allocate.
func SigmaPoints(mean, cov []float64, kappa float64, points, weights, work []float64) bool {
	d := len(mean)
	scale := float64(d) + kappa
	if !(scale > 0) {
		return false
	}
	l := work[:d*d]
	if !psd.Factor(cov, scale, l, d) {
		return false
	}
	copy(points[:d], mean)
	weights[0] = kappa / scale
	for j := range d {
		plus, minus := points[(1+2*j)*d:(2+2*j)*d], points[(2+2*j)*d:(3+2*j)*d]
		for i := range d {
			plus[i] = mean[i] + l[i*d+j]
			minus[i] = mean[i] - l[i*d+j]
		}
		weights[1+2*j], weights[2+2*j] = 0.5/scale, 0.5/scale
	}
	return true
}

// LogWeightedSum returns log Σ_i w_i·exp(logs[i]) for weights w_i >= 0 without
// overflow or underflow: the logarithm of a weighted mean of acquisitions
// given by their logarithms (as LogEI returns them). Terms with zero weight
// are left out; it is −Inf when every term is.
func LogWeightedSum(logs, weights []float64) float64 {
	top := math.Inf(-1)
	for i, v := range logs {
		if weights[i] > 0 && v > top {
			top = v
		}
	}
	if math.IsInf(top, -1) {
		return top
	}
	sum := 0.0
	for i, v := range logs {
		if weights[i] > 0 {
			sum += weights[i] * math.Exp(v-top)
		}
	}
	return top + math.Log(sum)
}
