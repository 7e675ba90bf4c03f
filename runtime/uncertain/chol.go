package uncertain

import "math"

// cholesky overwrites the lower triangle of the n×n row-major matrix a with
// its Cholesky factor L (a = L Lᵀ), reading only the lower triangle. It
// reports false, leaving a partly overwritten, if a pivot is not above
// minPivot or not finite: the matrix is not (numerically) positive definite.
func cholesky(a []float64, n int, minPivot float64) bool {
	for j := range n {
		rj := a[j*n : j*n+j]
		p := a[j*n+j]
		for _, l := range rj {
			p -= l * l
		}
		if !(p > minPivot) || math.IsInf(p, 0) {
			return false
		}
		p = math.Sqrt(p)
		a[j*n+j] = p
		for i := j + 1; i < n; i++ {
			ri := a[i*n : i*n+j]
			s := a[i*n+j]
			for c, l := range ri {
				s -= l * rj[c]
			}
			a[i*n+j] = s / p
		}
	}
	return true
}

// solveLower solves L x = b for the lower-triangular n×n row-major factor l,
// writing x to x (which may alias b).
func solveLower(l []float64, n int, b, x []float64) {
	for i := range n {
		s := b[i]
		row := l[i*n : i*n+i]
		for j, lij := range row {
			s -= lij * x[j]
		}
		x[i] = s / l[i*n+i]
	}
}
