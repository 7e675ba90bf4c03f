package acq

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/bocdev/boc/runtime/internal/vec"
)

// Noisy expected improvement by Monte Carlo (Letham, Karrer, Ottoni and
// Bakshy 2019; for one candidate it is also what BoTorch's
// qNoisyExpectedImprovement estimates: the two Monte Carlo baselines of
// Zhou, Ma and Blaschko). Under observation noise no evaluated value is
// known, so the improvement is over the best latent value at the evaluated
// points X, under the joint posterior of f(X) and f(x):
//
//	NEI(x) = E[max(f(x) − max_i f(x_i), 0)].
//
// LatentDraws draws S samples f_s of f(X) ~ N(μ_X, Σ) once per suggestion,
// so that the search climbs one deterministic function (common random
// numbers). Given f(X) = f_s, f(x) is normal, the posterior of a
// noise-free GP through (X, f_s), Letham et al.'s fantasy model:
//
//	m_s = μ(x) + cᵀΣ⁻¹(f_s − μ_X),  d² = σ²(x) − cᵀΣ⁻¹c,
//
// c the posterior covariances of f(x) with f(X). So the expectation over
// f(x) is exact, and
//
//	NEI(x) ≈ (1/S) Σ_s EI(m_s, d; M_s),  M_s = max_i f_s,i,
//
// an average of closed-form EIs: smooth in x, and positive wherever d > 0,
// so a search can climb its logarithm where every term underflows. With
// Σ + δI = LLᵀ (the jitter δ as small as the factorisation allows) and
// f_s = μ_X + L z_s, z_s ~ N(0, I), the vector Σ⁻¹(f_s − μ_X) = L⁻ᵀz_s is
// stored per sample; a candidate costs one triangular solve (v = L⁻¹c,
// d² = σ² − |v|²) and S dot products. Without observation noise Σ = 0 up
// to the model's jitter, every f_s is μ_X, and NEI is EI against the best
// posterior mean at an evaluated point.

// LatentDraws are the samples of the latent values at the evaluated points
// that NEI averages over, drawn by Prepare for one search. After Prepare it
// is read-only: concurrent searches may score candidates with it, each with
// its own scratch memory.
type LatentDraws struct {
	capacity, samples, n int
	chol                 []float64 // packed lower triangle of Σ + δI
	solved               []float64 // row s: L⁻ᵀz_s (capacity values, n used)
	best                 []float64 // M_s
	normals              []float64 // z_s, while preparing
	work, cov            []float64 // Buffers' memory
	certain              bool      // Σ = 0: every f_s is μ_X
	pcg                  *rand.PCG
	rng                  *rand.Rand
}

// drawJitterSteps bounds the jitter's escalation: from 1e-12 of Σ's mean
// diagonal, by factors of 10, up to that diagonal itself.
const drawJitterSteps = 13

// ErrLatentDraws reports that the evaluated points' posterior covariance could
// not be factorised: it is not finite.
var ErrLatentDraws = errors.New("acq: the posterior covariance of the evaluated points is not finite")

// NewLatentDraws returns memory for samples samples of up to capacity
// evaluated points. It is the only allocation.
func NewLatentDraws(capacity, samples int) *LatentDraws {
	pcg := rand.NewPCG(0, 0)
	return &LatentDraws{
		capacity: capacity, samples: samples,
		chol:    make([]float64, vec.PackedRow(capacity)),
		solved:  make([]float64, samples*capacity),
		best:    make([]float64, samples),
		normals: make([]float64, capacity),
		work:    make([]float64, capacity*capacity), cov: make([]float64, capacity*capacity),
		pcg: pcg, rng: rand.New(pcg),
	}
}

// Buffers returns n×n memory (n at most the capacity) in which a caller
// computes the covariance it passes to Prepare, with a workspace.
func (f *LatentDraws) Buffers(n int) (work, cov []float64) {
	return f.work[:n*n], f.cov[:n*n]
}

// ScratchLen is the length of the scratch memory LogNEI and LogNEIGrad need
// per concurrent caller.
func (f *LatentDraws) ScratchLen() int { return 2*f.capacity + 3*f.samples }

// Prepare draws the samples from the posterior means of the n evaluated
// points (model's convention, larger is better) and their posterior
// covariance cov (n×n, row-major), with random stream seed. A point whose
// mean is NaN is left out of the best value M_s, the improvement's
// baseline: one that cannot be recommended, as a point that breaks an
// outcome constraint cannot (constrained NEI). Without a point left, there
// is nothing to improve on, as before any evaluation.
func (f *LatentDraws) Prepare(means, cov []float64, seed uint64) error {
	n := len(means)
	if !slices.ContainsFunc(means, func(m float64) bool { return !math.IsNaN(m) }) {
		n = 0
	}
	f.n = n
	if n == 0 {
		return nil
	}
	if err := f.factor(cov); err != nil {
		return err
	}
	f.pcg.Seed(seed, uint64(n))
	z := f.normals[:n]
	clear(z) // stays 0 when the values are certain: every f_s is μ_X
	for s := range f.samples {
		if !f.certain {
			for i := range z {
				z[i] = f.rng.NormFloat64()
			}
		}
		e := f.solved[s*f.capacity : s*f.capacity+n]
		copy(e, z)
		f.backwardSolve(e)
		best := math.Inf(-1)
		for i := range n { // f_s,i = μ_i + (row i of L)·z
			if math.IsNaN(means[i]) {
				continue
			}
			start := vec.PackedRow(i)
			best = max(best, means[i]+vec.Dot(f.chol[start:start+i+1], z[:i+1]))
		}
		f.best[s] = best
	}
	return nil
}

