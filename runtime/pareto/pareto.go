// Package pareto computes with the Pareto fronts of several objectives:
// which vectors no other dominates, the hypervolume they dominate above a
// reference point, and the expected hypervolume improvement (EHVI) of an
// outcome whose objectives are independent Gaussians, exactly, from a
// decomposition of the region the front does not dominate into boxes; and
// an Acquirer that scores an optimiser's candidate points by EHVI or by
// ParEGO from the objectives' Gaussian processes (runtime/outcome).
//
// Every objective is maximised: a minimised one enters negated, with its
// threshold negated as the reference point's coordinate. Vectors are rows of
// a row-major slice, m values each.
//
// A Decomposition allocates in New only; Update, Hypervolume, Improvement
// and EHVI allocate nothing. The function Hypervolume, for any number of
// objectives, allocates.
package pareto

import "slices"

// Dominates reports whether a dominates b: at least as large in every
// objective, larger in one.
func Dominates(a, b []float64) bool {
	larger := false
	for j := range a {
		switch {
		case a[j] < b[j]:
			return false
		case a[j] > b[j]:
			larger = true
		}
	}
	return larger
}

// NonDominated marks in keep the rows of points (m values each) that no
// other row dominates, the first of equal rows only, and returns how many
// it marked. keep needs a value per row.
func NonDominated(points []float64, m int, keep []bool) int {
	n := len(points) / m
	count := 0
	for i := range n {
		a := points[i*m : (i+1)*m]
		keep[i] = true
		for k := range n {
			b := points[k*m : (k+1)*m]
			if k != i && (Dominates(b, a) || k < i && slices.Equal(a, b)) {
				keep[i] = false
				break
			}
		}
		if keep[i] {
			count++
		}
	}
	return count
}
