package search

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync/atomic"

	"github.com/bocdev/boc/runtime/design"
	"github.com/bocdev/boc/runtime/opt"
)

// ValueGrad is an objective on the unit cube with its gradient: it returns
// the value at u and, unless grad is nil, writes the gradient there. worker
// (0 <= worker < Workers()) names the goroutine calling, so that the function
// can use per-worker scratch memory; calls with different workers run
// concurrently. It must not modify u, and should return the same value,
// up to rounding, whether or not grad is requested (a value-only path may
// skip the gradient's work).
type ValueGrad func(worker int, u, grad []float64) float64

// BatchValue scores len(values) candidates at once, the rows of us (dim
// values each), writing each one's value (what a ValueGrad returns without
// grad) to values; worker names the calling goroutine. A model scores a
// batch faster than one candidate at a time: runtime/gp's PredictBatch reads
// the Cholesky factor once per block of candidates instead of once per
// candidate.
type BatchValue func(worker int, us, values []float64)

// BatchSize is the largest number of candidates a BatchValue is given.
const BatchSize = scoreChunk

const (
	// correctionPairs is the L-BFGS memory of each refinement.
	correctionPairs = 6
	// Each refinement stops after refineIterations accepted steps, or when a
	// step improves the value by less than refineFTol relative to it
	// (acquisition values span many orders of magnitude, so no absolute
	// gradient tolerance is used).
	refineIterations = 100
	refineFTol       = 1e-10
	// A refined point outside the feasible set is pulled back towards its
	// start by pullBackSteps bisections of the segment between them.
	pullBackSteps = 30
	// NewLBFGS runs warmUpRounds rounds without work (see there).
	warmUpRounds = 4
	// scoreChunk candidates are handed to a worker at a time: as many as
	// runtime/gp solves together in PredictBatch.
	scoreChunk = 48
)

// LBFGS maximises a smooth function over [0,1]^dim in two stages: it scores
// raw Sobol candidates (and any starts given with AddStart), then refines the
// best restarts of them by projected L-BFGS-B with the function's gradient.
//
// Scoring and refinement run on up to Workers() goroutines (fewer if
// GOMAXPROCS has dropped since construction): the calling one and a
// persistent pool started by NewLBFGS, stopped when the LBFGS is garbage
// collected. Each restart is refined independently and results are reduced
// in a fixed order (by value, ties to the earlier candidate or restart), so
// the answer does not depend on the number of workers or on scheduling. After
// construction no call allocates (measured with testing.AllocsPerRun; the
// constructor's idle rounds make the runtime allocate the wait records of
// the goroutines' first blocking receives there).
type LBFGS struct {
	*lbfgsCore
}

// lbfgsCore is the state the worker goroutines share; they do not reference
// the LBFGS handle, so it can be collected and its cleanup stop them.
type lbfgsCore struct {
	dim, raw, restarts, workers int

	sobol *design.Sobol

	// The categorical components (levels.go): levels per component, 0 for
	// the others; nil when there are none.
	levels []int
	// combos is the number of level combinations when the search
	// enumerates them (at most maxEnumerated), 0 when it does not;
	// enumerating is set while Maximize scores.
	combos      int
	enumerating bool

	candidates []float64 // (raw+restarts)×dim: Sobol points, then starts
	nStarts    int
	lo, hi     []float64 // the box searched: the unit cube unless SetBox narrowed it
	// centre, when SetBox gave one, is the point the raw candidates
	// perturb (TuRBO's candidates); hasCentre says whether it holds one.
	centre    []float64
	hasCentre bool
	mask      rand.PCG // draws which components a candidate perturbs

	// The task the workers run; set before waking them.
	task     task
	points   []float64 // candidates being scored, row-major
	nPoints  int
	fg       ValueGrad
	batch    BatchValue // scores the raw candidates when set
	feasible func(u []float64) bool
	next     atomic.Int64 // next chunk or restart to claim

	perWorker []worker

	// The merged best candidates, best first, and the refinement of each;
	// when combinations are enumerated, the best of each combination not
	// among them follow.
	topIndex   []int
	topValue   []float64
	nTop       int
	refined    []float64 // restarts×dim
	refinedVal []float64

	// nearShare of the raw candidates are made within ±nearWidth of the
	// starts (near.go).
	nearShare, nearWidth float64

	// sweeps is the number of coordinate sweeps that finish a Maximize
	// (sweep.go), scoring the rows of sweepRows (SweepPoints×dim), or, with
	// a sweepBy, the values of component sweepAlong in sweepValues into
	// sweepOut.
	sweeps                int
	sweepRows             []float64
	sweepBy               Sweep
	sweepAlong            int
	sweepValues, sweepOut [SweepPoints]float64

	wake []chan struct{} // one per pool goroutine (workers 1..)
	done chan struct{}
}

