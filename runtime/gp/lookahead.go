package gp

import "github.com/bocdev/boc/runtime/internal/vec"

// What a one-step lookahead (runtime/acq's knowledge gradient) needs of the
// posterior: how the training points' latent values covary with a query
// point's, and the noise an observation at the query point would carry.
//
// With A = K + E, E = diag(λ/scale² + jitter), and w = A⁻¹k(x), the
// posterior covariance of f(x_i) and f(x) on the standardised scale is
// k_i − (K A⁻¹ k)_i = k_i − ((A − E) A⁻¹ k)_i = E_ii·w_i, so all n of them
// cost the one back-substitution that PredictGrad or SolveWeights does.

// TrainCovariances writes to cov[i] the posterior covariance (units of y²)
// of f at training point i and f at a query point x, given w = A⁻¹k(x) as
// PredictGrad leaves it in work or SolveWeights computes it.
func (g *GP) TrainCovariances(w, cov []float64) {
	s2 := g.scale * g.scale
	for i := range g.n {
		cov[i] = s2 * g.diagonalExtra(i) * w[i]
	}
}

// TrainCovariancesGrad writes to grad (D values) Σ_i c_i·∂cov_i/∂x_j, the
// gradient with respect to x of the weighted sum of TrainCovariances, where
// dk is the Jacobian of x's kernel vector as for PredictGrad:
// ∂w/∂x = A⁻¹·dk, so the sum is scale²·Σ_i u_i·dk[i, j] with u = A⁻¹(E c).
// work (Len() values) is overwritten with u.
func (g *GP) TrainCovariancesGrad(c, dk, work, grad []float64) {
	n, dim := g.n, len(grad)
	u := work[:n]
	for i := range u {
		u[i] = g.diagonalExtra(i) * c[i]
	}
	g.forwardSolve(n, u)
	g.backwardSolve(n, u)
	for j := range grad {
		grad[j] = 0
	}
	dk = dk[:n*dim]
	for i, ui := range u {
		vec.Axpy(ui, dk[i*dim:(i+1)*dim], grad)
	}
	s2 := g.scale * g.scale
	for j := range grad {
		grad[j] *= s2
	}
}

// NewObservationNoise is the noise variance (units of y²) expected of the
// next observation: the mean over the observations of theirs (the declared
// or learned variance when it is the same for all; with reported noise, the
// typical one), fantasies excluded; 0 without observations.
func (g *GP) NewObservationNoise() float64 {
	real := g.n - g.fantasies
	if real <= 0 {
		return 0
	}
	sum := 0.0
	for _, v := range g.noise[:real] {
		sum += v
	}
	return sum / float64(real)
}
