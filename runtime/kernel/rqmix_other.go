//go:build !amd64 || purego

package kernel

// rqMixStep is the number of values rqMix computes one by one between calls
// of rqMixVector.
const rqMixStep = 8

// rqMixVector reports that this build has no vector kernel.
func rqMixVector(_ []float64, _ *[len(rqMixShapes)]float64, _ float64) int { return 0 }
