package bench

import (
	"math"
	"testing"
)

// TestGPSample: a draw is deterministic per seed, and over seeds its values
// have the prior's variance 1 and the kernel's correlation exp(−d²/(2ℓ²)).
func TestGPSample(t *testing.T) {
	a, b := []float64{0.1, 0.2}, []float64{0.4, 0.6} // distance 0.5
	if GPSample(a, 0.5, 7) != GPSample(a, 0.5, 7) || GPSample(a, 0.5, 7) == GPSample(a, 0.5, 8) {
		t.Fatal("the same seed must give the same function, another seed another")
	}
	const seeds = 2000
	var sa, sb, saa, sbb, sab float64
	for s := range uint64(seeds) {
		fa, fb := GPSample(a, 0.5, s), GPSample(b, 0.5, s)
		sa, sb, saa, sbb, sab = sa+fa, sb+fb, saa+fa*fa, sbb+fb*fb, sab+fa*fb
	}
	va, vb := saa/seeds-sa*sa/seeds/seeds, sbb/seeds-sb*sb/seeds/seeds
	corr := (sab/seeds - sa*sb/seeds/seeds) / math.Sqrt(va*vb)
	// Standard errors over 2000 draws: about 0.03 for the variance, 0.02
	// for the correlation.
	if math.Abs(va-1) > 0.15 || math.Abs(vb-1) > 0.15 {
		t.Errorf("variances %.3f and %.3f, want 1", va, vb)
	}
	if want := math.Exp(-0.5); math.Abs(corr-want) > 0.08 {
		t.Errorf("correlation at distance ℓ: %.3f, want %.3f", corr, want)
	}
	if allocs := testing.AllocsPerRun(10, func() { GPSample(a, 0.5, 1) }); allocs != 0 {
		t.Errorf("%v allocations per evaluation", allocs)
	}
}

// BenchmarkGPSample evaluates a 2-D draw: the cost of one evaluation in the
// SGP-UCB paper's experiment.
func BenchmarkGPSample(b *testing.B) {
	x := []float64{0.3, -0.2}
	b.ReportAllocs()
	for b.Loop() {
		GPSample(x, 0.1, 3)
	}
}
