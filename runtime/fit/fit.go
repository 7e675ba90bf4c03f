// Package fit learns the hyperparameters of a Gaussian process by maximising
// its log marginal likelihood (MATH.md §2), plus a weak prior the bounds
// imply, over a box, on a log scale, with multi-start bounded L-BFGS
// (runtime/opt).
//
// The package knows no kernel: the caller fills the kernel matrix K and its
// derivatives ∂K/∂log θ_j for given hyperparameters θ, with code specialised
// to its problem. With A = K + diag(λ) = L Lᵀ and α = A⁻¹z for standardised
// observations z,
//
//	log p(z | θ)        = −½ zᵀα − Σ log L_ii − (n/2) log 2π
//	∂ log p / ∂ log θ_j = ½ tr((ααᵀ − A⁻¹) ∂A/∂log θ_j)
//
// Each evaluation costs O(n³) (the Cholesky factor and A⁻¹) plus O(p n²)
// for the p traces. All memory is allocated by New; Fit allocates nothing.
//
// Observation noise may be learned too: its variance σ² (standardised
// units) is then the last hyperparameter, added to every diagonal entry of A
// on top of the fixed per-observation noise λ_i, with ∂A/∂log σ² = σ² I.
//
// # Priors
//
// Pure maximum likelihood overfits when the data are few and noisy: with
// one lengthscale per dimension (ARD) it switches dimensions off at the
// upper bound and chases the noise with lengthscales near the lower one.
// On noisy Hartmann6 (observation sd 10% of the range, 18–84 observations)
// it did both at every refit, and the optimiser barely beat random search
// (docs/quality.md). So Fit maximises the log posterior
// log p(z | θ) + Σ_j log p(log θ_j) instead, with a normal prior on each
// log θ_j centred in the middle of its log box [log lo_j, log hi_j] and
// with the bounds priorEdge standard deviations away. For the default
// lengthscale bounds [0.01, 10] that is a median of 0.32 and a standard
// deviation of 1.7 in log space, close to the log-normal lengthscale
// priors of established GP-BO libraries; the likelihood dominates it once
// the data pin a value down, so noise-free fits barely change, and the
// bounds a user declares keep meaning the plausible range.
//
// # Starts
//
// The first start is the caller's current θ (a refit usually moves little);
// the others are points of the Sobol sequence, without its corner at the
// origin, mapped into the log box: the first Fit uses DefaultStarts of them,
// later ones one each, the next in the sequence (cycling through
// sobolStarts), so that refits stay cheap while the starts still cover the
// box over time. Deterministic: equal data and history give equal fits. The
// best local maximum wins.
package fit

import (
	"errors"
	"fmt"
	"math"

	"github.com/bocdev/boc/runtime/design"
	"github.com/bocdev/boc/runtime/opt"

	"github.com/bocdev/boc/runtime/internal/vec"
)

const (
	// DefaultStarts is the number of starts besides the current values in
	// the first Fit; later ones use one.
	DefaultStarts = 4
	// sobolStarts is the number of Sobol starts the Fits cycle through.
	sobolStarts = 16
	// maxIterations bounds each local search: the marginal likelihood is
	// flat near its optima, so more steps change little.
	maxIterations = 60
	// The local searches stop when the projected gradient of −log p in log
	// space is below gradTol or an iteration improves it by less than
	// fTol·|log p|: differences that small do not change the posterior.
	gradTol = 1e-4
	fTol    = 1e-9
	// lbfgsMemory is the number of correction pairs the L-BFGS keeps.
	lbfgsMemory = 6
	// The jitter added to A's diagonal when its Cholesky factorisation fails
	// is jitterStart·10^s·mean(diag A) for s = 0..jitterSteps.
	jitterStart = 1e-10
	jitterSteps = 6
	// priorEdge is how many prior standard deviations the bounds lie from
	// the middle of the box (package comment, Priors).
	priorEdge = 2.0
)

// ErrNoFit reports that no start gave a finite marginal likelihood.
var ErrNoFit = errors.New("fit: the marginal likelihood is not finite at any start")

