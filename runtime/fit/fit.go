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
// Each evaluation costs n³/2 multiply-adds, n³/6 each for L, U = L⁻ᵀ and
// the lower triangle of A⁻¹ = UUᵀ, plus p n²/2 for the p traces. All three
// are blocked so that four rows meet three others at a time in the AVX2 dot
// kernel of runtime/internal/vec (Dots4x3), and each row of A⁻¹ meets the
// derivative matrices as soon as it is made. All memory is allocated by
// New; Fit allocates nothing.
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
// The first Fit starts from the caller's θ and from DefaultStarts points of
// the Sobol sequence, without its corner at the origin, mapped into the log
// box; the best local maximum wins. A later Fit, a refit after the data grew
// (by Growth, usually), starts from the current θ, which the new data move
// little, and that local search keeps the curvature pairs the previous one
// ended with (opt.LBFGSB.KeepMemory), so its first step is a quasi-Newton
// one. It adds one Sobol start, the next in the sequence (cycling through
// sobolStarts), while there are at most exploreAll observations, where the
// likelihood of few data is often multimodal and an evaluation is cheap,
// and beyond that only when the observations have doubled since the last
// Fit that had one, or when the likelihood is not finite at the current θ.
// On GP samples and Hartmann6 values in 6-D growing from 20 to 200
// observations by Growth, this reached the log posterior of a Sobol start
// at every refit as often (a shortfall above 0.1 in 36 of 520 refits for
// both, against the best of 16 more starts), and a refit beyond 100
// observations took a median of 13 evaluations instead of 85; with no
// Sobol start after the first Fit, 71 refits fell short (docs/performance.md,
// Hyperparameter refit). Deterministic: equal data and history give equal
// fits.
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
	// the first Fit; later ones use one or none (package comment, Starts).
	DefaultStarts = 4
	// sobolStarts is the number of Sobol starts the Fits cycle through.
	sobolStarts = 16
	// Up to exploreAll observations every Fit has a Sobol start; beyond,
	// only those at which the observations have doubled since the last
	// Fit that had one (package comment, Starts).
	exploreAll = 100
	// maxIterations bounds each local search: the marginal likelihood is
	// flat near its optima, so more steps change little.
	maxIterations = 60
	// The local searches stop when the projected gradient of −log p in log
	// space is below gradTol or an iteration improves it by less than
	// fTol·|log p| (1.5e-4 at n = 200, where |log p| is about 150): a
	// difference that small does not change the posterior.
	gradTol = 1e-4
	fTol    = 1e-6
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

	// k and dk are as FillFunc describes (kernel·capacity² for dk); once A
	// is factorised, k holds U = L⁻ᵀ instead. l holds the Cholesky factor L
	// of A, then the lower triangle of W = ααᵀ − A⁻¹. L, U and W are m×m for
	// m = stride(n) (see stride); recip holds 1/L_ii.
	k, dk   []float64
	l       []float64
	recip   []float64
	alpha   []float64 // A⁻¹z, zero in the padding
	theta   []float64 // natural units
	starts  []float64 // unit-cube starts, row-major
	x, lo   []float64 // log scale
	hi, bst []float64
	// warm searches from the current values and keeps its curvature
	// pairs from one Fit to the next; explore searches from Sobol points.
	warm, explore *opt.LBFGSB

	// Set by Fit for the objective.
	n         int
	z, fixed  []float64
	objective func(x, grad []float64) float64
	fits      int // calls of Fit so far
	next      int // the next Sobol start, cycling through sobolStarts
	explored  int // observations at the last Fit with Sobol starts
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
	m := stride(capacity)
	f := &Fitter{
		capacity: capacity, kernel: kernel, noise: learnNoise, fill: fill,
		k:      make([]float64, m*m),
		dk:     make([]float64, kernel*capacity*capacity),
		l:      make([]float64, m*m),
		recip:  make([]float64, m),
		alpha:  make([]float64, m),
		theta:  make([]float64, dim),
		starts: make([]float64, (sobolStarts+1)*dim),
		x:      make([]float64, dim), lo: make([]float64, dim),
		hi: make([]float64, dim), bst: make([]float64, dim),
		warm:    opt.NewLBFGSB(dim, lbfgsMemory),
		explore: opt.NewLBFGSB(dim, lbfgsMemory),
	}
	for _, search := range []*opt.LBFGSB{f.warm, f.explore} {
		search.MaxIterations = maxIterations
		search.GradTol, search.FTol = gradTol, fTol
	}
	f.warm.KeepMemory = true
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
	count := 0 // Sobol starts (package comment, Starts)
	switch {
	case f.fits == 0:
		count = DefaultStarts
	case n <= exploreAll || n >= 2*f.explored:
		count = 1
	}
	f.fits++
	if count > 0 {
		f.explored = n
	}
	best := math.Inf(1)
	for s := -1; s < count; s++ {
		search := f.warm
		for j := range dim {
			if s < 0 {
				f.x[j] = math.Log(theta[j])
			} else {
				f.x[j] = f.lo[j] + f.starts[f.next*dim+j]*(f.hi[j]-f.lo[j])
			}
		}
		if s >= 0 {
			search = f.explore
			f.next = (f.next + 1) % sobolStarts
		}
		res, err := search.Minimize(f.objective, f.x, f.lo, f.hi)
		if err != nil && s < 0 && count == 0 {
			count = 1 // not finite at the current values: a Sobol start after all
		}
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
	m := stride(n)
	a := f.alpha[:m]
	copy(a, f.z)
	clear(a[n:])
	f.solve(m, a)
	fit := vec.Dot(f.z, a)
	f.invertFactor(m)
	traceW := f.traces(n, m, grad[:f.kernel])
	if f.noise {
		grad[f.kernel] = -0.5 * learned * traceW
	}
	return 0.5*fit + logDet + 0.5*float64(n)*math.Log(2*math.Pi)
}

