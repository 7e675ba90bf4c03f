package gp

import "github.com/bocdev/boc/runtime/internal/vec"

// PredictGrad returns the posterior mean and variance like Predict, and
// writes their gradients with respect to the query point x to dmean and dvar
// (D values each), for gradient-based acquisition search.
//
// kvec[i] = k(x, x_i) and kself = k(x, x) as for Predict; dk is the Jacobian
// of the kernel vector, Len()×D row-major with dk[i·D+j] = ∂k(x, x_i)/∂x_j,
// and dkself[j] = ∂k(x, x)/∂x_j, or nil when k(x, x) does not depend on x
// (stationary kernels). With v = L⁻¹k and w = L⁻ᵀv = A⁻¹k,
//
//	∂mean/∂x_j     = scale·Σ_i dk[i, j]·α_i
//	∂variance/∂x_j = scale²·(dkself_j − 2·Σ_i dk[i, j]·w_i)
//
// It overwrites kvec[:Len()] with v, as Predict does, and work[:Len()] with
// w; callers own every buffer, so goroutines may call it concurrently. Where
// the variance is clamped at 0 its gradient is 0.
func (g *GP) PredictGrad(kvec, dk []float64, kself float64, dkself, work, dmean, dvar []float64) (mean, variance float64) {
	n, dim := g.n, len(dmean)
	mean, variance = g.Predict(kvec, kself)
	w := work[:n]
	copy(w, kvec[:n])
	g.backwardSolve(n, w)
	for j := range dmean {
		dmean[j], dvar[j] = 0, 0
	}
	dk = dk[:n*dim]
	for i := range n {
		row := dk[i*dim : (i+1)*dim]
		vec.Axpy(g.alpha[i], row, dmean)
		vec.Axpy(w[i], row, dvar)
	}
	s2 := g.scale * g.scale
	for j := range dmean {
		dmean[j] *= g.scale
		if variance == 0 {
			dvar[j] = 0
			continue
		}
		dvar[j] *= -2 * s2
		if dkself != nil {
			dvar[j] += s2 * dkself[j]
		}
	}
	return mean, variance
}

// SolveWeights sets w[:Len()] to L⁻ᵀv = A⁻¹k, where v = L⁻¹k is what Predict
// left in a kernel vector k: the weights PosteriorCovarianceGrad needs for
// the fixed point of a covariance (e.g. the incumbent, once per search).
func (g *GP) SolveWeights(v, w []float64) {
	n := g.n
	copy(w[:n], v[:n])
	g.backwardSolve(n, w)
}

// PosteriorCovarianceGrad writes to dcov (D values) the gradient of the
// posterior covariance of a query point x and a fixed point x₂ with respect
// to x: scale²·(∂k(x, x₂)/∂x_j − Σ_i dk[i, j]·w₂_i), where dk is the Jacobian
// of x's kernel vector as for PredictGrad, dk12[j] = ∂k(x, x₂)/∂x_j, and w₂ =
// A⁻¹k(x₂) from SolveWeights.
func (g *GP) PosteriorCovarianceGrad(dk, dk12, w2, dcov []float64) {
	n, dim := g.n, len(dcov)
	for j := range dcov {
		dcov[j] = 0
	}
	dk = dk[:n*dim]
	for i := range n {
		vec.Axpy(w2[i], dk[i*dim:(i+1)*dim], dcov)
	}
	s2 := g.scale * g.scale
	for j := range dcov {
		dcov[j] = s2 * (dk12[j] - dcov[j])
	}
}
