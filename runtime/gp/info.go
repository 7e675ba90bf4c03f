package gp

import "math"

// Information-theoretic statistics of the observations, for UCB schedules
// such as IGP-UCB's (MATH.md §2, §4).

// InformationGain returns the information the observations carry about the
// function, ½ log det(I + Λ⁻¹K), where Λ is the diagonal the model adds to
// the kernel matrix (noise, in the kernel's standardised units, plus jitter).
// Since A = K + Λ = LLᵀ, det(I + Λ⁻¹K) = det A / det Λ, which the Cholesky
// factor gives in O(n): Σ log L_ii − ½ Σ log Λ_ii. It is +Inf when an
// observation has neither noise nor jitter, and 0 without observations.
func (g *GP) InformationGain() float64 {
	gain := 0.0
	for i := range g.n {
		gain += math.Log(g.l[rowStart(i)+i]) - 0.5*math.Log(g.diagonalExtra(i))
	}
	return gain
}

// NoiseSD returns the largest observation-noise standard deviation on the
// model's standardised scale, sqrt(max_i Λ_ii) with Λ as in InformationGain:
// a sub-Gaussian constant for every observation's noise. It is 0 without
// observations.
func (g *GP) NoiseSD() float64 {
	largest := 0.0
	for i := range g.n {
		largest = max(largest, g.diagonalExtra(i))
	}
	return math.Sqrt(largest)
}