type task int

const (
	idleTask task = iota // no items: a round that only synchronises
	scoreTask
	refineTask
	sweepTask
)

// worker is one goroutine's memory.
type worker struct {
	core       *lbfgsCore
	index      int
	optimiser  *opt.LBFGSB
	minimise   func(x, grad []float64) float64 // negated fg, made once
	end, trial []float64                       // dim each, for pullBack
	// The best candidates this worker scored, best first.
	topIndex []int
	topValue []float64
	nTop     int
	// The best candidate of each level combination this worker scored
	// (index −1: none yet), when combinations are enumerated.
	comboIndex []int
	comboValue []float64
	moved      []float64 // dim: a point with one categorical component changed
	// A batch of candidates for BatchValue: their rows, indices and values.
	batchU     []float64
	batchIndex []int
	batchValue []float64
}

// NewLBFGS returns a searcher over [0,1]^dim that scores raw Sobol candidates
// per call and refines the best restarts, on min(GOMAXPROCS, restarts)
// workers. All memory is allocated and the worker goroutines started here. It
// panics unless 1 <= dim <= design.MaxSobolDim, raw >= 0 and restarts >= 1,
// which the compiler guarantees.
func NewLBFGS(dim, raw, restarts int) *LBFGS { return NewMixedLBFGS(dim, raw, restarts, nil) }

// NewMixedLBFGS is NewLBFGS over a domain with categorical components:
// levels[j] is component j's number of levels (its unit coordinate is
// (level + ½)/levels), 0 for a continuous or integer one; nil for none. The
// search then alternates between the continuous components (L-BFGS-B) and
// the categorical ones (levels.go).
func NewMixedLBFGS(dim, raw, restarts int, levels []int) *LBFGS {
	if raw < 0 || restarts < 1 || levels != nil && len(levels) != dim {
		panic(fmt.Sprintf("search: raw = %d, restarts = %d, %d levels for %d components", raw, restarts, len(levels), dim))
	}
	combos := enumerated(levels)
	sobol, err := design.NewSobol(dim, 0)
	if err != nil {
		panic(err)
	}
	workers := min(runtime.GOMAXPROCS(0), restarts)
	refinements := restarts + combos
	c := &lbfgsCore{
		dim: dim, raw: raw, restarts: restarts, workers: workers,
		sobol:      sobol,
		levels:     slices.Clone(levels),
		combos:     combos,
		candidates: make([]float64, (raw+restarts)*dim),
		lo:         make([]float64, dim),
		hi:         make([]float64, dim),
		centre:     make([]float64, dim),
		perWorker:  make([]worker, workers),
		topIndex:   make([]int, refinements),
		topValue:   make([]float64, refinements),
		refined:    make([]float64, refinements*dim),
		refinedVal: make([]float64, refinements),
		wake:       make([]chan struct{}, workers),
		done:       make(chan struct{}, workers),
	}
	for j := range c.hi {
		c.hi[j] = 1
	}
	for w := range c.perWorker {
		pw := &c.perWorker[w]
		*pw = worker{
			core: c, index: w,
			optimiser:  opt.NewLBFGSB(dim, correctionPairs),
			topIndex:   make([]int, restarts),
			topValue:   make([]float64, restarts),
			end:        make([]float64, dim),
			trial:      make([]float64, dim),
			batchU:     make([]float64, scoreChunk*dim),
			batchIndex: make([]int, scoreChunk),
			batchValue: make([]float64, scoreChunk),
		}
		if levels != nil {
			pw.moved = make([]float64, dim)
			pw.comboIndex = make([]int, combos)
			pw.comboValue = make([]float64, combos)
		}
		pw.optimiser.MaxIterations = refineIterations
		pw.optimiser.GradTol = 0
		pw.optimiser.FTol = refineFTol
		pw.minimise = pw.negated
		if w > 0 {
			c.wake[w] = make(chan struct{})
			go c.serve(pw)
		}
	}
	// The runtime allocates a goroutine's first wait records (sudogs) when it
	// first blocks; idle rounds here let that happen in the constructor
	// rather than in the first Maximize.
	for range warmUpRounds {
		c.run(idleTask)
	}
	s := &LBFGS{c}
	runtime.AddCleanup(s, (*lbfgsCore).stop, c)
	return s
}

