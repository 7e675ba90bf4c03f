package safe

import (
	"errors"
	"math"
	"math/rand/v2"
)

// A pool is the decision set of a continuous domain with too many
// components for a grid (Config.Pool): a fixed number of slots, filled at
// first with the seeds and a cloud of points around them, over which the
// first phase runs as over a grid. Once the models are frozen, every round
// adds proposals around certified points (certified local search): half
// around points near the edge of the safe set, where it can grow, and half
// around the last choice, where the objective is best. A proposal takes a
// free slot, or the next in turn that holds neither a certified point nor a
// seed, and is certified like any other point, from its fresh interval:
// certified points keep their slots, so the safe set never shrinks.
// Theorem 1's union bound covers every point a run can hold: the slots plus
// the proposals of every round.
type pool struct {
	admit  func(u []float64) bool
	rng    *rand.Rand
	filled int       // slots in use: a prefix
	next   int       // where the search for a slot to reuse resumes
	trial  []float64 // one proposal
	dir    []float64 // its direction
}

const (
	// poolProposals are the points a round proposes.
	poolProposals = 32
	// poolRadius is the largest step of a proposal, in unit coordinates;
	// the steps halve down to poolRadius/16.
	poolRadius = 0.2
	// poolCloudShare is the share of the slots the first cloud fills.
	poolCloudShare = 4
)

// newPool checks cfg's pool and copies the starting points into its slots.
func newPool(cfg Config, points []float64) (*pool, []float64, error) {
	n := len(points) / cfg.Dim
	switch {
	case n > cfg.Pool:
		return nil, nil, errors.New("safe: more starting points than the pool holds")
	case cfg.Method != SGPUCB:
		return nil, nil, errors.New("safe: a pool of points grows under SGP-UCB only")
	case cfg.Draws > 0:
		return nil, nil, errors.New("safe: a pool of points is not judged where queries land")
	}
	slots := make([]float64, cfg.Pool*cfg.Dim)
	copy(slots, points)
	p := &pool{admit: cfg.Admit, rng: rand.New(rand.NewPCG(cfg.Seed, 0x9001)), filled: n,
		trial: make([]float64, cfg.Dim), dir: make([]float64, cfg.Dim)}
	return p, slots, nil
}

// fillCloud fills the pool's first share with points around the seeds, in
// turn.
func (e *Explorer) fillCloud() {
	target := max(e.n/poolCloudShare, e.pool.filled)
	for tries := 0; e.pool.filled < target && tries < 16*target; tries++ {
		e.proposeAround(e.cfg.Seeds[tries%len(e.cfg.Seeds)])
	}
}

// propose adds a round's proposals.
func (e *Explorer) propose(last int) {
	for j := range poolProposals {
		from := last
		if j%2 == 0 || last < 0 {
			from = e.edgePoint()
		}
		if !e.proposeAround(from) {
			return // every slot holds a certified point or a seed
		}
	}
}

// edgePoint is a certified point near the edge of the safe set: of two drawn
// at random, the one with the smaller margin to a limit.
func (e *Explorer) edgePoint() int {
	best, margin := -1, math.Inf(1)
	for range 2 {
		i := e.randomSafe()
		if m := e.margin(i); best < 0 || m < margin {
			best, margin = i, m
		}
	}
	return best
}

// randomSafe is a certified point (or seed) drawn at random.
func (e *Explorer) randomSafe() int {
	r := e.pool.rng.IntN(e.set.Len())
	for i, in := range e.set.In[:e.pool.filled] {
		if in {
			if r == 0 {
				return i
			}
			r--
		}
	}
	return e.cfg.Seeds[0]
}

// margin is point i's smallest certified distance to a limit (z units);
// +∞ at a seed never certified.
func (e *Explorer) margin(i int) float64 {
	m := math.Inf(1)
	for _, c := range e.cons {
		if !math.IsInf(c.Lo[i], -1) {
			m = min(m, c.Lo[i])
		}
	}
	return m
}

// proposeAround puts a point at a random step from point i into a slot,
// unless the domain does not admit it or a point in use is within half the
// step, and reports false when no slot is left to reuse.
func (e *Explorer) proposeAround(i int) bool {
	p := e.pool
	from := e.point(i)
	norm := 0.0
	for c := range p.dir {
		p.dir[c] = p.rng.NormFloat64()
		norm += p.dir[c] * p.dir[c]
	}
	if p.rng.IntN(2) == 0 {
		// Along one component: how an integer component moves a whole step.
		axis := p.rng.IntN(len(p.dir))
		for c := range p.dir {
			if c != axis {
				p.dir[c] = 0
			}
		}
		norm = p.dir[axis] * p.dir[axis]
	}
	if norm == 0 {
		return true // no direction drawn
	}
	r := poolRadius / float64(int(1)<<p.rng.IntN(5))
	for c, v := range from {
		p.trial[c] = min(max(v+r/math.Sqrt(norm)*p.dir[c], 0), 1)
	}
	if p.admit != nil && !p.admit(p.trial) || e.crowded(p.trial, r/2) || e.inBall(p.trial) {
		return true
	}
	slot := e.freeSlot()
	if slot < 0 {
		return false
	}
	copy(e.point(slot), p.trial)
	for _, c := range e.cons {
		c.Lo[slot], c.Hi[slot] = math.Inf(-1), math.Inf(1)
	}
	return true
}

// crowded reports whether a point in use lies within r of u: a proposal
// there would spend a slot on what the pool already represents.
func (e *Explorer) crowded(u []float64, r float64) bool {
	for i := range e.pool.filled {
		if sqDist(e.point(i), u) < r*r {
			return true
		}
	}
	return false
}

// freeSlot is a slot for a new point: an empty one, else the next that holds
// no certified point (nor a seed: seeds are in the safe set), was never
// measured and was not excluded, so that the evidence at a point stays with
// it; −1 when there is none.
func (e *Explorer) freeSlot() int {
	p := e.pool
	if p.filled < e.n {
		p.filled++
		return p.filled - 1
	}
	for range e.n {
		i := p.next
		p.next = (p.next + 1) % e.n
		if !e.set.In[i] && !e.set.Excluded(i) && e.models[0].evidence.count[i] == 0 {
			return i
		}
	}
	return -1
}

// Point is decision point i in unit coordinates: with a pool, the point its
// slot holds now (a certified point keeps its slot).
func (e *Explorer) Point(i int) []float64 { return e.point(i) }

// Points is the number of decision points in use.
func (e *Explorer) Points() int {
	if e.pool != nil {
		return e.pool.filled
	}
	return e.n
}
