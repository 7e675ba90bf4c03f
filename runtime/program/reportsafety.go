package program

import (
	"fmt"
	"math"

	"github.com/bocdev/boc/runtime/plot"
)

// The report's estimate of the safe set of a safe optimiser: shaded on the
// model's slices, the rest greyed on its maps, the seed points marked.

// A SafeModel is the Session of a safe optimiser, whose estimate of the
// safe set the report draws. The programs boc emits for safe problems
// implement it.
type SafeModel interface {
	// ConstraintPosterior returns unknown constraint k's (in the order of
	// Problem.Constraints) posterior mean and sd at x, in its units, and the
	// β of the confidence intervals μ ± √β σ the optimiser certifies with.
	ConstraintPosterior(k int, x []float64) (mean, sd, beta float64, err error)
	// SeedPoints returns the points the safe exploration started from,
	// known safe.
	SeedPoints() [][]float64
}

// safeSet estimates the safe set of problem p from a safe optimiser's
// constraints: the points where every unknown constraint's confidence
// bound (μ + √β σ of a ≤ constraint, μ − √β σ of a ≥ one) keeps its limit.
type safeSet struct {
	p     Problem
	model SafeModel
}

// at reports whether x is in the estimated safe set, and the β of the
// bounds.
func (s safeSet) at(x []float64) (safe bool, beta float64, err error) {
	safe = true
	for k, c := range s.p.Constraints {
		mean, sd, b, err := s.model.ConstraintPosterior(k, x)
		if err != nil {
			return false, 0, err
		}
		bound := mean + math.Sqrt(b)*sd
		if c.AtLeast {
			bound = mean - math.Sqrt(b)*sd
		}
		safe, beta = safe && !violated(c, bound), b
	}
	return safe, beta, nil
}

// safeRegion is the region of the slice along component i through x
// estimated safe: the cell of each safe point of the slice, from halfway to
// its neighbours (to the bounds at the ends).
func (s safeSet) safeRegion(x []float64, i int, along []float64) (plot.Region, error) {
	r := plot.Region{Name: "estimated safe"}
	x = append([]float64(nil), x...)
	for k, v := range along {
		x[i] = v
		safe, _, err := s.at(x)
		if err != nil {
			return r, fmt.Errorf("the constraints' posterior at %s: %w", formatPoint(s.p.Dims, x), err)
		}
		if !safe {
			continue
		}
		from, to := v, v
		if k > 0 {
			from = (along[k-1] + v) / 2
		}
		if k+1 < len(along) {
			to = (v + along[k+1]) / 2
		}
		if n := len(r.Intervals); n > 0 && r.Intervals[n-1][1] == from {
			r.Intervals[n-1][1] = to
			continue
		}
		r.Intervals = append(r.Intervals, [2]float64{from, to})
	}
	return r, nil
}

// unsafeCells marks the cells of a map over components i and j through x
// outside the estimated safe set.
func (s safeSet) unsafeCells(x []float64, i, j int, xs, ys []float64) (*plot.Cells, error) {
	cells := &plot.Cells{Name: "estimated unsafe"}
	x = append([]float64(nil), x...)
	for _, y := range ys {
		row := make([]bool, len(xs))
		for k, v := range xs {
			x[i], x[j] = v, y
			safe, _, err := s.at(x)
			if err != nil {
				return nil, fmt.Errorf("the constraints' posterior at %s: %w", formatPoint(s.p.Dims, x), err)
			}
			row[k] = !safe
		}
		cells.In = append(cells.In, row)
	}
	return cells, nil
}

// seedPoints are the seed points over components i and j, nil without
// seeds.
func (s safeSet) seedPoints(i, j int) []plot.Points {
	seeds := plot.Points{Name: "seed points"}
	for _, x := range s.model.SeedPoints() {
		if len(x) == len(s.p.Lower) {
			seeds.X, seeds.Y = append(seeds.X, x[i]), append(seeds.Y, x[j])
		}
	}
	if len(seeds.X) == 0 {
		return nil
	}
	return []plot.Points{seeds}
}
