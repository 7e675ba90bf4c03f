//go:build !amd64 || purego

package gp

// dots2x3Head reports that this build has no vector kernel: the portable
// loops compute every sum.
func dots2x3Head(_, _, _, _, _ []float64, _ *[6]float64) int { return 0 }

// dots2x1Head reports that this build has no vector kernel.
func dots2x1Head(_, _, _ []float64, _ *[2]float64) int { return 0 }
