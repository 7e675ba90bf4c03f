package uncertain

import (
	"errors"
	"fmt"
	"math"

	"github.com/bocdev/boc/runtime/design"
)

// Jitter schedule of Embedding.Prepare, relative to the mean diagonal of
// K_ZZ: none first, then jitterStart·10^i for i = 0..jitterRetries−1
// (up to 1e-4).
const (
	jitterStart   = 1e-10
	jitterRetries = 7
	// minPivotRel is the smallest Cholesky pivot accepted, relative to the
	// mean diagonal: about a hundred times the rounding error of K_ZZ, so an
	// accepted factor never amplifies rounding by more than ~1e12.
	minPivotRel = 1e-12
)

// ErrNotPositiveDefinite reports a landmark Gram matrix that stays
// indefinite even with the largest jitter, or has non-finite entries.
var ErrNotPositiveDefinite = errors.New("uncertain: landmark Gram matrix is not positive definite")

// Embedding is the shared-landmark estimator: one landmark set Z of h points
// for the problem, K_ZZ = R Rᵀ (Cholesky, R lower), and each distribution
// embedded once as μ_P = (1/m) Σ_i R⁻¹ k(Z, u_i) ∈ R^h. Then
// MMD²(P, Q) ≈ ‖μ_P − μ_Q‖² and μ_Pᵀμ_Q approximates the integral kernel
// E k(u, v): both are the exact quantities for the projection of the mean
// embeddings onto span{k(z, ·) : z ∈ Z}. Embedding costs O(m·h) per
// distribution and a pair O(h), and exp(−α‖μ_P − μ_Q‖²) is a Gaussian kernel
// on R^h, so every Gram matrix built from it is PSD.
//
// Prepare must be called again whenever the base kernel's hyperparameters
// (or the landmarks) change. After Prepare, Embed only reads the Embedding,
// so it is safe for concurrent use.
type Embedding struct {
	h, d      int
	landmarks []float64 // h×d
	gram      []float64 // h×h lower triangle of K_ZZ
	chol      []float64 // h×h lower Cholesky factor R of K_ZZ + jitter·I
	jitter    float64   // jitter the last Prepare added
	prepared  bool
	sobol     *design.Sobol
}

// NewEmbedding returns an embedding with h landmarks in R^d, placed by
// SetLandmarks in the unit box [0, 1]^d (the models' unit coordinates). It
// panics if h or d < 1 or d exceeds design.MaxSobolDim.
func NewEmbedding(h, d int) *Embedding {
	if h < 1 || d < 1 {
		panic(fmt.Sprintf("uncertain: NewEmbedding(h=%d, d=%d): need h, d ≥ 1", h, d))
	}
	sobol, err := design.NewSobol(d, 0)
	if err != nil {
		panic(err)
	}
	e := &Embedding{
		h: h, d: d,
		landmarks: make([]float64, h*d),
		gram:      make([]float64, h*h),
		chol:      make([]float64, h*h),
		sobol:     sobol,
	}
	lo, hi := make([]float64, d), make([]float64, d)
	for i := range hi {
		hi[i] = 1
	}
	e.SetLandmarks(lo, hi)
	return e
}

// SetLandmarks places the h landmarks in the box [lo, hi] (len d each): the
// Sobol points 1..h (seed 0) scaled to the box. Point 0, the origin, is
// skipped so that no landmark sits on a corner. Prepare must follow. It does
// not allocate.
func (e *Embedding) SetLandmarks(lo, hi []float64) {
	d := e.d
	e.sobol.Reset(0)
	e.sobol.Next(e.landmarks[:d]) // the origin, overwritten below
	for j := range e.h {
		z := e.landmarks[j*d : (j+1)*d]
		e.sobol.Next(z)
		for i := range z {
			z[i] = lo[i] + (hi[i]-lo[i])*z[i]
		}
	}
	e.prepared = false
}

// Landmarks returns the h×d landmark coordinates, row-major. The slice is a
// view of the Embedding's storage: read it, do not modify it.
func (e *Embedding) Landmarks() []float64 { return e.landmarks }

// Jitter returns the diagonal jitter the last successful Prepare added to
// K_ZZ (0 when none was needed).
func (e *Embedding) Jitter() float64 { return e.jitter }

// Prepare computes K_ZZ for the kernel k and factors it, adding a jitter of
// 1e-10·(mean diagonal), ×10 per retry up to 1e-4·(mean diagonal), when the
// plain factorisation fails. It returns ErrNotPositiveDefinite if K_ZZ has
// non-finite entries or cannot be factored; Embed then panics until a
// Prepare succeeds. It does not allocate.
func (e *Embedding) Prepare(k Kernel) error {
	h, d := e.h, e.d
	e.prepared = false
	var diag float64
	for i := range h {
		zi := e.landmarks[i*d : (i+1)*d]
		for j := range i + 1 {
			kij := k.Eval(zi, e.landmarks[j*d:(j+1)*d])
			if math.IsNaN(kij) || math.IsInf(kij, 0) {
				return fmt.Errorf("%w: k(z_%d, z_%d) = %v", ErrNotPositiveDefinite, i, j, kij)
			}
			e.gram[i*h+j] = kij
		}
		diag += e.gram[i*h+i]
	}
	diag /= float64(h)
	if !(diag > 0) {
		return fmt.Errorf("%w: mean diagonal %v", ErrNotPositiveDefinite, diag)
	}
	for attempt := range jitterRetries + 1 {
		jitter := 0.0
		if attempt > 0 {
			jitter = jitterStart * math.Pow10(attempt-1) * diag
		}
		copy(e.chol, e.gram)
		for i := range h {
			e.chol[i*h+i] += jitter
		}
		if cholesky(e.chol, h, minPivotRel*diag) {
			e.jitter, e.prepared = jitter, true
			return nil
		}
	}
	return fmt.Errorf("%w: Cholesky failed with jitter up to %g·(mean diagonal %g)",
		ErrNotPositiveDefinite, jitterStart*math.Pow10(jitterRetries-1), diag)
}

// Embed writes μ_P = R⁻¹·(1/m) Σ_i k(Z, u_i) for the samples u (m×d, m ≥ 1)
// to out (len h), using work (len h) for the kernel means. It panics if no
// Prepare has succeeded since the landmarks were set; it does not allocate.
func (e *Embedding) Embed(k Kernel, u []float64, out, work []float64) {
	if !e.prepared {
		panic("uncertain: Embed before a successful Prepare")
	}
	h, d := e.h, e.d
	m := len(u) / d
	mean := work[:h]
	for j := range h {
		mean[j] = k.RowSum(e.landmarks[j*d:(j+1)*d], u, nil) / float64(m)
	}
	solveLower(e.chol, h, mean, out[:h])
}
