// Package gp is an exact Gaussian-process regressor with per-observation
// noise, built for emitted optimisers (MATH.md §2). It never evaluates a
// kernel: the caller computes kernel values with code specialised to its
// problem and hands them over, so one GP type serves every kernel.
//
// All memory is allocated by New for a fixed capacity; Add, Predict and the
// other methods allocate nothing.
//
// # Model
//
// Observations y_i with noise variances λ_i (units of y) are standardised,
// z_i = (y_i − shift)/scale, and the caller's kernel k is understood to be on
// that standardised scale (signal variance about 1). With
// A = K + diag(λ/scale² + jitter) = L Lᵀ and α = A⁻¹z the posterior at a
// point with kernel vector k and prior variance k(x, x) is
//
//	mean     = shift + scale·kᵀα
//	variance = scale²·(k(x, x) − vᵀv),  v = L⁻¹k.
//
// # Standardisation policy
//
// shift is the prior mean in y's units, mean(y) by default (WithMean
// chooses another constant), and is refreshed on every Add: α is
// recomputed from the unchanged factor with two triangular solves, O(n²).
// scale is the (population) standard deviation of y, or 1 while n < 2 or
// the deviation is zero; because it enters the matrix through λ/scale², it
// is frozen between re-standardisations. The GP re-standardises itself
// when n has doubled since the last time (n = 2, 4, 8, ...), refactoring A
// from the stored kernel values and noise in O(n³); doubling makes that
// O(n²) amortised per Add. If the refactor with the new scale fails, the
// old scale is kept until the next doubling.
//
// # Factorisation
//
// Add appends one row to the Cholesky factor: l = L⁻¹k_new and
// d = sqrt(k_new,new + λ_new/scale² − lᵀl), O(n²). When d² is below
// 1e-10·mean(diag A) (duplicate points without noise, rounding), jitter is
// added to that diagonal entry, starting at 1e-10·mean(diag A) and growing
// ×10 up to 1e-4·mean(diag A); if that is not enough Add reports
// ErrNotPositiveDefinite and leaves the GP unchanged.
//
// K and L are stored as packed lower triangles (row i holds i+1 values, rows
// back to back), so appending a row is contiguous and a triangular solve
// streams through memory once. The solves are plain loops with four
// accumulators: on the development machine (AMD EPYC, 2 cores) they beat
// gonum's blas64.Tpsv on the same data by about 1.6× at n = 200 and 500
// (BenchmarkTriangularSolve).
package gp

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/bocdev/boc/runtime/internal/vec"
)

const (
	// The extra diagonal Add may use to keep A positive definite is
	// jitterStart·10^s·mean(diag A) for s = 0..jitterSteps (1e-10 to 1e-4).
	jitterStart = 1e-10
	jitterSteps = 6
	// pivotFloor is the smallest acceptable d², relative to the mean
	// diagonal: smaller pivots leave A so ill-conditioned that rounding
	// dominates. It equals the first jitter step, the regulariser
	// scikit-learn adds to every diagonal by default.
	pivotFloor = jitterStart
)

var (
	// ErrFull reports an Add beyond the capacity given to New.
	ErrFull = errors.New("gp: capacity exhausted")
	// ErrInvalidInput reports a NaN or infinite kernel value or observation,
	// a negative noise variance, or a kernel vector shorter than Len().
	ErrInvalidInput = errors.New("gp: invalid input")
	// ErrNotPositiveDefinite reports kernel values that do not form a
	// positive-definite matrix even with the largest jitter.
	ErrNotPositiveDefinite = errors.New("gp: kernel matrix is not positive definite")
)

// GP is an exact Gaussian process over at most Cap() observations.
// Methods are not safe for concurrent use with Add, but several goroutines
// may call Predict at once, each with its own kernel vector.
type GP struct {
	capacity int
	n        int

	k      []float64 // packed lower triangle: k(x_i, x_j) for j <= i
	l      []float64 // packed lower triangle: the Cholesky factor of A
	y      []float64 // observations, in the user's units
	noise  []float64 // observation-noise variances, in the user's units
	jitter []float64 // extra diagonal of A per row, standardised units
	alpha  []float64 // A⁻¹z

	shift, scale float64
	// prior is the rule shift follows (WithMean).
	prior PriorMean
	// standardisedAt is Len() at the last re-standardisation (at least 1).
	standardisedAt int
	// fixedPrior keeps shift = 0 and scale = 1 (WithFixedPrior).
	fixedPrior bool
	// given keeps the shift and scale Standardise set, until Load.
	given bool
	// fantasies is the number of trailing observations AddFantasy made.
	fantasies int
}

