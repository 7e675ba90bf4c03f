//go:build !amd64 || purego

package kernel

// rqMixStep is the number of values rqMix computes one by one between calls
// of rqMixVector.
const rqMixStep = 8

// rqMixVector reports that this build has no vector kernel.
func rqMixVector(_ []float64, _ *[len(rqMixShapes)]float64, _ float64) int { return 0 }

// distances1Vector reports that this build has no vector kernel.
func distances1Vector(_, _ float64, _, _ []float64) int { return 0 }

// rqMixSumVector reports that this build has no fused kernel.
func rqMixSumVector(_ []float64, _ *[len(rqMixShapes)]float64, _ *sum4) int { return 0 }

// rqMixPairSumVector reports that this build has no fused kernel.
func rqMixPairSumVector(_, _ []float64, _ float64, _ *[len(rqMixShapes)]float64, _ *sum4) int {
	return 0
}
