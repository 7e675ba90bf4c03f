package search

import "fmt"

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

// sweep runs the coordinate sweeps from x, of value value, then refines the
// result, leaving the best point found in x; it returns the value there.
// batch (nil: fg) scores the sweeps' candidates.
func (s *LBFGS) sweep(x []float64, value float64, batch BatchValue) float64 {
	s.batch = batch
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
			s.score(s.sweepRows, SweepPoints)
			if s.nTop > 0 && s.topValue[0] > value {
				x[j], value = s.sweepRows[s.topIndex[0]*s.dim+j], s.topValue[0]
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
