package fit

import (
	"fmt"
	"math"
)

// Select picks the learned components of a kernel's log hyperparameters
// theta: the indices j where learned[j], the starting values exp(θ_j)
// clamped into [lower[j], upper[j]] (natural units), and those bounds, which
// must be positive and ordered. What it returns is what Fit takes.
func Select(theta []float64, learned []bool, lower, upper []float64) (indices []int, start, lo, hi []float64, err error) {
	for j, l := range learned {
		if !l {
			continue
		}
		if !(lower[j] > 0 && lower[j] <= upper[j]) {
			return nil, nil, nil, nil, fmt.Errorf("bounds [%v, %v] of hyperparameter %d", lower[j], upper[j], j)
		}
		indices = append(indices, j)
		start = append(start, min(max(math.Exp(theta[j]), lower[j]), upper[j]))
		lo, hi = append(lo, lower[j]), append(hi, upper[j])
	}
	return indices, start, lo, hi, nil
}
