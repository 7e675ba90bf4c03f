// Package multi is the optimiser of a problem with several objectives, which
// the code boc emits for such a problem drives in unit coordinates. Each
// objective, and each requirement (outcome constraint) beside them, has its
// own Gaussian process (runtime/outcome); after the initial design every
// suggestion maximises runtime/pareto's Acquirer (the expected hypervolume
// improvement, or ParEGO's scalarisation) by runtime/search's multi-start
// L-BFGS-B, with the points being evaluated believed at their posterior
// means, over the whole cube or within a trust region (Config.Region);
// beside unknown safety constraints (Config.Safety) runtime/safe's Explorer
// chooses instead, among the points it certifies, by the same score. The
// result is the Pareto set: the evaluated points that meet the requirements
// and whose objectives' posterior means no other such point dominates.
//
// An Optimizer allocates in New only; Suggest, Observe, Pending, Release and
// Front allocate nothing (Hypervolume does beyond three objectives). It is
// not safe for concurrent use.
package multi

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/bocdev/boc/runtime/outcome"
	"github.com/bocdev/boc/runtime/pareto"
	"github.com/bocdev/boc/runtime/safe"
	"github.com/bocdev/boc/runtime/search"
)

// Objective is one of the objectives.
type Objective struct {
	Maximize bool
	// Threshold is the reference point's coordinate: values beyond it
	// (below it when maximised) are of no interest; NaN to infer it from
	// the front.
	Threshold float64
}

// Config describes a problem to New.
type Config struct {
	Dim int
	// Capacity is the most evaluated and pending points (the budget).
	Capacity   int
	Objectives []Objective
	// Outputs are the Gaussian processes of the objectives, in order and
	// without a Limit, then those of the requirements.
	Outputs []outcome.Output
	Method  pareto.Method
	// Design holds the initial design's points in unit coordinates,
	// row-major, suggested in order before any search.
	Design []float64
	// Search maximises the acquisition over the cube: search.NewLBFGS's or
	// NewMixedLBFGS's over Dim components, with its sweeps; nil with
	// Safety.
	Search *search.LBFGS
	// Region, when not nil, confines the search to a trust region (TuRBO's,
	// search.TrustRegion; see Optimizer.Observe for what it is told);
	// nil searches the whole cube. Up to 3 objectives, without Safety.
	Region *search.TrustRegion
	// Feasible reports whether a unit point meets the known constraints;
	// nil when there are none. It is called from several goroutines.
	Feasible func(u []float64) bool
	// Integer marks the components that take whole numbers, and Snap moves
	// those of a unit point onto them; both nil without any.
	Integer []bool
	Snap    func(u []float64)
	Seed    uint64
	// Safety, when not nil, keeps every evaluation certified safe for the
	// problem's unknown safety constraints with runtime/safe's Explorer,
	// SGP-UCB's (safe.SGPUCB): after its first phase, which explores from
	// the seeds, it plays the certified point where the acquisition's score
	// is largest (the score stands for the objective's posterior mean, its
	// sd 0). New sets its Pending and Seed and refuses a Design (the
	// explorer starts from its seeds) and a Search; Feasible, Integer and
	// Snap are not used (the decision set is the explorer's).
	Safety *safe.Config
}

// Errors of Suggest and Observe.
var (
	// ErrFull means the optimiser holds Capacity evaluated and pending points.
	ErrFull = errors.New("multi: the optimiser already holds its capacity of evaluated and pending points")
	// ErrPending means the point is pending already.
	ErrPending = errors.New("multi: the point is pending already")
)

// noScore stands, among the certified points, for a score that underflows
// (no improvement to expect): below every finite score, and larger where
// the objectives' posteriors are wider, so that the explorer then plays
// the least known point.
const noScore = -1e300

