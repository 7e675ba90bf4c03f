package safe

import (
	"fmt"
	"math"
	"slices"

	"github.com/bocdev/boc/runtime/kernel"
)

// Landing is what a constraint must satisfy when a query aimed at x lands
// at x + ε, with ε drawn from the problem's input noise (Config.Land).
type Landing int

const (
	// AtAim certifies g at the aimed point only: plain SGP-UCB, whose
	// queries the input noise can carry over the limit.
	AtAim Landing = iota
	// InMean certifies the expected value E[g(x + ε)].
	InMean
	// ByChance certifies that g(x + ε) keeps the limit with probability at
	// least 1 − Alpha over ε.
	ByChance
)

// fitDraws caps the landing points per aim that hyperparameter learning
// uses: a fit evaluates the covariances many times, and the hyperparameters
// are point estimates that need no more.
const fitDraws = 8

// landingCov is the prior covariance of a constraint whose queries land off
// their aim. The input noise at an aim is represented by its landing points
// (Config.Land: the same base draws at every aim, so that nearby aims
// compare smoothly), and an observation z = g(x + ε) + noise is taken as
// Gaussian with the moments the prior gives it:
//
//	Cov(z_s, z_t) = k̄(x_s, x_t) = E k(x_s + ε, x_t + ε′)   (s ≠ t)
//	Var(z_t)      = E k(x_t + ε, x_t + ε) + noise
//	Cov(E[g(x + ε)], z_t) = k̄(x, x_t),  Cov(g(u), z_t) = E k(u, x_t + ε)
//
// with the expectations averaged over the landing points (k̄ is then the
// inner product of mean feature maps, so every covariance matrix stays
// positive semi-definite). InMean certifies E[g(x + ε)] at the decision
// points, ByChance g at each decision point's landing points.
type landingCov struct {
	k      kernel.Kernel
	rower  rower // k when it fills whole rows, else nil (asserted once)
	draws  int
	dim    int
	chance bool
	points []float64 // the decision set's landing points, draws per point, row-major
	n      int       // decision points

	// Every distinct aim observed has a slot: the aim, its decision index
	// (−1 when it is not a decision point), its landing points and its
	// row of covariances with the targets (ByChance: E k(u, x_s + ε) at
	// every decision landing point u; InMean: k̄(x_s, p) at every decision
	// point p), computed when first needed with the current hyperparameters.
	slotAim   []float64
	slotIndex []int
	slotLand  []float64
	rows      []float64
	fresh     []bool
	obsSlot   []int     // observation → slot
	selfPair  []float64 // k̄(p, p) at decision point p, NaN until computed
	cross     []float64 // scratch: n·draws values each
	out       []float64

	fitVal  []float64 // fill's covariance of slot pairs, then their gradients
	fitDone []bool
}

// newLandingCov makes the covariances of kernel k over the decision set's
// n points, given their landing points; it sizes the fit's scratch for the
// seeds, the only aims observed while hyperparameters are learned.
func newLandingCov(k kernel.Kernel, chance bool, points []float64, n, draws, dim, capacity, seeds int) *landingCov {
	width := n
	if chance {
		width = n * draws
	}
	r, _ := k.(rower)
	c := &landingCov{k: k, rower: r, draws: draws, dim: dim, chance: chance, points: points, n: n,
		slotAim: make([]float64, 0, capacity*dim), slotIndex: make([]int, 0, capacity),
		slotLand: make([]float64, 0, capacity*draws*dim), rows: make([]float64, capacity*width),
		fresh: make([]bool, 0, capacity), obsSlot: make([]int, 0, capacity),
		selfPair: make([]float64, n), cross: make([]float64, n*draws), out: make([]float64, n*draws)}
	c.fitVal, c.fitDone = make([]float64, 2*seeds*seeds*(1+k.NumParams())), make([]bool, 2*seeds*seeds)
	c.invalidate()
	return c
}

// width is the length of a slot's row.
func (c *landingCov) width() int {
	if c.chance {
		return c.n * c.draws
	}
	return c.n
}

// invalidate forgets every covariance computed with the kernel's former
// hyperparameters.
func (c *landingCov) invalidate() {
	clear(c.fresh)
	for i := range c.selfPair {
		c.selfPair[i] = math.NaN()
	}
}

