package pareto

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
)

// Decomposition is the region above a reference point that a front does not
// dominate, as disjoint boxes, for two or three objectives. The front's
// coordinates cut the first m−1 objectives into a grid of cells; above each
// cell the region is a column [L, ∞) of the last objective, L the largest
// last coordinate of a front vector that dominates the cell's upper corner
// (the reference's when none does). There are at most (p+1)^(m−1) columns
// for a front of p vectors: the box decomposition of the 2-D case, and a
// grid of columns in 3-D, simple and exact, where the best-known algorithms
// need O(p) boxes (Lacour et al. 2017). The hypervolume, the improvement of
// a vector and the EHVI are sums over the columns.
type Decomposition struct {
	m        int
	ref      []float64
	capacity int

	points []float64 // scratch: the vectors that clear the reference, row-major
	keep   []bool    // scratch: which of them are non-dominated
	front  []float64 // the non-dominated ones, row-major
	size   int       // their number

	// grid[j] holds objective j's distinct coordinates, ascending: the
	// reference's, then the front's; lens[j] of them.
	grid [][]float64
	lens []int
	// boxes holds m indices per column: for j < m−1 objective j's cell
	// [grid[j][i], grid[j][i+1]), the last cell's upper bound +∞; for the
	// last objective the column's lower bound grid[m−1][i].
	boxes  []int32
	nboxes int
}

// New returns the decomposition for m objectives (2 or 3) above the
// reference point ref, for fronts of up to capacity vectors.
func New(m int, ref []float64, capacity int) (*Decomposition, error) {
	switch {
	case m < 2 || m > 3:
		return nil, fmt.Errorf("pareto: a box decomposition of %d objectives: it is built for 2 and 3", m)
	case len(ref) != m:
		return nil, fmt.Errorf("pareto: a reference point of %d values for %d objectives", len(ref), m)
	case capacity < 1:
		return nil, fmt.Errorf("pareto: capacity %d", capacity)
	}
	columns := 1
	for range m - 1 {
		columns *= capacity + 1
	}
	d := &Decomposition{m: m, ref: make([]float64, m), capacity: capacity,
		points: make([]float64, capacity*m), keep: make([]bool, capacity), front: make([]float64, capacity*m),
		grid: make([][]float64, m), lens: make([]int, m), boxes: make([]int32, columns*m)}
	for j := range d.grid {
		d.grid[j] = make([]float64, capacity+1)
	}
	if err := d.SetReference(ref); err != nil {
		return nil, err
	}
	return d, d.Update(nil)
}

// SetReference moves the reference point; the next Update decomposes
// above it.
func (d *Decomposition) SetReference(ref []float64) error {
	if len(ref) != d.m {
		return fmt.Errorf("pareto: a reference point of %d values for %d objectives", len(ref), d.m)
	}
	for _, r := range ref {
		if math.IsNaN(r) || math.IsInf(r, 0) {
			return errors.New("pareto: the reference point is not finite")
		}
	}
	copy(d.ref, ref)
	return nil
}

// Objectives is the number of objectives.
func (d *Decomposition) Objectives() int { return d.m }

// ScratchLen is the length of the scratch EHVI and EHVIGrad need.
func (d *Decomposition) ScratchLen() int { return 3 * d.m * (d.capacity + 1) }

// Front returns the non-dominated vectors that clear the reference point in
// every objective, row-major, in the order Update met them. The slice is
// the decomposition's own, valid until the next Update.
func (d *Decomposition) Front() []float64 { return d.front[:d.size*d.m] }

// Update rebuilds the decomposition for the vectors points (row-major, m
// values each, at most the capacity): those that do not clear the reference
// point in every objective dominate nothing above it and are left out, as
// are the dominated ones. A vector with a value that is not a number is
// an error.
func (d *Decomposition) Update(points []float64) error {
	m := d.m
	if len(points)%m != 0 || len(points)/m > d.capacity {
		return fmt.Errorf("pareto: %d values for %d objectives and a capacity of %d vectors", len(points), m, d.capacity)
	}
	n := 0
rows:
	for i := 0; i < len(points); i += m {
		row := points[i : i+m]
		for j, v := range row {
			if math.IsNaN(v) {
				return fmt.Errorf("pareto: vector %d: a value that is not a number", i/m)
			}
			if !(v > d.ref[j]) {
				continue rows
			}
		}
		copy(d.points[n*m:], row)
		n++
	}
	NonDominated(d.points[:n*m], m, d.keep)
	d.size = 0
	for i := range n {
		if d.keep[i] {
			copy(d.front[d.size*m:], d.points[i*m:(i+1)*m])
			d.size++
		}
	}
	for j := range m {
		g := d.grid[j][:0]
		g = append(g, d.ref[j])
		for i := range d.size {
			g = append(g, d.front[i*m+j])
		}
		slices.Sort(g)
		g = slices.Compact(g)
		d.lens[j] = len(g)
	}
	d.columns()
	return nil
}

// columns lists the columns: every cell of the grid of the first m−1
// objectives, with the lower bound of the last one above it.
func (d *Decomposition) columns() {
	m, last := d.m, d.m-1
	d.nboxes = 0
	cell := make([]int32, 0, 2)[:last] // at most two cut objectives: no allocation
	for {
		lower := d.ref[last]
		for i := range d.size {
			p := d.front[i*m : (i+1)*m]
			dominates := true
			for j, c := range cell {
				if int(c)+1 >= d.lens[j] || p[j] < d.grid[j][c+1] {
					dominates = false
					break
				}
			}
			if dominates {
				lower = max(lower, p[last])
			}
		}
		box := d.boxes[d.nboxes*m : (d.nboxes+1)*m]
		copy(box, cell)
		box[last] = int32(sort.SearchFloat64s(d.grid[last][:d.lens[last]], lower))
		d.nboxes++
		// The next cell, the first cut objective the fastest.
		j := 0
		for ; j < last; j++ {
			if cell[j]++; int(cell[j]) < d.lens[j] {
				break
			}
			cell[j] = 0
		}
		if j == last {
			return
		}
	}
}

// bounds returns column b's bounds in objective j: the cell's for a cut
// objective (hi +∞ for the last cell), [L, +∞) for the last objective.
func (d *Decomposition) bounds(b, j int) (lo, hi float64) {
	i := int(d.boxes[b*d.m+j])
	lo, hi = d.grid[j][i], math.Inf(1)
	if j < d.m-1 && i+1 < d.lens[j] {
		hi = d.grid[j][i+1]
	}
	return lo, hi
}

// Hypervolume is the volume the front dominates above the reference point.
func (d *Decomposition) Hypervolume() float64 {
	last := d.m - 1
	hv := 0.0
	for b := range d.nboxes {
		lower, _ := d.bounds(b, last)
		v := lower - d.ref[last]
		for j := 0; j < last && v > 0; j++ {
			lo, hi := d.bounds(b, j)
			v *= hi - lo // +∞ only where no vector dominates: v is 0 there
		}
		if v > 0 {
			hv += v
		}
	}
	return hv
}

// Improvement is the hypervolume that the vector y adds to the front's.
func (d *Decomposition) Improvement(y []float64) float64 {
	hvi := 0.0
	for b := range d.nboxes {
		v := 1.0
		for j := range d.m {
			lo, hi := d.bounds(b, j)
			v *= max(min(y[j], hi)-lo, 0)
		}
		hvi += v
	}
	return hvi
}