// Optimizer suggests points for several objectives and holds what was
// observed.
type Optimizer struct {
	cfg      Config
	dim, m   int
	models   *outcome.Models
	acquirer *pareto.Acquirer
	search   *search.LBFGS
	score    search.ValueGrad // the acquirer's score at snapped points, made once
	snapped  []float64        // one unit point per worker, for score
	observed []float64        // the values observed, Capacity × outputs
	pending  []float64        // the points being evaluated, Capacity × dim
	npending int
	vectors  []float64 // Front's scratch: Capacity × objectives
	at       []int     // Front's scratch: the evaluated point of each vector
	flags    []bool    // Front's scratch
	onFront  []bool    // Suggest's: which evaluated points are on the front
	// boxLo, boxHi and scales are the trust region's box and the
	// lengthscales that shape it; ref the reference point Observe's
	// hypervolume was measured from.
	boxLo, boxHi, scales, ref []float64
	lastHV                    float64 // the hypervolume after the last observation
	// explorer is Config.Safety's, scores the acquisition at its points
	// (objSD zeros), and choice its last; nil without safety constraints.
	explorer      *safe.Explorer
	scores, objSD []float64
	choice        safe.Choice
}

// New returns the optimiser of the problem cfg describes.
func New(cfg Config) (*Optimizer, error) {
	m, dim := len(cfg.Objectives), cfg.Dim
	switch {
	case dim < 1 || cfg.Capacity < 1:
		return nil, fmt.Errorf("multi: dimension %d, capacity %d", dim, cfg.Capacity)
	case len(cfg.Outputs) < m:
		return nil, fmt.Errorf("multi: %d objectives but %d outputs", m, len(cfg.Outputs))
	case len(cfg.Design)%dim != 0:
		return nil, fmt.Errorf("multi: a design of %d values is not made of %d-component points", len(cfg.Design), dim)
	case (cfg.Integer == nil) != (cfg.Snap == nil) || cfg.Integer != nil && len(cfg.Integer) != dim:
		return nil, errors.New("multi: Integer and Snap go together, Integer with a value per component")
	case (cfg.Search == nil) == (cfg.Safety == nil):
		return nil, errors.New("multi: a search maximises the acquisition, unless Safety's explorer chooses")
	case cfg.Region != nil && (cfg.Safety != nil || m > 3):
		return nil, errors.New("multi: a trust region is built for 2 or 3 objectives without safety constraints")
	}
	s, workers := cfg.Search, 1
	if s != nil {
		workers = s.Workers()
	}
	models, err := outcome.New(cfg.Outputs, dim, cfg.Capacity, workers, len(cfg.Design)/dim)
	if err != nil {
		return nil, err
	}
	maximize, thresholds := make([]bool, m), make([]float64, m)
	for j, obj := range cfg.Objectives {
		maximize[j], thresholds[j] = obj.Maximize, obj.Threshold
	}
	a, err := pareto.NewAcquirer(models, dim, cfg.Method, maximize, thresholds, cfg.Capacity, workers)
	if err != nil {
		return nil, err
	}
	o := &Optimizer{cfg: cfg, dim: dim, m: m, models: models, acquirer: a, search: s,
		snapped: make([]float64, workers*dim), observed: make([]float64, cfg.Capacity*len(cfg.Outputs)),
		pending: make([]float64, cfg.Capacity*dim), vectors: make([]float64, cfg.Capacity*m),
		at: make([]int, cfg.Capacity), flags: make([]bool, cfg.Capacity), onFront: make([]bool, cfg.Capacity),
		boxLo: make([]float64, dim), boxHi: make([]float64, dim), scales: make([]float64, dim), ref: make([]float64, m)}
	o.score = o.scoreAt
	if cfg.Safety != nil {
		if err := o.makeExplorer(); err != nil {
			return nil, err
		}
	}
	return o, nil
}

