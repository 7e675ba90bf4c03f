package safe

import (
	"fmt"
	"math"

	"github.com/bocdev/boc/runtime/gp"
)

// Evidence wins over certificates. A certificate is the model's claim; a
// measurement is a fact about the system, and when the two disagree the
// model is wrong (its kernel, lengthscale or noise), whatever its prior
// promised. The explorer weighs every measurement as it is observed:
//
//   - A decision point whose readings of some constraint lie below its
//     limit by more than the noise allows, z̄ + κ·σ/√m < 0 (κ =
//     evidenceSDs, m readings of mean z̄, σ the noise sd, all in the units
//     of the signed distance z), is measured unsafe: it leaves the safe set
//     for good (Set.Exclude) and is never played again, a seed included
//     (its declaration is contradicted). So do, when a constraint certified
//     by its Gaussian process was broken, the decision points closer to it
//     than the nearest other evaluated point not measured unsafe: the limit
//     is crossed somewhere between the two, and a smooth model that
//     certified the far one cannot say where. (A constraint certified by a
//     Lipschitz bound, cone.go, raises the bound instead.) A point that is
//     not a seed and whose readings are past the limit on average, even
//     within the noise, is not played again either: its own readings
//     outweigh the model's certificate. (Not a seed: its declaration
//     outweighs readings within the noise.)
//   - A point of a chance constraint (ByChance) whose readings fall clearly
//     past the limit (by more than breachSDs noise sds) more often than its
//     α allows is measured unsafe too: under the chance rule a reading does
//     so with probability at most α + Φ(−breachSDs), and a binomial test at
//     level chanceTestLevel refutes it. Its mean may well keep the limit.
//   - A certified point whose readings' interval z̄ ± κσ/√m misses its
//     certified interval contradicts the model too.
//   - Replicates that scatter about their points' means beyond the noise
//     (a χ² test at level noiseTestLevel over the within-point sum of
//     squares) show the noise is understated: the noise variance is
//     inflated to the replicates' pooled variance and the intervals widen.
//     (Not for a constraint judged where the queries land: its readings
//     scatter with the landing as well, which its model already holds.)
//
// Every contradiction is recorded (Contradictions) as a sign that the model
// is misspecified. Once the models are frozen, a contradiction corrects the
// constraint's model at the next Prepare: its noise is the inflated one, its
// lengthscales halve until the model agrees with the evidence (correct), and
// its intervals and the safe set are rebuilt from the seeds under the
// corrected model. That is the one moment the safe set can shrink after the
// first phase: points certified only by the refuted model lose their
// certificates.
const (
	// evidenceSDs is κ: how many noise sds the mean of a point's readings
	// must fall below its limit to count as measured unsafe (a safe point
	// at the limit reads so low with probability 0.13% per test).
	evidenceSDs = 3
	// noiseTestLevel is the upper χ² quantile the replicates' scatter
	// must exceed to refute the noise variance: tested after every
	// reading, a true noise is refuted rarely, and one understated by half
	// its sd soon.
	noiseTestLevel = 0.9999
	// breachSDs is how many noise sds a reading of a chance constraint
	// must fall past its limit to count as a landing that broke it.
	breachSDs = 2
	// chanceTestLevel is the binomial tail below which a point's breaches
	// refute its chance rule.
	chanceTestLevel = 1e-2
	// maxShrinks caps how often a constraint's lengthscales halve: 1/64
	// of the declared or learned ones, where only measured points are
	// still certified.
	maxShrinks = 6
)

// ContradictionKind says what a measurement contradicted.
type ContradictionKind int

const (
	// MeasuredUnsafe: a point certified by the model measured unsafe.
	MeasuredUnsafe ContradictionKind = iota
	// SeedUnsafe: a seed, declared safe, measured unsafe.
	SeedUnsafe
	// Disagrees: a certified point's readings lie outside its certified
	// interval, on either side.
	Disagrees
	// NoisierThanDeclared: replicates scatter beyond the noise.
	NoisierThanDeclared
	// BreaksChance: a point's readings broke a chance constraint more
	// often than its α allows, a seed's included.
	BreaksChance
)

