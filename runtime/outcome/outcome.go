// Package outcome models the outputs an evaluation measures besides, or
// instead of, one objective: a problem's outcome constraints (`require`),
// values that the result must meet though the evaluations on the way may
// break them (a batch out of its purity spec is only wasted, unlike a safety
// constraint's breach), and the objectives of a problem with several. Each
// output has a Gaussian process over the unit cube of the domain,
// standardised by its data, whose learned hyperparameters follow the
// objective's refit schedule (runtime/fit); a constraint's has a Limit.
//
// With them an optimiser weights its acquisition by the probability that a
// point meets every constraint, taken as independent, Π_k P(c_k(x) meets h_k)
// (constrained expected improvement, Gardner et al. 2014; Schonlau et al.
// 1998), searches for that probability alone while no evaluated point is
// feasible with the required confidence, and recommends only an evaluated
// point that is. A log-space acquisition adds LogFeasibility to its score,
// which multiplies the acquisition by the probability.
//
// Models allocates in New only; Observe, LogFeasibility, Feasibility and
// Feasible allocate nothing.
package outcome

import (
	"errors"
	"fmt"
	"math"

	"github.com/bocdev/boc/runtime/acq"
	"github.com/bocdev/boc/runtime/fit"
	"github.com/bocdev/boc/runtime/gp"
	"github.com/bocdev/boc/runtime/kernel"
)

// Output describes one measured output and its Gaussian process.
type Output struct {
	Name string
	// Kernel is the covariance of the standardised value over unit
	// coordinates; its log hyperparameters θ start the learned ones.
	Kernel kernel.Kernel
	// Learned marks the components of θ refitted to the data, within
	// [Lower, Upper] (natural units); all three have NumParams() entries,
	// or are nil when nothing is learned.
	Learned      []bool
	Lower, Upper []float64
	// NoiseVariance is the measurement noise's variance, in the units of
	// the value squared (0: measured exactly), or negative to learn it
	// with the hyperparameters, within [NoiseLower, NoiseUpper] in units of
	// the values' variance (the data standardised).
	NoiseVariance          float64
	NoiseLower, NoiseUpper float64
	// Mean is the Gaussian process's prior mean (gp.WithMean): the values'
	// average by default, or an objective's worst value observed.
	Mean gp.PriorMean
	// Limit makes the output an outcome constraint; nil for an objective.
	Limit *Limit
}

// Limit is an outcome constraint's: the measured value must be at least
// Threshold (AtLeast) or at most it.
type Limit struct {
	Threshold float64
	AtLeast   bool
	// Confidence is the posterior probability with which a point must meet
	// the constraint to count as feasible (Feasible), in (0, 1).
	Confidence float64
}

// Models holds the Gaussian process of every output of a problem, over the
// same evaluated points. Its feasibility (LogFeasibility, Likely,
// Feasibility, Feasible) is that of the outputs with a Limit, the outcome
// constraints; without any, every point is feasible.
type Models struct {
	dim      int
	design   int       // observations before the first refit
	units    []float64 // the evaluated points, capacity × dim
	models   []*model
	limited  []*model // the outcome constraints among them
	workers  []scratch
	fitted   int    // observations at the last refit
	met      []bool // Feasible of each evaluated point
	capacity int
	// spare holds the memory of Likely's callers, which do not say which
	// goroutine they are.
	spare chan *scratch
}

type model struct {
	Output
	gp       *gp.GP
	units    func(i int) []float64 // evaluated point i, unit coordinates
	theta    []float64             // the kernel's log hyperparameters
	saved    []float64             // theta before a refit
	learned  []int                 // indices into theta of the learned ones
	vals     []float64             // the learned values, natural units, then the noise variance when learned
	lo, hi   []float64
	noise    float64   // the learned noise variance, standardised units
	grad     []float64 // NumParams() scratch
	fitter   *fit.Fitter
	z, fixed []float64 // standardised values and noise variances, for refits
	kvec     []float64
}

// scratch is one goroutine's memory for LogFeasibility.
type scratch struct {
	at                 []float64 // the point, for the kernels
	kvec, dk, work     []float64
	dself, dmean, dvar []float64
}

