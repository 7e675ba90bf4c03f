package safe

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
)

// Method is the rule that chooses among the certified safe points.
type Method int

const (
	// SGPUCB is Amani et al.'s SGP-UCB: a first phase on the seed points,
	// then the maximiser of the objective's upper bound over the safe set.
	SGPUCB Method = iota
	// SafeOpt (Sui et al. 2015) plays the widest interval among the
	// possible maximisers and the expanders of the safe set; with an
	// Accuracy, the safe maximiser of the objective's lower bound once they
	// are all that narrow (the SGP-UCB paper's SafeOpt-MC after t*).
	SafeOpt
	// StageOpt (Sui et al. 2018) first expands the safe set (the widest
	// constraint interval among the expanders) until it stops growing, then
	// plays the objective's upper bound over it.
	StageOpt
	// Oracle is GP-UCB over the true safe set, given as the seeds: a
	// study's reference that no real run can be.
	Oracle
	// Unsafe is GP-UCB over every point, ignoring the constraints: a
	// study's measure of what safety costs. Its choices carry no
	// certificate (phase 0).
	Unsafe
)

// FirstPhase is how SGP-UCB's first phase chooses among the seed points.
type FirstPhase int

const (
	// RandomSeeds plays the seeds uniformly at random (the paper's §4).
	RandomSeeds FirstPhase = iota
	// UncertainSeeds plays the seed where the constraints are least certain
	// (the paper's App. G).
	UncertainSeeds
	// NoFirstPhase plays each seed once and starts the second phase: the
	// paper's "naive" SGP-UCB.
	NoFirstPhase
)

// Config describes a safe exploration of a finite set of points.
type Config struct {
	Dim int
	// Points is the decision set in unit coordinates, row-major, Dim values
	// per point; Seeds are the indices of the known-safe ones.
	Points      []float64
	Seeds       []int
	Constraints []Constraint
	// Capacity is the most observations the explorer holds.
	Capacity   int
	Method     Method
	FirstPhase FirstPhase
	// Window and Cap end a first phase (Plateau); Cap 0 is a quarter of
	// the capacity, at most DefaultCap, so that a first phase cannot spend
	// the budget on the seeds.
	Window, Cap int
	// Delta is Theorem 1's failure probability; Beta, when positive,
	// replaces its β_t by a constant (the guarantee is then void).
	Delta, Beta float64
	// Accuracy is SafeOpt's ε (Sui et al.'s Theorem 1): while every
	// possible maximiser and expander has intervals no wider than ε (in the
	// units of each function), SafeOpt plays the safe maximiser of the
	// objective's lower bound, its recommendation, instead of exploring.
	// 0 explores to the end.
	Accuracy float64
	// Lipschitz, one per constraint, makes SafeOpt's and StageOpt's
	// expanders Lipschitz ones (distances in unit coordinates, constants in
	// the units of the constraint); nil uses the GP-optimistic rule.
	Lipschitz []float64
	// Land writes the Draws landing points of a query aimed at the unit
	// point u to out (Draws×Dim values, unit coordinates): where the input
	// noise may carry it, the same base draws at every aim. It must be
	// deterministic. A constraint whose Landing is not AtAim needs it.
	Land  func(u, out []float64)
	Draws int
	// Pool, when positive, makes the decision set a pool of that many
	// points grown by certified local search (pool.go), starting from Points;
	// only SGP-UCB at the aim grows one. Admit, when not nil, reports
	// whether a proposed unit point may be played, and may move it to the
	// nearest one that can (a domain's integer components, say).
	Pool  int
	Admit func(u []float64) bool
	// Pending, when not nil, reports whether decision point i is being
	// evaluated, which Choose then never returns. Pending points only
	// steer the choice: they change no model, interval or certificate.
	Pending func(i int) bool
	// Feasibility, when not nil, is the probability that decision point i
	// meets the problem's outcome constraints (require), which only the
	// recommendation must meet. The objective's choices then look only at
	// the certified points where it exceeds one half or, while there is
	// none, at the one where it is largest: SGP-UCB's and StageOpt's
	// maximiser of the upper bound, SafeOpt's possible maximisers and its
	// maximiser of the lower bound. The first phase and the expanders learn
	// the safety constraints and ignore it.
	Feasibility func(i int) float64
	// Seed seeds the first phase's random choices.
	Seed uint64
}