var contradictionNames = [...]string{MeasuredUnsafe: "measured unsafe", SeedUnsafe: "seed measured unsafe",
	Disagrees: "readings outside the certified interval", NoisierThanDeclared: "noisier than declared",
	BreaksChance: "breaks its chance constraint"}

func (k ContradictionKind) String() string {
	if k >= 0 && int(k) < len(contradictionNames) {
		return contradictionNames[k]
	}
	return fmt.Sprintf("ContradictionKind(%d)", int(k))
}

// Contradiction is a measurement that contradicted the constraints' model.
type Contradiction struct {
	Observation int // the observation that revealed it, from 0
	Constraint  int
	Kind        ContradictionKind
	// Index is the decision point, −1 for NoisierThanDeclared; Readings
	// the number of its readings then (of the replicates' degrees of
	// freedom for NoisierThanDeclared).
	Index, Readings int
	// Measured is the mean of the point's readings (the constraint's
	// units), for NoisierThanDeclared the replicates' sd, for BreaksChance
	// the share of readings past the limit; Bound is the point's certified
	// bound (NaN when none), the noise sd assumed, or α.
	Measured, Bound float64
}

// pointData is one constraint's readings at each decision point, in its
// units: their number, mean and sum of squared deviations (Welford), and
// the sums over the points of the deviations and of the degrees of freedom
// of the replicates; for a chance constraint, each point's readings clearly
// past the limit and whether they refuted its chance rule.
type pointData struct {
	count    []int
	mean, m2 []float64
	within   float64
	df       int
	breaches []int
	refuted  []bool
	// disagreed marks the points whose readings left their certified
	// interval once: recorded once, and corrected once.
	disagreed []bool
}

func newPointData(n int) pointData {
	return pointData{count: make([]int, n), mean: make([]float64, n), m2: make([]float64, n), disagreed: make([]bool, n),
		breaches: make([]int, n), refuted: make([]bool, n)}
}

// add records reading g at point p.
func (d *pointData) add(p int, g float64) {
	d.count[p]++
	delta := g - d.mean[p]
	d.mean[p] += delta / float64(d.count[p])
	step := delta * (g - d.mean[p])
	d.m2[p] += step
	d.within += step
	if d.count[p] > 1 {
		d.df++
	}
}

// readings returns point p's readings as the distance z̄ of their mean to
// the limit and the half-width κσ/√m of their interval, in z units; m = 0
// when the point has none.
func (m *model) readings(p int) (zbar, half float64, count int) {
	count = m.evidence.count[p]
	if count == 0 {
		return 0, 0, 0
	}
	return m.zOf(m.evidence.mean[p]), evidenceSDs * math.Sqrt(m.noiseZ()/float64(count)), count
}

// measuredUnsafe reports whether point p's readings break the limit by more
// than the noise allows, or its chance rule.
func (m *model) measuredUnsafe(p int) bool {
	zbar, half, count := m.readings(p)
	return count > 0 && zbar+half < 0 || m.evidence.refuted[p]
}

// weighChance counts reading g at point p against a chance constraint and
// reports whether it refuted the point's chance rule just now.
func (m *model) weighChance(p int, g float64) bool {
	d := &m.evidence
	if m.Landing != ByChance || d.refuted[p] {
		return false
	}
	if m.zOf(g) < -breachSDs*math.Sqrt(m.noiseZ()) {
		d.breaches[p]++
	}
	allowed := m.Alpha + 0.5*math.Erfc(breachSDs/math.Sqrt2)
	d.refuted[p] = d.breaches[p] > 0 && allowed < 1 && binomialTail(d.count[p], d.breaches[p], allowed) < chanceTestLevel
	return d.refuted[p]
}