// Workers returns the number of goroutines that call the objective, so the
// caller can allocate per-worker scratch memory.
func (s *LBFGS) Workers() int { return s.workers }

// AddStart adds u (clamped to the cube) as a candidate for the next Maximize
// only, e.g. the incumbent. Starts beyond the first restarts are ignored.
func (s *LBFGS) AddStart(u []float64) {
	if s.nStarts == s.restarts {
		return
	}
	row := s.candidates[(s.raw+s.nStarts)*s.dim : (s.raw+s.nStarts+1)*s.dim]
	for j := range row {
		row[j] = clamp(u[j])
	}
	s.nStarts++
}

// SetBox narrows the following searches to the box [lo, hi] within the unit
// cube (a trust region): the raw candidates fill it, starts are clamped
// into it and the refinement stays in it. nil restores the whole cube.
//
// With a centre (inside the box), the raw candidates are TuRBO's: the
// centre with each component, with probability min(1, 20/dim), replaced by
// the quasi-random candidate's (at least one component). In many
// dimensions a candidate that moves every component lies near the box's
// corners, far from the data the region is centred on; one that moves a
// few stays close along the others.
func (s *LBFGS) SetBox(lo, hi, centre []float64) {
	for j := range s.lo {
		s.lo[j], s.hi[j] = 0, 1
		if lo != nil {
			s.lo[j], s.hi[j] = clamp(lo[j]), clamp(hi[j])
		}
	}
	s.hasCentre = lo != nil && centre != nil
	if s.hasCentre {
		for j := range s.centre {
			s.centre[j] = min(max(centre[j], s.lo[j]), s.hi[j])
		}
	}
}

// perturbedComponents is how many components TuRBO's candidates perturb on
// average (its probability of perturbing one is min(1, 20/dim)).
const perturbedComponents = 20

// perturb keeps the box-mapped quasi-random candidate row at the centre in
// all but a random subset of its components (SetBox).
func (s *LBFGS) perturb(row []float64) {
	p := min(1, perturbedComponents/float64(s.dim))
	moved := false
	for j := range row {
		if unitDraw(&s.mask) < p {
			moved = true
		} else {
			row[j] = s.centre[j]
		}
	}
	if !moved {
		j := int(s.mask.Uint64() % uint64(s.dim))
		row[j] = s.lo[j] + (s.hi[j]-s.lo[j])*unitDraw(&s.mask)
	}
}

// unitDraw is a uniform draw in [0, 1) from rng.
func unitDraw(rng *rand.PCG) float64 { return float64(rng.Uint64()>>11) / (1 << 53) }

// Maximize looks for the maximiser of fg over [0,1]^dim subject to
// feasible(u) (nil: everything is feasible; it is called concurrently and
// must be safe for that), writes it to out and returns fg there. Candidates
// are scored only where feasible and those where fg is NaN are skipped. The
// refinement ignores the constraints (fg must accept any point of the cube);
// a refined point that is infeasible is pulled back along the segment to its
// starting candidate, to the last feasible point found by bisection, or falls
// back to the candidate itself. The
// raw Sobol candidates are shifted by seed. With no feasible point it returns
// ErrNoFeasible and leaves out unchanged.
func (s *LBFGS) Maximize(fg ValueGrad, feasible func(u []float64) bool, seed uint64, out []float64) (float64, error) {
	return s.MaximizeBatch(fg, nil, feasible, seed, out)
}

// MaximizeBatch is Maximize with the raw candidates and the starts scored by
// batch, BatchSize at a time at most, which must give their values as fg
// does without a gradient (up to rounding); fg still refines them. A nil
// batch scores with fg.
func (s *LBFGS) MaximizeBatch(fg ValueGrad, batch BatchValue, feasible func(u []float64) bool, seed uint64, out []float64) (float64, error) {
	s.sobol.Reset(shiftSeed(seed))
	s.mask.Seed(seed, 0x7475726236) // a stream apart from the Sobol shift
	for i := range s.raw {
		row := s.candidates[i*s.dim : (i+1)*s.dim]
		s.sobol.Next(row)
		for j, u := range row {
			row[j] = s.lo[j] + (s.hi[j]-s.lo[j])*u
		}
		if s.hasCentre {
			s.perturb(row)
		}
	}
	for i := s.raw; i < s.raw+s.nStarts; i++ {
		row := s.candidates[i*s.dim : (i+1)*s.dim]
		for j, u := range row {
			row[j] = min(max(u, s.lo[j]), s.hi[j])
		}
	}
	s.placeNear()
	n := s.raw + s.nStarts
	s.nStarts = 0
	s.placeLevels(n)
	defer s.release()
	s.fg, s.batch, s.feasible = fg, batch, feasible
	s.enumerating = s.combos > 0
	s.score(s.candidates, n)
	s.enumerating, s.batch = false, nil
	if s.nTop == 0 {
		return math.NaN(), ErrNoFeasible
	}
	s.run(refineTask)
	best := 0
	for r := 1; r < s.nTop; r++ {
		if s.refinedVal[r] > s.refinedVal[best] {
			best = r
		}
	}
	copy(out[:s.dim], s.refined[best*s.dim:(best+1)*s.dim])
	if s.sweeps > 0 {
		return s.sweep(out[:s.dim], s.refinedVal[best], batch), nil
	}
	return s.refinedVal[best], nil
}