// observe gives observation i (the next one), aimed at the unit point u,
// its slot: decision is u's index in the decision set or −1, and land
// writes the landing points of an aim that is not a decision point.
func (c *landingCov) observe(u []float64, decision int, land func(u, out []float64)) {
	for s := range c.slotIndex {
		if equal(c.slotAim[s*c.dim:(s+1)*c.dim], u) {
			c.obsSlot = append(c.obsSlot, s)
			return
		}
	}
	s := len(c.slotIndex)
	c.slotAim = append(c.slotAim, u...)
	c.slotIndex = append(c.slotIndex, decision)
	c.fresh = append(c.fresh, false)
	at := len(c.slotLand)
	c.slotLand = c.slotLand[:at+c.draws*c.dim]
	if decision >= 0 {
		copy(c.slotLand[at:], c.landing(decision))
	} else {
		land(u, c.slotLand[at:])
	}
	c.obsSlot = append(c.obsSlot, s)
}

// truncate forgets the observations from n on; their slots stay.
func (c *landingCov) truncate(n int) { c.obsSlot = c.obsSlot[:n] }

// landing is decision point p's landing points.
func (c *landingCov) landing(p int) []float64 {
	w := c.draws * c.dim
	return c.points[p*w : (p+1)*w]
}

// slotLanding is slot s's landing points.
func (c *landingCov) slotLanding(s int) []float64 {
	w := c.draws * c.dim
	return c.slotLand[s*w : (s+1)*w]
}

// row is slot s's row, computed if need be.
func (c *landingCov) row(s int) []float64 {
	w := c.width()
	row := c.rows[s*w : (s+1)*w]
	if c.fresh[s] {
		return row
	}
	clear(c.cross)
	land := c.slotLanding(s)
	inv := 1 / float64(c.draws)
	for j := range c.draws {
		b := land[j*c.dim : (j+1)*c.dim]
		if c.rower != nil {
			c.rower.Row(b, c.points, c.out)
		} else {
			for q := range c.out {
				c.out[q] = c.k.Eval(b, c.points[q*c.dim:(q+1)*c.dim])
			}
		}
		for q, v := range c.out {
			c.cross[q] += inv * v
		}
	}
	if c.chance {
		copy(row, c.cross)
	} else {
		for p := range row {
			row[p] = mean(c.cross[p*c.draws : (p+1)*c.draws])
		}
	}
	c.fresh[s] = true
	return row
}

// pairWith is k̄ between slot s's aim and decision point p.
func (c *landingCov) pairWith(s, p int) float64 {
	row := c.row(s)
	if c.chance {
		return mean(row[p*c.draws : (p+1)*c.draws])
	}
	return row[p]
}

// pair is k̄ between two sets of landing points, over their first draws.
func (c *landingCov) pair(a, b []float64, draws int) float64 {
	s := 0.0
	for i := range draws {
		for j := range draws {
			s += c.k.Eval(a[i*c.dim:(i+1)*c.dim], b[j*c.dim:(j+1)*c.dim])
		}
	}
	return s / float64(draws*draws)
}

// diagonal is E k(x + ε, x + ε) over landing points a.
func (c *landingCov) diagonal(a []float64, draws int) float64 {
	s := 0.0
	for i := range draws {
		u := a[i*c.dim : (i+1)*c.dim]
		s += c.k.Eval(u, u)
	}
	return s / float64(draws)
}

// between is the prior covariance of observations i and j, i ≠ j.
func (c *landingCov) between(i, j int) float64 {
	si, sj := c.obsSlot[i], c.obsSlot[j]
	switch {
	case c.slotIndex[sj] >= 0:
		return c.pairWith(si, c.slotIndex[sj])
	case c.slotIndex[si] >= 0:
		return c.pairWith(sj, c.slotIndex[si])
	}
	return c.pair(c.slotLanding(si), c.slotLanding(sj), c.draws)
}

// self is observation i's prior variance, without the noise.
func (c *landingCov) self(i int) float64 {
	return c.diagonal(c.slotLanding(c.obsSlot[i]), c.draws)
}

// meanTarget writes the covariances of E[g(x + ε)] at decision point p with
// the first n observations to row and returns its prior variance.
func (c *landingCov) meanTarget(p, n int, row []float64) float64 {
	for t := range n {
		row[t] = c.pairWith(c.obsSlot[t], p)
	}
	if math.IsNaN(c.selfPair[p]) {
		c.selfPair[p] = c.pair(c.landing(p), c.landing(p), c.draws)
	}
	return c.selfPair[p]
}