// New returns an empty GP with room for capacity observations; it is the
// only allocating call. It panics if capacity < 1.
func New(capacity int) *GP {
	if capacity < 1 {
		panic(fmt.Sprintf("gp: capacity %d < 1", capacity))
	}
	return &GP{
		capacity:       capacity,
		k:              make([]float64, rowStart(capacity)),
		l:              make([]float64, rowStart(capacity)),
		y:              make([]float64, capacity),
		noise:          make([]float64, capacity),
		jitter:         make([]float64, capacity),
		alpha:          make([]float64, capacity),
		scale:          1,
		standardisedAt: 1,
	}
}

// WithFixedPrior makes g a GP with the prior the caller's kernel states, in
// y's units, and mean 0: it never standardises (shift stays 0 and scale 1)
// and returns g. Safe exploration needs it: standardising by the data moves
// the prior with every observation, and the confidence bounds with it, so
// that a point certified safe under one standardisation could be certified
// under a prior the guarantee does not cover (runtime/safe's Monte-Carlo
// test certified unsafe points in most realisations that way).
func (g *GP) WithFixedPrior() *GP {
	g.fixedPrior = true
	return g
}

// PriorMean is the constant prior mean of a GP, in y's units: the shift it
// standardises with, which its posterior mean returns to far from the data.
type PriorMean int

const (
	// Average is the observations' mean, the usual choice.
	Average PriorMean = iota
	// Least is the least observation: the worst value observed of an
	// output whose larger values are better.
	Least
	// Greatest is the greatest observation: the worst of one whose smaller
	// values are better.
	Greatest
)

// Of returns the mean m gives observations y (0 for none).
func (m PriorMean) Of(y []float64) float64 {
	switch {
	case len(y) == 0:
		return 0
	case m == Least:
		return slices.Min(y)
	case m == Greatest:
		return slices.Max(y)
	}
	sum := 0.0
	for _, v := range y {
		sum += v
	}
	return sum / float64(len(y))
}

// WithMean makes m g's prior mean and returns g. A mean at the worst value
// observed makes an optimiser expect the worst where it knows nothing, so
// that it explores less and refines more (De Ath, Fieldsend and Everson
// 2020, "What do you mean? The role of the mean function in Bayesian
// optimisation"). It panics on a PriorMean that is none of these.
func (g *GP) WithMean(m PriorMean) *GP {
	if m < Average || m > Greatest {
		panic(fmt.Sprintf("gp: WithMean(%d)", m))
	}
	g.prior = m
	return g
}

// Standardisation returns the shift and scale the GP standardises its
// observations (fantasies aside) with once refactored: its prior mean's
// value and their deviation, for a caller that refits hyperparameters to
// standardised values. Under WithFixedPrior or Standardise it returns
// what those fix. It costs O(n).
func (g *GP) Standardisation() (shift, scale float64) {
	if !g.standardisesItself() {
		return g.shift, g.scale
	}
	y := g.y[:g.n-g.fantasies]
	return g.prior.Of(y), Deviation(y)
}

// Standardise makes the GP standardise with shift and scale (> 0) instead
// of its observations' mean and deviation, from the next Refactor until
// the next Load. A GP conditioned on a subset of a run's observations
// (runtime/subset) takes the whole run's: far from the subset its
// posterior then returns to what the run has seen on average, as the
// exact GP's would, not to the average of the subset, which is chosen near
// the best point and would make every region it left out look promising.
// It panics on a scale that is not positive and finite, or a shift that is
// not finite.
func (g *GP) Standardise(shift, scale float64) {
	if !finite(shift) || !finite(scale) || scale <= 0 {
		panic(fmt.Sprintf("gp: Standardise(%v, %v)", shift, scale))
	}
	g.given, g.shift, g.scale = true, shift, scale
}

// standardisesItself reports whether the GP sets its shift and scale from
// its observations.
func (g *GP) standardisesItself() bool { return !g.fixedPrior && !g.given }

// Len returns the number of observations.
func (g *GP) Len() int { return g.n }

// Cap returns the capacity given to New.
func (g *GP) Cap() int { return g.capacity }

// Y returns observation i as given to Add.
func (g *GP) Y(i int) float64 { return g.y[i] }

// Shift returns the mean used to standardise y: y = shift + scale·z.
func (g *GP) Shift() float64 { return g.shift }

// Scale returns the standard deviation used to standardise y: y = shift + scale·z.
func (g *GP) Scale() float64 { return g.scale }

// Reset removes every observation, keeping the memory, so that the GP can be
// rebuilt, e.g. with refitted kernel hyperparameters.
func (g *GP) Reset() { g.Truncate(0) }

