// Package opt minimises smooth functions over boxes with a bounded
// limited-memory quasi-Newton method (L-BFGS-B). It serves the runtime's
// hyperparameter learning and acquisition search, so it allocates nothing
// after construction: gonum/optimize has no bound constraints and allocates
// on every call.
//
// # Algorithm
//
// Each iteration works on the free variables, those not held at a bound by
// the gradient (x_i = lo_i with g_i > 0, or x_i = hi_i with g_i < 0, are
// held). The direction is the L-BFGS two-loop product −H·g on the free
// components, zero on the held ones; components that would leave the box at
// once are zeroed too, so short steps stay feasible. If that is not a descent
// direction the memory is dropped and the projected steepest descent is used.
// A backtracking line search along the projected path P(x + t·d) accepts the
// first step with sufficient decrease, f(P(x+td)) ≤ f(x) + c₁·gᵀ(P(x+td) − x),
// trying the interpolated minimiser of a quadratic model after each failure.
// When an accepted step lies inside the box and the slope there is still
// large (|gᵀd| at the trial above c₂ = 0.1 times the slope at 0), the step is
// refined up to twice by the secant step between the two slopes, keeping the
// better point. That makes the line search exact on quadratics, where the
// method then terminates in about n iterations like conjugate gradients, and
// keeps curvature pairs informative. Pairs (s, y) with sᵀy not safely
// positive are skipped, which keeps the implicit inverse Hessian positive
// definite.
//
// A NaN or infinite f during the line search shrinks the step; a non-finite
// value at the start is an error.
package opt

import (
	"errors"
	"fmt"
	"math"
)

// Defaults of the LBFGSB settings.
const (
	DefaultMaxIterations = 200
	DefaultGradTol       = 1e-6
	DefaultFTol          = 1e-12
)

const (
	// Sufficient decrease (c₁) and the slope ratio (c₂) above which an
	// unclipped step is refined.
	armijo   = 1e-4
	curvTol  = 0.1
	maxTries = 40 // trial steps per line search
	// An accepted unclipped step is refined at most maxRefinements times.
	maxRefinements = 2
	// Backtracking never shrinks the step by more than shrinkMin or less than
	// shrinkMax per failure; a non-finite value shrinks it by shrinkNaN.
	shrinkMin = 0.1
	shrinkMax = 0.5
	shrinkNaN = 0.1
	extend    = 4 // growth of a refined step where d has no positive curvature
	// A pair is kept only if sᵀy > pairTol·yᵀy, so that H stays well
	// conditioned.
	pairTol = 1e-10
)

var (
	// ErrNotFinite reports a NaN or infinite value or gradient at the start.
	ErrNotFinite = errors.New("opt: objective is not finite at the start")
	// ErrBadInput reports slices of the wrong length or a box with lo > hi.
	ErrBadInput = errors.New("opt: invalid input")
)

// Result describes a finished minimisation.
type Result struct {
	F           float64 // f at the returned x
	Iterations  int     // accepted steps
	Evaluations int     // calls of f
	// Converged reports that the projected gradient or the relative
	// decrease of f fell below its tolerance; false means the iteration limit
	// was reached or no step along the projected steepest descent decreased f
	// (usually rounding near a minimum).
	Converged bool
}

// LBFGSB minimises over boxes in n variables keeping m correction pairs. Set
// the exported fields before calling Minimize. A value is not safe for
// concurrent use; give each goroutine its own.
type LBFGSB struct {
	// MaxIterations bounds the accepted steps per Minimize.
	MaxIterations int
	// GradTol stops when the projected gradient's largest component,
	// |P(x − g) − x|_∞, is at most GradTol.
	GradTol float64
	// FTol stops when an iteration decreases f by at most FTol·|f|; the
	// test is relative, so it behaves the same at every scale of f.
	FTol float64
	// KeepMemory makes Minimize start with the correction pairs the
	// previous call ended with instead of none. For a sequence of related
	// problems (a refit after a few more observations) the first step is
	// then a quasi-Newton step rather than a steepest-descent one of unknown
	// scale; the pairs are a model of the curvature only, so a stale one
	// costs iterations, never correctness.
	KeepMemory bool

	n, m int

	s, y   []float64 // m×n ring buffers of corrections, newest at newest
	rho    []float64 // 1/sᵀy per pair
	alpha  []float64 // two-loop coefficients
	pairs  int
	newest int

	g, d, trialX, trialG, bestX, bestG []float64
}

