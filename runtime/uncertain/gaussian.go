package uncertain

import (
	"fmt"
	"math"
)

// WorkLen returns the workspace length the Gaussian closed forms need for
// d-dimensional inputs: two d×d factors and one vector.
func WorkLen(d int) int { return 2*d*d + d }

// IntegralSE is the integral kernel E k(u, v), u ~ P = N(ma, Sa) and
// v ~ Q = N(mb, Sb) independent, of the SE kernel k with variance s2 and
// lengthscales ls (Oliveira Eq. 80):
//
//	s2·exp(−½ Δᵀ(W+Sa+Sb)⁻¹Δ) / sqrt(det(I + W⁻¹(Sa+Sb))),  W = diag(ls²), Δ = ma − mb.
//
// With Sa = Sb = 0 it is the SE kernel; with Sa = Sb = Σ_P and ma = mb it is
// E k(u, u') for independent draws of P (not k(u, u)). It is also the
// "expected RBF" kernel for P ≠ Q. Covariances are d×d row-major symmetric
// PSD; nil stands for zero. work needs len ≥ WorkLen(d). It panics if the
// covariances are not PSD (a programming error); it does not allocate.
func IntegralSE(s2 float64, ls, ma, Sa, mb, Sb, work []float64) float64 {
	d := len(ls)
	// Scale by W^{-1/2}: M = I + W^{-1/2}(Sa+Sb)W^{-1/2} has eigenvalues ≥ 1,
	// so it factors stably, det M = det(I + W⁻¹(Sa+Sb)) and
	// Δᵀ(W+Sa+Sb)⁻¹Δ = δᵀM⁻¹δ with δ = W^{-1/2}Δ.
	m, delta := work[:d*d], work[2*d*d:2*d*d+d]
	scaledCovariance(ls, Sa, Sb, m)
	mustFactor(m, d, "Sa + Sb")
	for i := range d {
		delta[i] = (ma[i] - mb[i]) / ls[i]
	}
	solveLower(m, d, delta, delta)
	q := sumSquares(delta)
	var logDet float64
	for i := range d {
		logDet += 2 * math.Log(m[i*d+i])
	}
	return s2 * math.Exp(-0.5*(q+logDet))
}

// SymmetricKLSE is s2·exp(−½·SKL(N(ma, Sa+W), N(mb, Sb+W))), where
// SKL = KL(P‖Q) + KL(Q‖P) and W = diag(ls²): AIRBO's skl baseline, with W
// added to both covariances so that it is a proper generalisation of the SE
// kernel (zero covariances give SKL = ΔᵀW⁻¹Δ) and stays finite for point
// inputs. For A = Sa+W, B = Sb+W the log-determinants cancel:
//
//	SKL = ½[tr(B⁻¹A) + tr(A⁻¹B) − 2d + Δᵀ(A⁻¹ + B⁻¹)Δ].
//
// Arguments and panics are as for IntegralSE.
func SymmetricKLSE(s2 float64, ls, ma, Sa, mb, Sb, work []float64) float64 {
	d := len(ls)
	// As in IntegralSE, work with Ã = W^{-1/2}AW^{-1/2} = I + ..., B̃ likewise;
	// traces and quadratic forms are unchanged with δ = W^{-1/2}Δ.
	la, lb, v := work[:d*d], work[d*d:2*d*d], work[2*d*d:2*d*d+d]
	scaledCovariance(ls, Sa, nil, la)
	scaledCovariance(ls, Sb, nil, lb)
	mustFactor(la, d, "Sa")
	mustFactor(lb, d, "Sb")
	skl := traceInvProduct(lb, la, d, v) + traceInvProduct(la, lb, d, v) - 2*float64(d)
	for _, l := range [2][]float64{la, lb} {
		for i := range d {
			v[i] = (ma[i] - mb[i]) / ls[i]
		}
		solveLower(l, d, v, v)
		skl += sumSquares(v)
	}
	return s2 * math.Exp(-0.25*skl)
}

// scaledCovariance writes the lower triangle of I + W^{-1/2}(Sa+Sb)W^{-1/2}
// to m (d×d), treating a nil covariance as zero.
func scaledCovariance(ls, Sa, Sb, m []float64) {
	d := len(ls)
	for i := range d {
		for j := 0; j <= i; j++ {
			var s float64
			if Sa != nil {
				s += Sa[i*d+j]
			}
			if Sb != nil {
				s += Sb[i*d+j]
			}
			s /= ls[i] * ls[j]
			if i == j {
				s++
			}
			m[i*d+j] = s
		}
	}
}

// mustFactor Cholesky-factors m = I + (PSD) in place. Its pivots are ≥ 1 in
// exact arithmetic, so failure means the covariance was not PSD.
func mustFactor(m []float64, d int, what string) {
	if !cholesky(m, d, 0) {
		panic(fmt.Sprintf("uncertain: covariance %s is not positive semi-definite (or not finite)", what))
	}
}

// traceInvProduct returns tr(B̃⁻¹Ã) = ‖Lb⁻¹La‖_F² for Ã = La Laᵀ and
// B̃ = Lb Lbᵀ, using v (len d) as scratch.
func traceInvProduct(lb, la []float64, d int, v []float64) float64 {
	var s float64
	for j := range d {
		for i := range d {
			v[i] = 0
			if i >= j {
				v[i] = la[i*d+j]
			}
		}
		solveLower(lb, d, v, v)
		s += sumSquares(v)
	}
	return s
}

// sumSquares returns xᵀx.
func sumSquares(x []float64) float64 {
	var s float64
	for _, xi := range x {
		s += xi * xi
	}
	return s
}
