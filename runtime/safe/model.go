package safe

import (
	"fmt"
	"math"

	"github.com/bocdev/boc/runtime/fit"
	"github.com/bocdev/boc/runtime/gp"
	"github.com/bocdev/boc/runtime/kernel"
)

// Constraint describes one unknown safety constraint: a measured value g
// that must stay at or above Threshold (AtLeast) or at or below it.
//
// Its model is a zero-mean Gaussian process on z = ±(g − Threshold)/s, the
// signed distance to the limit in units of s (positive is safe): the prior
// puts every unexplored point at the limit, and nothing is standardised by
// the data (gp.WithFixedPrior), so that the confidence bounds mean what
// Theorem 1 says. s is 1 (the kernel states the prior in the units of g)
// unless Standardise, when it is the root mean square of g − Threshold over
// the observations at seed points. s and the learned hyperparameters come
// from the first phase only, while every evaluation is a known-safe seed
// point; they are frozen when exploration leaves the seeds, so that later
// data can only narrow the intervals.
type Constraint struct {
	Name string
	// Kernel is the covariance of z over unit coordinates. Its log
	// hyperparameters θ are the starting values of those learned.
	Kernel kernel.Kernel
	// Learned marks the components of θ fitted to the first phase's data,
	// within [Lower, Upper] (natural units); all three have NumParams()
	// entries, or are nil when nothing is learned.
	Learned      []bool
	Lower, Upper []float64
	// NoiseVariance is the observation noise's variance in the units of g²,
	// or negative to learn it (in z units, within [NoiseLower, NoiseUpper]).
	NoiseVariance          float64
	NoiseLower, NoiseUpper float64
	Threshold              float64
	AtLeast                bool
	// Standardise divides g − Threshold by s, for a kernel whose variance
	// is learned, so that its bounds are relative to the data's scale.
	Standardise bool
	// Landing is what is certified when the queries land off their aim
	// (Config.Land); Alpha is ByChance's allowed probability of breaking
	// the limit.
	Landing Landing
	Alpha   float64
	// Lipschitz, when positive, makes the constraint's safety rest on the
	// bound |g(x) − g(x′)| ≤ Lipschitz·‖x − x′‖ (unit coordinates) and on
	// its noise instead of on its Gaussian process (LoSBO, cone.go); only
	// AtAim.
	Lipschitz float64
}

// model is the state of one constraint's Gaussian process.
type model struct {
	Constraint
	gp      *gp.GP
	fitter  *fit.Fitter // nil when nothing is learned
	theta   []float64   // the kernel's log hyperparameters
	learned []int       // indices into theta of the learned ones
	fitVals []float64   // the learned values (natural units), then the noise variance when learned
	fitLo   []float64
	fitHi   []float64
	grad    []float64 // NumParams() scratch
	scale   float64   // s
	noise   float64   // the noise variance of z
	values  []float64 // g at every observation, in order
	kvec    []float64 // scratch: a kernel vector
	rows    []int     // the observations a fit learns from
	z       []float64 // their z
	fixed   []float64 // their declared noise (z units)
	fitted  int       // seed observations at the last fit
	units   func(i int) []float64
	land    *landingCov // the covariances off the aim; nil for AtAim

	// What the evidence corrected (evidence.go): the noise variance is
	// multiplied by inflation (1 until replicates scatter beyond it), and
	// the lengthscales were halved shrinks times.
	inflation    float64
	shrinks      int
	uncapped     []float64 // θ as fitted, before capLengthscales
	reach        float64   // the diameter capping the learned lengthscales; 0 when none does
	steeper      float64   // the factor the evidence raised Lipschitz by
	lengthscales int       // θ[1 : 1+lengthscales] are log lengthscales; 0 when unknown
	probe        *gp.GP    // a posterior without the readings at one point
	probeRows    []int     // the observations probe holds
	evidence     pointData // the readings of this constraint at each decision point
	// rower is the kernel when it fills whole kernel vectors, else nil:
	// asserted once here, as an interface assertion on the prediction path
	// may allocate (the runtime's assertion cache).
	rower rower
}