// ensureRows computes every slot's row that is not up to date.
func (c *landingCov) ensureRows() {
	for s := range c.fresh {
		c.row(s)
	}
}

// chanceTarget writes the covariances of g at the decision set's landing
// point q with the first n observations to row and returns its prior
// variance. The rows must be up to date (ensureRows).
func (c *landingCov) chanceTarget(q, n int, row []float64) float64 {
	w := c.n * c.draws
	for t, s := range c.obsSlot[:n] {
		row[t] = c.rows[s*w+q]
	}
	u := c.points[q*c.dim : (q+1)*c.dim]
	return c.k.Eval(u, u)
}

// fill writes the prior covariance of the observations in rows, and its
// gradients in the learned hyperparameters, for the fitter: k is n×n, dk
// len(learned) n×n blocks. It works on the first fitDraws landing points
// of each aim, and once per pair of distinct aims.
func (c *landingCov) fill(rows []int, n int, learned []int, grad, k, dk []float64) {
	slots := len(c.slotIndex)
	per := 1 + len(learned)
	if need := 2 * slots * slots * per; len(c.fitVal) < need {
		c.fitVal, c.fitDone = make([]float64, need), make([]bool, 2*slots*slots)
	}
	c.fitDone = c.fitDone[:2*slots*slots]
	clear(c.fitDone)
	draws := min(c.draws, fitDraws)
	w := 1 / float64(draws*draws)
	entry := func(si, sl int, same bool) []float64 {
		at := si*slots + sl
		if same {
			at += slots * slots
		}
		val := c.fitVal[at*per : (at+1)*per]
		if c.fitDone[at] {
			return val
		}
		clear(grad)
		a, b := c.slotLanding(si), c.slotLanding(sl)
		v := 0.0
		if same {
			for i := range draws {
				u := a[i*c.dim : (i+1)*c.dim]
				v += c.k.AddGradParams(u, u, 1/float64(draws), grad)
			}
			v /= float64(draws)
		} else {
			for i := range draws {
				for j := range draws {
					v += c.k.AddGradParams(a[i*c.dim:(i+1)*c.dim], b[j*c.dim:(j+1)*c.dim], w, grad)
				}
			}
			v *= w
		}
		val[0] = v
		for j, p := range learned {
			val[1+j] = grad[p]
		}
		c.fitDone[at] = true
		return val
	}
	for i := range n {
		for l := range n {
			val := entry(c.obsSlot[rows[i]], c.obsSlot[rows[l]], i == l)
			k[i*n+l] = val[0]
			for j := range learned {
				dk[(j*n+i)*n+l] = val[1+j]
			}
		}
	}
}

// orderStatistic is the r-th smallest (from 0) of values, sorted in scratch.
func orderStatistic(values []float64, r int, scratch []float64) float64 {
	s := scratch[:len(values)]
	copy(s, values)
	slices.Sort(s)
	return s[r]
}

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// checkLanding reports a configuration whose landing constraints cannot be
// certified.
func checkLanding(cfg Config) error {
	for _, c := range cfg.Constraints {
		switch {
		case !(c.Lipschitz >= 0) || math.IsInf(c.Lipschitz, 0):
			return fmt.Errorf("safe: constraint %s: Lipschitz constant %v", c.Name, c.Lipschitz)
		case c.Landing == AtAim:
			continue
		case c.Lipschitz > 0:
			return fmt.Errorf("safe: constraint %s: a Lipschitz constant certifies the aim, not where the queries land", c.Name)
		case c.Landing != InMean && c.Landing != ByChance:
			return fmt.Errorf("safe: constraint %s: landing %d", c.Name, c.Landing)
		case cfg.Land == nil || cfg.Draws < 1:
			return fmt.Errorf("safe: constraint %s is judged where the queries land, but no landing points are given", c.Name)
		case c.Landing == ByChance && !(c.Alpha > 0 && c.Alpha < 1):
			return fmt.Errorf("safe: constraint %s: α = %v is not in (0, 1)", c.Name, c.Alpha)
		case cfg.Method == SafeOpt || cfg.Method == StageOpt:
			return fmt.Errorf("safe: constraint %s is judged where the queries land, which only SGP-UCB supports", c.Name)
		}
	}
	return nil
}

