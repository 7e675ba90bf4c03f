package pareto

import (
	"fmt"
	"math"

	"github.com/bocdev/boc/runtime/outcome"
)

// Method is how an Acquirer scores a point.
type Method int

const (
	// EHVI is the expected hypervolume improvement, exact, for 2 or 3
	// objectives.
	EHVI Method = iota
	// ParEGO is the expected improvement of a random augmented Chebyshev
	// scalarisation of the objectives, drawn anew at every Prepare
	// (parego.go), for any number of them.
	ParEGO
)

// Acquirer scores points for an optimiser of several objectives, each
// modelled by its own Gaussian process (runtime/outcome, outputs without a
// limit), against the front of the posterior means at the evaluated points,
// those being evaluated included as if they had measured their means (the
// plug-in form of noisy EHVI, and the kriging believer for a batch): by the
// expected hypervolume improvement of the objectives' posteriors at the
// point (EHVI) or by ParEGO's. Where a threshold is not given, the
// reference point's coordinate is inferred from that front as BoTorch does:
// its worst value less a tenth of its range.
//
// Outputs of the models after the objectives that have a Limit are
// requirements, and take the rule of the single-objective optimiser: the
// front holds only the evaluated points that meet them with their
// confidence (and the pending ones likely to), the score adds the log of
// the probability of meeting them, and while no evaluated point meets them
// the score is that log probability alone.
//
// Prepare allocates nothing; Score neither, and up to New's workers
// goroutines may call it at once between Prepares.
type Acquirer struct {
	models     *outcome.Models
	method     Method
	m, dim     int
	maximize   []bool
	thresholds []float64 // in the objectives' units; NaN where inferred
	d          *Decomposition
	believed   []float64 // the front's candidates, maximised: capacity × m
	nbelieved  int       // their number at the last Prepare
	keep       []bool    // scratch: which of them are non-dominated
	ref        []float64
	workers    []acquirerScratch
	scalar     scalarisation // ParEGO's, of the last Prepare
	requires   bool          // whether the models have requirements
	seeking    bool          // whether the score seeks feasibility (no evaluated point is feasible)
}

// acquirerScratch is one goroutine's memory.
type acquirerScratch struct {
	mean, sd, dMean, dSD []float64 // m each
	dMu, dSigma          []float64 // m × dim: the posteriors' gradients
	ehvi                 []float64
}

// NewAcquirer returns the acquirer of objectives modelled by models' first
// outputs (in their order, each maximised or not), with the thresholds given
// (NaN for none), that scores by method, for up to capacity evaluated and
// pending points and workers goroutines. models must have room for as many
// workers.
func NewAcquirer(models *outcome.Models, dim int, method Method, maximize []bool, thresholds []float64, capacity, workers int) (*Acquirer, error) {
	m := len(maximize)
	switch {
	case m < 2 || m > maxObjectives:
		return nil, fmt.Errorf("pareto: %d objectives; an acquirer takes 2 to %d", m, maxObjectives)
	case len(thresholds) != m:
		return nil, fmt.Errorf("pareto: %d thresholds for %d objectives", len(thresholds), m)
	case models.Outputs() < m:
		return nil, fmt.Errorf("pareto: %d objectives, but the models have %d outputs", m, models.Outputs())
	}
	requires := false
	for k := range models.Outputs() {
		if k < m && models.Limited(k) {
			return nil, fmt.Errorf("pareto: objective %d of the models has a limit", k)
		}
		requires = requires || models.Limited(k)
	}
	var d *Decomposition
	if method == EHVI || m <= 3 {
		var err error
		if d, err = New(m, make([]float64, m), capacity); err != nil {
			return nil, err
		}
	}
	a := &Acquirer{models: models, method: method, m: m, dim: dim, maximize: maximize, thresholds: thresholds, d: d, requires: requires,
		scalar:   newScalarisation(m),
		believed: make([]float64, capacity*m), keep: make([]bool, capacity), ref: make([]float64, m), workers: make([]acquirerScratch, workers)}
	for w := range a.workers {
		a.workers[w] = acquirerScratch{mean: make([]float64, m), sd: make([]float64, m), dMean: make([]float64, m), dSD: make([]float64, m),
			dMu: make([]float64, m*dim), dSigma: make([]float64, m*dim)}
		if d != nil {
			a.workers[w].ehvi = make([]float64, d.ScratchLen())
		}
	}
	return a, nil
}

// sign is +1 for a maximised objective and −1 for a minimised one: the
// decomposition maximises.
func (a *Acquirer) sign(j int) float64 {
	if a.maximize[j] {
		return 1
	}
	return -1
}