// New returns the models of outputs over dim-dimensional unit points, with
// room for capacity observations and workers goroutines calling
// LogFeasibility or the posteriors at once; design is the number of
// observations before the first refit (the initial design's size).
func New(outputs []Output, dim, capacity, workers, design int) (*Models, error) {
	if dim < 1 || capacity < 1 || workers < 1 {
		return nil, fmt.Errorf("outcome: New(dim %d, capacity %d, workers %d)", dim, capacity, workers)
	}
	m := &Models{dim: dim, design: design, units: make([]float64, capacity*dim), capacity: capacity,
		workers: make([]scratch, workers), met: make([]bool, capacity), spare: make(chan *scratch, workers)}
	for w := range m.workers {
		m.workers[w] = newScratch(dim, capacity)
		s := newScratch(dim, capacity)
		m.spare <- &s
	}
	for _, o := range outputs {
		mod, err := newModel(o, capacity, m.Unit)
		if err != nil {
			return nil, err
		}
		m.models = append(m.models, mod)
		if o.Limit != nil {
			m.limited = append(m.limited, mod)
		}
	}
	return m, nil
}

func newScratch(dim, capacity int) scratch {
	return scratch{at: make([]float64, dim), kvec: make([]float64, capacity), dk: make([]float64, capacity*dim),
		work: make([]float64, capacity), dself: make([]float64, dim), dmean: make([]float64, dim), dvar: make([]float64, dim)}
}

func newModel(c Output, capacity int, units func(i int) []float64) (*model, error) {
	if c.Kernel == nil {
		return nil, fmt.Errorf("outcome: %s has no kernel", c.Name)
	}
	learnNoise := c.NoiseVariance < 0
	if math.IsNaN(c.NoiseVariance) || math.IsInf(c.NoiseVariance, 0) || learnNoise && !(c.NoiseLower > 0 && c.NoiseLower <= c.NoiseUpper) {
		return nil, fmt.Errorf("outcome: %s: noise variance %v (learned within [%v, %v])", c.Name, c.NoiseVariance, c.NoiseLower, c.NoiseUpper)
	}
	if l := c.Limit; l != nil && (math.IsNaN(l.Threshold) || math.IsInf(l.Threshold, 0) || !(l.Confidence > 0 && l.Confidence < 1)) {
		return nil, fmt.Errorf("outcome: %s: threshold %v, confidence %v", c.Name, l.Threshold, l.Confidence)
	}
	p := c.Kernel.NumParams()
	mod := &model{Output: c, gp: gp.New(capacity).WithMean(c.Mean), units: units, theta: make([]float64, p), saved: make([]float64, p),
		grad: make([]float64, p), z: make([]float64, capacity), fixed: make([]float64, capacity), kvec: make([]float64, capacity)}
	c.Kernel.Params(mod.theta)
	var err error
	if mod.learned, mod.vals, mod.lo, mod.hi, err = fit.Select(mod.theta, c.Learned, c.Lower, c.Upper); err != nil {
		return nil, fmt.Errorf("outcome: %s: %w", c.Name, err)
	}
	if learnNoise {
		// Until the first fit, the middle of the bounds on a log scale.
		mod.noise = math.Sqrt(c.NoiseLower * c.NoiseUpper)
		mod.vals, mod.lo, mod.hi = append(mod.vals, mod.noise), append(mod.lo, c.NoiseLower), append(mod.hi, c.NoiseUpper)
	}
	if len(mod.vals) > 0 {
		mod.fitter = fit.New(capacity, len(mod.learned), learnNoise, mod.fill)
	}
	return mod, nil
}

// Len is the number of observations.
func (m *Models) Len() int {
	if len(m.models) == 0 {
		return 0
	}
	return m.models[0].gp.Len()
}

// Unit is evaluated point i in unit coordinates, the models' own copy.
func (m *Models) Unit(i int) []float64 { return m.units[i*m.dim : (i+1)*m.dim] }

// Truncate forgets every observation from the nth on, so that an optimiser
// whose own model refused an observation can take it back here too. The
// hyperparameters stay as the refits left them.
func (m *Models) Truncate(n int) {
	for _, mod := range m.models {
		if n < mod.gp.Len() {
			mod.gp.Truncate(n)
		}
	}
	m.fitted = min(m.fitted, n)
	m.judge()
}

// ErrFull reports an observation beyond the capacity given to New.
var ErrFull = errors.New("outcome: capacity exhausted")