// binomialTail is P(X ≥ k) for X binomial with n trials of probability p.
func binomialTail(n, k int, p float64) float64 {
	lp, lq := math.Log(p), math.Log1p(-p)
	sum := 0.0
	for j := k; j <= n; j++ {
		ln, _ := math.Lgamma(float64(n + 1))
		lj, _ := math.Lgamma(float64(j + 1))
		lr, _ := math.Lgamma(float64(n - j + 1))
		sum += math.Exp(ln - lj - lr + float64(j)*lp + float64(n-j)*lq)
	}
	return sum
}

// weighs reports whether the explorer weighs evidence: the studies'
// baselines play given sets.
func (e *Explorer) weighs() bool { return e.cfg.Method != Oracle && e.cfg.Method != Unsafe }

// weigh weighs observation i, just recorded.
func (e *Explorer) weigh(i int) {
	p := e.obsPoint[i]
	if p >= 0 && e.models[0].evidence.count[p] == 0 {
		e.measured = append(e.measured, p)
	}
	for k, m := range e.models {
		if p >= 0 {
			m.evidence.add(p, m.values[i])
		}
		e.checkNoise(i, k, m)
	}
	if p < 0 {
		return
	}
	seed, ball := e.atSeed[i], false
	for k, m := range e.models {
		zbar, half, _ := m.readings(p)
		bound := math.NaN()
		if e.frozen && !seed {
			bound = m.bound(e.cons[k].Lo[p])
		}
		switch {
		case m.weighChance(p, m.values[i]):
			ball = true
			if e.set.Excluded(p) {
				continue
			}
			e.set.Exclude(p)
			d := &m.evidence
			e.record(Contradiction{Observation: i, Constraint: k, Kind: BreaksChance, Index: p, Readings: d.count[p],
				Measured: float64(d.breaches[p]) / float64(d.count[p]), Bound: m.Alpha})
		case zbar+half < 0:
			// A cone (cone.go) needs no ball: the raised constant keeps it
			// off the point measured unsafe and its surroundings.
			ball = ball || m.Lipschitz == 0
			if e.set.Excluded(p) {
				continue
			}
			e.set.Exclude(p)
			kind := MeasuredUnsafe
			if seed {
				kind = SeedUnsafe
			} else {
				e.suspect[k] = true
			}
			e.record(Contradiction{Observation: i, Constraint: k, Kind: kind, Index: p, Readings: m.evidence.count[p], Measured: m.evidence.mean[p], Bound: bound})
		case e.frozen && !seed && m.Landing == AtAim && !m.evidence.disagreed[p] && (zbar+half < e.cons[k].Lo[p] || zbar-half > e.cons[k].Hi[p]):
			// Both sides say the model is wrong; only readings below their
			// certified interval say it is unsafely so, and correct it.
			m.evidence.disagreed[p] = true
			e.suspect[k] = e.suspect[k] || zbar+half < e.cons[k].Lo[p]
			e.record(Contradiction{Observation: i, Constraint: k, Kind: Disagrees, Index: p, Readings: m.evidence.count[p], Measured: m.evidence.mean[p], Bound: bound})
		}
		if !seed && zbar < 0 {
			// Past the limit within the noise: no contradiction, but the
			// point's own readings outweigh the model's certificate.
			e.set.Exclude(p)
		}
	}
	if ball {
		e.excludeAround(p)
	}
}

// excludeAround excludes the decision points closer to p, measured unsafe
// for a constraint certified by its Gaussian process, than the nearest other
// evaluated point not measured unsafe (a seed, say): the ball is
// remembered, so that a pool's proposals stay out of it too.
func (e *Explorer) excludeAround(p int) {
	radius := math.Inf(1)
	for q, count := range e.models[0].evidence.count {
		if count > 0 && q != p && !e.measuredUnsafe(q) {
			radius = min(radius, e.distance(p, q))
		}
	}
	if math.IsInf(radius, 1) {
		return
	}
	e.ballRadii = append(e.ballRadii, radius)
	copy(e.ballCentres[(len(e.ballRadii)-1)*e.cfg.Dim:], e.point(p))
	radius *= 1 - 1e-9 // the nearest point, and any as far, stay out of the ball whatever the rounding
	for q := range e.Points() {
		if e.distance(p, q) < radius {
			e.set.Exclude(q)
		}
	}
}

