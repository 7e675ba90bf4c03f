//go:build !purego

package kernel

import (
	"math"

	"github.com/bocdev/boc/runtime/internal/cpufeat"
)

// rqMixStep is the number of values the vector kernel takes per step.
const rqMixStep = 8

// useVector selects rqMix's AVX2/FMA kernel where the CPU has it.
var useVector = cpufeat.AVX2FMA

// Indices into rqMixConsts, each constant broadcast to four lanes; the
// assembly addresses them as index·32 bytes.
const (
	rqConstOne      = iota
	rqConstMax      // rqMixFractionMax
	rqConstMantissa // the mantissa bits of a float64
	rqConstMid      // 1.5, the middle of fifthRootPoly's interval
	rqConstFifth    // 0.2, Newton's step factor
	rqConstBias     // 1023, the exponent bias, as an integer
	rqConstDiv5     // 52429 = ⌈2¹⁸/5⌉, as an integer: (e·52429)>>18 = ⌊e/5⌋ for 0 ≤ e < 2¹⁸
	rqConstPoly     // 6 entries: fifthRootPoly
	// rqConstRoots holds fifthRootOfHalf unbroadcast, the table of the
	// kernel's gather: its five values fill a row and one lane of the next.
	rqConstRoots = rqConstPoly + len(fifthRootPoly)
	rqConstCount = rqConstRoots + 2
)

// rqMixConsts holds the constants of rqMixAVX2.
var rqMixConsts = func() (c [rqConstCount][4]float64) {
	set := func(i int, v float64) { c[i] = [4]float64{v, v, v, v} }
	set(rqConstOne, 1)
	set(rqConstMax, rqMixFractionMax)
	set(rqConstMantissa, math.Float64frombits(1<<52-1))
	set(rqConstMid, 1.5)
	set(rqConstFifth, 0.2)
	set(rqConstBias, math.Float64frombits(1023))
	set(rqConstDiv5, math.Float64frombits(52429))
	for j, v := range fifthRootPoly {
		set(rqConstPoly+j, v)
	}
	for r, v := range fifthRootOfHalf {
		c[rqConstRoots+r/4][r%4] = v
	}
	return c
}()

// rqMixAVX2 replaces r2[j] by s2 times RQMix's value for the scales c_a,
// eight at a time, for j < n, and returns how many it did: a multiple of
// eight, stopping early before the first step holding a value whose
// fraction's denominator is not below rqMixFractionMax, whose shape-0.2
// base is not in [1, rqMixFractionMax], or which is NaN.
//
//go:noescape
func rqMixAVX2(r2 *float64, n int, c *[len(rqMixShapes)]float64, s2 float64, k *[rqConstCount][4]float64) int

// rqMixVector runs the vector kernel over the longest prefix of r2 it can
// take and returns its length (0 without the kernel).
func rqMixVector(r2 []float64, c *[len(rqMixShapes)]float64, s2 float64) int {
	if !useVector {
		return 0
	}
	n := 0
	if len(r2) >= rqMixStep {
		n = rqMixAVX2(&r2[0], len(r2), c, s2, &rqMixConsts)
	}
	// A last partial step costs less as a whole one, padded with zeros,
	// than one value at a time.
	if tail := r2[n:]; len(tail) > 0 && len(tail) < rqMixStep {
		var step [rqMixStep]float64
		copy(step[:], tail)
		if rqMixAVX2(&step[0], rqMixStep, c, s2, &rqMixConsts) == rqMixStep {
			copy(tail, step[:])
			return len(r2)
		}
	}
	return n
}