// Choice is a point the explorer chooses, with its safety certificate.
type Choice struct {
	Index int  // into the decision set
	Phase int  // 1 while exploring from the seeds (or expanding), 2 after
	Seed  bool // a seed point: safe by the user's declaration
	// Beta is the β in force: intervals are μ ± √β σ.
	Beta float64
	// Bounds are the certified bounds of every constraint at the point, in
	// its units: a lower bound of a ≥ constraint, an upper bound of a ≤
	// one. A point that is not a seed clears every limit.
	Bounds []float64
	// SafeSize is the number of certified safe points.
	SafeSize int
	// Contradictions counts the measurements so far that contradicted the
	// constraints' model (Explorer.Contradictions).
	Contradictions int
}

// ErrNoSafePoint reports that no safe point is left to play: the method
// found none worth evaluating (SafeOpt when its sets are empty).
var ErrNoSafePoint = errors.New("safe: no safe point to evaluate")

// Explorer chooses points of a finite decision set that are certified safe
// for every unknown constraint. Each round calls Prepare, then, when it asks
// for them, gives the objective's posterior at the safe points to Choose;
// Observe records the constraints' measured values. Prepare, Choose and
// Observe allocate nothing; a first phase's refits allocate in the fitter
// only when they learn. It is not safe for concurrent use.
type Explorer struct {
	cfg     Config
	n       int       // decision points (a pool's slots)
	points  []float64 // their unit coordinates, row-major
	pool    *pool     // nil for a fixed decision set
	last    int       // the last choice, −1 before any
	models  []*model
	cons    []*Intervals // of z: the limit is 0
	zero    []float64
	f       *Intervals   // the objective's, for SafeOpt and StageOpt
	all     []*Intervals // cons, then f
	set     *Set
	plateau Plateau
	rng     *rand.Rand

	units    []float64 // observed points, unit coordinates
	atSeed   []bool    // whether observation i is at a seed point
	obsPoint []int     // the decision point of observation i, −1 when none
	obs      int

	// The evidence (evidence.go): the contradictions so far, and the
	// constraints whose models a contradiction made suspect.
	events         []Contradiction
	contradictions int
	suspect        []bool
	measured       []int     // the decision points measured, in order
	coneLo, coneHi []float64 // scratch: their readings' intervals (cone.go)
	ballRadii      []float64 // the balls excluded around points measured unsafe
	ballCentres    []float64 // their centres, Dim values each

	frozen   bool // the hyperparameters and s are fixed: phase 2, or StageOpt's stage 1
	phase    int
	prepared int // obs at the last Prepare; -1 before any
	pending  []int
	beta     float64

	mean, sd []float64 // one constraint's posterior at the points
	todo     []int     // the points whose intervals a round updates
	kstar    []float64 // a block of kernel vectors
	kself    []float64
	// blockMean and blockVar receive a block's posterior.
	blockMean, blockVar []float64
	marks               []bool
	eligible            *Set // the points the objective's choices look at: set, or those Config.Feasibility admits
	score               []float64
	bounds              []float64
	post                []Posterior // GP-optimistic expanders' posteriors
	v                   []float64   // L⁻¹k of every point, for the covariances

	landPoints []float64    // the decision points' landing points (Config.Land)
	landIv     []*Intervals // ByChance constraints' intervals at them; nil for the others
	order      []float64    // scratch: one point's landing bounds
	hopeful    []int        // scratch: the points a ByChance constraint may certify
	betaCount  int          // the points Theorem 1's union bound covers
}

// rower is a kernel that fills a whole kernel vector at once
// (kernel.Stationary).
type rower interface {
	Row(a, points, out []float64)
}

// predictBlock is the number of points predicted at once.
const predictBlock = 48

