package pareto

import (
	"math"

	"github.com/bocdev/boc/runtime/acq"
)

// EHVI is the expected hypervolume improvement of an outcome whose
// objectives are independent Gaussians with the given means and sds (Emmerich
// et al. 2006), exact: the improvement is a sum over the columns of products
// over the objectives of (min(y_j, hi) − lo)⁺, whose expectations factor, and
// E[(min(Y, hi) − lo)⁺] = g(lo) − g(hi) with g(a) = E[(Y − a)⁺] = σφ(z) +
// (μ − a)Φ(z), z = (μ − a)/σ. scratch needs ScratchLen values; each
// concurrent caller its own.
func (d *Decomposition) EHVI(mean, sd, scratch []float64) float64 {
	d.expectations(mean, sd, scratch, false)
	ehvi := 0.0
	for b := range d.nboxes {
		v := 1.0
		for j := range d.m {
			v *= d.factor(scratch, b, j)
		}
		ehvi += v
	}
	return ehvi
}

// EHVIGrad is EHVI with its derivatives with respect to each objective's
// mean and sd, written to dMean and dSD (m values each).
func (d *Decomposition) EHVIGrad(mean, sd, scratch, dMean, dSD []float64) float64 {
	d.expectations(mean, sd, scratch, true)
	clear(dMean)
	clear(dSD)
	ehvi := 0.0
	var f [3]float64
	for b := range d.nboxes {
		v := 1.0
		for j := range d.m {
			f[j] = d.factor(scratch, b, j)
			v *= f[j]
		}
		ehvi += v
		for j := range d.m {
			others := 1.0
			for k := range d.m {
				if k != j {
					others *= f[k]
				}
			}
			if others == 0 {
				continue
			}
			dm, ds := d.factorGrad(scratch, b, j)
			dMean[j] += others * dm
			dSD[j] += others * ds
		}
	}
	return ehvi
}

// expectations writes g_j(a), and with grad its derivatives Φ(z) and φ(z),
// at every grid coordinate a of every objective j to scratch: three blocks
// of m·(capacity+1) values.
func (d *Decomposition) expectations(mean, sd, scratch []float64, grad bool) {
	stride := d.m * (d.capacity + 1)
	for j := range d.m {
		for i, a := range d.grid[j][:d.lens[j]] {
			at := j*(d.capacity+1) + i
			mu, s := mean[j], sd[j]
			if s <= 0 {
				scratch[at] = max(mu-a, 0)
				if grad {
					scratch[stride+at], scratch[2*stride+at] = 0, 0
					if mu > a {
						scratch[stride+at] = 1
					}
				}
				continue
			}
			z := (mu - a) / s
			phi, cdf := acq.NormPDF(z), acq.NormCDF(z)
			scratch[at] = s*phi + (mu-a)*cdf
			if grad {
				scratch[stride+at], scratch[2*stride+at] = cdf, phi
			}
		}
	}
}

// factor is E[(min(Y_j, hi) − lo)⁺] of column b in objective j, at least 0
// despite rounding.
func (d *Decomposition) factor(scratch []float64, b, j int) float64 {
	return math.Max(d.difference(scratch, 0, b, j), 0)
}

// factorGrad is the factor's derivatives with respect to the mean and sd.
func (d *Decomposition) factorGrad(scratch []float64, b, j int) (dMean, dSD float64) {
	stride := d.m * (d.capacity + 1)
	return d.difference(scratch, stride, b, j), d.difference(scratch, 2*stride, b, j)
}

// difference is block's value at column b's lower bound in objective j less
// its value at the upper one (0 at +∞: g, Φ and φ all vanish there).
func (d *Decomposition) difference(scratch []float64, block, b, j int) float64 {
	i := int(d.boxes[b*d.m+j])
	at := block + j*(d.capacity+1) + i
	v := scratch[at]
	if j < d.m-1 && i+1 < d.lens[j] {
		v -= scratch[at+1]
	}
	return v
}