// makeExplorer makes Config.Safety's explorer, which never chooses a
// pending point.
func (o *Optimizer) makeExplorer() error {
	sc := *o.cfg.Safety
	switch {
	case sc.Method != safe.SGPUCB:
		return errors.New("multi: several objectives take SGP-UCB's safe exploration")
	case len(o.cfg.Design) > 0:
		return errors.New("multi: a safe exploration starts from its seeds, not from a design")
	}
	sc.Seed = o.cfg.Seed
	sc.Pending = func(i int) bool { return o.pendingIndex(o.explorer.Point(i)) >= 0 }
	e, err := safe.NewExplorer(sc)
	if err != nil {
		return err
	}
	n := e.Points()
	o.explorer, o.scores, o.objSD = e, make([]float64, n), make([]float64, n)
	return nil
}

// Explorer is the safe exploration of Config.Safety, nil without it: its
// contradictions, seeds and safe set are the optimiser's.
func (o *Optimizer) Explorer() *safe.Explorer { return o.explorer }

// Choice is the explorer's last choice, with its certificate.
func (o *Optimizer) Choice() safe.Choice { return o.choice }

// Len is the number of evaluated points.
func (o *Optimizer) Len() int { return o.models.Len() }

// Unit is evaluated point i in unit coordinates.
func (o *Optimizer) Unit(i int) []float64 { return o.models.Unit(i) }

// Observed is what was observed at evaluated point i: the objectives, then
// the requirements.
func (o *Optimizer) Observed(i int) []float64 {
	k := len(o.cfg.Outputs)
	return o.observed[i*k : (i+1)*k]
}

// Mean is the posterior mean of objective (or requirement) k at evaluated
// point i.
func (o *Optimizer) Mean(k, i int) float64 { return o.models.TrainMean(k, i) }

// Feasible reports whether evaluated point i meets the requirements with
// their confidence (always, without any).
func (o *Optimizer) Feasible(i int) bool { return o.models.Feasible(i) }

// Suggest writes the next point to evaluate to u (unit coordinates): the
// next point of the initial design, then the maximiser of the acquisition
// given the evaluated and pending points; when that maximiser is one of
// them (the acquisition is flat), the point farthest from them.
func (o *Optimizer) Suggest(u []float64) error {
	n := o.models.Len()
	next := n + o.npending
	switch {
	case len(u) != o.dim:
		return fmt.Errorf("multi: a point of %d components, want %d", len(u), o.dim)
	case next >= o.cfg.Capacity:
		return ErrFull
	case next < len(o.cfg.Design)/o.dim:
		copy(u, o.cfg.Design[next*o.dim:(next+1)*o.dim])
		return nil
	case o.explorer != nil:
		return o.suggestSafe(u, mix(o.cfg.Seed, uint64(next)))
	}
	// The search's seed follows from the points known, so that an
	// optimiser rebuilt from the same observations (a study replayed from
	// its journal) suggests the same.
	seed := mix(o.cfg.Seed, uint64(next))
	if err := o.acquirer.Prepare(o.pending[:o.npending*o.dim], seed); err != nil {
		return err
	}
	o.focus()
	// The front's points start refinements too, so that the search looks
	// beside them, where the front improves, as well as at the best of its
	// random candidates (the single objective's incumbent start).
	if o.Front(o.onFront[:n]) > 0 {
		for i, on := range o.onFront[:n] {
			if on {
				o.search.AddStart(o.models.Unit(i))
			}
		}
	}
	value, err := o.search.Maximize(o.score, o.cfg.Feasible, seed, u)
	if err != nil {
		return err // search.ErrNoFeasible: no point meets the known constraints
	}
	o.snap(u)
	if !math.IsInf(value, -1) && !o.known(u) {
		return nil
	}
	coord := func(i, j int) float64 {
		if i < n {
			return o.models.Unit(i)[j]
		}
		return o.pending[(i-n)*o.dim+j]
	}
	if err := search.Farthest(n+o.npending, o.dim, coord, o.cfg.Feasible, seed, u); err != nil {
		return err
	}
	o.snap(u)
	return nil
}

