// Package search maximises acquisition functions over the unit cube
// [0,1]^d, the space emitted optimisers search in (they map it to the user's
// box themselves). The searcher is allocation-free after construction, and
// each call is a function of its arguments and the starts added before it:
// a searcher keeps nothing from one call to the next, so an optimiser
// rebuilt from its observations searches exactly as the original did.
package search

import (
	"errors"
	"fmt"
	"math"

	"github.com/bocdev/boc/runtime/design"
	"github.com/bocdev/boc/runtime/internal/splitmix"
)

const (
	// Compass search starts with steps of initialStep along each axis,
	// halves them whenever no axis move improves, and stops below minStep
	// or after evalsPerDim·dim evaluations of the objective per restart.
	initialStep = 0.1
	minStep     = 1e-6
	evalsPerDim = 200
)

// ErrNoFeasible reports that no candidate satisfied the feasibility test.
var ErrNoFeasible = errors.New("search: no feasible point found")

// Pattern maximises a function over [0,1]^dim in two stages: it scores raw
// Sobol candidates (and any starts given with AddStart), then refines the
// best restarts of them with a bounded compass search.
type Pattern struct {
	dim, raw, restarts int

	sobol *design.Sobol

	point, trial []float64 // dim each

	top      []float64 // restarts×dim: the best candidates, best first
	topValue []float64
	nTop     int

	starts  []float64 // restarts×dim: points from AddStart
	nStarts int
}

// NewPattern returns a searcher over [0,1]^dim that scores raw Sobol
// candidates per call and refines the best restarts; all memory is
// allocated here. It panics unless 1 <= dim <= design.MaxSobolDim,
// raw >= 0 and restarts >= 1, which the compiler guarantees.
func NewPattern(dim, raw, restarts int) *Pattern {
	if raw < 0 || restarts < 1 {
		panic(fmt.Sprintf("search: raw = %d, restarts = %d", raw, restarts))
	}
	sobol, err := design.NewSobol(dim, 0)
	if err != nil {
		panic(err)
	}
	return &Pattern{
		dim: dim, raw: raw, restarts: restarts,
		sobol:    sobol,
		point:    make([]float64, dim),
		trial:    make([]float64, dim),
		top:      make([]float64, restarts*dim),
		topValue: make([]float64, restarts),
		starts:   make([]float64, restarts*dim),
	}
}

// AddStart adds u (clamped to the cube) as a candidate for the next Maximize
// only, e.g. the incumbent. Starts beyond the first restarts are ignored.
func (p *Pattern) AddStart(u []float64) {
	if p.nStarts == p.restarts {
		return
	}
	s := p.starts[p.nStarts*p.dim : (p.nStarts+1)*p.dim]
	for j := range s {
		s[j] = clamp(u[j])
	}
	p.nStarts++
}

// Maximize looks for the maximiser of f over [0,1]^dim subject to
// feasible(u) (nil: everything is feasible), writes it to out and returns f
// there. f is only called at feasible points; points where it returns NaN
// are skipped. The raw Sobol candidates are shifted by seed: callers pass a
// different seed for every suggestion, so that successive suggestions
// explore different points while a run stays reproducible. With
// no feasible point it returns ErrNoFeasible and leaves out unchanged.
func (p *Pattern) Maximize(f func(u []float64) float64, feasible func(u []float64) bool, seed uint64, out []float64) (float64, error) {
	p.sobol.Reset(shiftSeed(seed))
	p.nTop = 0
	for range p.raw {
		p.sobol.Next(p.point)
		p.consider(p.point, f, feasible)
	}
	for i := range p.nStarts {
		p.consider(p.starts[i*p.dim:(i+1)*p.dim], f, feasible)
	}
	p.nStarts = 0
	if p.nTop == 0 {
		return math.NaN(), ErrNoFeasible
	}
	best := math.Inf(-1)
	for r := range p.nTop {
		x := p.top[r*p.dim : (r+1)*p.dim]
		if v := p.refine(x, p.topValue[r], f, feasible); v > best {
			best = v
			copy(out[:p.dim], x)
		}
	}
	return best, nil
}

// MaximizeFinite returns the index of the best of a finite set of points
// (row-major, len(points)/dim of them), for finite decision sets, and f
// there: the point with the largest value among the feasible ones where f is
// not NaN, ties going to the earlier point. With no such point it returns
// ErrNoFeasible.
func (p *Pattern) MaximizeFinite(f func(u []float64) float64, feasible func(u []float64) bool, points []float64) (int, float64, error) {
	best, bestIndex := math.NaN(), -1
	for i := range len(points) / p.dim {
		u := points[i*p.dim : (i+1)*p.dim]
		if feasible != nil && !feasible(u) {
			continue
		}
		if v := f(u); !math.IsNaN(v) && (bestIndex < 0 || v > best) {
			best, bestIndex = v, i
		}
	}
	if bestIndex < 0 {
		return -1, math.NaN(), ErrNoFeasible
	}
	return bestIndex, best, nil
}

// consider scores u and keeps it if it is among the best restarts so far.
func (p *Pattern) consider(u []float64, f func([]float64) float64, feasible func([]float64) bool) {
	if feasible != nil && !feasible(u) {
		return
	}
	v := f(u)
	if math.IsNaN(v) || (p.nTop == p.restarts && v <= p.topValue[p.nTop-1]) {
		return
	}
	// Insertion into the short sorted list, dropping the worst if full.
	i := min(p.nTop, p.restarts-1)
	for ; i > 0 && p.topValue[i-1] < v; i-- {
		p.topValue[i] = p.topValue[i-1]
		copy(p.top[i*p.dim:(i+1)*p.dim], p.top[(i-1)*p.dim:i*p.dim])
	}
	p.topValue[i] = v
	copy(p.top[i*p.dim:(i+1)*p.dim], u)
	p.nTop = min(p.nTop+1, p.restarts)
}

// refine runs a compass search from x (value fx), moving x in place, and
// returns the final value. Each sweep tries ±step along every axis, clamped
// to the cube, and moves at the first improvement on that axis; a sweep
// without improvement halves the step.
func (p *Pattern) refine(x []float64, fx float64, f func([]float64) float64, feasible func([]float64) bool) float64 {
	budget := evalsPerDim * p.dim
	for step := initialStep; step >= minStep && budget > 0; {
		improved := false
		for j := 0; j < p.dim && budget > 0; j++ {
			for _, move := range [2]float64{step, -step} {
				copy(p.trial, x)
				p.trial[j] = clamp(x[j] + move)
				if p.trial[j] == x[j] || (feasible != nil && !feasible(p.trial)) {
					continue
				}
				v := f(p.trial)
				budget--
				if v > fx {
					x[j], fx = p.trial[j], v
					improved = true
					break
				}
				if budget == 0 {
					break
				}
			}
		}
		if !improved {
			step /= 2
		}
	}
	return fx
}

// shiftSeed derives the non-zero Sobol shift seed of a call from the
// caller's seed (splitmix64 finaliser, so nearby seeds give unrelated
// shifts).
func shiftSeed(seed uint64) uint64 {
	z := splitmix.Mix(seed + 0x9e3779b97f4a7c15)
	if z == 0 {
		return 1
	}
	return z
}

func clamp(u float64) float64 { return min(max(u, 0), 1) }
