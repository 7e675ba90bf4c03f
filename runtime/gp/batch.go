package gp

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/bocdev/boc/runtime/internal/vec"
)

// blockPoints is the number of points whose kernel vectors are solved
// together: L streams past them once, while their vectors (48 × n values,
// 192 KB at n = 500) stay in the L2 cache. Within a block, the solve walks
// down L eight rows at a time and advances three points at a time through
// them (vec.Dots8x3): each element of a point loaded from the L2 cache
// serves eight rows, since that traffic, not the multiply-adds, bounds the
// solve.
const blockPoints = 16 * vec.GroupPoints

// PredictBatch returns the posterior mean and variance (units of y) at m
// points at once. kstar holds their kernel vectors as an m×Len() row-major
// matrix, kstar[j·Len()+i] = k(x_j, x_i), and kself[j] = k(x_j, x_j). It writes
// mean[:m] and variance[:m] and, like Predict, overwrites each kernel vector
// with v = L⁻¹k. It allocates nothing.
//
// The means are Predict's bit for bit; the variances and v equal Predict's up
// to rounding, because the triangular solve sums in another order: it is
// blocked, reading L once per block of points instead of once per point. A
// point's arithmetic does not depend on the other points, so any split of the
// points (see BatchWorkers) gives bit-identical results.
func (g *GP) PredictBatch(kstar []float64, m int, kself, mean, variance []float64) {
	g.checkBatch(kstar, m, kself, mean, variance)
	n := g.n
	alpha := g.alpha[:n]
	for lo := 0; lo < m; lo += blockPoints {
		hi := min(m, lo+blockPoints)
		// kᵀα before the solve overwrites k.
		for j := lo; j < hi; j++ {
			mean[j] = vec.Dot(kstar[j*n:(j+1)*n], alpha)
		}
		g.solveBlock(kstar[lo*n:hi*n], hi-lo)
		for j := lo; j < hi; j++ {
			v := kstar[j*n : (j+1)*n]
			mean[j] = g.shift + g.scale*mean[j]
			variance[j] = g.scale * g.scale * max(kself[j]-vec.Dot(v, v), 0)
		}
	}
}

// BatchWorkers runs PredictBatch on several goroutines, started once by
// NewBatchWorkers, so that a parallel batch prediction allocates nothing. It
// serves one Predict at a time; Close stops the goroutines.
type BatchWorkers struct {
	workers int
	wake    chan struct{}
	pending sync.WaitGroup
	// job is the prediction under way, written before the workers are
	// woken; next is the index of the next block of points to claim.
	job  batchJob
	next atomic.Int64
}

// batchJob is a batch prediction's arguments.
type batchJob struct {
	g                            *GP
	kstar, kself, mean, variance []float64
	m                            int
}

// NewBatchWorkers returns workers goroutines' worth of batch prediction: the
// calling goroutine and workers − 1 started here (none for workers <= 1).
func NewBatchWorkers(workers int) *BatchWorkers {
	w := &BatchWorkers{workers: max(workers, 1), wake: make(chan struct{})}
	for range w.workers - 1 {
		go w.serve()
	}
	return w
}

func (w *BatchWorkers) serve() {
	for range w.wake {
		w.claim()
		w.pending.Done()
	}
}

// claim predicts blocks of the current job until none is left. Blocks are
// claimed one at a time rather than split evenly up front, so that a worker
// whose core is busy with something else holds up the others by one block at
// most.
func (w *BatchWorkers) claim() {
	j := &w.job
	n := j.g.n
	for {
		lo := int(w.next.Add(1)-1) * blockPoints
		if lo >= j.m {
			return
		}
		hi := min(j.m, lo+blockPoints)
		j.g.PredictBatch(j.kstar[lo*n:hi*n], hi-lo, j.kself[lo:hi], j.mean[lo:hi], j.variance[lo:hi])
	}
}

// Close stops the goroutines; Predict must not be called afterwards.
func (w *BatchWorkers) Close() { close(w.wake) }

// Predict is g.PredictBatch with the points shared out among the workers in
// blocks. A point's arithmetic does not depend on the block it is in, so
// the results are bit-identical to PredictBatch's for any number of workers.
// It allocates nothing.
func (w *BatchWorkers) Predict(g *GP, kstar []float64, m int, kself, mean, variance []float64) {
	g.checkBatch(kstar, m, kself, mean, variance)
	workers := min(w.workers, (m+blockPoints-1)/blockPoints)
	if workers <= 1 {
		g.PredictBatch(kstar, m, kself, mean, variance)
		return
	}
	w.job = batchJob{g: g, kstar: kstar, m: m, kself: kself, mean: mean, variance: variance}
	w.next.Store(0)
	w.pending.Add(workers - 1)
	for range workers - 1 {
		w.wake <- struct{}{}
	}
	w.claim()
	w.pending.Wait()
	w.job = batchJob{} // drop the references to the caller's slices
}