// FillFunc sets, for hyperparameters theta (natural units, the kernel's
// only; not the noise) and n observations,
//
//	k[i*n+l]        = k(x_i, x_l)
//	dk[(j*n+i)*n+l] = ∂k(x_i, x_l)/∂log θ_j
//
// for i, l < n and j < len(theta). It must not keep its slices.
type FillFunc func(theta []float64, n int, k, dk []float64)

// Fitter maximises the log marginal likelihood. It is not safe for
// concurrent use.
type Fitter struct {
	capacity int
	kernel   int  // kernel hyperparameters
	noise    bool // the noise variance is learned (the last coordinate)
	fill     FillFunc

	// k and dk are as FillFunc describes (capacity² and kernel·capacity²);
	// once A is factorised, k holds the lower triangle of A⁻¹ instead.
	k, dk   []float64
	l       []float64 // Cholesky factor of A, then its inverse (n×n row-major)
	acc     []float64 // a row being accumulated
	alpha   []float64
	theta   []float64 // natural units
	starts  []float64 // unit-cube starts, row-major
	x, lo   []float64 // log scale
	hi, bst []float64
	search  *opt.LBFGSB

	// Set by Fit for the objective.
	n         int
	z, fixed  []float64
	objective func(x, grad []float64) float64
	fits      int // calls of Fit so far, which choose the Sobol starts
}

// New returns a Fitter for up to capacity observations, kernel hyperparameters
// and, if learnNoise, the noise variance, with DefaultStarts extra starts.
// fill computes the kernel matrices. It panics if capacity < 1 or there is
// nothing to learn.
func New(capacity, kernel int, learnNoise bool, fill FillFunc) *Fitter {
	dim := kernel
	if learnNoise {
		dim++
	}
	if capacity < 1 || dim < 1 || kernel < 0 {
		panic(fmt.Sprintf("fit: New(%d, %d, %v)", capacity, kernel, learnNoise))
	}
	f := &Fitter{
		capacity: capacity, kernel: kernel, noise: learnNoise, fill: fill,
		k:      make([]float64, capacity*capacity),
		dk:     make([]float64, kernel*capacity*capacity),
		l:      make([]float64, capacity*capacity),
		acc:    make([]float64, capacity),
		alpha:  make([]float64, capacity),
		theta:  make([]float64, dim),
		starts: make([]float64, (sobolStarts+1)*dim),
		x:      make([]float64, dim), lo: make([]float64, dim),
		hi: make([]float64, dim), bst: make([]float64, dim),
		search: opt.NewLBFGSB(dim, lbfgsMemory),
	}
	f.search.MaxIterations = maxIterations
	f.search.GradTol, f.search.FTol = gradTol, fTol
	if err := design.SobolDesign(sobolStarts+1, dim, 0, f.starts); err != nil {
		panic(fmt.Sprintf("fit: %v", err)) // dim is far below the Sobol limit
	}
	f.starts = f.starts[dim:] // drop the origin
	f.objective = f.negLogPosterior
	return f
}

