package uncertain

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// pinvRelTol is the relative eigenvalue cut-off of the pseudo-inverse K_h⁺:
// eigenvalues below pinvRelTol·λ_max are dropped. Close landmarks make K_h
// numerically singular, and a kept eigenvalue λ allows weights of order
// sqrt(λ_max/λ), whose squares multiply the rounding errors of the cross
// terms: MMD² is accurate to about ε/pinvRelTol. Dropping directions keeps a
// valid, lower-rank approximation, so the cut-off trades accuracy for
// rounding. Measured over 24 seeds of TestNystromGramsArePSD's sample sets
// (60 for 1e-5), the worst Gram eigenvalue was −8e-8 with a cut-off of
// 1e-10, −6e-11 with 1e-6 and −1e-12 with 1e-5, while Nyström's mean MMD² error at h = 10
// (TestErrorShrinksWithLandmarks) grew from 7e-4 to 3e-3 and the posterior
// means of TestAIRBOWorkloadPosteriors did not move.
const pinvRelTol = 1e-5

// Nystrom is AIRBO's Nyström estimator of MMD² (their Eq. 12 as their code
// computes it), O(m·h + h³) per distribution and O(h²) per pair instead of
// the empirical estimator's O(m²) per pair. A distribution with m samples u
// has as landmarks U_h its first h samples (the caller's samples are
// common-random-number draws in a fixed random order, so that is a fixed
// random subsample) and Nyström weights a_u = K_h⁺ K(U_h, u) 1/m, which make
// ν_u = Σ_j a_uj k(U_hj, ·) the projection of the samples' mean embedding
// onto the span of k(U_hj, ·). Then
//
//	MMD²(u, v) ≈ ‖ν_u − ν_v‖² = a_uᵀK(U_h, U_h)a_u + a_vᵀK(V_h, V_h)a_v − 2·a_uᵀK(U_h, V_h)a_v,
//
// the Weights of u and of v minus twice their Cross. Each distribution keeps
// its own landmarks, as in AIRBO; one landmark set shared by all is the
// Embedding estimator. Either way every ν_u is a fixed point of the base
// kernel's RKHS, so the estimates are squared distances in one Hilbert space
// and exp(−α·MMD²), a Gaussian function of them, gives positive
// semi-definite Gram matrices over any set of distributions, up to rounding.
// (Projecting each pair onto the union of its two landmark sets does not:
// the points then differ from pair to pair.)
//
// K_h⁺ is the pseudo-inverse by symmetric eigendecomposition (LAPACK dsyev on
// preallocated memory) with eigenvalues below pinvRelTol·λ_max dropped, which
// is robust to coinciding landmarks where a Cholesky factorisation would
// fail. Weights uses workspaces, so it is not safe for concurrent use: use
// one Nystrom per goroutine. Cross only reads the Nystrom.
type Nystrom struct {
	m, h, d int
	gram    []float64 // h×h landmark Gram matrix, overwritten by eigenvectors
	eig     []float64 // h eigenvalues
	sums    []float64 // h column sums K(U_h, u)1
	work    []float64 // dsyev workspace
}

// NewNystrom returns a Nyström estimator for sample sets of m points of R^d
// with h ≤ m landmarks each. It panics on sizes < 1 or h > m.
func NewNystrom(m, h, d int) *Nystrom {
	if m < 1 || h < 1 || d < 1 || h > m {
		panic(fmt.Sprintf("uncertain: NewNystrom(m=%d, h=%d, d=%d): need m, h, d ≥ 1 and h ≤ m", m, h, d))
	}
	ny := &Nystrom{
		m: m, h: h, d: d,
		gram: make([]float64, h*h),
		eig:  make([]float64, h),
		sums: make([]float64, h),
	}
	var query [1]float64
	lapack64.Syev(lapack.EVCompute, ny.symmetric(), ny.eig, query[:], -1)
	ny.work = make([]float64, int(query[0]))
	return ny
}

func (ny *Nystrom) symmetric() blas64.Symmetric {
	return blas64.Symmetric{Uplo: blas.Lower, N: ny.h, Data: ny.gram, Stride: ny.h}
}

// Weights writes the Nyström weights a = K_h⁺ K(U_h, u) 1/m of the m×d
// samples u to a (len h) and returns ‖ν_u‖² = aᵀK_h a, which equals
// (1/m²)·1ᵀK(u, U_h) K_h⁺ K(U_h, u)1, the Nyström estimate of the mean
// kernel sum (1/m²)·1ᵀK(u, u)1. It returns NaN, and leaves NaN weights, only
// if the kernel returned a non-finite value or the eigensolver failed; it
// does not allocate.
func (ny *Nystrom) Weights(k Kernel, u, a []float64) float64 {
	ny.checkLen(u)
	h, d := ny.h, ny.d
	a = a[:h]
	g, w, p := ny.gram, ny.eig, ny.sums
	for i := range h {
		ui := u[i*d : (i+1)*d]
		for j := range i + 1 {
			kij := k.Eval(ui, u[j*d:(j+1)*d])
			g[i*h+j], g[j*h+i] = kij, kij
		}
	}
	// Column sums of K(u, U_h): the landmarks' own rows come from g, the
	// other samples' by a row per landmark.
	rest := u[h*d:]
	for j := range h {
		p[j] = k.RowSum(u[j*d:(j+1)*d], rest, nil)
	}
	for i := range h {
		for j, kij := range g[i*h : (i+1)*h] {
			p[j] += kij
		}
	}
	nan := func() float64 {
		for j := range a {
			a[j] = math.NaN()
		}
		return math.NaN()
	}
	if !lapack64.Syev(lapack.EVCompute, ny.symmetric(), w, ny.work, len(ny.work)) {
		return nan()
	}
	lmax := w[h-1]
	if !(lmax > 0) || math.IsInf(lmax, 0) {
		return nan()
	}
	// Eigenvalues ascend; column c of g is the eigenvector q_c of w[c], and
	// a = Σ_c q_c (q_cᵀK(U_h, u)1/m)/λ_c over the kept eigenvalues.
	clear(a)
	m := float64(ny.m)
	for c := h - 1; c >= 0 && w[c] > pinvRelTol*lmax; c-- {
		var coef float64
		for i := range h {
			coef += g[i*h+c] * p[i]
		}
		coef /= m * w[c]
		for i := range h {
			a[i] += coef * g[i*h+c]
		}
	}
	// The self term by the cross term's own arithmetic, so that MMD²(u, u)
	// is exactly 0 and the rounding of self and cross terms alike: that
	// made the worst eigenvalues of TestNystromGramsArePSD ten times smaller
	// than the more accurate Σ_c (q_cᵀK(U_h, u)1/m)²/λ_c.
	return ny.Cross(k, u, a, u, a)
}

// Cross returns ⟨ν_u, ν_v⟩ = a_uᵀK(U_h, V_h)a_v for the m×d samples u and v
// and their Weights au and av: the Nyström estimate of (1/m²)·1ᵀK(u, v)1,
// in one block of h² kernel values. It does not allocate or write to ny.
func (ny *Nystrom) Cross(k Kernel, u, au, v, av []float64) float64 {
	ny.checkLen(u)
	ny.checkLen(v)
	h, d := ny.h, ny.d
	return k.PairSum(u[:h*d], v[:h*d], d, au[:h], av[:h])
}

func (ny *Nystrom) checkLen(u []float64) {
	if len(u) != ny.m*ny.d {
		panic(fmt.Sprintf("uncertain: Nystrom got %d values, want m·d = %d", len(u), ny.m*ny.d))
	}
}
