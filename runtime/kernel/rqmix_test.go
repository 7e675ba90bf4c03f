package kernel

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// withAndWithoutVector runs f as a subtest with rqMix's vector kernel off
// and, where the CPU has one, as another with it on.
func withAndWithoutVector(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	have := useVector
	t.Cleanup(func() { useVector = have })
	for _, on := range []bool{false, true} {
		if on && !have {
			continue
		}
		name := map[bool]string{false: "portable", true: "vector"}[on]
		t.Run(name, func(t *testing.T) {
			useVector = on
			f(t)
		})
	}
}

// rqMixInputs returns n squared distances, seeded: mostly up to 4, a few 0,
// tiny (down to 1e-300) or spread over 1e-20 to 1e50 (across the limit of
// the vector kernel's fraction), and rarely NaN, +Inf or huge.
func rqMixInputs(n int, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 9))
	specials := []float64{math.NaN(), math.Inf(1), 1e300, math.MaxFloat64}
	x := make([]float64, n)
	for i := range x {
		switch k := rng.IntN(64); {
		case k == 0:
			x[i] = specials[rng.IntN(len(specials))]
		case k < 4:
			x[i] = 0
		case k < 8:
			x[i] = math.Pow(10, -300+290*rng.Float64())
		case k < 16:
			x[i] = math.Pow(10, -20+70*rng.Float64())
		default:
			x[i] = 4 * rng.Float64()
		}
	}
	return x
}

// rqMixBlocks are the Blocks the rqMix tests use: without per-term
// lengthscales and with them, variances other than 1.
var rqMixBlocks = []Block{
	{Family: RQMix, Variance: 1.7},
	{Family: RQMix, Variance: 0.37, TermInvSquared: []float64{4, 1, 0.25, 100, 1.0 / 9}},
}

// TestRQMixVectorMatchesPortable compares rqMix with the vector kernel and
// without on every length up to 70, so that vector steps end at every
// position, about 200 000 values; the two must agree to 2e-15 relative
// (the kernel's fused multiply-adds round differently; both are within 5
// ulps of the exact values).
func TestRQMixVectorMatchesPortable(t *testing.T) {
	if !useVector {
		t.Skip("no vector kernel")
	}
	t.Cleanup(func() { useVector = true })
	worstRel, worstULP, worstAt := 0.0, 0.0, 0.0
	count := 0
	for bi, b := range rqMixBlocks {
		for n := 1; n <= 70; n++ {
			for seed := range 40 {
				x := rqMixInputs(n, uint64(1000*bi+100*n+seed))
				got, want, arg := slices.Clone(x), slices.Clone(x), make([]float64, n)
				useVector = true
				b.rqMix(got, arg)
				useVector = false
				b.rqMix(want, arg)
				for j, xj := range x {
					count++
					g, w := got[j], want[j]
					if g == w || math.IsNaN(g) && math.IsNaN(w) {
						continue
					}
					rel := math.Abs(g-w) / math.Abs(w)
					if ulp := math.Abs(g-w) / (math.Nextafter(math.Abs(w), math.Inf(1)) - math.Abs(w)); ulp > worstULP {
						worstULP = ulp
					}
					if rel > worstRel {
						worstRel, worstAt = rel, xj
					}
					if !(rel <= 2e-15) {
						t.Errorf("block %d, n=%d, r² = %v: vector %v, portable %v (relative %.3g)", bi, n, xj, g, w, rel)
					}
				}
			}
		}
	}
	t.Logf("%d values: largest relative difference %.3g (at r² = %v), %.3g ulp", count, worstRel, worstAt, worstULP)
}

// TestRQMixVectorStops checks where the vector kernel stops: before the
// step holding a value it leaves to the portable path (not a number, beyond
// the fraction's limit near 1.2e36 for these scales, or negative), for
// every position of such a value in a row of 35, or at the end, the last
// partial step included.
func TestRQMixVectorStops(t *testing.T) {
	if !useVector {
		t.Skip("no vector kernel")
	}
	c := rqMixScales
	for _, s := range []float64{math.NaN(), math.Inf(1), -1, 1e37, 1e300, 1e36} {
		for pos := range 35 {
			x := make([]float64, 35)
			for j := range x {
				x[j] = 0.1 * float64(j)
			}
			x[pos] = s
			want := pos / rqMixStep * rqMixStep
			if s == 1e36 {
				want = len(x)
			}
			if got := rqMixVector(x, &c, 1); got != want {
				t.Errorf("r² = %v at %d: the vector kernel did %d values, want %d", s, pos, got, want)
			}
		}
	}
}

func TestRQMixAllocatesNothing(t *testing.T) {
	x := rqMixInputs(blockChunk, 5)
	arg := make([]float64, len(x))
	b := rqMixBlocks[1]
	if allocs := testing.AllocsPerRun(10, func() { b.rqMix(x, arg) }); allocs != 0 {
		t.Errorf("rqMix allocates %v times per call", allocs)
	}
}

// BenchmarkRQMix times rqMix alone on a chunk of squared distances up to 4,
// with the vector kernel where the CPU has one and without.
func BenchmarkRQMix(b *testing.B) {
	x := rqMixInputs(blockChunk, 7)
	for j := range x {
		x[j] = 4 * float64(j) / blockChunk
	}
	r2, arg := make([]float64, len(x)), make([]float64, len(x))
	blk := rqMixBlocks[1]
	have := useVector
	defer func() { useVector = have }()
	for _, on := range []bool{true, false} {
		if on && !have {
			continue
		}
		name := map[bool]string{false: "portable", true: "vector"}[on]
		b.Run(name, func(b *testing.B) {
			useVector = on
			for b.Loop() {
				copy(r2, x)
				blk.rqMix(r2, arg)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(x)), "ns/value")
		})
	}
}