// NewLBFGSB returns an optimiser for n variables with m correction pairs and
// the default settings; it allocates all the memory Minimize uses. It panics
// unless n >= 1 and m >= 1.
func NewLBFGSB(n, m int) *LBFGSB {
	if n < 1 || m < 1 {
		panic(fmt.Sprintf("opt: NewLBFGSB(%d, %d)", n, m))
	}
	vec := func() []float64 { return make([]float64, n) }
	return &LBFGSB{
		MaxIterations: DefaultMaxIterations,
		GradTol:       DefaultGradTol,
		FTol:          DefaultFTol,
		n:             n, m: m,
		s: make([]float64, m*n), y: make([]float64, m*n),
		rho: make([]float64, m), alpha: make([]float64, m),
		g: vec(), d: vec(), trialX: vec(), trialG: vec(), bestX: vec(), bestG: vec(),
	}
}

// Minimize minimises f over the box [lo, hi] from x, which it first projects
// into the box and then overwrites with the solution. f returns the value at
// x and writes the gradient to grad; it must not keep x or grad. Every slice
// has length n. On error x holds the projected start.
func (o *LBFGSB) Minimize(f func(x, grad []float64) float64, x, lo, hi []float64) (Result, error) {
	n := o.n
	if len(x) != n || len(lo) != n || len(hi) != n {
		return Result{}, fmt.Errorf("%w: lengths %d, %d, %d for %d variables", ErrBadInput, len(x), len(lo), len(hi), n)
	}
	for i := range n {
		if !(lo[i] <= hi[i]) {
			return Result{}, fmt.Errorf("%w: bound %d is [%v, %v]", ErrBadInput, i, lo[i], hi[i])
		}
		x[i] = min(max(x[i], lo[i]), hi[i])
	}
	if !o.KeepMemory {
		o.pairs = 0
	}
	res := Result{F: f(x, o.g), Evaluations: 1}
	if !finite(res.F) || !allFinite(o.g) {
		return res, ErrNotFinite
	}
	for res.Iterations < o.MaxIterations {
		if o.projectedGradNorm(x, lo, hi) <= o.GradTol {
			res.Converged = true
			return res, nil
		}
		slope := o.direction(x, lo, hi)
		if slope >= 0 && o.pairs > 0 {
			o.pairs = 0
			slope = o.direction(x, lo, hi)
		}
		step := 1.0
		if o.pairs == 0 {
			// Without curvature information, the first step moves by at most
			// one unit, like the scaled steepest-descent step of L-BFGS.
			step = min(1, 1/norm(o.d))
		}
		fNew, evals, ok := o.lineSearch(f, x, lo, hi, res.F, slope, step)
		res.Evaluations += evals
		if !ok {
			if o.pairs == 0 {
				return res, nil
			}
			o.pairs = 0 // retry from steepest descent
			continue
		}
		res.Iterations++
		o.remember(x, o.bestX, o.bestG)
		copy(x, o.bestX)
		copy(o.g, o.bestG)
		decrease := res.F - fNew
		res.F = fNew
		if decrease <= o.FTol*math.Abs(fNew) {
			res.Converged = true
			return res, nil
		}
	}
	return res, nil
}

// projectedGradNorm returns |P(x − g) − x|_∞.
func (o *LBFGSB) projectedGradNorm(x, lo, hi []float64) float64 {
	worst := 0.0
	for i, xi := range x {
		worst = max(worst, math.Abs(min(max(xi-o.g[i], lo[i]), hi[i])-xi))
	}
	return worst
}

// direction sets d to the quasi-Newton direction on the free variables, zero
// on held ones and on those that would leave the box, and returns gᵀd.
func (o *LBFGSB) direction(x, lo, hi []float64) float64 {
	d := o.d
	for i := range d {
		d[i] = o.g[i]
		if o.held(i, x, lo, hi) {
			d[i] = 0
		}
	}
	// Two-loop recursion: d ← H·d, newest pair first, then oldest first.
	n := o.n
	k := o.newest
	for range o.pairs {
		o.alpha[k] = o.rho[k] * dot(o.s[k*n:(k+1)*n], d)
		axpy(-o.alpha[k], o.y[k*n:(k+1)*n], d)
		k = (k + o.m - 1) % o.m
	}
	if o.pairs > 0 {
		yk := o.y[o.newest*n : (o.newest+1)*n]
		scale(1/(o.rho[o.newest]*dot(yk, yk)), d)
	}
	for range o.pairs {
		k = (k + 1) % o.m
		beta := o.rho[k] * dot(o.y[k*n:(k+1)*n], d)
		axpy(o.alpha[k]-beta, o.s[k*n:(k+1)*n], d)
	}
	slope := 0.0
	for i := range d {
		d[i] = -d[i]
		if o.held(i, x, lo, hi) || (x[i] == lo[i] && d[i] < 0) || (x[i] == hi[i] && d[i] > 0) {
			d[i] = 0
		}
		slope += o.g[i] * d[i]
	}
	return slope
}

