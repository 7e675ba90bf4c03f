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

// TrainPosteriorCovariance writes to cov (n×n, row-major, n = Len()) the
// joint posterior covariance (units of y²) of f at the training points:
// K − K A⁻¹ K = E − E A⁻¹ E = scale²·(E − BᵀB) with B = L⁻¹E, which needs
// no product with K. work (n×n values) is overwritten with Bᵀ. O(n³).
func (g *GP) TrainPosteriorCovariance(work, cov []float64) {
	n := g.n
	for j := range n {
		col := work[j*n : (j+1)*n] // column j of B: zero above row j
		clear(col)
		col[j] = g.diagonalExtra(j)
		for i := j; i < n; i++ {
			start := rowStart(i)
			col[i] = (col[i] - vec.Dot(g.l[start+j:start+i], col[j:i])) / g.l[start+i]
		}
	}
	s2 := g.scale * g.scale
	for i := range n {
		for j := range i + 1 {
			lo := max(i, j) // both columns are zero above their own index
			c := -vec.Dot(work[i*n+lo:(i+1)*n], work[j*n+lo:(j+1)*n])
			if i == j {
				c += g.diagonalExtra(i)
			}
			cov[i*n+j], cov[j*n+i] = s2*c, s2*c
		}
	}
}