// NewExplorer checks cfg and allocates an explorer's memory.
func NewExplorer(cfg Config) (*Explorer, error) {
	if cfg.Dim < 1 || len(cfg.Points)%cfg.Dim != 0 || len(cfg.Points) == 0 {
		return nil, fmt.Errorf("safe: %d point values for dimension %d", len(cfg.Points), cfg.Dim)
	}
	n, points := len(cfg.Points)/cfg.Dim, cfg.Points
	var grown *pool
	if cfg.Pool > 0 {
		var err error
		if grown, points, err = newPool(cfg, points); err != nil {
			return nil, err
		}
		n = cfg.Pool
	}
	switch {
	case len(cfg.Seeds) == 0 && cfg.Method != Unsafe:
		return nil, errors.New("safe: no seed point: safe exploration starts from known-safe points")
	case len(cfg.Constraints) == 0:
		return nil, errors.New("safe: no constraint")
	case cfg.Capacity < 1:
		return nil, fmt.Errorf("safe: capacity %d", cfg.Capacity)
	case cfg.Lipschitz != nil && len(cfg.Lipschitz) != len(cfg.Constraints):
		return nil, fmt.Errorf("safe: %d Lipschitz constants for %d constraints", len(cfg.Lipschitz), len(cfg.Constraints))
	case !(cfg.Delta > 0 && cfg.Delta < 1) || cfg.Beta < 0:
		return nil, fmt.Errorf("safe: δ = %v, β = %v", cfg.Delta, cfg.Beta)
	}
	for _, s := range cfg.Seeds {
		if given := len(cfg.Points) / cfg.Dim; s < 0 || s >= given {
			return nil, fmt.Errorf("safe: seed index %d outside the %d points", s, given)
		}
	}
	if err := checkLanding(cfg); err != nil {
		return nil, err
	}
	e := &Explorer{cfg: cfg, n: n, points: points, pool: grown, last: -1, zero: make([]float64, len(cfg.Constraints)),
		set: NewSet(n, cfg.Seeds), plateau: Plateau{Window: max(cfg.Window, 1), Cap: firstPhaseCap(cfg)},
		rng:   rand.New(rand.NewPCG(cfg.Seed, 0x5afe)),
		units: make([]float64, cfg.Capacity*cfg.Dim), atSeed: make([]bool, 0, cfg.Capacity),
		obsPoint: make([]int, 0, cfg.Capacity), suspect: make([]bool, len(cfg.Constraints)),
		events:   make([]Contradiction, 0, cfg.Capacity*(len(cfg.Constraints)+1)),
		measured: make([]int, 0, cfg.Capacity), coneLo: make([]float64, cfg.Capacity), coneHi: make([]float64, cfg.Capacity),
		ballRadii: make([]float64, 0, cfg.Capacity), ballCentres: make([]float64, cfg.Capacity*cfg.Dim),
		prepared: -1, pending: make([]int, 0, len(cfg.Seeds)),
		mean: make([]float64, n), sd: make([]float64, n),
		todo:  make([]int, 0, n),
		kstar: make([]float64, predictBlock*cfg.Capacity), kself: make([]float64, predictBlock),
		blockMean: make([]float64, predictBlock), blockVar: make([]float64, predictBlock),
		marks: make([]bool, n), score: make([]float64, n), bounds: make([]float64, len(cfg.Constraints)),
		f: NewIntervals(n), phase: 1}
	e.eligible = e.set // every certified point, unless outcome constraints narrow them
	if cfg.Feasibility != nil {
		e.eligible = &Set{In: make([]bool, n)}
	}
	for _, c := range cfg.Constraints {
		m, err := newModel(c, cfg.Capacity, e.unit)
		if err != nil {
			return nil, fmt.Errorf("safe: %w", err)
		}
		m.evidence = newPointData(n)
		e.models = append(e.models, m)
		e.cons = append(e.cons, NewIntervals(n))
	}
	e.prepareLanding()
	e.all = append(append(make([]*Intervals, 0, len(e.cons)+1), e.cons...), e.f)
	if grown != nil {
		e.fillCloud()
		e.betaCount = n + cfg.Capacity*poolProposals
	}
	switch cfg.Method {
	case Oracle:
		e.frozen, e.phase = true, 2
	case Unsafe:
		for i := range e.set.In {
			e.set.In[i] = true
		}
		e.set.count = n
		e.frozen, e.phase = true, 0
	}
	if _, all := e.lipschitzZ(); (cfg.Method == SafeOpt || cfg.Method == StageOpt) && !all {
		e.post = make([]Posterior, len(cfg.Constraints))
		for k := range e.post {
			e.post[k] = Posterior{Mean: make([]float64, n), Cov: make([]float64, n*n)}
		}
		e.v = make([]float64, n*cfg.Capacity)
	}
	return e, nil
}

// DefaultCap is the most rounds a first phase lasts by default: the SGP-UCB
// paper's cap.
const DefaultCap = 100

// firstPhaseCap is the most rounds of cfg's first phase.
func firstPhaseCap(cfg Config) int {
	if cfg.Cap > 0 {
		return cfg.Cap
	}
	return max(1, min(DefaultCap, cfg.Capacity/4))
}

