package safe

import (
	"fmt"
	"math"
)

// The explorer's constraints away from its decision set: what a report
// draws of the safe set. Unlike the exploration's routines, these allocate.

// Estimate returns constraint k's posterior mean and sd at u, a point in
// unit coordinates, in the constraint's units, and the β of the confidence
// intervals μ ± √β σ in force. It first brings the explorer up to date with
// its observations, as the next round's Prepare would. A constraint judged
// where the queries land has no posterior at one aim: Estimate returns an
// error for it.
func (e *Explorer) Estimate(k int, u []float64) (mean, sd, beta float64, err error) {
	if k < 0 || k >= len(e.models) {
		return 0, 0, 0, fmt.Errorf("safe: constraint %d of %d", k, len(e.models))
	}
	if len(u) != e.cfg.Dim {
		return 0, 0, 0, fmt.Errorf("safe: a point of %d components, want %d", len(u), e.cfg.Dim)
	}
	m := e.models[k]
	if m.land != nil {
		return 0, 0, 0, fmt.Errorf("constraint %s is judged where the queries land, not at one point", m.Name)
	}
	if _, err := e.Prepare(); err != nil {
		return 0, 0, 0, err
	}
	n := m.gp.Len()
	kvec := make([]float64, n)
	for i := range n {
		kvec[i] = m.Kernel.Eval(u, e.unit(i))
	}
	z, variance := m.gp.Predict(kvec, m.Kernel.Eval(u, u))
	return m.bound(z), m.scale * math.Sqrt(variance), e.beta, nil
}

// Seeds are the indices of the seed points among the decision points
// (Point), as the configuration gave them.
func (e *Explorer) Seeds() []int { return e.cfg.Seeds }
