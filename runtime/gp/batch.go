package gp

import (
	"fmt"
	"sync"

	"github.com/bocdev/boc/runtime/internal/vec"
)

const (
	// groupPoints is the number of points the batch solve advances together
	// through a pair of rows of L: each element of L it loads serves three
	// points, and the six accumulators, two elements of L and three of the
	// points fit the registers amd64 code has (four points spill and run at
	// half the speed, measured on the development machine).
	groupPoints = 3
	// blockPoints is the number of points whose kernel vectors are solved
	// together: L streams past them once, while their vectors (48 × n
	// values, 192 KB at n = 500) stay in the L2 cache.
	blockPoints = 16 * groupPoints
)

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
	jobs    chan batchJob
	pending sync.WaitGroup
}

// batchJob is one worker's share of a batch prediction.
type batchJob struct {
	g                            *GP
	kstar, kself, mean, variance []float64
	m                            int
}

// NewBatchWorkers returns workers goroutines' worth of batch prediction: the
// calling goroutine and workers − 1 started here (none for workers <= 1).
func NewBatchWorkers(workers int) *BatchWorkers {
	w := &BatchWorkers{workers: max(workers, 1), jobs: make(chan batchJob)}
	for range w.workers - 1 {
		go w.serve()
	}
	return w
}

func (w *BatchWorkers) serve() {
	for j := range w.jobs {
		j.g.PredictBatch(j.kstar, j.m, j.kself, j.mean, j.variance)
		w.pending.Done()
	}
}

// Close stops the goroutines; Predict must not be called afterwards.
func (w *BatchWorkers) Close() { close(w.jobs) }

// Predict is g.PredictBatch with the points split into contiguous shares,
// one per worker. The results are bit-identical to PredictBatch's for any
// number of workers. It allocates nothing.
func (w *BatchWorkers) Predict(g *GP, kstar []float64, m int, kself, mean, variance []float64) {
	g.checkBatch(kstar, m, kself, mean, variance)
	// Shares are whole groups, so that no worker gets a sliver.
	groups := (m + groupPoints - 1) / groupPoints
	workers := min(w.workers, groups)
	if workers <= 1 {
		g.PredictBatch(kstar, m, kself, mean, variance)
		return
	}
	n := g.n
	share := func(k int) (lo, hi int) {
		return min(m, k*groups/workers*groupPoints), min(m, (k+1)*groups/workers*groupPoints)
	}
	w.pending.Add(workers - 1)
	for k := 1; k < workers; k++ {
		lo, hi := share(k)
		w.jobs <- batchJob{g: g, kstar: kstar[lo*n : hi*n], m: hi - lo,
			kself: kself[lo:hi], mean: mean[lo:hi], variance: variance[lo:hi]}
	}
	_, hi := share(0)
	g.PredictBatch(kstar[:hi*n], hi, kself[:hi], mean[:hi], variance[:hi])
	w.pending.Wait()
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
// walks down L two rows at a time and advances every point through them,
// three points at a time; every point's sums run over the same indices in
// the same order however the points are grouped.
func (g *GP) solveBlock(x []float64, q int) {
	n := g.n
	i := 0
	for ; i+2 <= n; i += 2 {
		start0, start1 := rowStart(i), rowStart(i+1)
		l0 := g.l[start0 : start0+i+1]
		l1 := g.l[start1 : start1+i+2]
		j := 0
		for ; j+groupPoints <= q; j += groupPoints {
			x0, x1, x2 := x[j*n:(j+1)*n], x[(j+1)*n:(j+2)*n], x[(j+2)*n:(j+3)*n]
			s00, s01, s02, s10, s11, s12 := dots2x3(l0[:i], l1[:i], x0, x1, x2)
			solvePair(l0, l1, x0, s00, s10)
			solvePair(l0, l1, x1, s01, s11)
			solvePair(l0, l1, x2, s02, s12)
		}
		for ; j < q; j++ {
			xj := x[j*n : (j+1)*n]
			s0, s1 := dots2x1(l0[:i], l1[:i], xj)
			solvePair(l0, l1, xj, s0, s1)
		}
	}
	if i < n {
		start := rowStart(i)
		l := g.l[start : start+i+1]
		for j := range q {
			xj := x[j*n : (j+1)*n]
			s, _ := dots2x1(l[:i], l[:i], xj)
			xj[i] = (xj[i] - s) / l[i]
		}
	}
}

// solvePair finishes rows i and i+1 of the forward substitution for one
// point, where i = len(l0)−1, l0 and l1 are rows i and i+1 of L (diagonal
// included), and s0, s1 are their dot products with x[:i].
func solvePair(l0, l1, x []float64, s0, s1 float64) {
	i := len(l0) - 1
	x[i] = (x[i] - s0) / l0[i]
	x[i+1] = (x[i+1] - s1 - l1[i]*x[i]) / l1[i+1]
}

// dots2x3 returns the dot products of a0 and a1 with the first len(a0)
// elements of p0, p1 and p2. The vector kernel, where the CPU has one, sums
// the longest prefix of a multiple of four elements; plain loops with one
// accumulator per sum do the rest. It is a function of its own so that its
// loop has the registers to itself.
func dots2x3(a0, a1, p0, p1, p2 []float64) (s00, s01, s02, s10, s11, s12 float64) {
	var head [6]float64
	start := dots2x3Head(a0, a1, p0, p1, p2, &head)
	s00, s01, s02, s10, s11, s12 = head[0], head[1], head[2], head[3], head[4], head[5]
	a0 = a0[start:]
	a1 = a1[start : start+len(a0)]
	p0, p1, p2 = p0[start:start+len(a0)], p1[start:start+len(a0)], p2[start:start+len(a0)]
	for c, u := range a0 {
		w := a1[c]
		v := p0[c]
		s00 += u * v
		s10 += w * v
		v = p1[c]
		s01 += u * v
		s11 += w * v
		v = p2[c]
		s02 += u * v
		s12 += w * v
	}
	return
}

// dots2x1 is dots2x3 for one point, with the same arithmetic.
func dots2x1(a0, a1, p []float64) (s0, s1 float64) {
	var head [2]float64
	start := dots2x1Head(a0, a1, p, &head)
	s0, s1 = head[0], head[1]
	a0 = a0[start:]
	a1, p = a1[start:start+len(a0)], p[start:start+len(a0)]
	for c, u := range a0 {
		v := p[c]
		s0 += u * v
		s1 += a1[c] * v
	}
	return
}
