//go:build !amd64 || purego

package fastexp

// vectorStep is the number of arguments Exp computes one by one between
// calls of expVector.
const vectorStep = 8

// expVector reports that this build has no vector kernel.
func expVector(_, _ []float64) int { return 0 }