// Truncate keeps the first n observations and forgets the rest; the factor of
// the first n rows is unaffected, so it costs only the O(n²) refresh of α.
// It is the inverse of Add for temporary ("fantasy") observations. It panics
// unless 0 <= n <= Len().
func (g *GP) Truncate(n int) {
	if n < 0 || n > g.n {
		panic(fmt.Sprintf("gp: Truncate(%d) with %d observations", n, g.n))
	}
	if n == g.n {
		return // α is current: recomputing it would change nothing
	}
	g.fantasies = max(0, g.fantasies-(g.n-n))
	g.n = n
	g.standardisedAt = max(1, min(g.standardisedAt, n))
	if n == 0 {
		g.shift, g.scale = 0, 1
		return
	}
	g.updateAlpha()
}

// Add appends an observation y with noise variance noiseVar (units of y²,
// >= 0). kvec[i] = k(x_new, x_i) for i < Len() and kself = k(x_new, x_new).
// It costs O(n²), plus an amortised O(n²) for re-standardisation. On error
// the GP is unchanged. Observations come before fantasies: Add after
// AddFantasy is an error until Truncate forgets the fantasies.
func (g *GP) Add(kvec []float64, kself, y, noiseVar float64) error {
	if g.fantasies > 0 {
		return fmt.Errorf("%w: Add after AddFantasy", ErrInvalidInput)
	}
	if err := g.add(kvec, kself, y, noiseVar); err != nil {
		return err
	}
	if g.standardisesItself() && g.n >= 2*g.standardisedAt {
		g.restandardise()
	}
	g.updateAlpha()
	return nil
}

// AddFantasy appends a fantasy observation y of a point being evaluated, as
// Add does, except that the standardisation (shift and scale) stays that of
// the observations: a fantasy at its own posterior mean, Mean(kvec), then
// leaves the posterior mean unchanged everywhere and only shrinks the
// variance near it (GP-BUCB's hallucination), and Truncate back to the
// observations restores the GP bit for bit.
func (g *GP) AddFantasy(kvec []float64, kself, y, noiseVar float64) error {
	if err := g.add(kvec, kself, y, noiseVar); err != nil {
		return err
	}
	g.fantasies++
	g.updateAlpha()
	return nil
}

// Mean returns the posterior mean (units of y) at a point with kernel vector
// kvec[i] = k(x, x_i), len(kvec) >= Len(), as Predict does, leaving kvec as
// it is.
func (g *GP) Mean(kvec []float64) float64 {
	return g.shift + g.scale*vec.Dot(kvec[:g.n], g.alpha[:g.n])
}

// MinY returns the smallest observation, fantasies aside, or 0 when there is
// none: the value of a constant liar's fantasies (Ginsbourger et al.).
func (g *GP) MinY() float64 {
	if real := g.n - g.fantasies; real > 0 {
		return slices.Min(g.y[:real])
	}
	return 0
}

// add appends row n to the factor, y and the noise, and counts it.
func (g *GP) add(kvec []float64, kself, y, noiseVar float64) error {
	n := g.n
	switch {
	case n == g.capacity:
		return ErrFull
	case len(kvec) < n:
		return fmt.Errorf("%w: kernel vector has %d values, need %d", ErrInvalidInput, len(kvec), n)
	case !finite(kself) || !finite(y) || !finite(noiseVar):
		return fmt.Errorf("%w: k(x, x) = %v, y = %v, noise variance = %v", ErrInvalidInput, kself, y, noiseVar)
	case noiseVar < 0:
		return fmt.Errorf("%w: negative noise variance %v", ErrInvalidInput, noiseVar)
	}
	for i, v := range kvec[:n] {
		if !finite(v) {
			return fmt.Errorf("%w: kernel value %d is %v", ErrInvalidInput, i, v)
		}
	}
	row := g.k[rowStart(n):rowStart(n+1)]
	copy(row, kvec[:n])
	row[n] = kself
	g.y[n] = y
	g.noise[n] = noiseVar
	g.jitter[n] = 0
	if err := g.factorRow(n); err != nil {
		return err
	}
	g.n++
	return nil
}

// Predict returns the posterior mean and variance (units of y) at a point
// with kernel vector kvec[i] = k(x, x_i), len(kvec) >= Len(), and prior
// variance kself = k(x, x). It overwrites kvec[:Len()] with v = L⁻¹k, which
// PosteriorCovariance can reuse. The variance is clamped at 0.
func (g *GP) Predict(kvec []float64, kself float64) (mean, variance float64) {
	n := g.n
	v := kvec[:n]
	m := vec.Dot(v, g.alpha[:n])
	g.forwardSolve(n, v)
	s2 := max(kself-vec.Dot(v, v), 0)
	return g.shift + g.scale*m, g.scale * g.scale * s2
}

// PosteriorCovariance returns the posterior covariance (units of y²) of two
// points, given the vectors v1 and v2 that Predict left in their kernel
// vectors and their prior covariance k12 = k(x1, x2).
func (g *GP) PosteriorCovariance(v1, v2 []float64, k12 float64) float64 {
	return g.scale * g.scale * (k12 - vec.Dot(v1[:g.n], v2[:g.n]))
}

