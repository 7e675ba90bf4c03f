//go:build !purego

package vec

import "github.com/bocdev/boc/runtime/internal/cpufeat"

// useFMA selects the AVX2/FMA kernels for Dots4x3 and Dots4x1; the portable
// loops run where the CPU lacks them. Tests switch it off to check the
// portable path.
var useFMA = cpufeat.AVX2FMA

// dots4x3FMA writes the dot products of a0 … a3 with p0, p1 and p2 over n
// elements (n a multiple of 4) to out, out[3r+k] for row r and point k. Each
// is summed in four lanes, reduced as (l0 + l2) + (l1 + l3).
//
//go:noescape
func dots4x3FMA(a0, a1, a2, a3, p0, p1, p2 *float64, n int, out *[GroupRows * GroupPoints]float64)

// dots4x1FMA is dots4x3FMA for one point, with the same arithmetic.
//
//go:noescape
func dots4x1FMA(a0, a1, a2, a3, p *float64, n int, out *[GroupRows]float64)

// dots4x3Head computes Dots4x3's sums over the longest prefix of [:i] whose
// length is a multiple of four with the vector kernel, if the CPU has one,
// and returns that length (0 without one, s then zeroed).
func dots4x3Head(rows *[GroupRows][]float64, i int, p0, p1, p2 []float64, s *[GroupRows * GroupPoints]float64) int {
	n := i &^ 3
	if !useFMA || n == 0 {
		*s = [GroupRows * GroupPoints]float64{}
		return 0
	}
	_, _, _, _ = rows[0][n-1], rows[1][n-1], rows[2][n-1], rows[3][n-1]
	_, _, _ = p0[n-1], p1[n-1], p2[n-1]
	dots4x3FMA(&rows[0][0], &rows[1][0], &rows[2][0], &rows[3][0], &p0[0], &p1[0], &p2[0], n, s)
	return n
}

// dots4x1Head is dots4x3Head for one point.
func dots4x1Head(rows *[GroupRows][]float64, i int, p []float64, s *[GroupRows]float64) int {
	n := i &^ 3
	if !useFMA || n == 0 {
		*s = [GroupRows]float64{}
		return 0
	}
	_, _, _, _ = rows[0][n-1], rows[1][n-1], rows[2][n-1], rows[3][n-1]
	_ = p[n-1]
	dots4x1FMA(&rows[0][0], &rows[1][0], &rows[2][0], &rows[3][0], &p[0], n, s)
	return n
}
