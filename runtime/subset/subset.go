// Package subset keeps every observation of a long run and chooses the few
// an exact Gaussian process is conditioned on once they are too many for
// it: a local model whose cost per evaluation stays flat as the run grows.
//
// An exact GP over n observations costs O(n³) to refit and O(n²) per
// prediction, so at n in the thousands the optimiser, not the experiment,
// sets the pace. Conditioning on a subset of size m keeps every exact GP
// operation at its cost for m, and the choice costs O(n·d) per selection.
// The subset is where the optimiser needs detail and where it needs
// memory (Select):
//
//   - half of it, the observations nearest a centre (the best point, or a
//     trust region's centre) in the kernel's own metric, each component's
//     distance divided by its lengthscale, so that a component the model
//     ignores does not decide who is near (TuRBO's local model, and the
//     nearest-neighbour GPs of Gramacy and Apley, 2015);
//   - a quarter, the latest observations, where the search has just been;
//   - a quarter spread over the domain, by greedy farthest-point selection,
//     so that the model remembers the regions it has evaluated.
//
// Without the latest, a search over the whole domain returned to a point
// it had just evaluated far from the centre, again and again, since the
// model forgot it at once. The model is standardised with the mean and
// deviation of every observation (Standardisation), and the search kept to
// the box of the nearest half (Box), where the model knows the data in
// detail; beyond it, it knows a sparse sample. Conditioning on fewer
// observations is still a valid posterior: it is only less certain than
// the full one, never more.
//
// Memory is allocated by New; Add and Select allocate nothing.
package subset

import (
	"fmt"
	"math"

	"github.com/bocdev/boc/runtime/gp"
)

// SpreadFraction is the part of a subset Select spreads over the domain,
// and RecentFraction the part it gives the latest observations, rather
// than taking them nearest the centre.
const (
	SpreadFraction = 0.25
	RecentFraction = 0.25
)

// spreadPool bounds the observations the spread part is chosen among (an
// evenly strided sample of them), so that choosing it costs O(size·d·
// spreadPool), not O(size·d·n): 0.5 ms instead of 7 at n = 10,000, size
// 256, d = 4 (BenchmarkSelect).
const spreadPool = 1024

// Archive holds every observation in unit coordinates, with its value and
// noise variance as the model was given them, in the order observed.
type Archive struct {
	dim   int
	units []float64 // row-major, one row of dim values per observation
	y     []float64
	noise []float64
	n     int

	// Select's memory.
	key    []float64 // scaled squared distance to the centre, then to the spread points
	heap   []int     // the nearest so far, a max-heap on key
	in     []bool    // whether an observation is in the subset
	lo, hi []float64 // the bounding box of the centre and the nearest part
	boxed  bool      // whether the last Select chose a subset
}

// New returns an empty archive for capacity observations of dim components.
func New(capacity, dim int) *Archive {
	if capacity < 1 || dim < 1 {
		panic(fmt.Sprintf("subset: capacity %d, dimension %d", capacity, dim))
	}
	return &Archive{
		dim:   dim,
		units: make([]float64, capacity*dim),
		y:     make([]float64, capacity),
		noise: make([]float64, capacity),
		key:   make([]float64, capacity),
		heap:  make([]int, 0, capacity),
		in:    make([]bool, capacity),
		lo:    make([]float64, dim),
		hi:    make([]float64, dim),
	}
}

// Len returns the number of observations.
func (a *Archive) Len() int { return a.n }

// Unit returns observation i's unit coordinates, which the caller must not
// change.
func (a *Archive) Unit(i int) []float64 { return a.units[i*a.dim : (i+1)*a.dim] }

// Y returns observation i's value.
func (a *Archive) Y(i int) float64 { return a.y[i] }

// Noise returns observation i's noise variance.
func (a *Archive) Noise(i int) float64 { return a.noise[i] }

// Standardisation returns the shift and scale runtime/gp would standardise
// the values with under prior mean m: m's value and their deviation
// (gp.Deviation). A GP conditioned on a subset standardises with the whole
// run's (gp.Standardise). It costs O(n).
func (a *Archive) Standardisation(m gp.PriorMean) (shift, deviation float64) {
	return m.Of(a.y[:a.n]), gp.Deviation(a.y[:a.n])
}

// Add appends an observation at unit coordinates u with value y and noise
// variance noise. It panics when the archive is full: the optimiser
// refuses observations beyond its budget before it gets here.
func (a *Archive) Add(u []float64, y, noise float64) {
	if a.n == len(a.y) {
		panic(fmt.Sprintf("subset: Add to a full archive of %d", a.n))
	}
	copy(a.Unit(a.n), u[:a.dim])
	a.y[a.n], a.noise[a.n] = y, noise
	a.n++
}