// factor computes the Cholesky factor of cov + δI, escalating δ from a
// millionth of a millionth of the mean diagonal until it succeeds.
func (f *LatentDraws) factor(cov []float64) error {
	n := f.n
	diagonal := 0.0
	for i := range n {
		diagonal += cov[i*n+i]
	}
	diagonal /= float64(n)
	if math.IsNaN(diagonal) || math.IsInf(diagonal, 0) {
		return ErrLatentDraws
	}
	if !(diagonal > 0) {
		// The values are certain (an exact model's posterior at its data):
		// L = I with every z_s taken as 0, so each f_s is μ_X.
		f.certain = true
		f.setIdentity()
		return nil
	}
	f.certain = false
	jitter := 1e-12 * diagonal
	for range drawJitterSteps {
		if f.tryFactor(cov, jitter) {
			return nil
		}
		jitter *= 10
	}
	return ErrLatentDraws
}

// setIdentity sets L = I.
func (f *LatentDraws) setIdentity() {
	for i := range f.n {
		start := vec.PackedRow(i)
		clear(f.chol[start : start+i])
		f.chol[start+i] = 1
	}
}

// tryFactor factorises cov + jitter·I row by row; false if a pivot is not
// positive.
func (f *LatentDraws) tryFactor(cov []float64, jitter float64) bool {
	n := f.n
	for i := range n {
		start := vec.PackedRow(i)
		row := f.chol[start : start+i+1]
		for j := range i + 1 {
			other := f.chol[vec.PackedRow(j) : vec.PackedRow(j)+j]
			s := cov[i*n+j] - vec.Dot(row[:j], other)
			if j < i {
				row[j] = s / f.chol[vec.PackedRow(j)+j]
				continue
			}
			s += jitter
			if !(s > 0) || math.IsInf(s, 0) {
				return false
			}
			row[i] = math.Sqrt(s)
		}
	}
	return true
}

// forwardSolve overwrites x[:n] with L⁻¹x.
func (f *LatentDraws) forwardSolve(x []float64) { vec.SolveLower(f.chol, f.n, x) }

// backwardSolve overwrites x[:n] with L⁻ᵀx.
func (f *LatentDraws) backwardSolve(x []float64) { vec.SolveLowerT(f.chol, f.n, x) }

// LogNEI returns log NEI of a candidate with posterior mean and standard
// deviation sd (model's convention) and posterior covariances covs with the
// evaluated points, using scratch (ScratchLen values). It is −Inf where
// every term is exactly 0, and 0 (NEI = 1) before any point is evaluated,
// when there is nothing to improve on.
func (f *LatentDraws) LogNEI(covs []float64, mean, sd float64, scratch []float64) float64 {
	v, _, _ := f.logNEI(covs, mean, sd, scratch, nil)
	return v
}

// LogNEIGrad returns LogNEI and its derivatives with respect to mean and sd,
// and writes those with respect to covs to dcovs.
func (f *LatentDraws) LogNEIGrad(covs []float64, mean, sd float64, scratch, dcovs []float64) (v, dMean, dSD float64) {
	return f.logNEI(covs, mean, sd, scratch, dcovs[:f.n])
}

// logNEI is LogNEI and, when dcovs is not nil, its gradient. scratch holds
// v = L⁻¹c, then L⁻ᵀv, and per sample the term's logarithm and its
// derivatives in m_s and d.
func (f *LatentDraws) logNEI(covs []float64, mean, sd float64, scratch, dcovs []float64) (v, dMean, dSD float64) {
	n, samples, c := f.n, f.samples, f.capacity
	if n == 0 {
		clear(dcovs)
		return 0, 0, 0
	}
	solved, back := scratch[:n], scratch[c:c+n]
	logs, dms, dds := scratch[2*c:2*c+samples], scratch[2*c+samples:2*c+2*samples], scratch[2*c+2*samples:2*c+3*samples]
	copy(solved, covs[:n])
	f.forwardSolve(solved)
	d := math.Sqrt(max(sd*sd-vec.Dot(solved, solved), 0))
	top := math.Inf(-1)
	for s := range samples {
		m := mean + vec.Dot(covs[:n], f.solved[s*c:s*c+n])
		if dcovs == nil {
			logs[s] = LogEI(m, d, f.best[s], 0)
		} else {
			logs[s], dms[s], dds[s] = LogEIGrad(m, d, f.best[s], 0)
		}
		top = max(top, logs[s])
	}
	clear(dcovs)
	if math.IsInf(top, -1) {
		return top, 0, 0
	}
	// logs[s] becomes the term's size relative to the largest.
	sum := 0.0
	for s, l := range logs {
		logs[s] = math.Exp(l - top)
		sum += logs[s]
	}
	v = top + math.Log(sum) - math.Log(float64(samples))
	if dcovs == nil {
		return v, 0, 0
	}
	// ∂v/∂m_s and ∂v/∂d weigh each term's derivatives by its share of the sum.
	dD := 0.0
	for s := range samples {
		weight := logs[s] / sum
		dMean += weight * dms[s]
		dD += weight * dds[s]
		vec.Axpy(weight*dms[s], f.solved[s*c:s*c+n], dcovs)
	}
	if d > 0 {
		// ∂d/∂c = −Σ⁻¹c/d = −L⁻ᵀv/d and ∂d/∂sd = sd/d.
		copy(back, solved)
		f.backwardSolve(back)
		vec.Axpy(-dD/d, back, dcovs)
		dSD = dD * sd / d
	}
	return v, dMean, dSD
}
