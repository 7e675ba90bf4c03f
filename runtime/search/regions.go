package search

import (
	"errors"
	"fmt"
	"math"
)

// Regions are the trust regions of TuRBO-m (Eriksson et al. 2019): m
// TrustRegions over one model, each centred on the best observation it
// was told since it last restarted, each growing, shrinking and restarting
// on its own successes and failures. A suggestion searches every region's
// box and keeps the point of largest acquisition, so the regions compete
// through the model (TuRBO-m compares Thompson samples across its regions
// the same way). With m = 1 it is TuRBO-1, the lone TrustRegion.
//
// An observation belongs to the region whose box holds it most centrally
// (the least of max_i |u_i − c_i|/half_i over the regions with a centre):
// the region whose search proposed it, unless the boxes overlap. One that
// no box holds goes to the first region without a centre (which searched
// the whole cube), else to the nearest box in that measure. The rule reads
// only the observations, so replaying them rebuilds every region.
//
// It allocates nothing after NewRegions.
type Regions struct {
	dim     int
	regions []TrustRegion
	centres []float64 // m×dim: the unit coordinates of each region's centre
	lo, hi  []float64 // m×dim: each region's box at its last search (or at Tell)
	whole   []bool    // whether the region's last search had the whole cube
	point   []float64 // dim: a region's maximiser while the others are searched
}

// NewRegions returns m trust regions in dim components, each as
// NewTrustRegion(length, minLength, maxLength, success, failure) makes it.
// It panics on values a checked program never passes.
func NewRegions(m, dim int, length, minLength, maxLength float64, success, failure int) *Regions {
	if m < 1 || dim < 1 {
		panic(fmt.Sprintf("search: %d trust regions in %d components", m, dim))
	}
	rs := &Regions{dim: dim, regions: make([]TrustRegion, m), centres: make([]float64, m*dim),
		lo: make([]float64, m*dim), hi: make([]float64, m*dim), whole: make([]bool, m), point: make([]float64, dim)}
	for k := range rs.regions {
		rs.regions[k] = *NewTrustRegion(length, minLength, maxLength, success, failure)
		rs.whole[k] = true
	}
	return rs
}

// Len returns the number of regions, m.
func (rs *Regions) Len() int { return len(rs.regions) }

// Region returns region k (0 ≤ k < Len()).
func (rs *Regions) Region(k int) *TrustRegion { return &rs.regions[k] }

// Centre returns the observation that centres the leading region, the one
// whose centre is best, or -1 while no region has a centre.
func (rs *Regions) Centre() int {
	lead := -1
	for k := range rs.regions {
		r := &rs.regions[k]
		if r.centre >= 0 && (lead < 0 || r.best > rs.regions[lead].best) {
			lead = k
		}
	}
	if lead < 0 {
		return -1
	}
	return rs.regions[lead].centre
}

// Restarts returns how many times the regions collapsed and restarted, in
// all.
func (rs *Regions) Restarts() int {
	n := 0
	for k := range rs.regions {
		n += rs.regions[k].restarts
	}
	return n
}

// Box returns region k's box at its last search (or the last Tell), in unit
// coordinates, and whether it was the whole cube (then lo and hi are not
// meaningful): the region had no centre.
func (rs *Regions) Box(k int) (lo, hi []float64, whole bool) {
	return rs.lo[k*rs.dim : (k+1)*rs.dim], rs.hi[k*rs.dim : (k+1)*rs.dim], rs.whole[k]
}

// focus computes region k's box for the lengthscales (nil or a single value:
// a cube) and reports whether it has one (a centre).
func (rs *Regions) focus(k int, lengthscales []float64) bool {
	r := &rs.regions[k]
	if rs.whole[k] = r.centre < 0; rs.whole[k] {
		return false
	}
	lo, hi, _ := rs.Box(k)
	r.Box(rs.centres[k*rs.dim:(k+1)*rs.dim], lengthscales, lo, hi)
	return true
}