// inBall reports whether the unit point u lies in an excluded ball.
func (e *Explorer) inBall(u []float64) bool {
	for b, radius := range e.ballRadii {
		if sqDist(e.ballCentres[b*e.cfg.Dim:(b+1)*e.cfg.Dim], u) < radius*radius {
			return true
		}
	}
	return false
}

// measuredUnsafe reports whether decision point p was measured unsafe for
// some constraint.
func (e *Explorer) measuredUnsafe(p int) bool {
	for _, m := range e.models {
		if m.measuredUnsafe(p) {
			return true
		}
	}
	return false
}

// checkNoise tests constraint k's replicates against its noise after
// observation i, and inflates the noise when they refute it.
func (e *Explorer) checkNoise(i, k int, m *model) {
	d := &m.evidence
	assumed := m.baseNoiseZ() * m.scale * m.scale // units of the constraint²
	if d.df < 2 || !(assumed > 0) || m.land != nil {
		return // where the queries land off their aim, readings scatter with the landing too
	}
	if d.within <= assumed*chiSquareQuantile(d.df, noiseTestLevel) {
		return
	}
	inflation := d.within / (assumed * float64(d.df))
	if inflation <= 1.1*m.inflation {
		return
	}
	m.inflation = inflation
	e.suspect[k] = true
	e.record(Contradiction{Observation: i, Constraint: k, Kind: NoisierThanDeclared, Index: -1, Readings: d.df,
		Measured: math.Sqrt(d.within / float64(d.df)), Bound: math.Sqrt(assumed)})
}

// chiSquareQuantile is the q-quantile of the χ² distribution with df
// degrees of freedom, by Wilson and Hilferty's cube-root normal
// approximation (within 1% of the exact quantile for df ≥ 2 at the levels
// used here).
func chiSquareQuantile(df int, q float64) float64 {
	z := math.Sqrt2 * math.Erfinv(2*q-1)
	v := 2 / (9 * float64(df))
	c := 1 - v + z*math.Sqrt(v)
	return float64(df) * c * c * c
}

// record keeps a contradiction; past the room New made, only the count.
func (e *Explorer) record(c Contradiction) {
	e.contradictions++
	if len(e.events) < cap(e.events) {
		e.events = append(e.events, c)
	}
}

// Contradictions returns the contradictions so far, in order (the first
// Capacity·(constraints + 1) of them), and how many there were in all.
func (e *Explorer) Contradictions() ([]Contradiction, int) { return e.events, e.contradictions }

// Explain returns a sentence for each contradiction recorded from the
// from-th on (nil when there is none): what was measured, what the model
// had claimed, and what the explorer did about it. It allocates.
func (e *Explorer) Explain(from int) []string {
	if from >= len(e.events) {
		return nil
	}
	out := make([]string, 0, len(e.events)-from)
	for _, c := range e.events[from:] {
		out = append(out, e.explain(c))
	}
	return out
}