// TrainMean returns the posterior mean at training point i in O(1): since
// Kα = z − diag(λ/scale² + jitter)α, it is y_i − scale·(λ_i/scale² + jitter_i)·α_i.
func (g *GP) TrainMean(i int) float64 {
	return g.y[i] - g.scale*g.diagonalExtra(i)*g.alpha[i]
}

// LogMarginalLikelihood returns log p(y) of the observations under the model,
// in the units of y: −½zᵀα − Σ log L_ii − (n/2) log 2π − n log scale.
func (g *GP) LogMarginalLikelihood() float64 {
	n := g.n
	fit, logDet := 0.0, 0.0
	for i := range n {
		fit += g.standardised(i) * g.alpha[i]
		logDet += math.Log(g.l[rowStart(i)+i])
	}
	return -0.5*fit - logDet - 0.5*float64(n)*math.Log(2*math.Pi) - float64(n)*math.Log(g.scale)
}

// factorRow computes row i of L from row i of K and the rows above it,
// escalating the jitter of row i when the pivot is not safely positive.
func (g *GP) factorRow(i int) error {
	start := rowStart(i)
	row := g.l[start : start+i]
	copy(row, g.k[start:start+i])
	g.forwardSolve(i, row)
	diag := g.k[start+i] + g.noise[i]/(g.scale*g.scale)
	rest := diag - vec.Dot(row, row)

	meanDiag := diag
	for j := range i {
		meanDiag += g.k[rowStart(j)+j] + g.noise[j]/(g.scale*g.scale)
	}
	meanDiag /= float64(i + 1)
	floor := pivotFloor * meanDiag

	if meanDiag > 0 {
		// The row's current jitter first (zero for a new row, what worked
		// before for a refactor), then the ladder above it.
		for s := -1; s <= jitterSteps; s++ {
			jitter := g.jitter[i]
			if s >= 0 {
				jitter = jitterStart * math.Pow10(s) * meanDiag
				if jitter <= g.jitter[i] {
					continue
				}
			}
			if rest+jitter > floor {
				g.jitter[i] = jitter
				g.l[start+i] = math.Sqrt(rest + jitter)
				return nil
			}
		}
	}
	return fmt.Errorf("%w: observation %d leaves pivot %.3g with mean diagonal %.3g",
		ErrNotPositiveDefinite, i, rest, meanDiag)
}

// restandardise sets scale to the standard deviation of y and refactors A.
// If the new factorisation fails, the previous scale is restored.
func (g *GP) restandardise() {
	g.standardisedAt = g.n
	old := g.scale
	g.scale = Deviation(g.y[:g.n])
	if g.scale == old || g.refactor() == nil {
		return
	}
	g.scale = old
	// Jitter only grew during the failed attempt, and more diagonal keeps a
	// positive-definite matrix positive definite, so this cannot fail.
	_ = g.refactor()
}

// refactor recomputes every row of L.
func (g *GP) refactor() error {
	for i := range g.n {
		if err := g.factorRow(i); err != nil {
			return err
		}
	}
	return nil
}

// updateAlpha refreshes shift and α = A⁻¹z with two triangular solves.
func (g *GP) updateAlpha() {
	n := g.n
	if real := n - g.fantasies; g.standardisesItself() && real > 0 {
		g.shift = g.prior.Of(g.y[:real])
	}
	a := g.alpha[:n]
	for i := range a {
		a[i] = g.standardised(i)
	}
	g.forwardSolve(n, a)
	g.backwardSolve(n, a)
}

func (g *GP) standardised(i int) float64 { return (g.y[i] - g.shift) / g.scale }

// diagonalExtra is λ_i/scale² + jitter_i, row i's addition to K in A.
func (g *GP) diagonalExtra(i int) float64 {
	return g.noise[i]/(g.scale*g.scale) + g.jitter[i]
}

// rowStart is the offset of row i in a packed lower triangle.
func rowStart(i int) int { return vec.PackedRow(i) }

// forwardSolve overwrites x[:n] with L⁻¹x using the leading n×n block of L.
func (g *GP) forwardSolve(n int, x []float64) { vec.SolveLower(g.l, n, x) }

// backwardSolve overwrites x[:n] with L⁻ᵀx.
func (g *GP) backwardSolve(n int, x []float64) { vec.SolveLowerT(g.l, n, x) }

// Deviation returns the population standard deviation of y, or 1 when it is
// undefined or zero.
func Deviation(y []float64) float64 {
	if len(y) < 2 {
		return 1
	}
	mean := Average.Of(y)
	ss := 0.0
	for _, v := range y {
		ss += (v - mean) * (v - mean)
	}
	if ss == 0 {
		return 1
	}
	return math.Sqrt(ss / float64(len(y)))
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
