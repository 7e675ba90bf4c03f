package safe

import "math"

// Intervals are the confidence intervals [Lo[i], Hi[i]] of one function at
// each candidate i, intersected over time as Sui et al. do:
// C_t(x) = C_{t−1}(x) ∩ [μ_t(x) − √β_t σ_t(x), μ_t(x) + √β_t σ_t(x)]. A
// lower bound never falls and an upper bound never rises, so a safe set
// built on them never shrinks.
type Intervals struct {
	Lo, Hi []float64
	// Conflicts counts the updates whose interval was disjoint from the
	// intersection so far at some candidate: the model contradicts its own
	// earlier confidence (a mis-specified kernel or β). The interval is then
	// kept as it was there: bounds never move back.
	Conflicts int
}

// NewIntervals returns the intervals of n candidates before any data:
// (−∞, +∞).
func NewIntervals(n int) *Intervals {
	c := &Intervals{Lo: make([]float64, n), Hi: make([]float64, n)}
	c.forget()
	return c
}

// forget sets every interval back to (−∞, +∞).
func (c *Intervals) forget() {
	for i := range c.Lo {
		c.Lo[i], c.Hi[i] = math.Inf(-1), math.Inf(1)
	}
}

// Update intersects the intervals with μ ± √β σ, given the posterior mean and
// standard deviation at every candidate.
func (c *Intervals) Update(mean, sd []float64, beta float64) {
	w := math.Sqrt(beta)
	for i := range c.Lo {
		c.update(i, mean[i], sd[i], w)
	}
}

// update intersects candidate i's interval with mean ± root·sd.
func (c *Intervals) update(i int, mean, sd, root float64) {
	lo, hi := mean-root*sd, mean+root*sd
	if lo > c.Hi[i] || hi < c.Lo[i] {
		c.Conflicts++
		return
	}
	c.Lo[i], c.Hi[i] = max(c.Lo[i], lo), min(c.Hi[i], hi)
}

// Width is the width of candidate i's interval.
func (c *Intervals) Width(i int) float64 { return c.Hi[i] - c.Lo[i] }

// Beta is Theorem 1's β_t = 2 log(2|D| t² π² / (6δ)) for a decision set of
// n candidates at round t ≥ 1 and failure probability δ: with probability at
// least 1 − δ every function value lies in its interval at every round.
func Beta(n, t int, delta float64) float64 {
	return 2 * math.Log(2*float64(n)*float64(t)*float64(t)*math.Pi*math.Pi/(6*delta))
}
