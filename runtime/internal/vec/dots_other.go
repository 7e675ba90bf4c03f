//go:build !amd64 || purego

package vec

// dots4x3Head reports that this build has no vector kernel: it zeroes s, and
// the portable loops compute every sum.
func dots4x3Head(_ *[GroupRows][]float64, _ int, _, _, _ []float64, s *[GroupRows * GroupPoints]float64) int {
	*s = [GroupRows * GroupPoints]float64{}
	return 0
}

// dots4x1Head is dots4x3Head for one point.
func dots4x1Head(_ *[GroupRows][]float64, _ int, _ []float64, s *[GroupRows]float64) int {
	*s = [GroupRows]float64{}
	return 0
}