// unit is observation i in unit coordinates.
func (e *Explorer) unit(i int) []float64 { return e.units[i*e.cfg.Dim : (i+1)*e.cfg.Dim] }

// point is decision point i in unit coordinates.
func (e *Explorer) point(i int) []float64 {
	return e.points[i*e.cfg.Dim : (i+1)*e.cfg.Dim]
}

// Len is the number of observations.
func (e *Explorer) Len() int { return e.obs }

// Safe marks the certified safe points (seeds included), as of the last
// Prepare.
func (e *Explorer) Safe() []bool { return e.set.In }

// Observe records the constraints' measured values g (one per constraint,
// in their units) at u, a point in unit coordinates.
func (e *Explorer) Observe(u []float64, g []float64) error {
	if len(g) != len(e.models) || len(u) != e.cfg.Dim {
		return fmt.Errorf("safe: %d constraint values at a point of %d components", len(g), len(u))
	}
	if e.obs == e.cfg.Capacity {
		return fmt.Errorf("safe: capacity %d exhausted", e.cfg.Capacity)
	}
	for k, v := range g {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("constraint %s: the measured value %v is not a finite number", e.models[k].Name, v)
		}
	}
	i := e.obs
	copy(e.unit(i), u)
	seed := false
	for _, s := range e.cfg.Seeds {
		if equal(e.point(s), u) {
			seed = true
			break
		}
	}
	e.atSeed = append(e.atSeed, seed)
	decision := e.indexOf(e.unit(i))
	for _, m := range e.models {
		if m.land != nil {
			m.land.observe(e.unit(i), decision, e.cfg.Land)
		}
	}
	for k, m := range e.models {
		m.values = append(m.values, g[k])
		if e.frozen {
			if err := m.add(i); err != nil {
				for _, done := range e.models {
					if done.land != nil {
						done.land.truncate(i)
					}
				}
				m.values = m.values[:i]
				for _, done := range e.models[:k] {
					done.values = done.values[:i]
					done.gp.Truncate(i)
				}
				e.atSeed = e.atSeed[:i]
				return err
			}
		}
	}
	e.obsPoint = append(e.obsPoint, decision)
	e.obs++
	if e.weighs() {
		e.weigh(i)
	}
	return nil
}

func equal(a, b []float64) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Prepare brings the models, the confidence intervals and the safe set up
// to date with the observations, and reports whether Choose needs the
// objective's posterior (at the points Safe marks).
func (e *Explorer) Prepare() (needObjective bool, err error) {
	if e.prepared != e.obs {
		if err := e.advance(); err != nil {
			return false, err
		}
		e.prepared = e.obs
	}
	return e.phase != 1 || e.cfg.Method == SafeOpt, nil
}

// advance runs one round's updates.
func (e *Explorer) advance() error {
	t := e.obs + 1
	e.beta = e.cfg.Beta
	if e.beta == 0 {
		e.beta = Beta(e.betaCount, t, e.cfg.Delta)
	}
	if e.cfg.Method == Oracle || e.cfg.Method == Unsafe {
		return nil // the set is given: the constraints' models are not consulted
	}
	if !e.frozen {
		if e.obs == 0 {
			return nil
		}
		if !e.firstPhaseOver() {
			// A refit, or a noise the replicates refuted, changes the
			// model: judge the plateau on the new model's intervals, which
			// no guarantee depends on yet (only seeds are played).
			if err := e.refitPhase1(false); err != nil {
				return err
			}
			e.updateConstraints()
			if e.cfg.FirstPhase == NoFirstPhase || e.cfg.Method != SGPUCB || !e.plateau.Done(e.set.Len()) {
				return nil
			}
		}
		if err := e.refitPhase1(true); err != nil {
			return err
		}
		e.frozen = true
		if e.cfg.Method != StageOpt {
			e.phase = 2
		}
		e.plateau = Plateau{Window: e.plateau.Window, Cap: e.plateau.Cap}
	}
	corrected, err := e.correctSuspects()
	if err != nil {
		return err
	}
	if widened, err := e.widenReach(); err != nil {
		return err
	} else if widened {
		corrected = true
	}
	if e.pool != nil {
		if corrected {
			e.updateConstraints() // before proposals may take the slots of the points it recertifies
		}
		e.propose(e.last)
	}
	e.updateConstraints()
	if e.cfg.Method == StageOpt && e.phase == 1 && e.plateau.Done(e.set.Len()) {
		e.phase = 2
	}
	return nil
}