// Observe records the values measured at the unit point u, one per
// output in order, and refits the learned hyperparameters when the
// schedule says so (fit.Due). A value that is not finite is an error, and
// nothing is recorded then.
func (m *Models) Observe(u, values []float64) error {
	n := m.Len()
	switch {
	case len(u) != m.dim || len(values) != len(m.models):
		return fmt.Errorf("outcome: a point of %d components with %d values; want %d and %d", len(u), len(values), m.dim, len(m.models))
	case n >= m.capacity:
		return ErrFull
	}
	for k, v := range values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("outcome: the value %v of %s is not a finite number", v, m.models[k].Name)
		}
	}
	// The kernels see the stored copy: u reaching an interface's method
	// would make every caller's u escape to the heap.
	at := m.Unit(n)
	copy(at, u)
	for k, mod := range m.models {
		for i := range n {
			mod.kvec[i] = mod.Kernel.Eval(at, m.Unit(i))
		}
		if err := mod.gp.Add(mod.kvec[:n], mod.Kernel.Eval(at, at), values[k], mod.noiseVariance()); err != nil {
			m.Truncate(n)
			return fmt.Errorf("outcome: %s: %w", mod.Name, err)
		}
	}
	if fit.Due(n+1, m.design, m.fitted) {
		m.fitted = n + 1
		for _, mod := range m.models {
			if err := mod.refit(); err != nil {
				m.Truncate(n)
				return err
			}
		}
	}
	m.judge()
	return nil
}

// noiseVariance is the measurement noise's variance in the units of the
// value squared: declared, or learned relative to the data's scale now.
func (mod *model) noiseVariance() float64 {
	if mod.NoiseVariance >= 0 {
		return mod.NoiseVariance
	}
	scale := mod.gp.Scale()
	return mod.noise * scale * scale
}

// refit learns the model's hyperparameters from its observations by their
// marginal likelihood and rebuilds the GP with them; when the fit fails, or
// the GP cannot be factorised with what it found, the former ones stay.
func (mod *model) refit() error {
	if mod.fitter == nil {
		return nil
	}
	// Standardised as the GP is once refactored, so that what is learned
	// (the kernel's variance, the noise) is in the units it will be used in.
	if err := mod.gp.Refactor(); err != nil {
		return fmt.Errorf("outcome: %s: %w", mod.Name, err)
	}
	n := mod.gp.Len()
	shift, scale := mod.gp.Shift(), mod.gp.Scale()
	for i := range n {
		mod.z[i] = (mod.gp.Y(i) - shift) / scale
		mod.fixed[i] = max(mod.NoiseVariance, 0) / (scale * scale) // the learned noise is the fitter's
	}
	copy(mod.saved, mod.theta)
	savedNoise := mod.noise
	if _, err := mod.fitter.Fit(mod.z[:n], mod.fixed[:n], mod.vals, mod.lo, mod.hi); err == nil {
		mod.setLearned(mod.vals)
		if mod.NoiseVariance < 0 {
			mod.noise = mod.vals[len(mod.vals)-1]
		}
		if mod.rebuild() == nil {
			return nil
		}
	}
	copy(mod.theta, mod.saved)
	mod.Kernel.SetParams(mod.theta)
	for j, p := range mod.learned {
		mod.vals[j] = math.Exp(mod.theta[p])
	}
	if mod.noise = savedNoise; mod.NoiseVariance < 0 {
		mod.vals[len(mod.vals)-1] = savedNoise
	}
	return mod.rebuild()
}

// setLearned puts the learned values (natural units) into the kernel.
func (mod *model) setLearned(vals []float64) {
	for j, p := range mod.learned {
		mod.theta[p] = math.Log(vals[j])
	}
	mod.Kernel.SetParams(mod.theta)
}

// fill is the fitter's view of the kernel (fit.FillFunc): K and ∂K/∂log θ_j
// of the learned θ_j at the evaluated points.
func (mod *model) fill(vals []float64, n int, k, dk []float64) {
	mod.setLearned(vals)
	for i := range n {
		for l := 0; l <= i; l++ {
			clear(mod.grad)
			v := mod.Kernel.AddGradParams(mod.units(i), mod.units(l), 1, mod.grad)
			k[i*n+l], k[l*n+i] = v, v
			for j, p := range mod.learned {
				dk[(j*n+i)*n+l], dk[(j*n+l)*n+i] = mod.grad[p], mod.grad[p]
			}
		}
	}
}

