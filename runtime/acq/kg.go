package acq

import (
	"math"
	"slices"
)

// The knowledge gradient for continuous parameters (Scott, Frazier and
// Powell 2011; the computation of Frazier, Powell and Dayanik 2009). The
// optimiser recommends the evaluated point with the best posterior mean, so
// the value of one more observation at a candidate x is how much it is
// expected to raise that best mean. Over the set S of the evaluated points
// and x itself, after observing y = f(x) + ε, ε ~ N(0, τ²), the posterior
// mean at s ∈ S becomes a_s + b_s·Z with Z ~ N(0, 1),
//
//	a_s = μ(s),  b_s = cov(f(s), f(x)) / √(σ²(x) + τ²),
//
// and the knowledge gradient is the expected rise of the best mean over the
// best posterior mean now, μ⁺ = max over the evaluated points of a_s,
//
//	KG(x) = E[max_s (a_s + b_s Z)] − μ⁺ = G + max(a_x − μ⁺, 0),
//	G = E[max_s (a_s + b_s Z)] − max_s a_s ≥ 0.
//
// The maximum of lines in Z is their upper envelope: sorted by slope, lines
// k = 1..K on the envelope meet at breakpoints c_1 < … < c_{K−1}, and
//
//	G = Σ_k (b_{k+1} − b_k)·h(−|c_k|),  h(z) = zΦ(z) + φ(z),
//
// a sum of positive terms without cancellation. Unlike EI it values what a
// noisy observation teaches about the points already evaluated (through
// their covariance with x): a candidate where the posterior is already
// tight, or whose observation cannot change the recommendation, is worth
// little. Without noise (τ = 0) the evaluated points' covariances with x
// vanish and KG is EI against the best posterior mean.
//
// Measuring the rise from μ⁺ rather than from max_s a_s, which includes
// the candidate, is Scott et al.'s choice, and what makes KG equal EI
// without noise for every candidate, also one whose mean is above μ⁺.
//
// LogKG and LogKGGrad compute log KG, as LogEI does, so that a search can
// still rank candidates where KG underflows; the logarithm is the
// log-sum-exp of the terms' logarithms, each computed without underflow.
//
// An evaluated point whose mean is NaN is left out of S and of μ⁺: one that
// cannot be recommended, as a point that breaks an outcome constraint
// cannot (constrained KG: the best mean is over the feasible points).

// Line is the knowledge gradient's memory for one point of S: callers
// provide len(means)+1 of them and the functions overwrite them.
type Line struct {
	a, b  float64 // intercept and slope in Z
	c     float64 // where the line enters the envelope (−Inf for the first)
	point int     // index into means, or len(means) for the candidate
	term  float64 // log of G's term of this line and the one before
}

// LogKG returns log KG of a candidate with posterior mean and standard
// deviation sd (model's convention, larger is better) whose observation has
// noise variance noise, given the posterior means of the evaluated points
// and their posterior covariances with the candidate (TrainMean and
// TrainCovariances of runtime/gp give them). It is −Inf when KG is exactly 0: the candidate's
// mean is at most μ⁺ and no observation can move any mean (σ²(x) + τ² = 0),
// or every line is parallel.
func LogKG(means, covs []float64, mean, sd, noise float64, lines []Line) float64 {
	v, _ := withGain(logSum(envelope(means, covs, mean, sd*sd, noise, lines)), means, mean)
	return v
}

// withGain is log(G + max(a_x − μ⁺, 0)) from logG = log G, and the
// derivative of that logarithm with respect to a_x through the second term.
func withGain(logG float64, means []float64, mean float64) (v, dMean float64) {
	gain := 0.0
	if best := maxMean(means); !math.IsNaN(best) {
		gain = mean - best
	}
	if !(gain > 0) {
		return logG, 0
	}
	top := max(logG, math.Log(gain))
	v = top + math.Log(math.Exp(logG-top)+math.Exp(math.Log(gain)-top))
	return v, math.Exp(-v)
}