// Tell tells the regions observation number i at unit coordinates u with
// value y (larger is better) and returns the region it went to (the type's
// documentation gives the rule). lengthscales shape the boxes as in
// TrustRegion.Box.
func (rs *Regions) Tell(i int, u []float64, y float64, lengthscales []float64) int {
	owner, nearest, free := -1, math.Inf(1), -1
	for k := range rs.regions {
		if !rs.focus(k, lengthscales) {
			if free < 0 {
				free = k
			}
			continue
		}
		if d := rs.scaledDistance(k, u, lengthscales); d < nearest {
			owner, nearest = k, d
		}
	}
	if nearest > 1 && free >= 0 {
		owner = free
	}
	r := &rs.regions[owner]
	r.Tell(i, y)
	if r.centre == i {
		copy(rs.centres[owner*rs.dim:(owner+1)*rs.dim], u)
	}
	return owner
}

// scaledDistance is max_j |u_j − c_j| / half_j for region k, which has a
// centre, half_j its box's half side before the cube clips it: at most 1
// inside the box.
func (rs *Regions) scaledDistance(k int, u, lengthscales []float64) float64 {
	if len(lengthscales) != rs.dim {
		lengthscales = nil
	}
	logMean := logGeometricMean(lengthscales)
	c := rs.centres[k*rs.dim : (k+1)*rs.dim]
	d := 0.0
	for j, x := range u {
		d = max(d, math.Abs(x-c[j])/rs.regions[k].halfSide(lengthscales, logMean, j))
	}
	return d
}

// MaximizeBatch is s.MaximizeBatch in each region's box in turn (the whole
// cube for a region without a centre, s.SetBox with the centre otherwise),
// region k's search seeded by seed for k = 0 and a stream apart from it
// for the others; it writes to out the maximiser of the largest value and
// returns that value. A region whose box holds no feasible point is passed
// over; ErrNoFeasible when none holds one. Starts added to s before the
// call go to the first region's search. It leaves s confined to the box
// of the region that won (the first when none did), so that a search after
// it in the same suggestion (exploration, feasibility) keeps to it.
func (rs *Regions) MaximizeBatch(s *LBFGS, lengthscales []float64, fg ValueGrad, batch BatchValue, feasible func(u []float64) bool, seed uint64, out []float64) (float64, error) {
	return rs.MaximizeSwept(s, lengthscales, fg, batch, Sweep{}, feasible, seed, out)
}

// MaximizeSwept is MaximizeBatch with s.MaximizeSwept's sweeps.
func (rs *Regions) MaximizeSwept(s *LBFGS, lengthscales []float64, fg ValueGrad, batch BatchValue, sweep Sweep, feasible func(u []float64) bool, seed uint64, out []float64) (float64, error) {
	best, winner := math.Inf(-1), -1
	for k := range rs.regions {
		rs.focus(k, lengthscales)
		rs.confine(s, k)
		dst := out
		if k > 0 {
			dst = rs.point
		}
		v, err := s.MaximizeSwept(fg, batch, sweep, feasible, regionSeed(seed, k), dst)
		switch {
		case errors.Is(err, ErrNoFeasible):
			continue
		case err != nil:
			return math.NaN(), err
		}
		if winner < 0 || v > best {
			if k > 0 {
				copy(out[:rs.dim], rs.point)
			}
			best, winner = v, k
		}
	}
	rs.confine(s, max(winner, 0))
	if winner < 0 {
		return math.NaN(), ErrNoFeasible
	}
	return best, nil
}

// confine sets s's box to region k's (after focus): the whole cube when it
// has no centre.
func (rs *Regions) confine(s *LBFGS, k int) {
	lo, hi, whole := rs.Box(k)
	if whole {
		s.SetBox(nil, nil, nil)
		return
	}
	s.SetBox(lo, hi, rs.centres[k*rs.dim:(k+1)*rs.dim])
}

// regionSeed is the seed of region k's search: seed itself for the first,
// so that one region searches as TuRBO-1 does.
func regionSeed(seed uint64, k int) uint64 {
	return seed ^ uint64(k)*0xD1B54A32D192ED03
}