// MaximizeFinite returns the index of the best of a finite set of points
// (row-major, len(points)/dim of them), for finite decision sets, and fg
// there (grad nil): the point with the largest value among the feasible ones
// where fg is not NaN, ties going to the earlier point. With no such point it
// returns ErrNoFeasible.
func (s *LBFGS) MaximizeFinite(fg ValueGrad, feasible func(u []float64) bool, points []float64) (int, float64, error) {
	defer s.release()
	s.fg, s.feasible = fg, feasible
	s.score(points, len(points)/s.dim)
	if s.nTop == 0 {
		return -1, math.NaN(), ErrNoFeasible
	}
	return s.topIndex[0], s.topValue[0], nil
}

// release drops the caller's functions so the searcher does not keep them
// alive between calls.
func (s *LBFGS) release() {
	s.fg, s.batch, s.feasible, s.points, s.enumerating = nil, nil, nil, nil, false
	s.sweepBy = Sweep{}
}

// score evaluates the first n rows of points on the workers and merges their
// best lists into topIndex/topValue: the best restarts by value, ties to the
// lower index, which is a total order and so independent of which worker
// scored what.
func (c *lbfgsCore) score(points []float64, n int) {
	c.points, c.nPoints = points, n
	for w := range c.perWorker {
		c.perWorker[w].nTop = 0
		if c.enumerating {
			c.perWorker[w].resetCombos()
		}
	}
	c.run(scoreTask)
	c.nTop = 0
	for w := range c.perWorker {
		pw := &c.perWorker[w]
		for r := range pw.nTop {
			c.nTop = insertTop(c.topIndex[:c.restarts], c.topValue, c.nTop, pw.topIndex[r], pw.topValue[r])
		}
	}
	if c.enumerating {
		c.addComboBests()
	}
}

// insertTop inserts candidate index with value into the sorted best list
// (length nTop, capacity len(indices)) and returns the new length.
func insertTop(indices []int, values []float64, nTop, index int, value float64) int {
	limit := len(indices)
	if nTop == limit && !better(value, index, values[nTop-1], indices[nTop-1]) {
		return nTop
	}
	i := min(nTop, limit-1)
	for ; i > 0 && better(value, index, values[i-1], indices[i-1]); i-- {
		values[i], indices[i] = values[i-1], indices[i-1]
	}
	values[i], indices[i] = value, index
	return min(nTop+1, limit)
}

// better orders candidates by value, ties to the lower index.
func better(v1 float64, i1 int, v2 float64, i2 int) bool {
	return v1 > v2 || (v1 == v2 && i1 < i2)
}

// run executes task t on the workers, the caller acting as worker 0, and
// returns when all its items are done. Only min(Workers(), GOMAXPROCS)
// workers take part: with one processor the caller does everything itself
// rather than hand over to goroutines that could not run in parallel.
func (c *lbfgsCore) run(t task) {
	c.task = t
	c.next.Store(0)
	active := min(c.workers, runtime.GOMAXPROCS(0))
	for w := 1; w < active; w++ {
		c.wake[w] <- struct{}{}
	}
	c.perWorker[0].work()
	for w := 1; w < active; w++ {
		<-c.done
	}
}

// serve is a pool goroutine's loop: one round of work per wake-up, until
// stop closes its channel.
func (c *lbfgsCore) serve(pw *worker) {
	for range c.wake[pw.index] {
		pw.work()
		c.done <- struct{}{}
	}
}

// items returns the number of work items of the current task.
func (c *lbfgsCore) items() int {
	switch c.task {
	case scoreTask:
		return (c.nPoints + scoreChunk - 1) / scoreChunk
	case refineTask:
		return c.nTop
	case sweepTask:
		return (SweepPoints + scoreChunk - 1) / scoreChunk
	}
	return 0
}

