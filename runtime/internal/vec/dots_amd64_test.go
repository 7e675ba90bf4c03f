//go:build !purego

package vec

import (
	"math"
	"testing"
)

// TestVectorAndPortableDotsAgree computes Dots4x3 and Dots4x1 with the
// AVX2/FMA kernels and with the portable loops (as on CPUs without them),
// for lengths with and without a tail the kernels leave to the loops, and
// compares the sums to 1e-13 relative to the sums of absolute products.
func TestVectorAndPortableDotsAgree(t *testing.T) {
	if !useFMA {
		t.Skip("the CPU has no AVX2/FMA: only the portable loops can run")
	}
	const size = 123
	v := make([]float64, 7*size)
	for i := range v {
		v[i] = math.Sin(float64(3*i + 1))
	}
	rows := [GroupRows][]float64{v[:size], v[size : 2*size], v[2*size : 3*size], v[3*size : 4*size]}
	p0, p1, p2 := v[4*size:5*size], v[5*size:6*size], v[6*size:]
	run := func(vector bool, n int) (s3 [GroupRows * GroupPoints]float64, s1 [GroupRows]float64) {
		defer func(saved bool) { useFMA = saved }(useFMA)
		useFMA = vector
		Dots4x3(&rows, n, p0, p1, p2, &s3)
		Dots4x1(&rows, n, p1, &s1)
		return s3, s1
	}
	for _, n := range []int{0, 1, 3, 4, 7, 64, 122, 123} {
		s3, s1 := run(true, n)
		w3, w1 := run(false, n)
		for r := range GroupRows {
			for k, p := range [][]float64{p0, p1, p2} {
				want := Dot(rows[r][:n], p) // any order: the tolerance covers it
				scale := 0.0
				for c := range n {
					scale += math.Abs(rows[r][c] * p[c])
				}
				if got := s3[3*r+k]; math.Abs(got-want) > 1e-13*scale || math.Abs(w3[3*r+k]-want) > 1e-13*scale {
					t.Errorf("n=%d, row %d, point %d: vector %v, portable %v, want %v", n, r, k, got, w3[3*r+k], want)
				}
				if k == 1 && (s1[r] != s3[3*r+1] || w1[r] != w3[3*r+1]) {
					t.Errorf("n=%d, row %d: Dots4x1 %v and %v, Dots4x3 %v and %v", n, r, s1[r], w1[r], s3[3*r+1], w3[3*r+1])
				}
			}
		}
	}
}

// BenchmarkDots4x3 times the kernel on rows of 496 elements (in the L1
// cache) and reports the time per multiply-add.
func BenchmarkDots4x3(b *testing.B) {
	const n = 496
	v := make([]float64, 7*n)
	for i := range v {
		v[i] = 1 / float64(i+1)
	}
	rows := [GroupRows][]float64{v[:n], v[n : 2*n], v[2*n : 3*n], v[3*n : 4*n]}
	var s [GroupRows * GroupPoints]float64
	for b.Loop() {
		Dots4x3(&rows, n, v[4*n:5*n], v[5*n:6*n], v[6*n:], &s)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(GroupRows*GroupPoints*n), "ns/madd")
	if math.IsNaN(s[0]) {
		b.Fatal("NaN")
	}
}