// firstPhaseOver reports whether the seeds-only part of the run is over:
// for the methods without a first phase, once every seed was observed.
func (e *Explorer) firstPhaseOver() bool {
	if e.cfg.Method == SGPUCB && e.cfg.FirstPhase != NoFirstPhase {
		return false
	}
	return e.unobservedSeeds() == 0
}

// unobservedSeeds fills pending with the seeds not observed yet, in order.
func (e *Explorer) unobservedSeeds() int {
	e.pending = e.pending[:0]
	for _, s := range e.cfg.Seeds {
		seen := false
		for i := range e.obs {
			if equal(e.unit(i), e.point(s)) {
				seen = true
				break
			}
		}
		if !seen {
			e.pending = append(e.pending, s)
		}
	}
	return len(e.pending)
}

// refitPhase1 refits the models to the seeds' readings (force: see
// model.refit) and, when a model changed or the evidence refuted its noise,
// restarts the intervals and the safe set under the new models. Between
// such changes the intervals are intersected under one model, so the safe
// set does not shrink.
func (e *Explorer) refitPhase1(force bool) error {
	changed := false
	for k, m := range e.models {
		refitted, err := m.refit(e.atSeed, force)
		if err != nil {
			return err
		}
		changed = changed || refitted || e.suspect[k]
		e.suspect[k] = false
	}
	if changed {
		e.restart()
	}
	return nil
}

// restart forgets the intervals and the certified points.
func (e *Explorer) restart() {
	for _, c := range e.cons {
		c.forget()
	}
	for _, c := range e.landIv {
		if c != nil {
			c.forget()
		}
	}
	e.f.forget()
	e.set.Reset(e.cfg.Seeds)
}

// updateConstraints intersects every constraint's intervals with its
// posterior and adds the newly certified points to the safe set. Once the
// models are frozen, SGP-UCB needs no interval of a certified point (it
// stays certified), so only the others are predicted: the safe set's growth
// makes rounds cheaper.
func (e *Explorer) updateConstraints() {
	e.todo = e.todo[:0]
	skip := e.frozen && e.cfg.Method == SGPUCB
	for i, in := range e.set.In[:e.Points()] {
		if !skip || !in {
			e.todo = append(e.todo, i)
		}
	}
	for k, m := range e.models {
		switch {
		case m.Lipschitz > 0:
			e.updateCone(k, m)
			continue
		case m.Landing == ByChance:
			e.updateChance(k, m)
			continue
		}
		e.predict(k, m)
		root := math.Sqrt(e.beta)
		for _, i := range e.todo {
			e.cons[k].update(i, e.mean[i], e.sd[i], root)
		}
	}
	e.set.Update(e.cons, e.zero)
}

