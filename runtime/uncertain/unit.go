package uncertain

import "github.com/bocdev/boc/runtime/design"

// ToUnitMoments converts the moments of a distribution around the point at
// unit coordinates u of the box [lower, upper], given by its mean's offset
// from the point and its covariance (d×d, row-major) in the box's units, to
// unit coordinates: it writes the mean to mean and scales cov in place.
func ToUnitMoments(u, offset, lower, upper, cov, mean []float64) {
	d := len(u)
	for i := range d {
		wi := upper[i] - lower[i]
		mean[i] = u[i] + offset[i]/wi
		for k := range d {
			cov[i*d+k] /= wi * (upper[k] - lower[k])
		}
	}
}

// SampleBox widens [lo, hi] (d values each, usually the unit cube) to hold
// the samples of the input distributions at targets points spread over the
// unit cube (the first points of the unshifted Sobol sequence):
// samples(u) returns the samples at u, m points of d coordinates, row-major.
// Shared landmarks spread over the box then cover every distribution an
// optimiser meets.
func SampleBox(targets, d int, samples func(u []float64) []float64, lo, hi []float64) error {
	sobol, err := design.NewSobol(d, 0)
	if err != nil {
		return err
	}
	u := make([]float64, d)
	for range targets {
		sobol.Next(u)
		for j, v := range samples(u) {
			i := j % d
			lo[i], hi[i] = min(lo[i], v), max(hi[i], v)
		}
	}
	return nil
}
