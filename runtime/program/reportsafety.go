package program

import (
	"fmt"
	"math"

	"github.com/bocdev/boc/runtime/command"
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
	// Contradictions explains, a sentence each, the measurements that
	// contradicted the constraints' model.
	Contradictions() []string
}

// brokenLimits says, for each unknown constraint, how many of the values
// told broke its limit.
func brokenLimits(p Problem, values []toldValue) [][2]string {
	var rows [][2]string
	for _, c := range p.Constraints {
		n := 0
		for _, v := range values {
			if violated(c, v.t.result.Constraints[c.Name]) {
				n++
			}
		}
		rows = append(rows, [2]string{c.Name, fmt.Sprintf("%d of %d evaluations broke its limit (%s)", n, len(values), keptWhile(c))})
	}
	return rows
}

// estimateSafety returns the estimate of the safe set that the model's
// slices and maps draw, and puts the seed points and a note on it into
// page; nil, with a note that says why, when there is none.
func estimateSafety(page *reportPage, p Problem, session Session, rec *command.Point) *safeSet {
	model, ok := session.(SafeModel)
	if !ok {
		page.SafeNote = "The safe set is not drawn: this program's optimiser does not give its constraints' posterior."
		return nil
	}
	for _, x := range model.SeedPoints() {
		page.Seeds = append(page.Seeds, formatPoint(p.Dims, x))
	}
	if rec == nil {
		page.SafeNote = "The safe set is not drawn: no value has been told yet."
		return nil
	}
	safe := &safeSet{p, model}
	_, beta, err := safe.at(rec.X)
	if err != nil {
		page.SafeNote = "The safe set is not drawn: " + err.Error() + "."
		return nil
	}
	page.SafeNote = "The model's slices shade, and its maps leave in colour, the estimated safe set: the points where every constraint's confidence bound (μ + √β σ of a ≤ limit, μ − √β σ of a ≥ one, β = " +
		formatValue(beta) + ") keeps its limit, by the constraints' posterior now. The optimiser certifies only points of its decision set, with bounds intersected over its rounds, so the set it plays in can differ."
	return safe
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
		if c.Required {
			continue // the evaluations may break it
		}
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
