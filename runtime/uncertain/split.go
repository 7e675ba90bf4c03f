package uncertain

import (
	"runtime"
	"sync"
)

// minSplitValues is the fewest kernel values a sample sum shares with a
// helper goroutine. The helper, woken by the caller's send, mostly starts
// only once the caller waits for it, unless the scheduler lets the idle core
// take it first: on the 2-core VM of docs/robust.md, half of 10⁴ rqmix values
// (25 µs) shared so took longer than all of them alone, 4·10⁴ gained nothing
// and 1.6·10⁵ gained 1.6–1.9×.
const minSplitValues = 1 << 17

// rows is a sum of kernel rows: Σ_{lo ≤ i < hi} RowSum(u_i, v) for the
// points u_i of u (d values each) against the points of v, or, with
// triangle set, against u's points before u_i (SelfMeanKernel's pairs).
type rows struct {
	k        Kernel
	u, v     []float64
	d        int
	lo, hi   int
	triangle bool
}

// sum adds the rows in order: a rectangle of rows as one PairSum, a
// triangle row by row.
func (r *rows) sum() float64 {
	d := r.d
	if !r.triangle {
		return r.k.PairSum(r.u[r.lo*d:r.hi*d], r.v, d, nil, nil)
	}
	var s float64
	for i := r.lo; i < r.hi; i++ {
		s += r.k.RowSum(r.u[i*d:(i+1)*d], r.u[:i*d], nil)
	}
	return s
}

// helper is a goroutine that sums the rows it is handed.
type helper struct {
	job         rows
	result      float64
	start, done chan struct{}
}

func (h *helper) serve() {
	for range h.start {
		h.result = h.job.sum()
		h.done <- struct{}{}
	}
}

// idleHelpers holds the helpers not at work: GOMAXPROCS − 1 of them,
// started at the first sum large enough to share and never stopped.
var idleHelpers = sync.OnceValue(func() chan *helper {
	n := runtime.GOMAXPROCS(0) - 1
	idle := make(chan *helper, max(n, 0))
	for range n {
		h := &helper{start: make(chan struct{}), done: make(chan struct{})}
		go h.serve()
		idle <- h
	}
	return idle
})

// splitSum returns r's sum as the rows below mid plus the rows from mid,
// the latter summed by an idle helper goroutine when there is one (the
// caller sums the former meanwhile) and by the caller otherwise. The two
// partial sums are added in that order whoever computed them, so the result
// does not depend on the scheduling; nothing is allocated after the helpers
// have started.
func splitSum(r rows, mid, values int) float64 {
	if values < minSplitValues {
		return r.sum()
	}
	low, high := r, r
	low.hi, high.lo = mid, mid
	var h *helper
	select {
	case h = <-idleHelpers():
	default:
		return low.sum() + high.sum()
	}
	h.job = high
	h.start <- struct{}{}
	s := low.sum()
	<-h.done
	s += h.result
	h.job = rows{} // let go of the caller's memory
	idleHelpers() <- h
	return s
}