// Fit maximises the log posterior (the log marginal likelihood plus the
// bounds' prior, package comment) of the standardised observations z
// (len(z) = n <= capacity) with fixed noise variances fixed[i]
// (standardised units). theta holds the starting hyperparameters (natural
// units; the noise variance last when it is learned) and receives the best
// found; lo and hi bound them (0 < lo <= hi). It returns the log marginal
// likelihood at the result. On error theta is unchanged.
func (f *Fitter) Fit(z, fixed, theta, lo, hi []float64) (float64, error) {
	n, dim := len(z), len(f.theta)
	switch {
	case n < 1 || n > f.capacity || len(fixed) != n:
		return 0, fmt.Errorf("fit: %d observations with %d noise values, capacity %d", n, len(fixed), f.capacity)
	case len(theta) != dim || len(lo) != dim || len(hi) != dim:
		return 0, fmt.Errorf("fit: %d hyperparameters and bounds of %d and %d, want %d", len(theta), len(lo), len(hi), dim)
	}
	for j := range dim {
		if !(lo[j] > 0 && lo[j] <= hi[j]) || math.IsInf(hi[j], 0) {
			return 0, fmt.Errorf("fit: bounds [%v, %v] of hyperparameter %d are not positive and finite", lo[j], hi[j], j)
		}
		f.lo[j], f.hi[j] = math.Log(lo[j]), math.Log(hi[j])
	}
	f.n, f.z, f.fixed = n, z, fixed
	first, count := 0, DefaultStarts
	if f.fits > 0 {
		first, count = (DefaultStarts+f.fits-1)%sobolStarts, 1
	}
	f.fits++
	best := math.Inf(1)
	for s := -1; s < count; s++ {
		for j := range dim {
			if s < 0 {
				f.x[j] = math.Log(theta[j])
			} else {
				f.x[j] = f.lo[j] + f.starts[((first+s)%sobolStarts)*dim+j]*(f.hi[j]-f.lo[j])
			}
		}
		res, err := f.search.Minimize(f.objective, f.x, f.lo, f.hi)
		if err != nil || !(res.F < best) {
			continue
		}
		best = res.F
		copy(f.bst, f.x)
	}
	if math.IsInf(best, 1) {
		return 0, ErrNoFit
	}
	for j := range dim {
		theta[j] = math.Exp(f.bst[j])
	}
	return -best - f.logPrior(f.bst), nil
}

// LogLikelihood returns the log marginal likelihood at theta (natural units)
// and writes its gradient with respect to log θ to grad, for the data of the
// last Fit or, before any, of z and fixed. It is exported for tests and
// diagnostics.
func (f *Fitter) LogLikelihood(z, fixed, theta, grad []float64) float64 {
	f.n, f.z, f.fixed = len(z), z, fixed
	for j := range theta {
		f.x[j] = math.Log(theta[j])
	}
	v := f.negLogLikelihood(f.x, grad)
	for j := range grad {
		grad[j] = -grad[j]
	}
	return -v
}

// negLogPosterior is the objective of the L-BFGS: −log p(z | θ) − log p(θ),
// up to a constant, and its gradient at log-hyperparameters x, with the
// bounds' prior (see the package comment) on each log θ_j.
func (f *Fitter) negLogPosterior(x, grad []float64) float64 {
	v := f.negLogLikelihood(x, grad)
	if math.IsInf(v, 1) {
		return v
	}
	for j, xj := range x {
		if centre, width, ok := priorOf(f.lo[j], f.hi[j]); ok {
			grad[j] += (xj - centre) / (width * width)
		}
	}
	return v - f.logPrior(x)
}

// logPrior is Σ_j log p(log θ_j) at log-hyperparameters x, up to a constant,
// for the bounds of the current Fit.
func (f *Fitter) logPrior(x []float64) float64 {
	sum := 0.0
	for j, xj := range x {
		if centre, width, ok := priorOf(f.lo[j], f.hi[j]); ok {
			d := (xj - centre) / width
			sum -= 0.5 * d * d
		}
	}
	return sum
}

// priorOf returns the centre and standard deviation of the normal prior on
// a log-hyperparameter bounded by [lo, hi] (log scale): the middle of the
// box, with its edges priorEdge deviations away. ok is false for a box of
// one point, which fixes the value and needs no prior.
func priorOf(lo, hi float64) (centre, width float64, ok bool) {
	return 0.5 * (lo + hi), (hi - lo) / (2 * priorEdge), hi > lo
}