// prepareLanding makes the decision points' landing points and the
// landing constraints' covariances, and sets the count Theorem 1's union
// bound covers: a ByChance constraint's bounds hold at every landing point.
func (e *Explorer) prepareLanding() {
	e.betaCount = e.n
	e.landIv = make([]*Intervals, len(e.models))
	var any bool
	for _, m := range e.models {
		any = any || m.Landing != AtAim
	}
	if !any {
		return
	}
	d, w := e.cfg.Dim, e.cfg.Draws*e.cfg.Dim
	e.landPoints = make([]float64, e.n*w)
	for i := range e.n {
		e.cfg.Land(e.point(i), e.landPoints[i*w:(i+1)*w])
	}
	e.order = make([]float64, e.cfg.Draws)
	e.hopeful = make([]int, 0, e.n)
	for k, m := range e.models {
		if m.Landing == AtAim {
			continue
		}
		m.land = newLandingCov(m.Kernel, m.Landing == ByChance, e.landPoints, e.n, e.cfg.Draws, d, e.cfg.Capacity, len(e.cfg.Seeds))
		if m.Landing == ByChance {
			e.landIv[k] = NewIntervals(e.n * e.cfg.Draws)
			e.betaCount = e.n * e.cfg.Draws
		}
	}
}

// indexOf is the index of the unit point u in the decision set, or −1.
func (e *Explorer) indexOf(u []float64) int {
	for i := range e.n {
		if equal(e.point(i), u) {
			return i
		}
	}
	return -1
}

// chanceRank is the rank (from 0, ascending) of the order statistic of the
// landing points' bounds that a ByChance constraint certifies: at least
// ⌈(1 − α)·draws⌉ landing points must clear the limit.
func (e *Explorer) chanceRank(m *model) int {
	need := int(math.Ceil((1 - m.Alpha) * float64(e.cfg.Draws)))
	return e.cfg.Draws - max(need, 1)
}

// updateChance intersects a ByChance constraint's intervals at the landing
// points of the points of e.todo with its posterior, and sets each point's
// interval to that of the order statistic chanceRank of g over its landing
// points: since each landing value lies in its interval, so does their
// order statistic, and it clears the limit exactly when enough landing
// points do. Both ends only move inwards, as the landing intervals do.
//
// A point whose first chanceRank + 1 landing points all fall short of the
// limit cannot be certified this round, and its other landing points are
// left as they were: an interval not updated is only wider than it could
// be, so this costs growth, never safety, and spares most of the work at
// points far from the safe set.
func (e *Explorer) updateChance(k int, m *model) {
	draws := e.cfg.Draws
	iv := e.landIv[k]
	r := e.chanceRank(m)
	e.predictLanding(k, m, e.todo, 0, r+1)
	e.hopeful = e.hopeful[:0]
	for _, at := range e.todo {
		for l := range r + 1 {
			if iv.Lo[at*draws+l] >= 0 {
				e.hopeful = append(e.hopeful, at)
				break
			}
		}
	}
	e.predictLanding(k, m, e.hopeful, r+1, draws)
	for _, at := range e.todo {
		lo := orderStatistic(iv.Lo[at*draws:(at+1)*draws], r, e.order)
		hi := orderStatistic(iv.Hi[at*draws:(at+1)*draws], r, e.order)
		e.cons[k].Lo[at], e.cons[k].Hi[at] = max(e.cons[k].Lo[at], lo), min(e.cons[k].Hi[at], hi)
	}
}

// predictLanding intersects constraint k's intervals at the landing points
// from..to−1 of each point of points with its posterior.
func (e *Explorer) predictLanding(k int, m *model, points []int, from, to int) {
	n := m.gp.Len()
	iv := e.landIv[k]
	root := math.Sqrt(e.beta)
	m.land.ensureRows()
	block := 0
	var targets [predictBlock]int
	flush := func() {
		m.gp.PredictBatch(e.kstar[:block*n], block, e.kself[:block], e.blockMean[:block], e.blockVar[:block])
		for j := range block {
			iv.update(targets[j], e.blockMean[j], math.Sqrt(e.blockVar[j]), root)
		}
		block = 0
	}
	for _, at := range points {
		for l := from; l < to; l++ {
			q := at*e.cfg.Draws + l
			targets[block] = q
			e.kself[block] = m.land.chanceTarget(q, n, e.kstar[block*n:(block+1)*n])
			block++
			if block == predictBlock {
				flush()
			}
		}
	}
	if block > 0 {
		flush()
	}
}
