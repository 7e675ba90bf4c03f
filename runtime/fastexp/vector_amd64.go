//go:build !purego

package fastexp

import "github.com/bocdev/boc/runtime/internal/cpufeat"

// vectorStep is the number of arguments the vector kernel takes per step.
const vectorStep = 8

// useVector selects the AVX2/FMA kernel where the CPU has it.
var useVector = cpufeat.AVX2FMA

// Indices into vectorConsts, each constant broadcast to four lanes; the
// assembly addresses them as index·32 bytes.
const (
	constLog2e = iota
	constMagic
	constLn2Hi
	constLn2Lo
	constMin
	constMax
	constOne
	constTaylor // 12 entries: 1/2! … 1/13!
	constCount  = constTaylor + len(taylor)
)

var vectorConsts = func() (c [constCount][4]float64) {
	set := func(i int, v float64) { c[i] = [4]float64{v, v, v, v} }
	set(constLog2e, log2e)
	set(constMagic, roundMagic)
	set(constLn2Hi, ln2Hi)
	set(constLn2Lo, ln2Lo)
	set(constMin, MinFast)
	set(constMax, MaxFast)
	set(constOne, 1)
	for j, v := range taylor {
		set(constTaylor+j, v)
	}
	return c
}()

// expAVX2 sets dst[i] = e^src[i] for i < n, eight at a time, and returns how
// many it did: a multiple of eight, stopping early before the first step
// that holds a NaN or an argument outside [MinFast, MaxFast].
//
//go:noescape
func expAVX2(dst, src *float64, n int, c *[constCount][4]float64) int

// expVector runs the vector kernel over the longest prefix it can take and
// returns its length (0 without the kernel).
func expVector(dst, src []float64) int {
	if !useVector || len(src) < vectorStep {
		return 0
	}
	_ = dst[len(src)-1]
	return expAVX2(&dst[0], &src[0], len(src), &vectorConsts)
}