// negLogLikelihood is −log p(z | θ) and its gradient at log-hyperparameters
// x. It returns +Inf if A cannot be factorised.
func (f *Fitter) negLogLikelihood(x, grad []float64) float64 {
	n := f.n
	for j, v := range x {
		f.theta[j] = math.Exp(v)
	}
	f.fill(f.theta[:f.kernel], n, f.k[:n*n], f.dk[:f.kernel*n*n])
	learned := 0.0
	if f.noise {
		learned = f.theta[f.kernel]
	}
	logDet, ok := f.factor(n, learned)
	if !ok {
		for j := range grad {
			grad[j] = 0
		}
		return math.Inf(1)
	}
	a := f.alpha[:n]
	copy(a, f.z)
	f.solve(n, a)
	fit := vec.Dot(f.z, a)
	f.invert(n)
	// W = ααᵀ − A⁻¹ is symmetric, as is each ∂K/∂log θ_j: sum the lower
	// triangle twice and the diagonal once.
	for j := range f.kernel {
		block := f.dk[j*n*n : (j+1)*n*n]
		tr := 0.0
		for i := range n {
			row := i * n
			for l := range i {
				tr += 2 * (a[i]*a[l] - f.k[row+l]) * block[row+l]
			}
			tr += (a[i]*a[i] - f.k[row+i]) * block[row+i]
		}
		grad[j] = -0.5 * tr
	}
	if f.noise {
		tr := 0.0
		for i := range n {
			tr += a[i]*a[i] - f.k[i*n+i]
		}
		grad[f.kernel] = -0.5 * learned * tr
	}
	return 0.5*fit + logDet + 0.5*float64(n)*math.Log(2*math.Pi)
}

// factor overwrites f.l with the Cholesky factor of A = K + diag(fixed +
// learned), escalating a diagonal jitter when it fails, and returns
// Σ log L_ii.
func (f *Fitter) factor(n int, learned float64) (float64, bool) {
	meanDiag := 0.0
	for i := range n {
		meanDiag += f.k[i*n+i] + f.fixed[i] + learned
	}
	meanDiag /= float64(n)
	if !(meanDiag > 0) || math.IsInf(meanDiag, 0) {
		return 0, false
	}
	for s := -1; s <= jitterSteps; s++ {
		jitter := 0.0
		if s >= 0 {
			jitter = jitterStart * math.Pow10(s) * meanDiag
		}
		if logDet, ok := f.cholesky(n, learned+jitter); ok {
			return logDet, true
		}
	}
	return 0, false
}

// cholesky factors K + diag(fixed + extra) into the lower triangle of f.l.
func (f *Fitter) cholesky(n int, extra float64) (float64, bool) {
	logDet := 0.0
	for i := range n {
		ri := f.l[i*n : i*n+n]
		for j := 0; j <= i; j++ {
			rj := f.l[j*n : j*n+j]
			s := f.k[i*n+j] - vec.Dot(ri[:j], rj)
			if j < i {
				ri[j] = s / f.l[j*n+j]
				continue
			}
			s += f.fixed[i] + extra
			if !(s > 0) || math.IsInf(s, 0) {
				return 0, false
			}
			ri[i] = math.Sqrt(s)
			logDet += math.Log(ri[i])
		}
	}
	return logDet, true
}

// solve overwrites x with A⁻¹x using the factor in f.l.
func (f *Fitter) solve(n int, x []float64) {
	for i := range n {
		x[i] = (x[i] - vec.Dot(f.l[i*n:i*n+i], x[:i])) / f.l[i*n+i]
	}
	for i := n - 1; i >= 0; i-- {
		x[i] /= f.l[i*n+i]
		v := x[i]
		row := f.l[i*n : i*n+i]
		for j := range row {
			x[j] -= v * row[j]
		}
	}
}

// invert sets the lower triangle of f.k to A⁻¹ = L⁻ᵀL⁻¹, with L in f.l:
// first M = L⁻¹ row by row in place (row i of M is −(Σ_{k<i} L_ik M_k)/L_ii,
// a sum of rows of M already computed), then A⁻¹ = Σ_k M_kᵀ M_k as rank-one
// updates by rows. Both stream through rows, O(n³/3) in all.
func (f *Fitter) invert(n int) {
	l, acc := f.l, f.acc[:n]
	for i := range n {
		clear(acc[:i])
		for k := range i {
			vec.Axpy(l[i*n+k], l[k*n:k*n+k+1], acc[:k+1])
		}
		d := 1 / l[i*n+i]
		for j := range i {
			l[i*n+j] = -acc[j] * d
		}
		l[i*n+i] = d
	}
	inv := f.k // K is no longer needed
	for i := range n {
		clear(inv[i*n : i*n+i+1])
	}
	for k := range n {
		row := l[k*n : k*n+k+1]
		for i, m := range row {
			if m != 0 {
				vec.Axpy(m, row[:i+1], inv[i*n:i*n+i+1])
			}
		}
	}
}
