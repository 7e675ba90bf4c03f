//go:build !purego

package kernel

import (
	"math"

	"github.com/bocdev/boc/runtime/internal/cpufeat"
)

// rqMixStep is the number of values the vector kernel takes per step.
const rqMixStep = 8

// useVector selects rqMix's vector kernel where the CPU has one.
var useVector = cpufeat.AVX2FMA

// useAVX512 selects rqMixAVX512 over rqMixAVX2 (the two give the same
// bits) where the CPU has AVX-512.
var useAVX512 = cpufeat.AVX512

// rqMixSumAVX512 is rqMixAVX512 for the variance 1, adding the values to
// sum, in sum4.add's order, instead of storing them.
//
//go:noescape
func rqMixSumAVX512(r2 *float64, n int, c *[len(rqMixShapes)]float64, k *[rqConstCount][4]float64, sum *sum4) int

// rqMixSumVector adds RQMix's values for the variance 1 at the squared
// distances of the longest prefix of r2 the fused kernel takes (a multiple
// of rqMixStep) to sum, and returns that prefix's length: 0 without
// AVX-512, whose kernel alone adds as it goes.
func rqMixSumVector(r2 []float64, c *[len(rqMixShapes)]float64, sum *sum4) int {
	if !useVector || !useAVX512 || len(r2) < rqMixStep {
		return 0
	}
	return rqMixSumAVX512(&r2[0], len(r2), c, &rqMixConsts, sum)
}

// rqMixPairSumAVX512 is rqMixSumAVX512 for the squared distances
// (u_i − v_j)²·inv between the points of u and v in R^1, computed in the
// kernel, pairs in order i then j, for nv ≥ rqMixStep.
//
//go:noescape
func rqMixPairSumAVX512(u *float64, nu int, v *float64, nv int, inv float64, c *[len(rqMixShapes)]float64, k *[rqConstCount][4]float64, sum *sum4) int

// rqMixPairSumVector adds RQMix's values for the variance 1 at the squared
// distances (u_i − v_j)²·inv to sum, the pairs in order i then j as
// PairSum's chunks add them, and returns how many pairs it did: all of them
// unless the kernel stops before a step with a value it does not take, or 0
// without AVX-512 or with fewer than rqMixStep points in v.
func rqMixPairSumVector(u, v []float64, inv float64, c *[len(rqMixShapes)]float64, sum *sum4) int {
	if !useVector || !useAVX512 || len(v) < rqMixStep || len(u) == 0 {
		return 0
	}
	return rqMixPairSumAVX512(&u[0], len(u), &v[0], len(v), inv, c, &rqMixConsts, sum)
}

// rqMixKernel runs the vector kernel useAVX512 selects.
func rqMixKernel(r2 *float64, n int, c *[len(rqMixShapes)]float64, s2 float64) int {
	if useAVX512 {
		return rqMixAVX512(r2, n, c, s2, &rqMixConsts)
	}
	return rqMixAVX2(r2, n, c, s2, &rqMixConsts)
}

// Indices into rqMixConsts, each constant broadcast to four lanes; the
// assembly addresses them as index·32 bytes.
const (
	rqConstOne      = iota
	rqConstMax      // rqMixFractionMax
	rqConstMantissa // the mantissa bits of a float64
	rqConstMid      // 1.5, the middle of fifthRootPoly's interval
	rqConstFifth    // 0.2, the first coefficient of the fifth root's correction
	rqConstBias     // 1023, the exponent bias, as an integer
	rqConstDiv5     // 52429 = ⌈2¹⁸/5⌉, as an integer: (e·52429)>>18 = ⌊e/5⌋ for 0 ≤ e < 2¹⁸
	rqConstPoly     // 7 entries: fifthRootPoly
	// rqConstRoots holds fifthRootOfHalf unbroadcast, the table of the
	// kernel's gather and the AVX-512 kernel's permutation: its five values
	// fill a row and one lane of the next.
	rqConstRoots    = rqConstPoly + len(fifthRootPoly)
	rqConstNegFifth = rqConstRoots + 2    // −0.2, for ⌊e/5⌋ = −⌈−0.2e⌉ (AVX-512)
	rqConstFive     = rqConstNegFifth + 1 // 5 (AVX-512)
	rqConstSecond   = rqConstFive + 1     // 0.12, the second coefficient of the correction
	rqConstCount    = rqConstSecond + 1
)

// rqMixConsts holds the constants of rqMixAVX2 and rqMixAVX512.
var rqMixConsts = func() (c [rqConstCount][4]float64) {
	set := func(i int, v float64) { c[i] = [4]float64{v, v, v, v} }
	set(rqConstOne, 1)
	set(rqConstMax, rqMixFractionMax)
	set(rqConstMantissa, math.Float64frombits(1<<52-1))
	set(rqConstMid, 1.5)
	set(rqConstFifth, 0.2)
	set(rqConstBias, math.Float64frombits(1023))
	set(rqConstDiv5, math.Float64frombits(52429))
	set(rqConstNegFifth, -0.2)
	set(rqConstFive, 5)
	set(rqConstSecond, 0.12)
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

// rqMixAVX512 is rqMixAVX2 with AVX-512 (AVX512F and AVX512DQ), eight
// values a step in one register.
//
//go:noescape
func rqMixAVX512(r2 *float64, n int, c *[len(rqMixShapes)]float64, s2 float64, k *[rqConstCount][4]float64) int

// rqMixVector runs the vector kernel over the longest prefix of r2 it can
// take and returns its length (0 without the kernel).
func rqMixVector(r2 []float64, c *[len(rqMixShapes)]float64, s2 float64) int {
	if !useVector {
		return 0
	}
	n := 0
	if len(r2) >= rqMixStep {
		n = rqMixKernel(&r2[0], len(r2), c, s2)
	}
	// A last partial step costs less as a whole one, padded with zeros,
	// than one value at a time.
	if tail := r2[n:]; len(tail) > 0 && len(tail) < rqMixStep {
		var step [rqMixStep]float64
		copy(step[:], tail)
		if rqMixKernel(&step[0], rqMixStep, c, s2) == rqMixStep {
			copy(tail, step[:])
			return len(r2)
		}
	}
	return n
}
