package program

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/bocdev/boc/runtime/pareto"
	"github.com/bocdev/boc/runtime/plot"
)

// The report of a study with several objectives draws, instead of the
// convergence of one value, the hypervolume that the values told dominate
// after each evaluation, and the values told in the objectives' plane (a
// chart per pair beyond two) with the Pareto set marked and, for two, the
// region it dominates shaded up to the reference point.

// drawFront fills the report's charts of several objectives: Convergence
// with the hypervolume, Fronts with the objectives' planes.
func drawFront(page *reportPage, p Problem, st status, values []toldValue) error {
	if !p.several() || len(values) == 0 || len(st.reference) != len(p.Objectives) {
		return nil
	}
	svg, err := chartSVG(hypervolumeChart(p, values, st.reference))
	if err != nil {
		return err
	}
	page.Convergence = svg
	m := len(p.Objectives)
	for a := range m {
		for b := a + 1; b < m; b++ {
			svg, err := chartSVG(frontChart(p, values, st.front, st.reference, a, b))
			if err != nil {
				return err
			}
			page.Fronts = append(page.Fronts, svg)
		}
	}
	return nil
}

// maximised returns values with every minimised objective negated, as
// runtime/pareto takes them.
func maximised(p Problem, values []float64) []float64 {
	out := slices.Clone(values)
	for j, o := range p.Objectives {
		if !o.Maximize {
			out[j] = -out[j]
		}
	}
	return out
}

// hypervolumeChart draws the hypervolume the values told so far dominate
// above reference, after each evaluation, counting only the values that
// met every requirement as measured.
func hypervolumeChart(p Problem, values []toldValue, reference []float64) plot.Chart {
	line := plot.Line{Name: "hypervolume of the values told", Steps: true}
	ref := maximised(p, reference)
	var told []float64
	for _, v := range values {
		met := !slices.ContainsFunc(p.Constraints, func(c Constraint) bool {
			return c.Required && violated(c, v.t.result.Constraints[c.Name])
		})
		if met {
			told = append(told, maximised(p, objectiveVector(p, v.t.result))...)
		}
		line.X, line.Y = append(line.X, float64(v.evaluation)), append(line.Y, pareto.Hypervolume(told, len(ref), ref))
	}
	return plot.Chart{Title: "hypervolume", XLabel: "evaluation (in the order told)", YLabel: "hypervolume above the reference point",
		Linear: true, Lines: []plot.Line{line}}
}

// frontChart draws the values told of objectives a and b, the Pareto set's
// observed values marked and, for two objectives, the region it dominates
// shaded up to the reference point.
func frontChart(p Problem, values []toldValue, front []FrontPoint, reference []float64, a, b int) plot.Chart {
	told := plot.Points{Name: "values told"}
	for _, v := range values {
		y := objectiveVector(p, v.t.result)
		told.X, told.Y = append(told.X, y[a]), append(told.Y, y[b])
	}
	set := plot.Points{Name: "Pareto set", Emphasis: true}
	for _, f := range front {
		set.X, set.Y = append(set.X, f.Observed[a]), append(set.Y, f.Observed[b])
	}
	oa, ob := p.Objectives[a], p.Objectives[b]
	c := plot.Chart{Title: fmt.Sprintf("%s and %s", oa.Name, ob.Name), XLabel: goalLabel(oa), YLabel: goalLabel(ob), Linear: true,
		Points: []plot.Points{told}}
	if len(set.X) > 0 {
		c.Points = append(c.Points, set)
		if len(p.Objectives) == 2 {
			c.Lines = []plot.Line{dominated(set, oa.Maximize, ob.Maximize, reference)}
		}
	}
	return c
}

// goalLabel names an objective's axis with its sense.
func goalLabel(o Objective) string {
	if o.Maximize {
		return o.Name + " (maximised)"
	}
	return o.Name + " (minimised)"
}

// dominated is the staircase that bounds the region the points of set
// dominate, banded up to the reference point: from the best in the first
// objective along every point's corner to the reference's first
// coordinate.
func dominated(set plot.Points, maxA, maxB bool, reference []float64) plot.Line {
	better := func(max bool, u, v float64) int {
		if max {
			return cmp.Compare(v, u)
		}
		return cmp.Compare(u, v)
	}
	order := make([]int, len(set.X))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(i, j int) int {
		return cmp.Or(better(maxA, set.X[i], set.X[j]), better(maxB, set.Y[i], set.Y[j]))
	})
	line := plot.Line{Name: "dominated up to the reference point"}
	level := reference[1]
	add := func(x, y float64) {
		line.X, line.Y = append(line.X, x), append(line.Y, y)
		line.Lower, line.Upper = append(line.Lower, math.Min(y, reference[1])), append(line.Upper, math.Max(y, reference[1]))
	}
	for _, i := range order {
		x, y := set.X[i], set.Y[i]
		if better(maxB, y, level) >= 0 || better(maxA, x, reference[0]) >= 0 {
			continue // dominated by an earlier point, or beyond the reference
		}
		add(x, level)
		add(x, y)
		level = y
	}
	if len(line.X) == 0 {
		add(reference[0], reference[1])
	}
	add(reference[0], level)
	return line
}

// frontStatus is the status rows of the Pareto set.
func frontStatus(p Problem, st status) [][2]string {
	if !p.several() || st.Evaluations == 0 {
		return nil
	}
	row := fmt.Sprintf("%d points, hypervolume %s", len(st.front), formatValue(st.hypervolume))
	if len(st.reference) == len(p.Objectives) {
		row += " above the reference " + formatObjectives(p.objectiveNames(), st.reference)
	}
	rows := [][2]string{{"Pareto set", row}}
	for _, f := range st.front {
		rows = append(rows, [2]string{"", formatPoint(p.Dims, f.X) + "  " + formatObjectives(p.objectiveNames(), f.Observed)})
	}
	return rows
}
