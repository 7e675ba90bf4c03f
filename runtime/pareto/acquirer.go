package pareto

import (
	"fmt"
	"math"

	"github.com/bocdev/boc/runtime/outcome"
)

// Acquirer scores points for an optimiser of several objectives, each
// modelled by its own Gaussian process (runtime/outcome, outputs without a
// limit): by the expected hypervolume improvement of their posteriors at
// the point over the front of the posterior means at the evaluated points,
// those being evaluated included as if they had measured their means (the
// plug-in form of noisy EHVI, and the kriging believer for a batch). Where
// a threshold is not given, the reference point's coordinate is inferred
// from that front as BoTorch does: its worst value less a tenth of its
// range.
//
// Prepare allocates nothing; LogEHVI neither, and up to New's workers
// goroutines may call it at once between Prepares.
type Acquirer struct {
	models     *outcome.Models
	m, dim     int
	maximize   []bool
	thresholds []float64 // in the objectives' units; NaN where inferred
	d          *Decomposition
	believed   []float64 // the front's candidates, maximised: capacity × m
	keep       []bool    // scratch: which of them are non-dominated
	ref        []float64
	workers    []acquirerScratch
}

// acquirerScratch is one goroutine's memory.
type acquirerScratch struct {
	mean, sd, dMean, dSD []float64 // m each
	dMu, dSigma          []float64 // m × dim: the posteriors' gradients
	ehvi                 []float64
}

// NewAcquirer returns the acquirer of objectives modelled by models (in
// their order, each maximised or not), with the thresholds given (NaN for
// none), for up to capacity evaluated and pending points and workers
// goroutines. models must have room for as many workers.
func NewAcquirer(models *outcome.Models, dim int, maximize []bool, thresholds []float64, capacity, workers int) (*Acquirer, error) {
	m := len(maximize)
	if len(thresholds) != m {
		return nil, fmt.Errorf("pareto: %d thresholds for %d objectives", len(thresholds), m)
	}
	d, err := New(m, make([]float64, m), capacity)
	if err != nil {
		return nil, err
	}
	a := &Acquirer{models: models, m: m, dim: dim, maximize: maximize, thresholds: thresholds, d: d,
		believed: make([]float64, capacity*m), keep: make([]bool, capacity), ref: make([]float64, m), workers: make([]acquirerScratch, workers)}
	for w := range a.workers {
		a.workers[w] = acquirerScratch{mean: make([]float64, m), sd: make([]float64, m), dMean: make([]float64, m), dSD: make([]float64, m),
			dMu: make([]float64, m*dim), dSigma: make([]float64, m*dim), ehvi: make([]float64, d.ScratchLen())}
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
// each), and the reference point.
func (a *Acquirer) Prepare(pending []float64) error {
	n, p := a.models.Len(), len(pending)/a.dim
	if n+p > len(a.believed)/a.m {
		return fmt.Errorf("pareto: %d evaluated and %d pending points beyond the capacity %d", n, p, len(a.believed)/a.m)
	}
	for i := range n + p {
		var u []float64
		if i < n {
			u = a.models.Unit(i)
		} else {
			u = pending[(i-n)*a.dim : (i-n+1)*a.dim]
		}
		for j := range a.m {
			mean, _ := a.models.Posterior(0, j, u)
			a.believed[i*a.m+j] = a.sign(j) * mean
		}
	}
	a.inferReference(a.believed[:(n+p)*a.m])
	if err := a.d.SetReference(a.ref); err != nil {
		return err
	}
	return a.d.Update(a.believed[:(n+p)*a.m])
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
// reference point.
func (a *Acquirer) Hypervolume() float64 { return a.d.Hypervolume() }

// LogEHVI returns the log of the expected hypervolume improvement at the
// unit point u and, unless grad is nil, writes its gradient with respect to
// u to grad. Where the improvement underflows it is −Inf.
func (a *Acquirer) LogEHVI(worker int, u, grad []float64) float64 {
	w := &a.workers[worker]
	if grad == nil {
		for j := range a.m {
			mean, sd := a.models.Posterior(worker, j, u)
			w.mean[j], w.sd[j] = a.sign(j)*mean, sd
		}
		return math.Log(a.d.EHVI(w.mean, w.sd, w.ehvi))
	}
	for j := range a.m {
		dMu, dSigma := w.dMu[j*a.dim:(j+1)*a.dim], w.dSigma[j*a.dim:(j+1)*a.dim]
		mean, sd := a.models.PosteriorGrad(worker, j, u, dMu, dSigma)
		w.mean[j], w.sd[j] = a.sign(j)*mean, sd
	}
	ehvi := a.d.EHVIGrad(w.mean, w.sd, w.ehvi, w.dMean, w.dSD)
	clear(grad)
	if ehvi <= 0 {
		return math.Inf(-1)
	}
	for j := range a.m {
		dMu, dSigma := w.dMu[j*a.dim:(j+1)*a.dim], w.dSigma[j*a.dim:(j+1)*a.dim]
		for i := range grad {
			grad[i] += (a.sign(j)*w.dMean[j]*dMu[i] + w.dSD[j]*dSigma[i]) / ehvi
		}
	}
	return math.Log(ehvi)
}