// Prepare rebuilds the front from the posterior means at the models'
// evaluated points and at the pending unit points (row-major, dim values
// each), and the reference point; ParEGO draws its scalarisation from seed.
func (a *Acquirer) Prepare(pending []float64, seed uint64) error {
	n, p := a.models.Len(), len(pending)/a.dim
	if n+p > len(a.believed)/a.m {
		return fmt.Errorf("pareto: %d evaluated and %d pending points beyond the capacity %d", n, p, len(a.believed)/a.m)
	}
	count, feasible := 0, 0
	for i := range n + p {
		var u []float64
		switch {
		case i >= n:
			u = pending[(i-n)*a.dim : (i-n+1)*a.dim]
			if a.requires && !a.models.Likely(u) {
				continue
			}
		case a.requires && !a.models.Feasible(i):
			continue
		default:
			feasible++
		}
		for j := range a.m {
			mean := 0.0
			if u == nil {
				mean = a.models.TrainMean(j, i)
			} else {
				mean = a.models.Mean(0, j, u)
			}
			a.believed[count*a.m+j] = a.sign(j) * mean
		}
		count++
	}
	a.seeking = a.requires && feasible == 0
	a.nbelieved = count
	believed := a.believed[:count*a.m]
	a.inferReference(believed)
	if a.method == ParEGO {
		a.scalar.draw(believed, a.ref, seed)
	}
	if a.d == nil {
		return nil
	}
	if err := a.d.SetReference(a.ref); err != nil {
		return err
	}
	return a.d.Update(believed)
}

// inferReference sets the reference point: the thresholds, maximised, and
// elsewhere the worst value of the non-dominated believed vectors less a
// tenth of their range (of the worst value's size, or 1, when they agree).
func (a *Acquirer) inferReference(vectors []float64) {
	keep := a.keep[:len(vectors)/a.m]
	NonDominated(vectors, a.m, keep)
	for j := range a.m {
		if t := a.thresholds[j]; !math.IsNaN(t) {
			a.ref[j] = a.sign(j) * t
			continue
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		for i, k := range keep {
			if k {
				lo, hi = min(lo, vectors[i*a.m+j]), max(hi, vectors[i*a.m+j])
			}
		}
		switch span := hi - lo; {
		case len(keep) == 0:
			a.ref[j] = 0
		case span > 0:
			a.ref[j] = lo - 0.1*span
		default:
			a.ref[j] = lo - 0.1*max(math.Abs(lo), 1)
		}
	}
}

// Reference is the reference point of the last Prepare, in the objectives'
// units.
func (a *Acquirer) Reference(out []float64) {
	for j := range a.m {
		out[j] = a.sign(j) * a.ref[j]
	}
}

// Hypervolume is the hypervolume of the last Prepare's front above its
// reference point. For more than 3 objectives it slices (Hypervolume) and
// allocates.
func (a *Acquirer) Hypervolume() float64 {
	if a.d == nil {
		return Hypervolume(a.believed[:a.nbelieved*a.m], a.m, a.ref)
	}
	return a.d.Hypervolume()
}

// Score returns the log of the method's expected improvement at the unit
// point u, plus the log of the probability of meeting the requirements, and,
// unless grad is nil, writes its gradient with respect to u to grad. Where
// the improvement underflows it is −Inf. While no evaluated point meets the
// requirements it is the log probability alone.
func (a *Acquirer) Score(worker int, u, grad []float64) float64 {
	if !a.requires {
		return a.logImprovement(worker, u, grad)
	}
	if a.seeking {
		clear(grad)
		return a.models.LogFeasibility(worker, u, grad)
	}
	v := a.logImprovement(worker, u, grad)
	return v + a.models.LogFeasibility(worker, u, grad)
}

// SeeksFeasibility reports whether the last Prepare found no evaluated
// point that meets the requirements, so that Score seeks one.
func (a *Acquirer) SeeksFeasibility() bool { return a.seeking }

// logImprovement is Score without the requirements.
func (a *Acquirer) logImprovement(worker int, u, grad []float64) float64 {
	w := &a.workers[worker]
	for j := range a.m {
		var mean, sd float64
		if grad == nil {
			mean, sd = a.models.Posterior(worker, j, u)
		} else {
			mean, sd = a.models.PosteriorGrad(worker, j, u, w.dMu[j*a.dim:(j+1)*a.dim], w.dSigma[j*a.dim:(j+1)*a.dim])
		}
		w.mean[j], w.sd[j] = a.sign(j)*mean, sd
	}
	var value float64
	switch {
	case a.method == ParEGO:
		value = a.scalar.improvement(w.mean, w.sd, w.dMean, w.dSD, grad != nil)
	case grad == nil:
		return math.Log(a.d.EHVI(w.mean, w.sd, w.ehvi))
	default:
		value = a.d.EHVIGrad(w.mean, w.sd, w.ehvi, w.dMean, w.dSD)
	}
	if grad == nil {
		return math.Log(value)
	}
	clear(grad)
	if value <= 0 {
		return math.Inf(-1)
	}
	for j := range a.m {
		dMu, dSigma := w.dMu[j*a.dim:(j+1)*a.dim], w.dSigma[j*a.dim:(j+1)*a.dim]
		for i := range grad {
			grad[i] += (a.sign(j)*w.dMean[j]*dMu[i] + w.dSD[j]*dSigma[i]) / value
		}
	}
	return math.Log(value)
}
