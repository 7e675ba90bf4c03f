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
// eigenvalues below pinvRelTol·λ_max are dropped. Landmarks of two close
// distributions drawn with common random numbers nearly coincide, so K_h is
// often numerically singular; truncation keeps a valid (lower-rank) Nyström
// approximation, while rounding errors of order ε·λ_max in the kept
// directions are amplified by at most 1/pinvRelTol (≈1e-6 relative).
const pinvRelTol = 1e-10

// Nystrom estimates the mean kernel sums (1/m²)·1ᵀK1 of MMD² with the
// Nyström approximation K ≈ K_mh K_h⁺ K_mhᵀ (AIRBO Eq. 12) in O(m·h + h³)
// per call instead of O(m²). The landmarks are the first h samples of each
// set: the caller's samples are common-random-number draws in a fixed random
// order, so that is a fixed random subsample. K_h⁺ is the pseudo-inverse by
// symmetric eigendecomposition (LAPACK dsyev on preallocated memory) with
// eigenvalues below pinvRelTol·λ_max dropped, which is robust to coinciding
// landmarks where a Cholesky factorisation would fail.
//
// MMD² by Nyström is Self(u) + Self(v) − 2·Cross(u, v); callers cache Self
// per distribution. A Nystrom holds workspaces, so it is not safe for
// concurrent use: use one per goroutine.
type Nystrom struct {
	m, h, d int
	gram    []float64 // (2h)² landmark Gram matrix, overwritten by eigenvectors
	eig     []float64 // 2h eigenvalues
	a, b    []float64 // 2h kernel column sums K(u, Z)ᵀ1 and K(v, Z)ᵀ1
	work    []float64 // dsyev workspace
}

// NewNystrom returns a Nyström estimator for sample sets of m points of R^d
// with h ≤ m landmarks each. It panics on sizes < 1 or h > m.
func NewNystrom(m, h, d int) *Nystrom {
	if m < 1 || h < 1 || d < 1 || h > m {
		panic(fmt.Sprintf("uncertain: NewNystrom(m=%d, h=%d, d=%d): need m, h, d ≥ 1 and h ≤ m", m, h, d))
	}
	n := 2 * h
	ny := &Nystrom{
		m: m, h: h, d: d,
		gram: make([]float64, n*n),
		eig:  make([]float64, n),
		a:    make([]float64, n),
		b:    make([]float64, n),
	}
	// Workspace query for the largest (cross-term) size, which also covers h.
	var query [1]float64
	lapack64.Syev(lapack.EVCompute, blas64.Symmetric{Uplo: blas.Lower, N: n, Data: ny.gram, Stride: n}, ny.eig, query[:], -1)
	ny.work = make([]float64, int(query[0]))
	return ny
}

// Self returns ≈ (1/m²)·1ᵀK(u, u)1 for the m×d samples u, with u's first h
// samples as landmarks. It returns NaN only if the kernel returned a
// non-finite value or the eigensolver failed; it does not allocate.
func (ny *Nystrom) Self(k Kernel, u []float64) float64 {
	ny.checkLen(u)
	n := ny.h
	ny.landmarkGram(k, u, nil)
	ny.columnSums(k, u, nil, u, 0, ny.a[:n])
	return ny.quadForm(n, ny.a[:n], ny.a[:n])
}

// Cross returns ≈ (1/m²)·1ᵀK(u, v)1 for m×d samples u and v, with the
// union Z of both sets' first h samples as landmarks (2h points):
// 1ᵀK(u,v)1 ≈ (K(u,Z)ᵀ1)ᵀ K_ZZ⁺ (K(v,Z)ᵀ1). It does not allocate.
func (ny *Nystrom) Cross(k Kernel, u, v []float64) float64 {
	ny.checkLen(u)
	ny.checkLen(v)
	n := 2 * ny.h
	ny.landmarkGram(k, u, v)
	ny.columnSums(k, u, v, u, 0, ny.a[:n])
	ny.columnSums(k, u, v, v, ny.h, ny.b[:n])
	return ny.quadForm(n, ny.a[:n], ny.b[:n])
}

func (ny *Nystrom) checkLen(u []float64) {
	if len(u) != ny.m*ny.d {
		panic(fmt.Sprintf("uncertain: Nystrom got %d values, want m·d = %d", len(u), ny.m*ny.d))
	}
}

// landmark returns landmark j of Z = u[:h] ∪ v[:h].
func (ny *Nystrom) landmark(u, v []float64, j int) []float64 {
	d := ny.d
	if j >= ny.h {
		u, j = v, j-ny.h
	}
	return u[j*d : (j+1)*d]
}

// landmarkGram fills the full n×n Gram matrix of the landmarks, n = h for
// v == nil and 2h otherwise.
func (ny *Nystrom) landmarkGram(k Kernel, u, v []float64) {
	n := ny.h
	if v != nil {
		n *= 2
	}
	g := ny.gram[:n*n]
	for i := range n {
		zi := ny.landmark(u, v, i)
		for j := range i + 1 {
			kij := k(zi, ny.landmark(u, v, j))
			g[i*n+j], g[j*n+i] = kij, kij
		}
	}
}

// columnSums writes s_j = Σ_i k(x_i, z_j) over the m samples x (x = u with
// first = 0, or x = v with first = h), for the n = len(s) landmarks of
// u[:h] ∪ v[:h]. The first h rows of x are landmarks first..first+h−1, so
// their terms come from the Gram matrix instead of new kernel calls; it must
// run before quadForm overwrites the Gram matrix.
func (ny *Nystrom) columnSums(k Kernel, u, v, x []float64, first int, s []float64) {
	n, d := len(s), ny.d
	g := ny.gram[:n*n]
	clear(s)
	for i := range ny.h {
		for j, kij := range g[(first+i)*n : (first+i+1)*n] {
			s[j] += kij
		}
	}
	for i := ny.h; i < ny.m; i++ {
		xi := x[i*d : (i+1)*d]
		for j := range n {
			s[j] += k(xi, ny.landmark(u, v, j))
		}
	}
}

// quadForm returns (1/m²)·aᵀK⁺b for the n×n Gram matrix K in ny.gram,
// which it overwrites with K's eigenvectors.
func (ny *Nystrom) quadForm(n int, a, b []float64) float64 {
	g, w := ny.gram[:n*n], ny.eig[:n]
	if !lapack64.Syev(lapack.EVCompute, blas64.Symmetric{Uplo: blas.Lower, N: n, Data: g, Stride: n}, w, ny.work, len(ny.work)) {
		return math.NaN()
	}
	lmax := w[n-1]
	if !(lmax > 0) || math.IsInf(lmax, 0) {
		return math.NaN()
	}
	// Eigenvalues ascend; column c of g is the eigenvector of w[c].
	var s float64
	for c := n - 1; c >= 0 && w[c] > pinvRelTol*lmax; c-- {
		var qa, qb float64
		for i := range n {
			q := g[i*n+c]
			qa += q * a[i]
			qb += q * b[i]
		}
		s += qa * qb / w[c]
	}
	m := float64(ny.m)
	return s / (m * m)
}