// Select writes to out the indices of the observations a model of size
// size is conditioned on, in increasing order, and returns out[:m]: every
// observation while they fit; otherwise the latest ⌊RecentFraction·size⌋,
// the size − ⌊(SpreadFraction + RecentFraction)·size⌋ others nearest to
// centre (unit coordinates) in the metric Σ_j ((u_j − c_j)/ℓ_j)², and the
// rest chosen one at a time as the observation farthest, in the same
// metric, from the centre and the ones spread so far, among every
// ⌈n/spreadPool⌉-th observation (fewer when that sample is exhausted,
// never more than size). The latest keep the model aware of where the
// search has just been, which a model of the best point's neighbourhood
// and a sparse memory of the rest would forget, so that the search would
// go back there again and again. lengthscales (one per component, in units
// of the cube) may be nil for the plain Euclidean metric. Ties go to the
// earlier observation, so the choice is deterministic.
func (a *Archive) Select(centre, lengthscales []float64, size int, out []int) []int {
	a.boxed = a.n > size
	if !a.boxed {
		for i := range a.n {
			out[i] = i
		}
		return out[:a.n]
	}
	spread, recent := int(SpreadFraction*float64(size)), int(RecentFraction*float64(size))
	near := size - spread - recent
	for i := range a.n {
		a.key[i] = a.distance(a.Unit(i), centre, lengthscales)
		a.in[i] = i >= a.n-recent
	}
	a.nearest(near)
	copy(a.lo, centre[:a.dim])
	copy(a.hi, centre[:a.dim])
	for _, i := range a.heap {
		for j, v := range a.Unit(i) {
			a.lo[j], a.hi[j] = min(a.lo[j], v), max(a.hi[j], v)
		}
	}
	stride := (a.n + spreadPool - 1) / spreadPool
	for range spread {
		far, farKey := -1, -1.0
		for i := 0; i < a.n; i += stride {
			if !a.in[i] && a.key[i] > farKey {
				far, farKey = i, a.key[i]
			}
		}
		if far < 0 {
			break // the sample is all in the subset already
		}
		a.in[far] = true
		u := a.Unit(far)
		for i := 0; i < a.n; i += stride {
			if !a.in[i] {
				a.key[i] = min(a.key[i], a.distance(a.Unit(i), u, lengthscales))
			}
		}
	}
	m := 0
	for i := range a.n {
		if a.in[i] {
			out[m] = i
			m++
		}
	}
	return out[:m]
}

// Box writes to lo and hi the corners of the smallest box that holds the
// centre and the nearest part of the last Select, the region the subset
// describes in detail, and reports whether there is one: false before a
// Select that left observations out.
func (a *Archive) Box(lo, hi []float64) bool {
	if !a.boxed {
		return false
	}
	copy(lo, a.lo)
	copy(hi, a.hi)
	return true
}

// nearest marks in a.in the k observations of smallest key that are not
// in yet, ties to the earlier, with a max-heap of the best k so far:
// O(n log k).
func (a *Archive) nearest(k int) {
	h := a.heap[:0]
	for i := range a.n {
		if a.in[i] {
			continue
		}
		if len(h) < k {
			h = append(h, i)
			a.up(h, len(h)-1)
			continue
		}
		if a.less(i, h[0]) {
			h[0] = i
			a.down(h, 0)
		}
	}
	for _, i := range h {
		a.in[i] = true
	}
	a.heap = h
}

// less orders observations by key, then by index.
func (a *Archive) less(i, j int) bool {
	return a.key[i] < a.key[j] || a.key[i] == a.key[j] && i < j
}

// up and down keep h a max-heap under less.
func (a *Archive) up(h []int, c int) {
	for c > 0 {
		p := (c - 1) / 2
		if !a.less(h[p], h[c]) {
			return
		}
		h[p], h[c] = h[c], h[p]
		c = p
	}
}

func (a *Archive) down(h []int, p int) {
	for {
		c := 2*p + 1
		if c >= len(h) {
			return
		}
		if c+1 < len(h) && a.less(h[c], h[c+1]) {
			c++
		}
		if !a.less(h[p], h[c]) {
			return
		}
		h[p], h[c] = h[c], h[p]
		p = c
	}
}

// distance is Σ_j ((u_j − c_j)/ℓ_j)², or Σ_j (u_j − c_j)² without
// lengthscales.
func (a *Archive) distance(u, c, lengthscales []float64) float64 {
	d := 0.0
	for j := range a.dim {
		e := u[j] - c[j]
		if lengthscales != nil {
			e /= lengthscales[j]
		}
		d += e * e
	}
	if math.IsNaN(d) {
		return math.Inf(1)
	}
	return d
}
