package safe

import "math"

// Set is the certified safe set over n candidates: the known-safe seeds and
// every candidate whose lower bound clears the threshold of every
// constraint, less the candidates excluded by evidence (Exclude). Candidates
// join it and leave it only when excluded or Reset.
type Set struct {
	In       []bool
	excluded []bool
	count    int
}

// NewSet returns the safe set of n candidates holding the seeds.
func NewSet(n int, seeds []int) *Set {
	s := &Set{In: make([]bool, n), excluded: make([]bool, n)}
	s.Reset(seeds)
	return s
}

// Reset empties the set but for the seeds that are not excluded, in place.
func (s *Set) Reset(seeds []int) {
	clear(s.In)
	s.count = 0
	for _, i := range seeds {
		if !s.In[i] && !s.excluded[i] {
			s.In[i] = true
			s.count++
		}
	}
}

// Exclude takes candidate i out of the set for good: evidence says it is
// unsafe, whatever a certificate or a declaration says.
func (s *Set) Exclude(i int) {
	if s.In[i] {
		s.In[i] = false
		s.count--
	}
	s.excluded[i] = true
}

// Excluded reports whether candidate i was excluded.
func (s *Set) Excluded(i int) bool { return s.excluded[i] }

// Len is the number of safe candidates.
func (s *Set) Len() int { return s.count }

// Update adds every candidate with Lo ≥ h for each constraint, and returns
// how many joined.
func (s *Set) Update(constraints []*Intervals, h []float64) (joined int) {
	for i := range s.In {
		if s.In[i] || s.excluded[i] || !Certified(constraints, h, i) {
			continue
		}
		s.In[i] = true
		s.count++
		joined++
	}
	return joined
}

// Certified reports whether candidate i's lower bound clears the threshold
// of every constraint.
func Certified(constraints []*Intervals, h []float64, i int) bool {
	for k, c := range constraints {
		if !(c.Lo[i] >= h[k]) {
			return false
		}
	}
	return true
}

// Maximizers marks in out the safe candidates that may be the safe maximum
// of f: u_f(x) ≥ max over the safe set of ℓ_f (SafeOpt's M_t), and returns
// how many there are.
func Maximizers(f *Intervals, safe *Set, out []bool) int {
	best := math.Inf(-1)
	for i, in := range safe.In {
		if in {
			best = max(best, f.Lo[i])
		}
	}
	count := 0
	for i, in := range safe.In {
		out[i] = in && f.Hi[i] >= best
		if out[i] {
			count++
		}
	}
	return count
}

// Expanders marks in out the safe candidates that could certify an unsafe
// one for every constraint at once if the constraint were at its upper
// bound there, by the Lipschitz rule: u_g(x) − L·d(x, x′) ≥ h for some unsafe
// x′ (SafeOpt's G_t with Lipschitz constants L, one per constraint, and the
// distance d between candidates). It returns how many there are.
func Expanders(constraints []*Intervals, h, lipschitz []float64, dist func(i, j int) float64, safe *Set, out []bool) int {
	count := 0
	for i, in := range safe.In {
		out[i] = false
		if !in {
			continue
		}
		for j, other := range safe.In {
			if other || !reaches(constraints, h, lipschitz, dist, i, j) {
				continue
			}
			out[i] = true
			count++
			break
		}
	}
	return count
}

// reaches reports whether safe candidate i at its optimistic values would
// certify candidate j for every constraint.
func reaches(constraints []*Intervals, h, lipschitz []float64, dist func(i, j int) float64, i, j int) bool {
	d := dist(i, j)
	for k, c := range constraints {
		if !(c.Hi[i]-lipschitz[k]*d >= h[k]) {
			return false
		}
	}
	return true
}

// Widest returns, among the candidates marked in from, the one with the
// widest interval of any of the functions (SafeOpt's and StageOpt's
// uncertainty sampling), the first on ties; −1 when none is marked.
func Widest(from []bool, functions []*Intervals) int {
	best, widest := -1, math.Inf(-1)
	for i, in := range from {
		if !in {
			continue
		}
		for _, f := range functions {
			if w := f.Width(i); w > widest {
				best, widest = i, w
			}
		}
	}
	return best
}

// Argmax returns the safe candidate with the largest score (SGP-UCB's
// argmax of u_f over the safe set, Eq. 10), the first on ties; −1 for an
// empty set.
func Argmax(score []float64, safe *Set) int {
	best := -1
	for i, in := range safe.In {
		if in && (best < 0 || score[i] > score[best]) {
			best = i
		}
	}
	return best
}

// Plateau ends a first phase of safe exploration: once the safe set has not
// grown for Window rounds, or after Cap rounds (the paper's 20 and 100).
type Plateau struct {
	Window, Cap int
	rounds      int // rounds seen
	since       int // rounds since the safe set last grew
	size        int // its size then
}

// Done records a round after which the safe set holds size candidates, and
// reports whether the phase is over.
func (p *Plateau) Done(size int) bool {
	p.rounds++
	if size > p.size {
		p.size, p.since = size, 0
	} else {
		p.since++
	}
	return p.since >= p.Window || p.rounds >= p.Cap
}

// Posterior is one constraint's Gaussian-process posterior over the
// candidates: means, the covariance matrix (n×n, row-major, in the units of
// the constraint squared) and the observation-noise variance, from which a
// fantasy observation's effect follows in closed form.
type Posterior struct {
	Mean, Cov []float64
	NoiseVar  float64
}

// ExpandersGP marks in out the safe candidates x that are expanders by the
// GP-optimistic rule of Sui et al.: observing every constraint at its upper
// bound at x (a fantasy) would certify some unsafe candidate x′, its new lower
// bound μ′(x′) − √β σ′(x′) ≥ h for every constraint, where observing y at x
// moves the posterior at x′ to μ′ = μ + c(y − μ(x))/s and σ′² = σ² − c²/s
// with c = Cov(x′, x) and s = Var(x) + noise. A constraint k with
// lipschitz[k] > 0 (lipschitz may be nil) takes the Lipschitz rule of
// Expanders instead, and needs no posterior. It returns how many there are.
func ExpandersGP(constraints []*Intervals, posteriors []Posterior, h, lipschitz []float64, dist func(i, j int) float64, beta float64, safe *Set, out []bool) int {
	n := len(safe.In)
	root := math.Sqrt(beta)
	count := 0
	for i, in := range safe.In {
		out[i] = false
		if !in {
			continue
		}
		for j, other := range safe.In {
			if other {
				continue
			}
			certified := true
			for k, p := range posteriors {
				if lipschitz != nil && lipschitz[k] > 0 {
					if !(constraints[k].Hi[i]-lipschitz[k]*dist(i, j) >= h[k]) {
						certified = false
						break
					}
					continue
				}
				s := p.Cov[i*n+i] + p.NoiseVar
				c := p.Cov[j*n+i]
				mean, variance := p.Mean[j], p.Cov[j*n+j]
				if s > 0 {
					mean += c * (constraints[k].Hi[i] - p.Mean[i]) / s
					variance -= c * c / s
				}
				if !(mean-root*math.Sqrt(max(variance, 0)) >= h[k]) {
					certified = false
					break
				}
			}
			if certified {
				out[i] = true
				count++
				break
			}
		}
	}
	return count
}