// stride returns n rounded up to a multiple of vec.GroupRows. The factor
// and the matrices derived from it are that square, row-major, and hold the
// identity in the padding (A⁻¹ of a block-diagonal matrix is block
// diagonal, and the identity adds nothing to the log determinant), so that
// their rows go through the dot kernels in whole groups.
func stride(n int) int {
	return (n + vec.GroupRows - 1) &^ (vec.GroupRows - 1)
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

// cholesky factors K + diag(fixed + extra), padded to stride(n) (see
// stride), into the lower triangle of f.l, and the reciprocals of its
// diagonal into f.recip. It works down four rows at a time: their entries
// left of the diagonal block solve X Lᵀ = A for the rows above
// (substitute), then the 4×4 block is factored in place.
func (f *Fitter) cholesky(n int, extra float64) (float64, bool) {
	m := stride(n)
	logDet := 0.0
	var rows [vec.GroupRows][]float64
	var g3 [vec.GroupRows * vec.GroupPoints]float64
	var g1 [vec.GroupRows]float64
	for i := 0; i < m; i += vec.GroupRows {
		for r := range rows {
			row := f.l[(i+r)*m : (i+r+1)*m]
			if i+r < n {
				copy(row[:i+r+1], f.k[(i+r)*n:])
				row[i+r] += f.fixed[i+r] + extra
			} else {
				clear(row[:i+r])
				row[i+r] = 1
			}
			rows[r] = row
		}
		substitute(&rows, f.l, f.recip, m, 0, i)
		// The block's Gram matrix left of it, G[r][q] = Σ_{k<i} X_rk X_qk.
		vec.Dots4x3(&rows, i, rows[0], rows[1], rows[2], &g3)
		vec.Dots4x1(&rows, i, rows[3], &g1)
		for q := range vec.GroupRows {
			c := i + q
			for r := q; r < vec.GroupRows; r++ {
				gram := g1[r]
				if q < vec.GroupPoints {
					gram = g3[r*vec.GroupPoints+q]
				}
				v := rows[r][c] - gram - vec.Dot(rows[r][i:c], rows[q][i:c])
				if r > q {
					rows[r][c] = v * f.recip[c]
					continue
				}
				if !(v > 0) || math.IsInf(v, 0) {
					return 0, false
				}
				d := math.Sqrt(v)
				rows[r][c], f.recip[c] = d, 1/d
				logDet += math.Log(d)
			}
		}
	}
	return logDet, true
}

// substitute solves X Lᵀ = B for columns [from, to) of four rows of X, in
// place: each row holds B there and receives X,
//
//	X_rc = (B_rc − Σ_{from≤k<c} X_rk L_ck) / L_cc,
//
// with L the lower triangle of l (stride m) and recip its diagonal's
// reciprocals. It is forward substitution with the rows of X as
// right-hand sides, three columns at a time: the sums over [from, c) come
// from vec.Dots4x3, the rest of the 4×3 block follows in order.
func substitute(rows *[vec.GroupRows][]float64, l, recip []float64, m, from, to int) {
	var x [vec.GroupRows][]float64
	for r, row := range rows {
		x[r] = row[from:]
	}
	var s3 [vec.GroupRows * vec.GroupPoints]float64
	var s1 [vec.GroupRows]float64
	c := from
	for ; c+vec.GroupPoints <= to; c += vec.GroupPoints {
		d := c - from
		p0, p1, p2 := l[c*m+from:(c+1)*m], l[(c+1)*m+from:(c+2)*m], l[(c+2)*m+from:(c+3)*m]
		vec.Dots4x3(&x, d, p0, p1, p2, &s3)
		r0, r1, r2 := recip[c], recip[c+1], recip[c+2]
		for r, xr := range x {
			xr = xr[d : d+3]
			v0 := (xr[0] - s3[3*r]) * r0
			v1 := (xr[1] - s3[3*r+1] - v0*p1[d]) * r1
			v2 := (xr[2] - s3[3*r+2] - v0*p2[d] - v1*p2[d+1]) * r2
			xr[0], xr[1], xr[2] = v0, v1, v2
		}
	}
	for ; c < to; c++ {
		d := c - from
		vec.Dots4x1(&x, d, l[c*m+from:(c+1)*m], &s1)
		for r, xr := range x {
			xr[d] = (xr[d] - s1[r]) * recip[c]
		}
	}
}

// solve overwrites x (length m = stride(n)) with A⁻¹x using the factor in
// f.l.
func (f *Fitter) solve(m int, x []float64) {
	l := f.l
	for i := range m {
		x[i] = (x[i] - vec.Dot(l[i*m:i*m+i], x[:i])) * f.recip[i]
	}
	for i := m - 1; i >= 0; i-- {
		x[i] *= f.recip[i]
		vec.Axpy(-x[i], l[i*m:i*m+i], x[:i])
	}
}

// invertFactor overwrites f.k (stride m) with U = L⁻ᵀ, L in f.l: row j of U
// is the solution of L u = e_j, zero left of j, so four rows at a time
// solve U Lᵀ = I over columns [j, m) (substitute), m³/6 multiply-adds.
func (f *Fitter) invertFactor(m int) {
	var rows [vec.GroupRows][]float64
	for j := 0; j < m; j += vec.GroupRows {
		for r := range rows {
			row := f.k[(j+r)*m : (j+r+1)*m]
			clear(row[j:])
			row[j+r] = 1
			rows[r] = row
		}
		substitute(&rows, f.l, f.recip, m, j, m)
	}
}

// traces overwrites f.l with the lower triangle of W = ααᵀ − A⁻¹, where
// A⁻¹ = UUᵀ with U = L⁻ᵀ in f.k (A⁻¹_ij = Σ_{k≥i} U_ik U_jk for j ≤ i, sums
// over a common range [i, m) for a group of four rows i, because U is zero
// left of its diagonal), sets grad[j] = −½ tr(W ∂K/∂log θ_j) and returns
// tr W. Each group of rows of W meets the derivative matrices as soon as it
// is made, while it is in the L1 cache: W and each ∂K_j are symmetric, so
// the traces sum the lower triangles with the diagonal halved, twice.
func (f *Fitter) traces(n, m int, grad []float64) float64 {
	u, w, a := f.k, f.l, f.alpha
	var rows [vec.GroupRows][]float64
	var s3 [vec.GroupRows * vec.GroupPoints]float64
	var s1 [vec.GroupRows]float64
	for j := range grad {
		grad[j] = 0
	}
	traceW := 0.0
	for i := 0; i < m; i += vec.GroupRows {
		for r := range rows {
			rows[r] = u[(i+r)*m+i : (i+r+1)*m]
		}
		// Columns [0, i+4) of the group's rows; entries right of a row's
		// diagonal are made and not used.
		j := 0
		for ; j+vec.GroupPoints <= i+vec.GroupRows; j += vec.GroupPoints {
			vec.Dots4x3(&rows, m-i, u[j*m+i:(j+1)*m], u[(j+1)*m+i:(j+2)*m], u[(j+2)*m+i:(j+3)*m], &s3)
			for r := range vec.GroupRows {
				wr := w[(i+r)*m+j : (i+r)*m+j+3]
				ar := a[i+r]
				wr[0] = ar*a[j] - s3[3*r]
				wr[1] = ar*a[j+1] - s3[3*r+1]
				wr[2] = ar*a[j+2] - s3[3*r+2]
			}
		}
		for ; j < i+vec.GroupRows; j++ {
			vec.Dots4x1(&rows, m-i, u[j*m+i:(j+1)*m], &s1)
			for r := range vec.GroupRows {
				w[(i+r)*m+j] = a[i+r]*a[j] - s1[r]
			}
		}
		for r := range min(vec.GroupRows, n-i) {
			row := i + r
			wr := w[row*m : row*m+row+1]
			traceW += wr[row]
			wr[row] *= 0.5
			f.traceRow(row, n, wr, grad)
		}
	}
	for j := range grad {
		grad[j] *= -1 // −½ · 2 Σ over the lower triangles
	}
	return traceW
}

// traceRow adds to grad[j] the dot product of wr, row i of W's lower
// triangle, with row i of ∂K/∂log θ_j, for four matrices at a time (the
// last group repeats its last matrix).
func (f *Fitter) traceRow(i, n int, wr, grad []float64) {
	var blocks [vec.GroupRows][]float64
	var s [vec.GroupRows]float64
	for j := 0; j < len(grad); j += vec.GroupRows {
		for r := range blocks {
			b := min(j+r, len(grad)-1)
			blocks[r] = f.dk[(b*n+i)*n : (b*n+i)*n+i+1]
		}
		vec.Dots4x1(&blocks, i+1, wr, &s)
		for r := range min(vec.GroupRows, len(grad)-j) {
			grad[j+r] += s[r]
		}
	}
}
