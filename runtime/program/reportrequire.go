package program

import (
	"fmt"
	"slices"

	"github.com/bocdev/boc/runtime/plot"
)

// The report's view of the requirements (outcome constraints): the
// evaluated points that broke one marked apart, and a map of the
// probability of meeting them all.

// A RequirementModel is the Session of an optimiser with requirements,
// whose probability of meeting them the report maps. The programs boc
// emits for such problems implement it.
type RequirementModel interface {
	// Feasibility returns the posterior probability that x meets every
	// requirement.
	Feasibility(x []float64) (float64, error)
}

// evaluatedPoints are the points told a value over components i and j: one
// series, or with requirements two, those that met every requirement and
// those that broke one.
func evaluatedPoints(p Problem, values []toldValue, i, j int) []plot.Points {
	met, broke := plot.Points{Name: "evaluated"}, plot.Points{Name: "evaluated, a requirement broken"}
	if p.requires() {
		met.Name = "evaluated, the requirements met"
	}
	for _, v := range values {
		at := &met
		if p.requires() && slices.ContainsFunc(p.Constraints, func(c Constraint) bool {
			return c.Required && violated(c, v.t.result.Constraints[c.Name])
		}) {
			at = &broke
		}
		at.X, at.Y = append(at.X, v.t.x[i]), append(at.Y, v.t.x[j])
	}
	if !p.requires() {
		return []plot.Points{met}
	}
	return []plot.Points{met, broke}
}

// feasibilityMap is the map of the probability of meeting every
// requirement over components i and j, the others at rec's, on the grid
// and with the points of like.
func feasibilityMap(p Problem, model RequirementModel, like plot.Map, rec []float64, i, j int) (plot.Map, error) {
	m := like
	m.Title, m.Z = "probability of meeting the requirements", nil
	x := slices.Clone(rec)
	for _, y := range m.Y {
		row := make([]float64, len(m.X))
		for k, v := range m.X {
			x[i], x[j] = v, y
			pr, err := model.Feasibility(x)
			if err != nil {
				return m, fmt.Errorf("the probability of meeting the requirements at %s: %w", formatPoint(p.Dims, x), err)
			}
			row[k] = pr
		}
		m.Z = append(m.Z, row)
	}
	return m, nil
}
