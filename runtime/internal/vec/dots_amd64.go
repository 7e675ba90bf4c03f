//go:build !purego

package vec

import (
	"math"

	"github.com/bocdev/boc/runtime/internal/cpufeat"
)

// kernel is the vector kernel Dots4x3, Dots4x1 and Dots8x3 run on: AVX-512
// where the CPU has it, else AVX2/FMA, else none (the portable loops).
// Tests switch it to check every path against the portable one.
var kernel = bestKernel()

// The kernels kernel selects.
const (
	portable = iota
	avx2
	avx512
)

func bestKernel() int {
	switch {
	case cpufeat.AVX512:
		return avx512
	case cpufeat.AVX2FMA:
		return avx2
	}
	return portable
}

// dots4x3AVX512 writes the lane sums of Dots4x3 (package comment of Lanes)
// over the first n elements (n a multiple of Lanes) of the rows a0 … a3 and
// points p0 … p2 to out, out[3r+k] for row r and point k: one ZMM register
// per sum.
//
//go:noescape
func dots4x3AVX512(a0, a1, a2, a3, p0, p1, p2 *float64, n int, out *[GroupRows * GroupPoints]float64)

// dots4x3AVX2 is dots4x3AVX512 with the eight lanes in two passes of four
// YMM lanes, the first kept on the stack.
//
//go:noescape
func dots4x3AVX2(a0, a1, a2, a3, p0, p1, p2 *float64, n int, out *[GroupRows * GroupPoints]float64)

// dots4x1AVX512 is dots4x3AVX512 for one point.
//
//go:noescape
func dots4x1AVX512(a0, a1, a2, a3, p *float64, n int, out *[GroupRows]float64)

// dots4x1AVX2 is dots4x3AVX2 for one point, in one pass (two YMM registers
// per sum).
//
//go:noescape
func dots4x1AVX2(a0, a1, a2, a3, p *float64, n int, out *[GroupRows]float64)

// dots8x3AVX512 is dots4x3AVX512 for eight rows, out[3r+k] for row r and
// point k.
//
//go:noescape
func dots8x3AVX512(a0, a1, a2, a3, a4, a5, a6, a7, p0, p1, p2 *float64, n int, out *[WideRows * GroupPoints]float64)

// dots4x3Vector computes Dots4x3's lane sums over the first head elements
// (a multiple of Lanes; the slices at least that long) with the vector
// kernel, if the CPU has one, and reports whether it did.
func dots4x3Vector(a0, a1, a2, a3, p0, p1, p2 []float64, head int, s *[GroupRows * GroupPoints]float64) bool {
	if head == 0 {
		*s = [GroupRows * GroupPoints]float64{}
		return true
	}
	_, _, _, _, _, _, _ = a0[head-1], a1[head-1], a2[head-1], a3[head-1], p0[head-1], p1[head-1], p2[head-1]
	switch kernel {
	case avx512:
		dots4x3AVX512(&a0[0], &a1[0], &a2[0], &a3[0], &p0[0], &p1[0], &p2[0], head, s)
	case avx2:
		dots4x3AVX2(&a0[0], &a1[0], &a2[0], &a3[0], &p0[0], &p1[0], &p2[0], head, s)
	default:
		return false
	}
	return true
}

// dots4x1Vector is dots4x3Vector for one point.
func dots4x1Vector(a0, a1, a2, a3, p []float64, head int, s *[GroupRows]float64) bool {
	if head == 0 {
		*s = [GroupRows]float64{}
		return true
	}
	_, _, _, _, _ = a0[head-1], a1[head-1], a2[head-1], a3[head-1], p[head-1]
	switch kernel {
	case avx512:
		dots4x1AVX512(&a0[0], &a1[0], &a2[0], &a3[0], &p[0], head, s)
	case avx2:
		dots4x1AVX2(&a0[0], &a1[0], &a2[0], &a3[0], &p[0], head, s)
	default:
		return false
	}
	return true
}

// dots8x3Vector computes Dots8x3 with the AVX-512 kernel, if the CPU has it
// and n is at least Lanes, and reports whether it did.
func dots8x3Vector(rows *[WideRows][]float64, n int, p0, p1, p2 []float64, s *[WideRows * GroupPoints]float64) bool {
	head := n &^ (Lanes - 1)
	if kernel != avx512 || head == 0 {
		return false
	}
	for _, a := range rows {
		_ = a[n-1]
	}
	_, _, _ = p0[n-1], p1[n-1], p2[n-1]
	dots8x3AVX512(&rows[0][0], &rows[1][0], &rows[2][0], &rows[3][0], &rows[4][0], &rows[5][0], &rows[6][0], &rows[7][0],
		&p0[0], &p1[0], &p2[0], head, s)
	if head == n {
		return true
	}
	// The rest one element at a time, in Dots4x3's order.
	for r, a := range rows {
		for k, p := range [GroupPoints][]float64{p0, p1, p2} {
			sum := s[GroupPoints*r+k]
			for c := head; c < n; c++ {
				sum = math.FMA(a[c], p[c], sum)
			}
			s[GroupPoints*r+k] = sum
		}
	}
	return true
}