// stop ends the pool goroutines.
func (c *lbfgsCore) stop() {
	for _, ch := range c.wake[1:] {
		close(ch)
	}
}

// work claims items of the current task until none are left.
func (pw *worker) work() {
	c := pw.core
	items := c.items()
	for {
		item := int(c.next.Add(1) - 1)
		if item >= items {
			return
		}
		switch c.task {
		case scoreTask:
			pw.scoreChunk(item)
		case sweepTask:
			pw.sweepChunk(item)
		default:
			pw.refine(item)
		}
	}
}

// scoreChunk scores candidates of chunk number chunk into the worker's best
// list.
func (pw *worker) scoreChunk(chunk int) {
	c := pw.core
	lo, hi := chunk*scoreChunk, min((chunk+1)*scoreChunk, c.nPoints)
	if c.batch != nil {
		pw.scoreBatch(lo, hi)
		return
	}
	for i := lo; i < hi; i++ {
		u := c.points[i*c.dim : (i+1)*c.dim]
		if c.feasible != nil && !c.feasible(u) {
			continue
		}
		pw.record(u, i, c.fg(pw.index, u, nil))
	}
}

// scoreBatch scores candidates lo..hi−1 with one call of the batch scorer:
// the feasible ones, gathered into the worker's batch.
func (pw *worker) scoreBatch(lo, hi int) {
	c := pw.core
	m := 0
	for i := lo; i < hi; i++ {
		u := c.points[i*c.dim : (i+1)*c.dim]
		if c.feasible != nil && !c.feasible(u) {
			continue
		}
		copy(pw.batchU[m*c.dim:(m+1)*c.dim], u)
		pw.batchIndex[m] = i
		m++
	}
	if m == 0 {
		return
	}
	c.batch(pw.index, pw.batchU[:m*c.dim], pw.batchValue[:m])
	for k, i := range pw.batchIndex[:m] {
		pw.record(c.points[i*c.dim:(i+1)*c.dim], i, pw.batchValue[k])
	}
}

// record enters candidate i, at u, of value v in the worker's best lists,
// unless v is NaN.
func (pw *worker) record(u []float64, i int, v float64) {
	if math.IsNaN(v) {
		return
	}
	pw.nTop = insertTop(pw.topIndex, pw.topValue, pw.nTop, i, v)
	if pw.core.enumerating {
		pw.recordCombo(u, i, v)
	}
}

// refine runs L-BFGS-B from the r-th best candidate into refined row r.
func (pw *worker) refine(r int) {
	c := pw.core
	start := c.points[c.topIndex[r]*c.dim : (c.topIndex[r]+1)*c.dim]
	x := c.refined[r*c.dim : (r+1)*c.dim]
	copy(x, start)
	value := c.topValue[r]
	if res, err := pw.optimiser.Minimize(pw.minimise, x, c.lo, c.hi); err == nil {
		value = -res.F
		if c.feasible != nil && !c.feasible(x) {
			value = pw.pullBack(start, x)
		}
	}
	// Keep the start if the gradient was not finite there or the refinement
	// found nothing better.
	if !(value >= c.topValue[r]) {
		copy(x, start)
		value = c.topValue[r]
	}
	if c.levels != nil {
		value = pw.moveLevels(x, value)
	}
	c.refinedVal[r] = value
}

// pullBack moves an infeasible refined point x back towards its feasible
// start, to the last feasible point bisection finds on the segment between
// them, and returns fg there (NaN if fg is NaN, which rejects it).
func (pw *worker) pullBack(start, x []float64) float64 {
	c := pw.core
	end, trial := pw.end, pw.trial
	copy(end, x)
	feasibleT, infeasibleT := 0.0, 1.0
	for range pullBackSteps {
		t := (feasibleT + infeasibleT) / 2
		for j := range trial {
			trial[j] = start[j] + t*(end[j]-start[j])
		}
		if c.feasible(trial) {
			feasibleT = t
		} else {
			infeasibleT = t
		}
	}
	for j := range x {
		x[j] = start[j] + feasibleT*(end[j]-start[j])
	}
	if feasibleT == 0 || !c.feasible(x) {
		return math.NaN()
	}
	return c.fg(pw.index, x, nil)
}

// negated is the minimised objective: −fg and its gradient.
func (pw *worker) negated(x, grad []float64) float64 {
	v := pw.core.fg(pw.index, x, grad)
	for j := range grad {
		grad[j] = -grad[j]
	}
	return -v
}