// predict writes constraint k's posterior mean and sd at the points of
// e.todo to e.mean and e.sd, and to e.post[k] (with the covariances) when
// the GP-optimistic expanders need it (e.todo then holds every point).
func (e *Explorer) predict(k int, m *model) {
	n := m.gp.Len()
	for start := 0; start < len(e.todo); start += predictBlock {
		count := min(predictBlock, len(e.todo)-start)
		for j, at := range e.todo[start : start+count] {
			p := e.point(at)
			row := e.kstar[j*n : (j+1)*n]
			if m.land != nil {
				e.kself[j] = m.land.meanTarget(at, n, row)
				continue
			}
			if m.rower != nil {
				m.rower.Row(p, e.units[:n*e.cfg.Dim], row)
			} else {
				for i := range n {
					row[i] = m.Kernel.Eval(p, e.unit(i))
				}
			}
			e.kself[j] = m.Kernel.Eval(p, p)
		}
		m.gp.PredictBatch(e.kstar[:count*n], count, e.kself[:count], e.blockMean[:count], e.blockVar[:count])
		for j, at := range e.todo[start : start+count] {
			e.mean[at], e.sd[at] = e.blockMean[j], math.Sqrt(e.blockVar[j])
		}
		if e.post != nil {
			copy(e.v[start*n:(start+count)*n], e.kstar[:count*n])
		}
	}
	if e.post == nil {
		return
	}
	p := &e.post[k]
	copy(p.Mean, e.mean)
	p.NoiseVar = m.noiseZ()
	for i := range e.n {
		vi := e.v[i*n : (i+1)*n]
		for j := range i + 1 {
			c := m.Kernel.Eval(e.point(i), e.point(j)) - dot(vi, e.v[j*n:(j+1)*n])
			p.Cov[i*e.n+j], p.Cov[j*e.n+i] = c, c
		}
	}
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// Choose returns the next point given the objective's posterior mean and
// sd at every point Safe marks (larger is better), when Prepare asked for
// them; the other entries are not read.
func (e *Explorer) Choose(objMean, objSD []float64) (Choice, error) {
	if e.prepared != e.obs {
		return Choice{}, errors.New("safe: Choose without Prepare")
	}
	i, err := e.choose(objMean, objSD)
	if err != nil {
		return Choice{}, err
	}
	if !e.set.In[i] {
		return Choice{}, fmt.Errorf("safe: internal error: point %d is not certified safe", i)
	}
	e.last = i
	c := Choice{Index: i, Phase: e.phase, Beta: e.beta, Bounds: e.bounds, SafeSize: e.set.Len(), Contradictions: e.contradictions}
	c.Seed = e.isSeed(i)
	for k, m := range e.models {
		e.bounds[k] = math.NaN()
		if e.frozen {
			e.bounds[k] = m.bound(e.cons[k].Lo[i])
		}
	}
	return c, nil
}

func (e *Explorer) choose(objMean, objSD []float64) (int, error) {
	if !e.frozen {
		if e.cfg.Method != SGPUCB || e.cfg.FirstPhase == NoFirstPhase || e.obs == 0 && e.cfg.FirstPhase == UncertainSeeds {
			e.unobservedSeeds()
			for _, s := range e.pending {
				if e.playable(s) {
					return s, nil
				}
			}
		}
		if e.cfg.FirstPhase == RandomSeeds {
			return e.randomSeed()
		}
		return e.uncertainSeed()
	}
	root := math.Sqrt(e.beta)
	e.markEligible()
	switch {
	case e.cfg.Method == SafeOpt:
		e.updateObjective(objMean, objSD)
		Maximizers(e.f, e.eligible, e.marks)
		e.addExpanders()
		e.unmarkPending()
		i := Widest(e.marks, e.all)
		if i < 0 {
			return 0, e.noSafePoint()
		}
		if e.cfg.Accuracy > 0 && e.widthAt(i) <= e.cfg.Accuracy {
			return e.lowerBoundMaximiser(), nil
		}
		return i, nil
	case e.phase == 1: // StageOpt's expansion
		e.addExpandersOnly()
		e.unmarkPending()
		if i := Widest(e.marks, e.cons); i >= 0 {
			return i, nil
		}
		e.phase = 2
	}
	best := -1
	for i, in := range e.eligible.In {
		if in && e.playable(i) {
			e.score[i] = objMean[i] + root*objSD[i]
			if best < 0 || e.score[i] > e.score[best] {
				best = i // Argmax's rule: the first on ties
			}
		}
	}
	if best < 0 {
		return 0, e.noSafePoint()
	}
	return best, nil
}

// widthAt is the widest interval of any function at point i.
func (e *Explorer) widthAt(i int) float64 {
	w := math.Inf(-1)
	for _, f := range e.all {
		w = max(w, f.Width(i))
	}
	return w
}

// markEligible marks the points the objective's choices look at: every
// certified point, or with Config.Feasibility the playable ones where the
// outcome constraints are more likely met than not, or, with none, the
// playable one where they are most likely met.
func (e *Explorer) markEligible() {
	if e.cfg.Feasibility == nil {
		return // eligible is the set itself
	}
	likeliest, top, likely := -1, math.Inf(-1), false
	for i, in := range e.set.In {
		e.eligible.In[i] = false
		if !in || !e.playable(i) {
			continue
		}
		p := e.cfg.Feasibility(i)
		if p > 0.5 {
			e.eligible.In[i], likely = true, true
		}
		if p > top {
			likeliest, top = i, p
		}
	}
	if !likely && likeliest >= 0 {
		e.eligible.In[likeliest] = true
	}
}

// lowerBoundMaximiser is the playable eligible point with the largest lower
// bound of the objective (SafeOpt's recommendation x̂_t), the first on ties.
// Widest found a playable safe point, so there is one.
func (e *Explorer) lowerBoundMaximiser() int {
	best := -1
	for i, in := range e.eligible.In {
		if in && e.playable(i) && (best < 0 || e.f.Lo[i] > e.f.Lo[best]) {
			best = i
		}
	}
	return best
}

// noSafePoint is ErrNoSafePoint, saying why when the evidence excluded
// every seed.
func (e *Explorer) noSafePoint() error {
	for _, s := range e.cfg.Seeds {
		if !e.set.Excluded(s) {
			return ErrNoSafePoint
		}
	}
	return fmt.Errorf("%w: every seed was measured unsafe, against its declaration", ErrNoSafePoint)
}

// playable reports whether decision point i may be chosen: it was not
// measured unsafe, and is not pending (Config.Pending).
func (e *Explorer) playable(i int) bool {
	return !e.set.Excluded(i) && (e.cfg.Pending == nil || !e.cfg.Pending(i))
}

// unmarkPending clears the marks of the pending points.
func (e *Explorer) unmarkPending() {
	for i, m := range e.marks {
		e.marks[i] = m && e.playable(i)
	}
}

// randomSeed is a seed drawn uniformly among those not pending; with none
// pending, one draw from all seeds.
func (e *Explorer) randomSeed() (int, error) {
	count := 0
	for _, s := range e.cfg.Seeds {
		if e.playable(s) {
			count++
		}
	}
	if count == 0 {
		return 0, e.noSafePoint()
	}
	k := e.rng.IntN(count)
	for _, s := range e.cfg.Seeds {
		if e.playable(s) {
			if k == 0 {
				return s, nil
			}
			k--
		}
	}
	panic("unreachable")
}

// uncertainSeed is the seed with the widest constraint interval, the first
// on ties, among those not pending.
func (e *Explorer) uncertainSeed() (int, error) {
	clear(e.marks)
	first := -1
	for _, s := range e.cfg.Seeds {
		if e.playable(s) {
			e.marks[s] = true
			if first < 0 {
				first = s
			}
		}
	}
	if i := Widest(e.marks, e.cons); i >= 0 {
		return i, nil
	}
	if first < 0 {
		return 0, e.noSafePoint()
	}
	return first, nil
}

// updateObjective intersects the objective's intervals at the safe points.
func (e *Explorer) updateObjective(mean, sd []float64) {
	root := math.Sqrt(e.beta)
	for i, in := range e.set.In {
		if !in {
			continue
		}
		lo, hi := mean[i]-root*sd[i], mean[i]+root*sd[i]
		if lo > e.f.Hi[i] || hi < e.f.Lo[i] {
			e.f.Conflicts++
			continue
		}
		e.f.Lo[i], e.f.Hi[i] = max(e.f.Lo[i], lo), min(e.f.Hi[i], hi)
	}
}

// addExpanders adds the expanders to the marks.
func (e *Explorer) addExpanders() {
	marked := e.score // scratch: the maximisers' marks while expanders are found
	for i, m := range e.marks {
		marked[i] = 0
		if m {
			marked[i] = 1
		}
	}
	e.addExpandersOnly()
	for i := range e.marks {
		e.marks[i] = e.marks[i] || marked[i] == 1
	}
}

// addExpandersOnly sets the marks to the expanders.
func (e *Explorer) addExpandersOnly() {
	if l, all := e.lipschitzZ(); all {
		Expanders(e.cons, e.zero, l, e.distance, e.set, e.marks)
	} else {
		ExpandersGP(e.cons, e.post, e.zero, l, e.distance, e.beta, e.set, e.marks)
	}
}

// lipschitzZ returns the constraints' Lipschitz constants for expanders, in
// z units: a constraint certified by its own (cone.go) takes that, as the
// evidence raised it; the others the acquisition's, or 0 for the
// GP-optimistic rule. all reports whether every constraint has one.
func (e *Explorer) lipschitzZ() (l []float64, all bool) {
	l, all = e.bounds, true // scratch until Choose writes the bounds
	for k, m := range e.models {
		switch {
		case m.Lipschitz > 0:
			l[k] = m.Lipschitz * m.steeper / m.scale
		case e.cfg.Lipschitz != nil:
			l[k] = e.cfg.Lipschitz[k] / m.scale
		default:
			l[k], all = 0, false
		}
	}
	return l, all
}

func (e *Explorer) distance(i, j int) float64 { return math.Sqrt(sqDist(e.point(i), e.point(j))) }

// sqDist is ‖a − b‖² for points of the same dimension.
func sqDist(a, b []float64) float64 {
	s := 0.0
	for c, v := range a {
		s += (v - b[c]) * (v - b[c])
	}
	return s
}