// suggestSafe writes to u the explorer's choice among the certified points,
// given the acquisition's score at each.
func (o *Optimizer) suggestSafe(u []float64, seed uint64) error {
	need, err := o.explorer.Prepare()
	if err != nil {
		return err
	}
	if need {
		if err := o.acquirer.Prepare(o.pending[:o.npending*o.dim], seed); err != nil {
			return err
		}
		for i, in := range o.explorer.Safe() {
			if in {
				o.scores[i] = o.scoreOf(o.explorer.Point(i))
			}
		}
	}
	c, err := o.explorer.Choose(o.scores, o.objSD)
	if err != nil {
		return err
	}
	o.choice = c
	copy(u, o.explorer.Point(c.Index))
	return nil
}

// scoreOf is the acquisition's score at the unit point u, or, where it
// underflows, noScore plus the objectives' posterior sds there.
func (o *Optimizer) scoreOf(u []float64) float64 {
	v := o.acquirer.Score(0, u, nil)
	if !math.IsInf(v, -1) {
		return v
	}
	v = noScore
	for j := range o.m {
		_, sd := o.models.Posterior(0, j, u)
		v += sd
	}
	return v
}

// SeeksFeasibility reports whether the last search looked for a point that
// meets the requirements, none of the evaluated points meeting them.
func (o *Optimizer) SeeksFeasibility() bool { return o.acquirer.SeeksFeasibility() }

// scoreAt is the acquirer's score at u with its integer components snapped
// (search.ValueGrad); the score is flat along them, so their gradient is 0.
func (o *Optimizer) scoreAt(worker int, u, grad []float64) float64 {
	if o.cfg.Snap == nil {
		return o.acquirer.Score(worker, u, grad)
	}
	at := o.snapped[worker*o.dim : (worker+1)*o.dim]
	copy(at, u)
	o.cfg.Snap(at)
	v := o.acquirer.Score(worker, at, grad)
	if grad != nil {
		for j, integer := range o.cfg.Integer {
			if integer {
				grad[j] = 0
			}
		}
	}
	return v
}

func (o *Optimizer) snap(u []float64) {
	if o.cfg.Snap != nil {
		o.cfg.Snap(u)
	}
}

// known reports whether u is an evaluated or a pending point.
func (o *Optimizer) known(u []float64) bool {
	for i := range o.models.Len() {
		if slices.Equal(o.models.Unit(i), u) {
			return true
		}
	}
	return o.pendingIndex(u) >= 0
}

func (o *Optimizer) pendingIndex(u []float64) int {
	for i := range o.npending {
		if slices.Equal(o.pending[i*o.dim:(i+1)*o.dim], u) {
			return i
		}
	}
	return -1
}

// Observe records the values measured at u, the objectives then the
// requirements, then with Config.Safety its constraints, and ends u's
// pending. A value that is not finite is an error, and nothing is recorded
// then. With Config.Region it then tells the region (tellRegion).
func (o *Optimizer) Observe(u, values []float64) error {
	n, k := o.models.Len(), len(o.cfg.Outputs)
	switch {
	case n >= o.cfg.Capacity:
		return ErrFull
	case o.explorer != nil && len(values) != k+len(o.cfg.Safety.Constraints):
		return fmt.Errorf("multi: %d values; want %d outputs and %d safety constraints", len(values), k, len(o.cfg.Safety.Constraints))
	case o.explorer == nil && len(values) != k:
		return fmt.Errorf("multi: %d values; want %d outputs", len(values), k)
	}
	if err := o.models.Observe(u, values[:k]); err != nil {
		return err
	}
	if o.explorer != nil {
		if err := o.explorer.Observe(u, values[k:]); err != nil {
			o.models.Truncate(n)
			return err
		}
	}
	copy(o.Observed(n), values[:k])
	o.Release(u)
	return o.tellRegion(n)
}

