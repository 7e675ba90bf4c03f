package kernel

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// rqMixMode is one way rqMix can run: portable, or with one of the vector
// kernels.
type rqMixMode struct {
	name           string
	vector, avx512 bool
}

// haveVector and haveAVX512 are the kernels this machine has.
var haveVector, haveAVX512 = useVector, useAVX512

// rqMixModes returns the portable mode and a mode for each vector kernel
// the CPU has.
func rqMixModes() []rqMixMode {
	modes := []rqMixMode{{name: "portable"}}
	if haveVector {
		modes = append(modes, rqMixMode{name: "avx2", vector: true})
	}
	if haveAVX512 {
		modes = append(modes, rqMixMode{name: "avx512", vector: true, avx512: true})
	}
	return modes
}

func (m rqMixMode) set() { useVector, useAVX512 = m.vector, m.avx512 }

func restoreRQMixMode() { useVector, useAVX512 = haveVector, haveAVX512 }

// forEachRQMixMode runs f as a subtest in each of rqMixModes.
func forEachRQMixMode(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	t.Cleanup(restoreRQMixMode)
	for _, m := range rqMixModes() {
		t.Run(m.name, func(t *testing.T) {
			m.set()
			f(t)
		})
	}
}

// vectorRQMixModes returns rqMixModes without the portable mode, skipping
// t where there is none.
func vectorRQMixModes(t *testing.T) []rqMixMode {
	t.Helper()
	modes := rqMixModes()[1:]
	if len(modes) == 0 {
		t.Skip("no vector kernel")
	}
	t.Cleanup(restoreRQMixMode)
	return modes
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
	for _, mode := range vectorRQMixModes(t) {
		t.Run(mode.name, func(t *testing.T) {
			worstRel, worstULP, worstAt := 0.0, 0.0, 0.0
			count := 0
			for bi, b := range rqMixBlocks {
				for n := 1; n <= 70; n++ {
					for seed := range 40 {
						x := rqMixInputs(n, uint64(1000*bi+100*n+seed))
						got, want, arg := slices.Clone(x), slices.Clone(x), make([]float64, n)
						mode.set()
						b.rqMix(got, arg)
						rqMixModes()[0].set()
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
		})
	}
}

// TestRQMixAVX512MatchesAVX2 checks that the two vector kernels give the
// same bits, so that a run does not depend on which one the CPU has.
func TestRQMixAVX512MatchesAVX2(t *testing.T) {
	modes := vectorRQMixModes(t)
	if len(modes) < 2 {
		t.Skip("no AVX-512")
	}
	for bi, b := range rqMixBlocks {
		for n := 1; n <= 70; n++ {
			for seed := range 40 {
				x := rqMixInputs(n, uint64(1000*bi+100*n+seed))
				avx2, avx512, arg := slices.Clone(x), slices.Clone(x), make([]float64, n)
				modes[0].set()
				b.rqMix(avx2, arg)
				modes[1].set()
				b.rqMix(avx512, arg)
				for j, xj := range x {
					if math.Float64bits(avx2[j]) != math.Float64bits(avx512[j]) {
						t.Fatalf("block %d, n=%d, r² = %v: AVX2 %v, AVX-512 %v", bi, n, xj, avx2[j], avx512[j])
					}
				}
			}
		}
	}
}

// TestRQMixVectorStops checks where the vector kernel stops: before the
// step holding a value it leaves to the portable path (not a number, beyond
// the fraction's limit near 1.2e36 for these scales, or negative), for
// every position of such a value in a row of 35, or at the end, the last
// partial step included.
func TestRQMixVectorStops(t *testing.T) {
	c := rqMixScales
	for _, mode := range vectorRQMixModes(t) {
		mode.set()
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
					t.Errorf("%s: r² = %v at %d: the vector kernel did %d values, want %d", mode.name, s, pos, got, want)
				}
			}
		}
	}
}

func TestRQMixAllocatesNothing(t *testing.T) {
	x := rqMixInputs(blockChunk, 5)
	arg := make([]float64, len(x))
	b := rqMixBlocks[1]
	forEachRQMixMode(t, func(t *testing.T) {
		if allocs := testing.AllocsPerRun(10, func() { b.rqMix(x, arg) }); allocs != 0 {
			t.Errorf("rqMix allocates %v times per call", allocs)
		}
	})
}

// BenchmarkRQMix times rqMix alone on a chunk of squared distances up to 4,
// in each of rqMixModes.
func BenchmarkRQMix(b *testing.B) {
	x := make([]float64, blockChunk)
	for j := range x {
		x[j] = 4 * float64(j) / blockChunk
	}
	r2, arg := make([]float64, len(x)), make([]float64, len(x))
	blk := rqMixBlocks[1]
	defer restoreRQMixMode()
	for _, mode := range rqMixModes() {
		b.Run(mode.name, func(b *testing.B) {
			mode.set()
			for b.Loop() {
				copy(r2, x)
				blk.rqMix(r2, arg)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(x)), "ns/value")
		})
	}
}