// maxMean is μ⁺, the largest of the means that are not NaN; NaN when none
// is.
func maxMean(means []float64) float64 {
	best := math.NaN()
	for _, m := range means {
		if !math.IsNaN(m) && !(m <= best) {
			best = m
		}
	}
	return best
}

// KG returns the knowledge gradient itself, exp(LogKG).
func KG(means, covs []float64, mean, sd, noise float64, lines []Line) float64 {
	return math.Exp(LogKG(means, covs, mean, sd, noise, lines))
}

// LogKGGrad returns LogKG and its derivatives with respect to the
// candidate's mean and standard deviation, and writes to dcovs[i] its
// derivative with respect to covs[i]. Where LogKG is −Inf every derivative
// is 0.
//
// With the envelope fixed (it changes only where a line touches it with a
// zero-width segment, and KG is continuous there), the term of lines p, q is
// T = Δ·h(z), Δ = b_q − b_p, c = (a_p − a_q)/Δ, z = −|c|, and with
// r = h′(z)/h(z) = Φ(z)/h(z):
//
//	∂log T/∂a_p = −∂log T/∂a_q = −sign(c)·r/Δ,
//	∂log T/∂b_q = −∂log T/∂b_p = (1 + r|c|)/Δ;
//
// log KG's derivatives are these weighted by T/KG, plus 1/KG in a_x where
// a_x > μ⁺, chained through b_s = cov_s/√(σ² + τ²) and b_x = σ²/√(σ² + τ²),
// then from σ² to σ.
func LogKGGrad(means, covs []float64, mean, sd, noise float64, lines []Line, dcovs []float64) (v, dMean, dSD float64) {
	variance := sd * sd
	for i := range dcovs[:len(means)] {
		dcovs[i] = 0
	}
	env := envelope(means, covs, mean, variance, noise, lines)
	logG := logSum(env)
	v, dMean = withGain(logG, means, mean)
	if math.IsInf(logG, -1) {
		return v, dMean, 0
	}
	// The terms of G are weighted by T/KG; dcovs collects ∂/∂b_s until the
	// end, when it is chained to covs.
	n := len(means)
	s2 := variance + noise
	s := math.Sqrt(s2)
	dSlope := 0.0 // ∂/∂b_x
	slope := func(l *Line, d float64) {
		if l.point == n {
			dSlope += d
		} else {
			dcovs[l.point] += d
		}
	}
	for k := 1; k < len(env); k++ {
		p, q := &env[k-1], &env[k]
		weight := math.Exp(q.term - v)
		delta := q.b - p.b
		c := math.Abs(q.c)
		r := improvementSlope(-c)
		da := -sign(q.c) * r / delta * weight // ∂/∂a_p; ∂/∂a_q is its opposite
		if p.point == n {
			dMean += da
		} else if q.point == n {
			dMean -= da
		}
		db := (1 + r*c) / delta * weight // ∂/∂b_q; ∂/∂b_p is its opposite
		slope(p, -db)
		slope(q, db)
	}
	dVariance := dSlope * (variance + 2*noise) / (2 * s2 * s)
	for i, d := range dcovs[:n] {
		dcovs[i] = d / s
		dVariance -= d * covs[i] / (2 * s2 * s)
	}
	return v, dMean, 2 * sd * dVariance
}

// logSum is log G of an envelope, the log-sum-exp of its terms, which it
// leaves in the lines.
func logSum(env []Line) float64 {
	if len(env) < 2 {
		return math.Inf(-1)
	}
	top := math.Inf(-1)
	for k := 1; k < len(env); k++ {
		p, q := &env[k-1], &env[k]
		q.term = math.Log(q.b-p.b) + logLowerImprovement(-math.Abs(q.c))
		top = max(top, q.term)
	}
	sum := 0.0
	for _, l := range env[1:] {
		sum += math.Exp(l.term - top)
	}
	return top + math.Log(sum)
}

