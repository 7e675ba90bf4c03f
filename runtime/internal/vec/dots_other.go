//go:build !amd64 || purego

package vec

// dots4x3Vector reports that this build has no vector kernel: the portable
// loops compute every sum.
func dots4x3Vector(_, _, _, _, _, _, _ []float64, _ int, _ *[GroupRows * GroupPoints]float64) bool {
	return false
}

// dots4x1Vector is dots4x3Vector for one point.
func dots4x1Vector(_, _, _, _, _ []float64, _ int, _ *[GroupRows]float64) bool { return false }

// dots8x3Vector is dots4x3Vector for Dots8x3.
func dots8x3Vector(_ *[WideRows][]float64, _ int, _, _, _ []float64, _ *[WideRows * GroupPoints]float64) bool {
	return false
}
