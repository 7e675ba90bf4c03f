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
// down L four rows at a time and advances three points at a time through
// them (vec.Dots4x3): each element of a point loaded from the L2 cache
// serves four rows, halving that traffic against two rows, the solve's
// bottleneck.
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
// walks down L four rows at a time and advances every point through them,
// three points at a time; every point's sums run over the same indices in
// the same order however the points are grouped.
func (g *GP) solveBlock(x []float64, q int) {
	n := g.n
	var rows [vec.GroupRows][]float64
	var s3 [vec.GroupRows * vec.GroupPoints]float64
	var s1 [vec.GroupRows]float64
	i := 0
	for ; i+vec.GroupRows <= n; i += vec.GroupRows {
		for r := range rows {
			start := rowStart(i + r)
			rows[r] = g.l[start : start+i+r+1]
		}
		j := 0
		for ; j+vec.GroupPoints <= q; j += vec.GroupPoints {
			x0, x1, x2 := x[j*n:(j+1)*n], x[(j+1)*n:(j+2)*n], x[(j+2)*n:(j+3)*n]
			vec.Dots4x3(&rows, i, x0, x1, x2, &s3)
			solveRows(&rows, x0, s3[0], s3[3], s3[6], s3[9])
			solveRows(&rows, x1, s3[1], s3[4], s3[7], s3[10])
			solveRows(&rows, x2, s3[2], s3[5], s3[8], s3[11])
		}
		for ; j < q; j++ {
			xj := x[j*n : (j+1)*n]
			vec.Dots4x1(&rows, i, xj, &s1)
			solveRows(&rows, xj, s1[0], s1[1], s1[2], s1[3])
		}
	}
	// The last n mod 4 rows, one at a time.
	for ; i < n; i++ {
		start := rowStart(i)
		l := g.l[start : start+i+1]
		for j := range q {
			xj := x[j*n : (j+1)*n]
			xj[i] = (xj[i] - vec.Dot(l[:i], xj)) / l[i]
		}
	}
}

// solveRows finishes rows i … i+3 of the forward substitution for one point,
// where i = len(rows[0])−1, rows holds those rows of L (diagonals included)
// and s0 … s3 are their dot products with x[:i].
func solveRows(rows *[vec.GroupRows][]float64, x []float64, s0, s1, s2, s3 float64) {
	i := len(rows[0]) - 1
	r0, r1, r2, r3 := rows[0], rows[1][:i+2], rows[2][:i+3], rows[3][:i+4]
	x = x[:i+4]
	x[i] = (x[i] - s0) / r0[i]
	x[i+1] = (x[i+1] - s1 - r1[i]*x[i]) / r1[i+1]
	x[i+2] = (x[i+2] - s2 - r2[i]*x[i] - r2[i+1]*x[i+1]) / r2[i+2]
	x[i+3] = (x[i+3] - s3 - r3[i]*x[i] - r3[i+1]*x[i+1] - r3[i+2]*x[i+2]) / r3[i+3]
}
