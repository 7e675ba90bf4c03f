//go:build !purego

package gp

import (
	"math"
	"testing"
)

// TestVectorAndPortableDotsAgree runs the batch solve with the AVX2/FMA
// kernels and with the portable loops (as on CPUs without them) and
// compares the results to 1e-12 relative.
func TestVectorAndPortableDotsAgree(t *testing.T) {
	if !useFMA {
		t.Skip("the CPU has no AVX2/FMA: only the portable loops can run")
	}
	const n, m = 123, 17
	p := newProblem(8, n, 4, 0.3, true)
	g := filled(t, p, n, n)
	kstar, kself := batchQueries(p, n, m, 4)
	run := func(vector bool) (mean, variance, v []float64) {
		defer func(saved bool) { useFMA = saved }(useFMA)
		useFMA = vector
		v = append([]float64(nil), kstar...)
		mean, variance = make([]float64, m), make([]float64, m)
		g.PredictBatch(v, m, kself, mean, variance)
		return mean, variance, v
	}
	mean, variance, v := run(true)
	wantMean, wantVar, wantV := run(false)
	for j := range m {
		if mean[j] != wantMean[j] {
			t.Errorf("point %d: mean %v, portable %v (kᵀα does not use the kernels)", j, mean[j], wantMean[j])
		}
		if math.Abs(variance[j]-wantVar[j]) > 1e-12*g.Scale()*g.Scale()*kself[j] {
			t.Errorf("point %d: variance %v, portable %v", j, variance[j], wantVar[j])
		}
	}
	for i := range v {
		if math.Abs(v[i]-wantV[i]) > 1e-12*(1+math.Abs(wantV[i])) {
			t.Fatalf("solved vector entry %d: %v, portable %v", i, v[i], wantV[i])
		}
	}
}

// BenchmarkDots4x3 times the batch solve's inner kernel on rows of 496
// elements (in the L1 cache) and reports the time per multiply-add.
func BenchmarkDots4x3(b *testing.B) {
	const n = 496
	v := make([]float64, 7*n)
	for i := range v {
		v[i] = 1 / float64(i+1)
	}
	rows := [groupRows][]float64{v[:n], v[n : 2*n], v[2*n : 3*n], v[3*n : 4*n]}
	var s [groupRows * groupPoints]float64
	for b.Loop() {
		dots4x3(&rows, n, v[4*n:5*n], v[5*n:6*n], v[6*n:], &s)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(groupRows*groupPoints*n), "ns/madd")
	if math.IsNaN(s[0]) {
		b.Fatal("NaN")
	}
}