// held reports whether variable i is at a bound the gradient pushes against.
func (o *LBFGSB) held(i int, x, lo, hi []float64) bool {
	return (x[i] == lo[i] && o.g[i] > 0) || (x[i] == hi[i] && o.g[i] < 0) || lo[i] == hi[i]
}

// lineSearch looks along P(x + t·d) from t = step for a point with sufficient
// decrease and leaves the accepted point and its gradient in bestX, bestG. It
// returns the value there, the evaluations used and whether it succeeded.
func (o *LBFGSB) lineSearch(f func(x, grad []float64) float64, x, lo, hi []float64, f0, slope, step float64) (float64, int, bool) {
	if slope >= 0 {
		return f0, 0, false
	}
	bestF, found := f0, false
	evals, refinements := 0, 0
	for range maxTries {
		clipped, moved := o.trialPoint(x, lo, hi, step)
		if !moved {
			break
		}
		ft := f(o.trialX, o.trialG)
		evals++
		if !finite(ft) || !allFinite(o.trialG) {
			if found {
				break
			}
			step *= shrinkNaN
			continue
		}
		predicted := 0.0
		for i, xi := range x {
			predicted += o.g[i] * (o.trialX[i] - xi)
		}
		if predicted >= 0 || ft > f0+armijo*predicted || (found && ft >= bestF) {
			if found {
				break // the extension overshot: keep the previous step
			}
			step *= shrinkFactor(f0, slope, ft, step, clipped)
			continue
		}
		bestF, found = ft, true
		copy(o.bestX, o.trialX)
		copy(o.bestG, o.trialG)
		slopeT := dot(o.trialG, o.d)
		if clipped || refinements == maxRefinements || math.Abs(slopeT) <= curvTol*-slope {
			break
		}
		// The slope at the trial is still steep or has turned: move to the
		// minimiser of the quadratic with the two slopes (the secant step),
		// or extend when the curvature along d is not positive.
		refinements++
		if slopeT > slope {
			step *= slope / (slope - slopeT)
		} else {
			step *= extend
		}
	}
	return bestF, evals, found
}

// shrinkFactor returns how much to shrink a failed step: the minimiser of the
// quadratic through f0, slope and ft along an unclipped path, safeguarded to
// [shrinkMin, shrinkMax].
func shrinkFactor(f0, slope, ft, step float64, clipped bool) float64 {
	if clipped || !finite(ft) {
		return shrinkMax
	}
	curvature := ft - f0 - slope*step
	if curvature <= 0 {
		return shrinkMax
	}
	return min(max(-slope*step/(2*curvature), shrinkMin), shrinkMax)
}

// trialPoint sets trialX to P(x + step·d) and reports whether a component was
// clipped and whether the point differs from x.
func (o *LBFGSB) trialPoint(x, lo, hi []float64, step float64) (clipped, moved bool) {
	for i, xi := range x {
		v := xi + step*o.d[i]
		p := min(max(v, lo[i]), hi[i])
		clipped = clipped || p != v
		moved = moved || p != xi
		o.trialX[i] = p
	}
	return clipped, moved
}

// remember stores the correction pair from (x, g) to (xNew, gNew) if its
// curvature sᵀy is safely positive. The pair is built in the trial buffers,
// which are free between line searches, so a rejected pair overwrites nothing.
func (o *LBFGSB) remember(x, xNew, gNew []float64) {
	s, y := o.trialX, o.trialG
	for i := range s {
		s[i] = xNew[i] - x[i]
		y[i] = gNew[i] - o.g[i]
	}
	sy, yy := dot(s, y), dot(y, y)
	if !(sy > pairTol*yy) || !finite(sy) {
		return
	}
	n := o.n
	k := (o.newest + 1) % o.m
	if o.pairs == 0 {
		k = 0
	}
	copy(o.s[k*n:(k+1)*n], s)
	copy(o.y[k*n:(k+1)*n], y)
	o.rho[k] = 1 / sy
	o.newest = k
	o.pairs = min(o.pairs+1, o.m)
}

func dot(a, b []float64) float64 {
	b = b[:len(a)]
	s := 0.0
	for i, v := range a {
		s += v * b[i]
	}
	return s
}

// axpy sets y += a·x.
func axpy(a float64, x, y []float64) {
	y = y[:len(x)]
	for i, v := range x {
		y[i] += a * v
	}
}

func scale(a float64, x []float64) {
	for i := range x {
		x[i] *= a
	}
}

func norm(x []float64) float64 { return math.Sqrt(dot(x, x)) }

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

func allFinite(x []float64) bool {
	for _, v := range x {
		if !finite(v) {
			return false
		}
	}
	return true
}