// focus narrows the search to the trust region's box around its centre,
// shaped by the objectives' lengthscales (a cube without them), or to the
// whole cube while the region has no centre; nothing without a region.
func (o *Optimizer) focus() {
	r := o.cfg.Region
	if r == nil {
		return
	}
	c := r.Centre()
	if c < 0 {
		o.search.SetBox(nil, nil, nil)
		return
	}
	centre, scales := o.models.Unit(c), o.scales
	if !o.models.Lengthscales(scales) {
		scales = nil
	}
	r.Box(centre, scales, o.boxLo, o.boxHi)
	o.search.SetBox(o.boxLo, o.boxHi, centre)
}

// tellRegion tells the trust region evaluated point n with the hypervolume
// the Pareto set dominates after it (from the reference point of the
// moment), so that a point which enlarges it by more than TuRBO's 10⁻³ is a
// success and becomes the region's centre. A region without a centre (at
// the start, and after it collapsed) waits for such a point: the first
// point told would be its centre, and one that enlarges nothing lies off
// the front, where every evaluation after it would fail.
func (o *Optimizer) tellRegion(n int) error {
	r := o.cfg.Region
	if r == nil {
		return nil
	}
	hv, err := o.Hypervolume(o.ref)
	if err != nil {
		return err
	}
	if r.Centre() >= 0 || search.Improves(hv, o.lastHV) {
		r.Tell(n, hv)
	}
	o.lastHV = hv
	return nil
}

// Pending records that u is being evaluated: the acquisition believes it
// at its posterior means until Observe or Release of u. A point pending
// already is an error.
func (o *Optimizer) Pending(u []float64) error {
	switch {
	case len(u) != o.dim:
		return fmt.Errorf("multi: a point of %d components, want %d", len(u), o.dim)
	case o.pendingIndex(u) >= 0:
		return ErrPending
	case o.models.Len()+o.npending >= o.cfg.Capacity:
		return ErrFull
	}
	copy(o.pending[o.npending*o.dim:], u)
	o.npending++
	return nil
}

// Release forgets the pending u without an observation, and reports
// whether it was pending.
func (o *Optimizer) Release(u []float64) bool {
	i := o.pendingIndex(u)
	if i < 0 {
		return false
	}
	copy(o.pending[i*o.dim:], o.pending[(i+1)*o.dim:o.npending*o.dim])
	o.npending--
	return true
}

// Front marks in keep, a value per evaluated point, the Pareto set: the
// points that meet the requirements with their confidence and whose
// objectives' posterior means no other such point's dominate (the first of
// equal ones). It returns their number.
func (o *Optimizer) Front(keep []bool) int {
	count := 0
	for i := range o.models.Len() {
		keep[i] = false
		if !o.models.Feasible(i) {
			continue
		}
		for j, obj := range o.cfg.Objectives {
			v := o.models.TrainMean(j, i)
			if !obj.Maximize {
				v = -v
			}
			o.vectors[count*o.m+j] = v
		}
		o.at[count] = i
		count++
	}
	front := pareto.NonDominated(o.vectors[:count*o.m], o.m, o.flags)
	for c := range count {
		keep[o.at[c]] = o.flags[c]
	}
	return front
}

// Hypervolume returns the hypervolume the Pareto set's posterior means
// dominate above the reference point, which it writes to ref (a value per
// objective): the thresholds, and where none is given the front's worst
// value less a tenth of its range (runtime/pareto's Acquirer).
func (o *Optimizer) Hypervolume(ref []float64) (float64, error) {
	if err := o.acquirer.Prepare(nil, 0); err != nil {
		return math.NaN(), err
	}
	o.acquirer.Reference(ref)
	return o.acquirer.Hypervolume(), nil
}

// mix derives the seed of a search from the optimiser's and the number of
// points known (SplitMix64).
func mix(seed, known uint64) uint64 {
	z := seed + known*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