// envelope fills lines with S's lines and compacts them, in place, to the
// upper envelope in increasing slope; it returns the envelope, a prefix of
// lines.
func envelope(means, covs []float64, mean, variance, noise float64, lines []Line) []Line {
	n := len(means)
	s := math.Sqrt(variance + noise)
	if !(s > 0) {
		return lines[:0]
	}
	k := 0
	for i, m := range means {
		if !math.IsNaN(m) {
			lines[k] = Line{a: m, b: covs[i] / s, point: i}
			k++
		}
	}
	lines[k] = Line{a: mean, b: variance / s, point: n}
	lines = prune(lines[:k+1])
	slices.SortFunc(lines, byslope)
	return upperEnvelope(lines)
}

// upperEnvelope compacts lines sorted by slope, in place, to their upper
// envelope, setting where each line enters it, and returns it.
func upperEnvelope(lines []Line) []Line {
	k := 0
	for _, l := range lines {
		if k > 0 && lines[k-1].b == l.b {
			k-- // parallel: the later one, with the larger intercept, dominates
		}
		l.c = math.Inf(-1)
		for k > 0 {
			l.c = (lines[k-1].a - l.a) / (l.b - lines[k-1].b)
			if l.c > lines[k-1].c {
				break
			}
			k-- // the top line never reaches the envelope
		}
		lines[k] = l
		k++
	}
	return lines[:k]
}

// prune drops, in O(n) and in place, the lines that lie strictly below the
// upper envelope of three of them (least slope, greatest intercept,
// greatest slope) at each of its bends: a line minus that convex envelope is
// concave and, its slope lying between the extremes, largest at a bend, so
// such a line is below S's envelope everywhere. Most evaluated points are far
// from the candidate, with slopes near 0 and intercepts below the best, so the
// sort that follows is short.
func prune(lines []Line) []Line {
	lo, top, hi := 0, 0, 0
	for i, l := range lines {
		if l.b < lines[lo].b || l.b == lines[lo].b && l.a > lines[lo].a {
			lo = i
		}
		if l.a > lines[top].a {
			top = i
		}
		if l.b > lines[hi].b || l.b == lines[hi].b && l.a > lines[hi].a {
			hi = i
		}
	}
	three := [3]Line{lines[lo], lines[top], lines[hi]} // in increasing slope
	bends := upperEnvelope(three[:])[1:]
	if len(bends) == 0 {
		return lines
	}
	k := 0
	for i, l := range lines {
		// The three are kept whatever the rounding of their own bends.
		keep := i == lo || i == top || i == hi
		for _, e := range bends {
			keep = keep || l.a+l.b*e.c >= e.a+e.b*e.c
		}
		if keep {
			lines[k] = l
			k++
		}
	}
	return lines[:k]
}

// byslope orders lines by slope, then intercept (all finite).
func byslope(p, q Line) int {
	switch {
	case p.b < q.b || p.b == q.b && p.a < q.a:
		return -1
	case p.b > q.b || p.a > q.a:
		return 1
	}
	return 0
}

// logLowerImprovement is log h(z) for z <= 0.
func logLowerImprovement(z float64) float64 {
	if z >= tailThreshold {
		return math.Log(lowerImprovement(z))
	}
	return logImprovementTail(z)
}

// improvementSlope is h′(z)/h(z) = Φ(z)/h(z) for z <= 0; below z = −5 it is
// 1/T, because Φ = φ/(q + T) and h = φ·T/(q + T) there (q = −z).
func improvementSlope(z float64) float64 {
	if z >= tailThreshold {
		return NormCDF(z) / lowerImprovement(z)
	}
	return 1 / millsTail(-z)
}

// sign is −1, 0 or 1 as x is negative, zero or positive.
func sign(x float64) float64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}
