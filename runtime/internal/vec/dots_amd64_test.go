//go:build !purego

package vec

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/bocdev/boc/runtime/internal/cpufeat"
)

// kernels are the vector kernels this CPU runs, by name.
func kernels() map[string]int {
	k := map[string]int{}
	if cpufeat.AVX2FMA {
		k["AVX2"] = avx2
	}
	if cpufeat.AVX512 {
		k["AVX-512"] = avx512
	}
	return k
}

// TestVectorKernelsArePortableBitForBit computes Dots4x3, Dots4x1 and Dots8x3 with
// each vector kernel the CPU has and with the portable loops (as on CPUs
// without them, or under the purego tag), on random values of mixed signs
// and magnitudes, for lengths with and without a tail left to the loops:
// every sum must be the same float64.
func TestVectorKernelsArePortableBitForBit(t *testing.T) {
	if len(kernels()) == 0 {
		t.Skip("the CPU has no AVX2/FMA: only the portable loops can run")
	}
	const size = 517
	rng := rand.New(rand.NewPCG(1, 2))
	v := make([]float64, 7*size)
	for i := range v {
		v[i] = rng.NormFloat64() * math.Exp(4*rng.NormFloat64())
	}
	rows := [GroupRows][]float64{v[:size], v[size : 2*size], v[2*size : 3*size], v[3*size : 4*size]}
	p0, p1, p2 := v[4*size:5*size], v[5*size:6*size], v[6*size:]
	wide := [WideRows][]float64{rows[0], rows[1], rows[2], rows[3], p2, p1, p0, rows[0]}
	run := func(k, n int) (s3 [GroupRows * GroupPoints]float64, s1 [GroupRows]float64, s8 [WideRows * GroupPoints]float64) {
		defer func(saved int) { kernel = saved }(kernel)
		kernel = k
		Dots4x3(&rows, n, p0, p1, p2, &s3)
		Dots4x1(&rows, n, p1, &s1)
		Dots8x3(&wide, n, p0, p1, p2, &s8)
		return s3, s1, s8
	}
	for name, k := range kernels() {
		for _, n := range []int{0, 1, 7, 8, 9, 15, 16, 64, 123, 500, 516, 517} {
			s3, s1, s8 := run(k, n)
			w3, w1, w8 := run(portable, n)
			if s3 != w3 || s1 != w1 || s8 != w8 {
				t.Errorf("%s, n=%d: Dots4x3 %v, Dots4x1 %v and Dots8x3 %v, portable %v, %v and %v", name, n, s3, s1, s8, w3, w1, w8)
			}
			if [GroupRows * GroupPoints]float64(s8[:GroupRows*GroupPoints]) != s3 {
				t.Errorf("%s, n=%d: Dots8x3's first four rows %v, Dots4x3's %v", name, n, s8[:GroupRows*GroupPoints], s3)
			}
			for r := range GroupRows {
				want := Dot(rows[r][:n], p1) // another order: within rounding
				scale := 0.0
				for c := range n {
					scale += math.Abs(rows[r][c] * p1[c])
				}
				if math.Abs(s3[3*r+1]-want) > 1e-13*scale || s1[r] != s3[3*r+1] {
					t.Errorf("%s, n=%d, row %d: Dots4x3 %v, Dots4x1 %v, Dot %v", name, n, r, s3[3*r+1], s1[r], want)
				}
			}
		}
	}
}

// BenchmarkDots4x3 times each kernel on rows of 496 elements (in the L1
// cache) and reports the time per multiply-add.
func BenchmarkDots4x3(b *testing.B) {
	var s [GroupRows * GroupPoints]float64
	benchmarkKernels(b, GroupRows, func(rows [][]float64, p0, p1, p2 []float64) {
		Dots4x3((*[GroupRows][]float64)(rows), len(p0), p0, p1, p2, &s)
	})
}

// BenchmarkDots8x3 is BenchmarkDots4x3 for Dots8x3.
func BenchmarkDots8x3(b *testing.B) {
	var s [WideRows * GroupPoints]float64
	benchmarkKernels(b, WideRows, func(rows [][]float64, p0, p1, p2 []float64) {
		Dots8x3((*[WideRows][]float64)(rows), len(p0), p0, p1, p2, &s)
	})
}

// benchmarkKernels times dots, the dot products of nRows rows with three
// points of 496 elements each, on every kernel the CPU has and the portable
// loops, and reports the time per multiply-add.
func benchmarkKernels(b *testing.B, nRows int, dots func(rows [][]float64, p0, p1, p2 []float64)) {
	const n = 496
	v := make([]float64, (nRows+GroupPoints)*n)
	for i := range v {
		v[i] = 1 / float64(i+1)
	}
	rows := make([][]float64, nRows)
	for r := range rows {
		rows[r] = v[r*n : (r+1)*n]
	}
	p := v[nRows*n:]
	all := kernels()
	all["portable"] = portable
	for name, k := range all {
		b.Run(name, func(b *testing.B) {
			defer func(saved int) { kernel = saved }(kernel)
			kernel = k
			for b.Loop() {
				dots(rows, p[:n], p[n:2*n], p[2*n:])
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(nRows*GroupPoints*n), "ns/madd")
		})
	}
}