func newModel(c Constraint, capacity int, units func(i int) []float64) (*model, error) {
	if c.Kernel == nil {
		return nil, fmt.Errorf("constraint %s has no kernel", c.Name)
	}
	p := c.Kernel.NumParams()
	m := &model{Constraint: c, gp: gp.New(capacity).WithFixedPrior(), theta: make([]float64, p),
		grad: make([]float64, p), scale: 1, values: make([]float64, 0, capacity),
		kvec: make([]float64, capacity), rows: make([]int, 0, capacity),
		z: make([]float64, capacity), fixed: make([]float64, capacity), units: units,
		inflation: 1, steeper: 1, uncapped: make([]float64, p), probe: gp.New(capacity).WithFixedPrior(), probeRows: make([]int, 0, capacity)}
	m.rower, _ = c.Kernel.(rower)
	if k, ok := c.Kernel.(interface{ NumLengthscales() int }); ok {
		m.lengthscales = k.NumLengthscales()
	}
	c.Kernel.Params(m.theta)
	var err error
	if m.learned, m.fitVals, m.fitLo, m.fitHi, err = fit.Select(m.theta, c.Learned, c.Lower, c.Upper); err != nil {
		return nil, fmt.Errorf("constraint %s: %w", c.Name, err)
	}
	learnNoise := c.NoiseVariance < 0
	if learnNoise {
		if !(c.NoiseLower > 0 && c.NoiseLower <= c.NoiseUpper) {
			return nil, fmt.Errorf("constraint %s: noise bounds [%v, %v]", c.Name, c.NoiseLower, c.NoiseUpper)
		}
		m.noise = math.Sqrt(c.NoiseLower * c.NoiseUpper)
		m.fitVals = append(m.fitVals, m.noise)
		m.fitLo, m.fitHi = append(m.fitLo, c.NoiseLower), append(m.fitHi, c.NoiseUpper)
	}
	if len(m.fitVals) > 0 {
		m.fitter = fit.New(capacity, len(m.learned), learnNoise, m.fill)
	}
	return m, nil
}

// zOf is observation i's signed distance to the limit in units of s.
func (m *model) zOf(g float64) float64 {
	d := (g - m.Threshold) / m.scale
	if !m.AtLeast {
		d = -d
	}
	return d
}

// bound converts a lower bound of z to the certified bound of g: a lower
// bound for ≥, an upper bound for ≤.
func (m *model) bound(zLo float64) float64 {
	if m.AtLeast {
		return m.Threshold + m.scale*zLo
	}
	return m.Threshold - m.scale*zLo
}

// noiseZ is the noise variance of one observation of z, as the evidence
// corrected it.
func (m *model) noiseZ() float64 { return m.inflation * m.baseNoiseZ() }

// baseNoiseZ is the declared or learned noise variance of one observation
// of z.
func (m *model) baseNoiseZ() float64 {
	if m.NoiseVariance >= 0 {
		return m.NoiseVariance / (m.scale * m.scale)
	}
	return m.noise
}

// fill is the fitter's kernel matrices for the learned values vals, over
// the observations in rows.
func (m *model) fill(vals []float64, n int, k, dk []float64) {
	m.setLearned(vals)
	if m.land != nil {
		m.land.fill(m.rows, n, m.learned, m.grad, k, dk)
		return
	}
	for i := range n {
		for l := range n {
			clear(m.grad)
			k[i*n+l] = m.Kernel.AddGradParams(m.units(m.rows[i]), m.units(m.rows[l]), 1, m.grad)
			for j, p := range m.learned {
				dk[(j*n+i)*n+l] = m.grad[p]
			}
		}
	}
}

// setLearned puts the learned values (natural units) into the kernel.
func (m *model) setLearned(vals []float64) {
	for j, p := range m.learned {
		m.theta[p] = math.Log(vals[j])
	}
	m.Kernel.SetParams(m.theta)
	if m.land != nil {
		m.land.invalidate()
	}
}

