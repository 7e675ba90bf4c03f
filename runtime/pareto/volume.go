package pareto

import (
	"math"
	"slices"
)

// Hypervolume is the volume that the vectors points (row-major, m values
// each, maximised) dominate above ref, for any number of objectives: the
// one a report or a study gives for a front, where Decomposition serves an
// acquisition's hot path for two or three. It slices the space along the
// last objective (Zitzler's HSO): between consecutive values of it, the
// vectors at or above the slice dominate an (m−1)-dimensional hypervolume,
// down to a sweep in two dimensions. That is O(n^(m−1) log n) for n
// non-dominated vectors, fine for a report's fronts; it allocates.
func Hypervolume(points []float64, m int, ref []float64) float64 {
	if m < 1 {
		return 0
	}
	var rows [][]float64
	for i := 0; i+m <= len(points); i += m {
		row := points[i : i+m]
		if !slices.ContainsFunc(row, math.IsNaN) && dominatesRef(row, ref) {
			rows = append(rows, row)
		}
	}
	return slicedVolume(rows, ref)
}

// HypervolumeOf is Hypervolume of points and ref in the objectives' own
// units, maximize saying which objectives are maximised (the others are
// negated first). Rows with a NaN are left out.
func HypervolumeOf(points []float64, maximize []bool, ref []float64) float64 {
	m := len(maximize)
	signed, at := slices.Clone(points), slices.Clone(ref)
	for j, up := range maximize {
		if up {
			continue
		}
		at[j] = -at[j]
		for i := j; i < len(signed); i += m {
			signed[i] = -signed[i]
		}
	}
	return Hypervolume(signed, m, at)
}

// dominatesRef reports whether v exceeds ref in every objective.
func dominatesRef(v, ref []float64) bool {
	for j := range ref {
		if !(v[j] > ref[j]) {
			return false
		}
	}
	return true
}

// slicedVolume is the hypervolume of rows above ref, every row exceeding
// it, in len(ref) dimensions.
func slicedVolume(rows [][]float64, ref []float64) float64 {
	m := len(ref)
	if len(rows) == 0 {
		return 0
	}
	if m == 1 {
		best := ref[0]
		for _, r := range rows {
			best = max(best, r[0])
		}
		return best - ref[0]
	}
	last := m - 1
	// Descending in the last objective: the slice between the kth value
	// and the next lower one is dominated by the first k+1 rows.
	sorted := slices.Clone(rows)
	slices.SortFunc(sorted, func(a, b []float64) int { return -compare(a[last], b[last]) })
	volume := 0.0
	for k, r := range sorted {
		below := ref[last]
		if k+1 < len(sorted) {
			below = sorted[k+1][last]
		}
		if thickness := r[last] - below; thickness > 0 {
			volume += thickness * slicedVolume(sorted[:k+1], ref[:last])
		}
	}
	return volume
}

func compare(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