func (e *Explorer) explain(c Contradiction) string {
	m := e.models[c.Constraint]
	cmp := "<="
	if m.AtLeast {
		cmp = ">="
	}
	readings := fmt.Sprintf("%d readings", c.Readings)
	if c.Readings == 1 {
		readings = "one reading"
	}
	measured := fmt.Sprintf("constraint %s measured %.4g (%s)", m.Name, c.Measured, readings)
	certified := ""
	if !math.IsNaN(c.Bound) {
		certified = fmt.Sprintf(", certified %s %.4g", cmp, c.Bound)
	}
	switch {
	case c.Kind == MeasuredUnsafe && m.Lipschitz > 0:
		return fmt.Sprintf("%s past its limit %.4g by more than the noise allows%s: its Lipschitz constant %.4g is too small; "+
			"the point is excluded and the constant raised to what the readings show", measured, m.Threshold, certified, m.Lipschitz)
	case c.Kind == MeasuredUnsafe:
		return fmt.Sprintf("%s past its limit %.4g by more than the noise allows%s: the model is wrong here "+
			"(a kernel smoother or a lengthscale longer than the truth?); the point is excluded and the model corrected",
			measured, m.Threshold, certified)
	case c.Kind == SeedUnsafe:
		return fmt.Sprintf("%s past its limit %.4g by more than the noise allows, at a seed declared safe: the seed is excluded",
			measured, m.Threshold)
	case c.Kind == BreaksChance:
		what := "the point"
		if e.isSeed(c.Index) {
			what = "the point, a seed declared safe,"
		}
		return fmt.Sprintf("constraint %s: %.0f%% of %s landed past its limit %.4g by more than %d noise sds, "+
			"more than its chance rule (α = %.3g) allows: %s is excluded (is the input noise wider than declared?)",
			m.Name, 100*c.Measured, readings, m.Threshold, breachSDs, c.Bound, what)
	case c.Kind == Disagrees:
		return fmt.Sprintf("%s outside the interval it was certified in%s: the model is corrected", measured, certified)
	}
	return fmt.Sprintf("constraint %s: repeated readings scatter with sd %.3g (%d degrees of freedom), the noise assumed has sd %.3g: "+
		"the noise is widened to the readings' scatter", m.Name, c.Measured, c.Readings, c.Bound)
}

// Excluded reports whether decision point i was measured unsafe, and so is
// never played again.
func (e *Explorer) Excluded(i int) bool { return e.set.Excluded(i) }

// Correction is how the evidence corrected a constraint's model: factors
// of its noise variance, of its lengthscales and of its Lipschitz constant,
// 1 when uncorrected.
type Correction struct {
	Noise, Lengthscale, Lipschitz float64
}

// Corrected returns how the evidence corrected constraint k's model.
func (e *Explorer) Corrected(k int) Correction {
	m := e.models[k]
	return Correction{Noise: m.inflation, Lengthscale: math.Ldexp(1, -m.shrinks), Lipschitz: m.steeper}
}

// correctSuspects corrects, once the models are frozen, every constraint a
// contradiction made suspect, and reports whether any was.
func (e *Explorer) correctSuspects() (bool, error) {
	any := false
	for k, suspect := range e.suspect {
		if !suspect {
			continue
		}
		e.suspect[k], any = false, true
		if err := e.correct(k); err != nil {
			return true, err
		}
	}
	if any {
		e.set.Reset(e.cfg.Seeds)
	}
	return any, nil
}

// correct rebuilds constraint k's model with its corrected noise, halves
// its lengthscales until it agrees with the evidence, and forgets its
// intervals, which the refuted model made.
func (e *Explorer) correct(k int) error {
	m := e.models[k]
	if err := m.rebuild(); err != nil {
		return err
	}
	if m.Lipschitz > 0 {
		e.steepen(m)
	}
	for m.land == nil && m.Lipschitz == 0 && m.lengthscales > 0 && m.shrinks < maxShrinks {
		agrees, err := e.agrees(k)
		if err != nil {
			return err
		}
		if agrees {
			break
		}
		m.shrink()
		if err := m.rebuild(); err != nil {
			return err
		}
	}
	e.cons[k].forget()
	if e.landIv[k] != nil {
		e.landIv[k].forget()
	}
	return nil
}

// reachGrowth is how much farther than the reach of its learned
// lengthscales the measured points must spread before the reach follows them.
const reachGrowth = 1.25