// refit sets s from the observations at seed points (atSeed[i] for
// observation i) and fits the learned hyperparameters to them when the fit
// schedule says so, or when force and they were not fitted to these very
// observations; it then rebuilds the posterior from every observation, and
// reports whether s or the hyperparameters changed. Without a seed
// observation it keeps the prior, unless force: the values a frozen model
// keeps must come from data.
func (m *model) refit(atSeed []bool, force bool) (changed bool, err error) {
	m.rows = m.rows[:0]
	ss := 0.0
	for i, in := range atSeed {
		if in {
			d := m.values[i] - m.Threshold
			ss += d * d
			m.rows = append(m.rows, i)
		}
	}
	count := len(m.rows)
	switch {
	case count == 0 && force && m.fitter != nil:
		return false, fmt.Errorf("constraint %s: no observation at a seed point to learn from", m.Name)
	case m.fitter == nil || count == 0 || !(force && count != m.fitted || fit.Due(count, 1, m.fitted)):
		return false, m.rebuild()
	}
	m.fitted = count
	if rms := math.Sqrt(ss / float64(count)); m.Standardise && rms > 0 {
		m.scale = rms
	}
	noise := 0.0 // the learned noise is the fitter's
	if m.NoiseVariance >= 0 {
		noise = m.noiseZ()
	}
	for i, r := range m.rows {
		m.z[i], m.fixed[i] = m.zOf(m.values[r]), noise
	}
	if _, err := m.fitter.Fit(m.z[:count], m.fixed[:count], m.fitVals, m.fitLo, m.fitHi); err != nil {
		return false, fmt.Errorf("constraint %s: learning the hyperparameters: %w", m.Name, err)
	}
	m.setLearned(m.fitVals)
	if m.NoiseVariance < 0 {
		m.noise = m.fitVals[len(m.fitVals)-1]
	}
	m.capToSeeds(count)
	return true, m.rebuild()
}

// capToSeeds caps the fitted lengthscales at what the first count fit rows
// (the seed readings) can vouch for: the diameter of the points read, the
// longest distance the readings say anything about. A handful of readings
// that agree says the constraint is flat between them, not how far beyond,
// and the lengthscale they like best is then the longest allowed: certifying
// with it would certify far past them (a whole domain, from three flat
// readings). The cap widens as the points measured later spread
// (Explorer.widenReach). Constraints judged where the queries land keep the
// fitted values.
func (m *model) capToSeeds(count int) {
	if m.land != nil {
		return
	}
	copy(m.uncapped, m.theta)
	m.capLengthscales(m.diameter(count))
}

// capLengthscales caps the learned lengthscales, as fitted, at d, within
// their learn bounds; d = 0 leaves them uncapped.
func (m *model) capLengthscales(d float64) {
	m.reach = d
	for j, p := range m.learned {
		if p < 1 || p > m.lengthscales {
			continue
		}
		m.theta[p] = m.uncapped[p]
		if limit := math.Log(max(d, m.fitLo[j])); d > 0 && limit < m.theta[p] {
			m.theta[p] = limit
		}
	}
	m.Kernel.SetParams(m.theta)
}

// capped reports whether the reach caps a learned lengthscale.
func (m *model) capped() bool {
	for _, p := range m.learned {
		if p >= 1 && p <= m.lengthscales && m.theta[p] < m.uncapped[p] {
			return true
		}
	}
	return false
}

// diameter is the longest distance between two of the first count fit
// rows' points (the seed readings'), in unit coordinates.
func (m *model) diameter(count int) float64 {
	d := 0.0
	for i, r := range m.rows[:count] {
		for _, q := range m.rows[:i] {
			d = max(d, sqDist(m.units(q), m.units(r)))
		}
	}
	return math.Sqrt(d)
}

// rebuild refactors the posterior from every observation, with the current
// s and hyperparameters.
func (m *model) rebuild() error {
	m.gp.Reset()
	for i := range m.values {
		if err := m.add(i); err != nil {
			return err
		}
	}
	return nil
}

// add puts observation i, the next one, into the posterior.
func (m *model) add(i int) error {
	u := m.units(i)
	self := 0.0
	if m.land != nil {
		for j := range i {
			m.kvec[j] = m.land.between(i, j)
		}
		self = m.land.self(i)
	} else {
		for j := range i {
			m.kvec[j] = m.Kernel.Eval(u, m.units(j))
		}
		self = m.Kernel.Eval(u, u)
	}
	if err := m.gp.Add(m.kvec[:i], self, m.zOf(m.values[i]), m.noiseZ()); err != nil {
		return fmt.Errorf("constraint %s: %w", m.Name, err)
	}
	return nil
}
