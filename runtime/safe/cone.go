package safe

import "math"

// Lipschitz-only safety (LoSBO and LoS-GP-UCB, Fiedler et al. 2024). A
// constraint with a Lipschitz constant L (Constraint.Lipschitz) is certified
// from its readings alone: every measured point p bounds g within the cone
//
//	ℓ_p − L·d(x, p) ≤ g(x) ≤ u_p + L·d(x, p),
//
// with [ℓ_p, u_p] = z̄_p ± κσ/√m its readings' interval (evidence.go: m
// readings of mean z̄_p, σ the declared noise sd, κ = evidenceSDs), and x
// is certified when some cone's lower side clears the limit. Its Gaussian
// process certifies nothing; the objective's model still chooses among the
// certified points. With the true L (and the noise within κ sds), every
// certified point is safe, whatever the kernel: the guarantee needs no prior.
// The cones are intersected over the rounds like the GP's intervals, so the
// safe set never shrinks while the evidence agrees with L; a point measured
// unsafe inside a cone refutes L, which the correction raises to twice the
// smallest value the readings allow.

// updateCone intersects constraint k's intervals at the points of e.todo
// with its cones.
func (e *Explorer) updateCone(k int, m *model) {
	l := m.Lipschitz * m.steeper / m.scale // z units
	for j, p := range e.measured {
		zbar, half, _ := m.readings(p)
		e.coneLo[j], e.coneHi[j] = zbar-half, zbar+half
	}
	c := e.cons[k]
	for _, i := range e.todo {
		lo, hi := math.Inf(-1), math.Inf(1)
		for j, p := range e.measured {
			d := l * e.distance(i, p)
			lo, hi = max(lo, e.coneLo[j]-d), min(hi, e.coneHi[j]+d)
		}
		if lo > c.Hi[i] || hi < c.Lo[i] {
			c.Conflicts++
			c.Lo[i], c.Hi[i] = lo, hi // the evidence is newer than the intervals
			continue
		}
		c.Lo[i], c.Hi[i] = max(c.Lo[i], lo), min(c.Hi[i], hi)
	}
}

// steepen raises constraint k's Lipschitz constant to twice the least that
// the readings allow: a point measured unsafe at distance d from a point
// measured safe shows a slope of at least (ℓ_safe − u_unsafe)/d, and the
// true one is steeper still, as a refuted lengthscale is shorter still.
func (e *Explorer) steepen(m *model) {
	l := m.Lipschitz * m.steeper / m.scale
	need := l
	for _, c := range e.measured {
		zc, hc, _ := m.readings(c)
		if zc+hc >= 0 {
			continue
		}
		for _, p := range e.measured {
			if zp, hp, _ := m.readings(p); zp-hp > 0 && p != c {
				need = max(need, 2*(zp-hp-(zc+hc))/e.distance(p, c))
			}
		}
	}
	m.steeper *= need / l
}