// rebuild recomputes the GP's kernel matrix (and learned noise) with the
// current hyperparameters and refactors it, O(n³).
func (mod *model) rebuild() error {
	for i := range mod.gp.Len() {
		row := mod.gp.KernelRow(i)
		for j := range row {
			row[j] = mod.Kernel.Eval(mod.units(i), mod.units(j))
		}
		if mod.NoiseVariance < 0 {
			mod.gp.SetNoise(i, mod.noiseVariance())
		}
	}
	if err := mod.gp.Refactor(); err != nil {
		return fmt.Errorf("outcome: %s: %w", mod.Name, err)
	}
	return nil
}

// LogFeasibility returns the log of the probability that every constraint
// is met at the unit point u, Σ_k log P(c_k(u) meets h_k) under the models'
// posteriors of the latent values, and, unless grad is nil, adds its
// gradient with respect to u to grad. worker names the calling goroutine,
// whose memory it uses (New's workers). Without observations the
// probability is each constraint's prior one.
func (m *Models) LogFeasibility(worker int, u, grad []float64) float64 {
	w := &m.workers[worker]
	copy(w.at, u) // the kernels see the copy, so that u stays in the caller's frame
	total := 0.0
	for _, mod := range m.limited {
		if grad == nil {
			total += mod.logMeets(m.posterior(w, mod))
			continue
		}
		mean, sd := m.posteriorGrad(w, mod)
		v, dMean, dSD := mod.logMeetsGrad(mean, sd)
		total += v
		w.chain(grad, dMean, dSD, sd)
	}
	return total
}

// PosteriorGrad returns output k's posterior mean and standard deviation at
// the unit point u, as Posterior does, and writes their gradients with
// respect to u to dMean and dSD, with worker's memory.
func (m *Models) PosteriorGrad(worker, k int, u, dMean, dSD []float64) (mean, sd float64) {
	w := &m.workers[worker]
	copy(w.at, u)
	mean, sd = m.posteriorGrad(w, m.models[k])
	clear(dMean)
	clear(dSD)
	w.chain(dMean, 1, 0, sd)
	w.chain(dSD, 0, 1, sd)
	return mean, sd
}

// posteriorGrad is mod's posterior mean and standard deviation at w.at,
// leaving the gradients of the mean and the variance in w.dmean and w.dvar.
func (m *Models) posteriorGrad(w *scratch, mod *model) (mean, sd float64) {
	n := m.Len()
	for i := range n {
		dk := w.dk[i*m.dim : (i+1)*m.dim]
		clear(dk)
		w.kvec[i] = mod.Kernel.AddGradX(w.at, m.Unit(i), 1, dk)
	}
	// k is symmetric, so ∂k(u, u)/∂u is twice the gradient in its first input.
	clear(w.dself)
	kself := mod.Kernel.AddGradX(w.at, w.at, 2, w.dself)
	mean, variance := mod.gp.PredictGrad(w.kvec[:n], w.dk[:n*m.dim], kself, w.dself, w.work[:n], w.dmean, w.dvar)
	return mean, math.Sqrt(variance)
}

// chain adds to grad the gradient of a function of the posterior mean and
// sd whose derivatives are dMean and dSD, from w's gradients of the mean
// and the variance (∂sd = ∂var / 2sd).
func (w *scratch) chain(grad []float64, dMean, dSD, sd float64) {
	for j := range grad {
		grad[j] += dMean * w.dmean[j]
		if sd > 0 {
			grad[j] += dSD * w.dvar[j] / (2 * sd)
		}
	}
}

// Likely reports whether every constraint is more likely met than not at
// the unit point u: its posterior mean keeps the limit (a probabilistic
// constraint P(c meets h) ≥ 1 − δ with δ = 1/2, Gelbart, Snoek and Adams
// 2014). Up to New's workers goroutines may call it at once, while nothing
// else uses the models.
func (m *Models) Likely(u []float64) bool {
	w := <-m.spare
	defer func() { m.spare <- w }()
	copy(w.at, u)
	return m.meetAll(w, false)
}

// logMeets is log P(c meets the limit) for c ~ N(mean, sd²).
func (mod *model) logMeets(mean, sd float64) float64 {
	if mod.Limit.AtLeast {
		return acq.LogPI(mean, sd, mod.Limit.Threshold, 0)
	}
	return acq.LogPI(-mean, sd, -mod.Limit.Threshold, 0)
}