// widenReach lets the learned lengthscales that the seeds' spread capped
// (capToSeeds) grow with the spread of the points measured since
// and not measured unsafe, in steps of reachGrowth, while no measurement has
// contradicted the model: their readings vouch for the longer distances. A
// constraint whose reach widens is rebuilt, and its intervals and the safe
// set restart under the new lengthscales. It reports whether any widened.
func (e *Explorer) widenReach() (bool, error) {
	widened, d := false, -1.0
	for k, m := range e.models {
		if m.reach == 0 || m.shrinks > 0 || m.land != nil || m.Lipschitz > 0 || !m.capped() {
			continue
		}
		if d < 0 {
			d = e.spread()
		}
		if d < reachGrowth*m.reach {
			continue
		}
		m.capLengthscales(d)
		if err := m.rebuild(); err != nil {
			return widened, err
		}
		e.cons[k].forget()
		widened = true
	}
	if widened {
		e.set.Reset(e.cfg.Seeds)
	}
	return widened, nil
}

// spread is the longest distance between two measured decision points not
// measured unsafe.
func (e *Explorer) spread() float64 {
	d := 0.0
	for i, p := range e.measured {
		if e.measuredUnsafe(p) {
			continue
		}
		for _, q := range e.measured[:i] {
			if !e.measuredUnsafe(q) {
				d = max(d, e.distance(p, q))
			}
		}
	}
	return d
}

// agrees reports whether constraint k's model agrees with the evidence: at
// no measured point does its posterior interval lie above the readings'
// interval (a model below the readings is only cautious), and no point
// measured unsafe would be certified by the model fitted to the other
// points' readings alone.
func (e *Explorer) agrees(k int) (bool, error) {
	m := e.models[k]
	root := math.Sqrt(e.beta)
	for p, count := range m.evidence.count {
		if count == 0 {
			continue
		}
		zbar, half, _ := m.readings(p)
		mean, sd := m.predictAt(e.point(p), m.gp, nil)
		if mean-root*sd > zbar+half {
			return false, nil
		}
		if !m.measuredUnsafe(p) || e.isSeed(p) {
			continue
		}
		if err := e.fitWithout(m, p); err != nil {
			return false, err
		}
		if mean, sd := m.predictAt(e.point(p), m.probe, m.probeRows); mean-root*sd >= 0 {
			return false, nil
		}
	}
	return true, nil
}

// fitWithout builds m's probe: its posterior from every observation but
// those at decision point p.
func (e *Explorer) fitWithout(m *model, p int) error {
	m.probe.Reset()
	m.probeRows = m.probeRows[:0]
	for i := range m.values {
		if e.obsPoint[i] == p {
			continue
		}
		u := m.units(i)
		for j, r := range m.probeRows {
			m.kvec[j] = m.Kernel.Eval(u, m.units(r))
		}
		if err := m.probe.Add(m.kvec[:len(m.probeRows)], m.Kernel.Eval(u, u), m.zOf(m.values[i]), m.noiseZ()); err != nil {
			return fmt.Errorf("constraint %s: %w", m.Name, err)
		}
		m.probeRows = append(m.probeRows, i)
	}
	return nil
}

// predictAt is posterior g's mean and sd of z at the unit point u, given
// the observations rows (every one when nil) it was built from.
func (m *model) predictAt(u []float64, g *gp.GP, rows []int) (mean, sd float64) {
	n := g.Len()
	for j := range n {
		r := j
		if rows != nil {
			r = rows[j]
		}
		m.kvec[j] = m.Kernel.Eval(u, m.units(r))
	}
	mean, variance := g.Predict(m.kvec[:n], m.Kernel.Eval(u, u))
	return mean, math.Sqrt(max(variance, 0))
}

// shrink halves the kernel's lengthscales.
func (m *model) shrink() {
	for j := 1; j <= m.lengthscales; j++ {
		m.theta[j] -= math.Ln2
	}
	m.shrinks++
	m.Kernel.SetParams(m.theta)
}

// isSeed reports whether decision point p is a seed.
func (e *Explorer) isSeed(p int) bool {
	for _, s := range e.cfg.Seeds {
		if s == p {
			return true
		}
	}
	return false
}