// checkBatch panics if the slices are too short for m points: the sizes are
// the caller's arithmetic, not input data.
func (g *GP) checkBatch(kstar []float64, m int, kself, mean, variance []float64) {
	if m < 0 || len(kstar) < m*g.n || len(kself) < m || len(mean) < m || len(variance) < m {
		panic(fmt.Sprintf("gp: batch of %d points with n = %d: len(kstar) = %d, len(kself) = %d, len(mean) = %d, len(variance) = %d",
			m, g.n, len(kstar), len(kself), len(mean), len(variance)))
	}
}

// solveBlock overwrites each of the q rows of x (q×n) with L⁻¹ times it. It
// walks down L eight rows at a time and advances every point through them,
// three points at a time; every point's sums run over the same indices in
// the same order however the points are grouped.
func (g *GP) solveBlock(x []float64, q int) {
	n := g.n
	var rows [vec.WideRows][]float64
	var corner [vec.WideRows][vec.WideRows]float64
	var s3 [vec.WideRows * vec.GroupPoints]float64
	var s1, sums [vec.WideRows]float64
	for i := 0; i < n; i += vec.WideRows {
		// The last n mod 8 rows make a short group: its missing rows repeat
		// its last, and their sums go unused.
		size := min(vec.WideRows, n-i)
		for r := range rows {
			start := rowStart(i + min(r, size-1))
			rows[r] = g.l[start : start+i+min(r, size-1)+1]
			if r < size {
				copy(corner[r][:r], rows[r][i:])
				corner[r][r] = 1 / rows[r][i+r]
			}
		}
		j := 0
		for ; j+vec.GroupPoints <= q; j += vec.GroupPoints {
			x0, x1, x2 := x[j*n:(j+1)*n], x[(j+1)*n:(j+2)*n], x[(j+2)*n:(j+3)*n]
			vec.Dots8x3(&rows, i, x0, x1, x2, &s3)
			for k, xk := range [vec.GroupPoints][]float64{x0, x1, x2} {
				for r := range sums {
					sums[r] = s3[vec.GroupPoints*r+k]
				}
				solveCorner(&corner, xk[i:i+size], &sums)
			}
		}
		for ; j < q; j++ {
			xj := x[j*n : (j+1)*n]
			vec.Dots4x1((*[vec.GroupRows][]float64)(rows[:vec.GroupRows]), i, xj, (*[vec.GroupRows]float64)(s1[:vec.GroupRows]))
			vec.Dots4x1((*[vec.GroupRows][]float64)(rows[vec.GroupRows:]), i, xj, (*[vec.GroupRows]float64)(s1[vec.GroupRows:]))
			solveCorner(&corner, xj[i:i+size], &s1)
		}
	}
}

// solveCorner finishes rows i … i+len(x)−1 (at most eight) of the forward
// substitution for one point: corner holds those rows of L from column i
// on, with the reciprocals of the diagonal in its place (a multiplication,
// unlike a division, does not stall the chain of the next rows), x the
// point's elements from i on and sums the rows' dot products with its
// elements before i. The same sums in the same order whether the group is
// full or not.
func solveCorner(corner *[vec.WideRows][vec.WideRows]float64, x []float64, sums *[vec.WideRows]float64) {
	if len(x) < vec.WideRows {
		for r := range x {
			sum := x[r] - sums[r]
			for c := range r {
				sum -= corner[r][c] * x[c]
			}
			x[r] = sum * corner[r][r]
		}
		return
	}
	x = x[:vec.WideRows]
	x0 := (x[0] - sums[0]) * corner[0][0]
	x1 := (x[1] - sums[1] - corner[1][0]*x0) * corner[1][1]
	x2 := (x[2] - sums[2] - corner[2][0]*x0 - corner[2][1]*x1) * corner[2][2]
	x3 := (x[3] - sums[3] - corner[3][0]*x0 - corner[3][1]*x1 - corner[3][2]*x2) * corner[3][3]
	x4 := (x[4] - sums[4] - corner[4][0]*x0 - corner[4][1]*x1 - corner[4][2]*x2 - corner[4][3]*x3) * corner[4][4]
	x5 := (x[5] - sums[5] - corner[5][0]*x0 - corner[5][1]*x1 - corner[5][2]*x2 - corner[5][3]*x3 - corner[5][4]*x4) * corner[5][5]
	x6 := (x[6] - sums[6] - corner[6][0]*x0 - corner[6][1]*x1 - corner[6][2]*x2 - corner[6][3]*x3 - corner[6][4]*x4 - corner[6][5]*x5) * corner[6][6]
	x7 := (x[7] - sums[7] - corner[7][0]*x0 - corner[7][1]*x1 - corner[7][2]*x2 - corner[7][3]*x3 - corner[7][4]*x4 - corner[7][5]*x5 - corner[7][6]*x6) * corner[7][7]
	x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7] = x0, x1, x2, x3, x4, x5, x6, x7
}
