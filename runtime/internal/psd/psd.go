// Package psd factors small symmetric positive semi-definite matrices, such
// as the covariances of input noise, some of whose directions have no noise
// at all. It allocates nothing.
package psd

import "math"

// Factor writes to l (d×d, row-major) a lower-triangular L with L Lᵀ =
// scale·a for the symmetric positive semi-definite a (d×d, row-major), d =
// len(l) square root. A pivot within rounding of zero (a direction without
// variance) leaves its column zero instead of failing. It returns false if
// a is not positive semi-definite (a pivot clearly negative, or NaN).
func Factor(a []float64, scale float64, l []float64, d int) bool {
	clear(l[:d*d])
	for j := range d {
		pivot := scale * a[j*d+j]
		for k := range j {
			pivot -= l[j*d+k] * l[j*d+k]
		}
		tol := 1e-12 * scale * math.Abs(a[j*d+j])
		switch {
		case pivot < -tol || math.IsNaN(pivot):
			return false
		case pivot <= tol:
			continue
		}
		ljj := math.Sqrt(pivot)
		l[j*d+j] = ljj
		for i := j + 1; i < d; i++ {
			s := scale * a[i*d+j]
			for k := range j {
				s -= l[i*d+k] * l[j*d+k]
			}
			l[i*d+j] = s / ljj
		}
	}
	return true
}
