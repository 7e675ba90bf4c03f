package search

import (
	"fmt"
	"math"
)

// SweepPoints is how many values of a component a coordinate sweep scores,
// evenly spaced over the box's side, ends included.
const SweepPoints = 64

// WithSweeps makes every following Maximize of s finish with n coordinate
// sweeps of its best refined point, and returns s. A sweep sets each
// continuous component in turn to the best of SweepPoints values across
// the box, the others held, if that improves the value; a last L-BFGS-B
// refinement starts from the result. Gradient steps from a few starts find
// the nearest peak of an acquisition with many; a sweep finds the best
// along each component, which, for a model whose components add (an
// additive kernel, plan/additive.go), is the best over the whole box one
// component at a time. It allocates the sweeps' rows here; n = 0 turns them
// off. It panics for n < 0, which the compiler never passes.
func (s *LBFGS) WithSweeps(n int) *LBFGS {
	if n < 0 {
		panic(fmt.Sprintf("search: %d coordinate sweeps", n))
	}
	s.sweeps = n
	if n > 0 && s.sweepRows == nil {
		s.sweepRows = make([]float64, SweepPoints*s.dim)
	}
	return s
}

// Sweep scores a coordinate sweep's values (WithSweeps) as a whole, for a
// model that computes a point with one component changed faster than a new
// point (an additive kernel: runtime/kernel.Components). Base receives the
// point the sweeps vary: at their start (changed < 0) and after each change
// of its component changed; then Values writes to out[g] the value at that
// point with component j set to values[g], as BatchValue would give it, for
// at most BatchSize values. Base runs on one goroutine; Values on several at
// once, each with its worker's index.
type Sweep struct {
	Base   func(base []float64, changed int)
	Values func(worker, j int, values, out []float64)
}

// MaximizeSwept is MaximizeBatch whose coordinate sweeps score each
// component's values with sweep; a zero Sweep scores them as rows, by
// batch (or fg).
func (s *LBFGS) MaximizeSwept(fg ValueGrad, batch BatchValue, sweep Sweep, feasible func(u []float64) bool, seed uint64, out []float64) (float64, error) {
	s.sweepBy = sweep // until release
	return s.MaximizeBatch(fg, batch, feasible, seed, out)
}

// sweep runs the coordinate sweeps from x, of value value, then refines the
// result, leaving the best point found in x; it returns the value there.
// batch (nil: fg), or sweepBy where set, scores the sweeps' candidates.
func (s *LBFGS) sweep(x []float64, value float64, batch BatchValue) float64 {
	s.batch = batch
	if s.sweepBy.Base != nil {
		s.sweepBy.Base(x, -1)
	}
	for range s.sweeps {
		for j := range s.dim {
			if s.levels != nil && s.levels[j] > 0 || s.hi[j] <= s.lo[j] {
				continue
			}
			for g := range SweepPoints {
				row := s.sweepRows[g*s.dim : (g+1)*s.dim]
				copy(row, x)
				row[j] = s.lo[j] + (s.hi[j]-s.lo[j])*float64(g)/(SweepPoints-1)
			}
			if s.sweepBy.Values != nil {
				s.sweepComponent(j)
			} else {
				s.score(s.sweepRows, SweepPoints)
			}
			if s.nTop > 0 && s.topValue[0] > value {
				x[j], value = s.sweepRows[s.topIndex[0]*s.dim+j], s.topValue[0]
				if s.sweepBy.Base != nil {
					s.sweepBy.Base(x, j)
				}
			}
		}
	}
	s.batch = nil
	// The refinement of one start: row 0 of the sweeps' rows.
	copy(s.sweepRows[:s.dim], x)
	s.points, s.topIndex[0], s.topValue[0], s.nTop = s.sweepRows, 0, value, 1
	s.run(refineTask)
	if s.refinedVal[0] > value {
		copy(x, s.refined[:s.dim])
		value = s.refinedVal[0]
	}
	return value
}

// sweepComponent scores the sweep's rows, which differ from the base in
// component j alone, by sweepBy on the workers, and leaves the best
// feasible one in topIndex[0] and topValue[0] (nTop 0 without any), ties
// to the lower row, as score would.
func (s *LBFGS) sweepComponent(j int) {
	s.sweepAlong = j
	for g := range SweepPoints {
		s.sweepValues[g] = s.sweepRows[g*s.dim+j]
	}
	s.run(sweepTask)
	s.nTop = 0
	for g, v := range s.sweepOut {
		if math.IsNaN(v) || s.feasible != nil && !s.feasible(s.sweepRows[g*s.dim:(g+1)*s.dim]) {
			continue
		}
		s.nTop = insertTop(s.topIndex[:1], s.topValue, s.nTop, g, v)
	}
}

// sweepChunk scores the sweep values of chunk number chunk (sweepComponent).
func (pw *worker) sweepChunk(chunk int) {
	c := pw.core
	lo, hi := chunk*scoreChunk, min((chunk+1)*scoreChunk, SweepPoints)
	c.sweepBy.Values(pw.index, c.sweepAlong, c.sweepValues[lo:hi], c.sweepOut[lo:hi])
}