// logMeetsGrad is logMeets and its derivatives with respect to mean and sd.
func (mod *model) logMeetsGrad(mean, sd float64) (v, dMean, dSD float64) {
	if mod.Limit.AtLeast {
		return acq.LogPIGrad(mean, sd, mod.Limit.Threshold, 0)
	}
	v, dMean, dSD = acq.LogPIGrad(-mean, sd, -mod.Limit.Threshold, 0)
	return v, -dMean, dSD
}

// Feasibility returns the probability that evaluated point i meets every
// constraint, under the models' posteriors of its latent values (the
// measurement noise excluded), computed with worker's memory.
func (m *Models) Feasibility(worker, i int) float64 {
	w := &m.workers[worker]
	copy(w.at, m.Unit(i))
	total := 0.0
	for _, mod := range m.limited {
		total += mod.logMeets(m.posterior(w, mod))
	}
	return math.Exp(total)
}

// Feasible reports whether evaluated point i meets every constraint with at
// least its confidence, under the models' posteriors of its latent values
// after the last Observe: the test a recommendation must pass.
func (m *Models) Feasible(i int) bool { return m.met[i] }

// judge sets met for every evaluated point, O(n³) per constraint; the
// posteriors at all of them move with every observation and refit.
func (m *Models) judge() {
	w := &m.workers[0]
	for i := range m.Len() {
		copy(w.at, m.Unit(i))
		m.met[i] = m.meetAll(w, true)
	}
}

// meetAll reports whether every constraint is met at w.at with probability
// at least its confidence, or with atConfidence false at least 1/2.
func (m *Models) meetAll(w *scratch, atConfidence bool) bool {
	for _, mod := range m.limited {
		level := 0.5
		if atConfidence {
			level = mod.Limit.Confidence
		}
		if mod.logMeets(m.posterior(w, mod)) < math.Log(level) {
			return false
		}
	}
	return true
}

// Outputs is the number of outputs.
func (m *Models) Outputs() int { return len(m.models) }

// Limited reports whether output k has a Limit (an outcome constraint).
func (m *Models) Limited(k int) bool { return m.models[k].Limit != nil }

// Lengthscales writes to out, a value per component, the geometric mean of
// the objectives' lengthscales along it, the outputs without a Limit, and
// reports whether every objective's kernel has a lengthscale per component
// (a stationary kernel, runtime/kernel.Stationary, with ARD); out is left
// unspecified when not.
func (m *Models) Lengthscales(out []float64) bool {
	clear(out[:m.dim])
	count := 0.0
	for _, mod := range m.models {
		if mod.Limit != nil {
			continue
		}
		k, ok := mod.Kernel.(*kernel.Stationary)
		if !ok || k.NumLengthscales() != m.dim {
			return false
		}
		for i := range m.dim {
			out[i] += mod.theta[1+i] // θ is (log s², log ℓ_1, …)
		}
		count++
	}
	if count == 0 {
		return false
	}
	for i := range m.dim {
		out[i] = math.Exp(out[i] / count)
	}
	return true
}

// TrainMean returns output k's posterior mean at evaluated point i, in O(1).
func (m *Models) TrainMean(k, i int) float64 { return m.models[k].gp.TrainMean(i) }

// Mean returns output k's posterior mean at the unit point u, in O(n)
// where Posterior's sd costs O(n²), with worker's memory.
func (m *Models) Mean(worker, k int, u []float64) float64 {
	w := &m.workers[worker]
	copy(w.at, u)
	mod := m.models[k]
	n := m.Len()
	for i := range n {
		w.kvec[i] = mod.Kernel.Eval(w.at, m.Unit(i))
	}
	return mod.gp.Mean(w.kvec[:n])
}

// Posterior returns output k's posterior mean and standard deviation at the
// unit point u (latent, in the output's units), with worker's memory.
func (m *Models) Posterior(worker, k int, u []float64) (mean, sd float64) {
	w := &m.workers[worker]
	copy(w.at, u)
	return m.posterior(w, m.models[k])
}

// posterior is mod's posterior mean and standard deviation at w.at.
func (m *Models) posterior(w *scratch, mod *model) (mean, sd float64) {
	n := m.Len()
	for i := range n {
		w.kvec[i] = mod.Kernel.Eval(w.at, m.Unit(i))
	}
	mean, variance := mod.gp.Predict(w.kvec[:n], mod.Kernel.Eval(w.at, w.at))
	return mean, math.Sqrt(variance)
}
