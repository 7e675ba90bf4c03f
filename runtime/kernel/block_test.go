package kernel

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
)

// blockTolerance is the relative difference allowed between Block and
// Stationary.Eval (math.Exp, math.Pow): a few ulps of fastexp and of RQMix's
// one-fraction form.
const blockTolerance = 1e-14

// blockPoints returns n points of R^d, seeded, mostly near the unit cube and
// a few far from it (RQMix's large-distance branch).
func blockPoints(n, d int, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 3))
	p := make([]float64, n*d)
	for i := range p {
		p[i] = rng.Float64()
		if i%37 == 0 {
			p[i] = 1e9 * (rng.Float64() - 0.5)
		}
	}
	return p
}

// TestBlockMatchesEval checks Row, RowSum (weighted and not) and Eval of a
// Block against Stationary.Eval for every family, shared and ARD
// lengthscales, and rows longer than a chunk, with RQMix's vector kernel
// and without.
func TestBlockMatchesEval(t *testing.T) {
	forEachRQMixMode(t, testBlockMatchesEval)
}

func testBlockMatchesEval(t *testing.T) {
	for f, name := range familyNames {
		for _, ls := range [][]float64{{0.3}, {0.2, 0.7, 0.05}, {0.01}} {
			d := len(ls)
			if d == 1 {
				d = 2
			}
			t.Run(fmt.Sprintf("%s/%v", name, ls), func(t *testing.T) {
				k, err := Named(name, 1.7, 0.8, ls)
				if err != nil {
					t.Fatal(err)
				}
				inv := make([]float64, len(ls))
				for i, l := range ls {
					inv[i] = 1 / (l * l)
				}
				b := Block{Family: Family(f), Variance: 1.7, Alpha: k.alpha, InvSquared: inv}
				const n = 150
				points, a := blockPoints(n, d, uint64(f)), blockPoints(1, d, 99)
				w := blockPoints(n, 1, 5)
				out := make([]float64, n)
				b.Row(a, points, out)
				var sum, weighted float64
				for j := range n {
					want := k.Eval(a, points[j*d:(j+1)*d])
					closeTo(t, fmt.Sprintf("Row[%d]", j), out[j], want)
					closeTo(t, fmt.Sprintf("Eval[%d]", j), b.Eval(a, points[j*d:(j+1)*d]), want)
					sum, weighted = sum+want, weighted+w[j]*want
				}
				closeTo(t, "RowSum", b.RowSum(a, points, nil), sum)
				closeTo(t, "weighted RowSum", b.RowSum(a, points, w), weighted)
			})
		}
	}
}

// TestPairSum checks PairSum against the weighted sum of the kernel's
// values pair by pair, for every family, with and without weights, over
// sample sets whose pairs fill chunks unevenly (rows shorter and longer than
// a chunk), with RQMix's vector kernel and without.
func TestPairSum(t *testing.T) {
	forEachRQMixMode(t, testPairSum)
}

func testPairSum(t *testing.T) {
	for f, name := range familyNames {
		for _, sizes := range [][3]int{{1, 1, 1}, {10, 10, 1}, {7, 13, 3}, {3, 70, 2}, {100, 100, 1}} {
			nu, nv, d := sizes[0], sizes[1], sizes[2]
			t.Run(fmt.Sprintf("%s/%dx%d/d=%d", name, nu, nv, d), func(t *testing.T) {
				ls := []float64{0.3}
				k, err := Named(name, 1.3, 0.8, ls)
				if err != nil {
					t.Fatal(err)
				}
				b := Block{Family: Family(f), Variance: 1.3, Alpha: k.alpha, InvSquared: []float64{1 / (ls[0] * ls[0])}}
				u, v := blockPoints(nu, d, uint64(nu)), blockPoints(nv, d, uint64(nv)+50)
				wu, wv := testWeights(nu, 7), testWeights(nv, 8)
				var sum, weighted float64
				for i := range nu {
					for j := range nv {
						kij := k.Eval(u[i*d:(i+1)*d], v[j*d:(j+1)*d])
						sum, weighted = sum+kij, weighted+wu[i]*wv[j]*kij
					}
				}
				closeTo(t, "PairSum", b.PairSum(u, v, d, nil, nil), sum)
				closeTo(t, "weighted PairSum", b.PairSum(u, v, d, wu, wv), weighted)
			})
		}
	}
}

// TestPairSumVectorModesAgree checks that RQMix's PairSum gives the same
// bits with the AVX2 kernel (chunks of pairs) and the AVX-512 ones (rows
// through the fused kernel where they are a multiple of four points long).
// Where a row holds a value the kernels leave to the portable path, the
// portable step takes that value's neighbours in the row or in the chunk,
// so the sums may differ in the last bits: there they must agree to 1e-15.
func TestPairSumVectorModesAgree(t *testing.T) {
	modes := vectorRQMixModes(t)
	if len(modes) < 2 {
		t.Skip("no AVX-512")
	}
	for bi, b := range rqMixBlocks {
		b.InvSquared = []float64{30}
		for _, nu := range []int{1, 3, 7} {
			for _, nv := range []int{4, 8, 9, 10, 11, 12, 13, 36, 70, 96, 100, 101, 132, 135} {
				for _, huge := range []bool{false, true} {
					u, v := blockPoints(nu, 1, uint64(nu)), blockPoints(nv, 1, uint64(nv)+50)
					if huge {
						v[nv/2] = 1e200 // beyond the kernels' limit
					}
					var got [2]float64
					for m, mode := range modes {
						mode.set()
						got[m] = b.PairSum(u, v, 1, nil, nil)
					}
					if rel := math.Abs(got[0]-got[1]) / math.Abs(got[0]); !huge && got[0] != got[1] || !(rel <= 1e-15) {
						t.Errorf("block %d, %d×%d, huge %v: %s %v, %s %v", bi, nu, nv, huge, modes[0].name, got[0], modes[1].name, got[1])
					}
				}
			}
		}
	}
}

// testWeights returns n weights in [−0.5, 1.5), without blockPoints' huge
// values: a weighted sum of those cancels, and any two summation orders
// then differ by more than the tolerance.
func testWeights(n int, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 4))
	w := make([]float64, n)
	for i := range w {
		w[i] = 2*rng.Float64() - 0.5
	}
	return w
}

// TestBlockTermLengthscales checks RQMix's per-term lengthscales against
// the sum of five RQ kernels whose lengthscales are the products, with the
// vector kernel and without.
func TestBlockTermLengthscales(t *testing.T) {
	forEachRQMixMode(t, testBlockTermLengthscales)
}

func testBlockTermLengthscales(t *testing.T) {
	ls, terms := []float64{0.3, 0.6}, []float64{0.5, 1, 2, 0.1, 3}
	invTerms := make([]float64, len(terms))
	for i, l := range terms {
		invTerms[i] = 1 / (l * l)
	}
	b := Block{Family: RQMix, Variance: 0.9, InvSquared: []float64{1 / (ls[0] * ls[0]), 1 / (ls[1] * ls[1])}, TermInvSquared: invTerms}
	points, a := blockPoints(100, 2, 1), []float64{0.4, 0.5}
	out := make([]float64, 100)
	b.Row(a, points, out)
	for j := range out {
		var want float64
		for i, shape := range rqMixShapes {
			want += NewRQ(0.9, shape, []float64{ls[0] * terms[i], ls[1] * terms[i]}).Eval(a, points[2*j:2*j+2])
		}
		closeTo(t, fmt.Sprintf("Row[%d]", j), out[j], want)
	}
}

// TestBlockAllocatesNothing checks that Row, RowSum and PairSum allocate nothing,
// with the slices built where they are called, as emitted code does.
func TestBlockAllocatesNothing(t *testing.T) {
	points, a := blockPoints(100, 1, 2), []float64{0.5}
	out := make([]float64, 100)
	l := 0.2
	var sink float64
	allocs := testing.AllocsPerRun(20, func() {
		b := Block{Family: RQMix, Variance: 1, InvSquared: []float64{1 / (l * l)}, TermInvSquared: []float64{1, 2, 3, 4, l}}
		b.Row(a, points, out)
		sink += b.RowSum(a, points, out)
		sink += b.PairSum(points[:30], points, 1, out[:30], out)
	})
	if allocs != 0 {
		t.Errorf("%v allocations per Row, RowSum and PairSum, want 0", allocs)
	}
	_ = sink
}

func closeTo(t *testing.T, name string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > blockTolerance*math.Max(1, math.Abs(want)) {
		t.Errorf("%s = %.17g, want %.17g", name, got, want)
	}
}

// BenchmarkBlockRowSum times RowSum over 100 points of R^1 (a row of AIRBO's
// Table 1 workload) per family, against as many Stationary.Eval calls;
// ns/value is per kernel value.
func BenchmarkBlockRowSum(b *testing.B) {
	// Rows of 10 are Nystrom.Cross's (h = 10), rows of 100 the embedding's
	// and the empirical sums' (m = 100).
	for _, n := range []int{10, 100} {
		points, a := blockPoints(n, 1, 4), []float64{0.5}
		for i := range points {
			points[i] = math.Mod(math.Abs(points[i]), 1)
		}
		for f, name := range familyNames {
			k, _ := Named(name, 1, 0.8, []float64{0.1})
			blk := Block{Family: Family(f), Variance: 1, Alpha: k.alpha, InvSquared: []float64{100}}
			var sink float64
			b.Run(fmt.Sprintf("%s/n=%d/block", name, n), func(b *testing.B) {
				for b.Loop() {
					sink += blk.RowSum(a, points, nil)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/value")
			})
			b.Run(fmt.Sprintf("%s/n=%d/eval", name, n), func(b *testing.B) {
				for b.Loop() {
					for j := range n {
						sink += k.Eval(a, points[j:j+1])
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/value")
			})
			_ = sink
		}
	}
}

// BenchmarkBlockPairSum times the empirical estimator's sum: 100 × 100
// pairs of draws in R^1 (ℓ = 0.1), rqmix, in each of rqMixModes.
func BenchmarkBlockPairSum(b *testing.B) {
	u, v := blockPoints(100, 1, 5), blockPoints(100, 1, 6)
	for i := range u {
		u[i], v[i] = math.Mod(math.Abs(u[i]), 1), math.Mod(math.Abs(v[i]), 1)
	}
	blk := Block{Family: RQMix, Variance: 1, InvSquared: []float64{100}}
	defer restoreRQMixMode()
	var sink float64
	for _, mode := range rqMixModes() {
		b.Run(mode.name, func(b *testing.B) {
			mode.set()
			for b.Loop() {
				sink += blk.PairSum(u, v, 1, nil, nil)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(u)*len(v)), "ns/value")
		})
	}
	_ = sink
}

// TestInverseFifthRoots checks inverseFifthRoots from 1 to 1e300 and at the
// special values: y = x^(−1/5) has relative error −(x·y⁵ − 1)/5, computed
// to 200 bits (math.Pow itself is off by up to 8e-16 here); it must be
// below 4e-16, a few ulps.
func TestInverseFifthRoots(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	x := make([]float64, 200_000)
	for i := range x {
		x[i] = 1 + rng.Float64()*math.Pow(10, float64(i%300)-float64(i%7))
	}
	x = append(x, 1, 2, 1024, math.MaxFloat64)
	got := slices.Clone(x)
	inverseFifthRoots(got)
	worst := 0.0
	one := new(big.Float).SetPrec(200).SetInt64(1)
	for i, v := range x {
		y := new(big.Float).SetPrec(200).SetFloat64(got[i])
		p := new(big.Float).SetPrec(200).SetFloat64(v)
		for range 5 {
			p.Mul(p, y)
		}
		e, _ := p.Sub(p, one).Float64()
		err := math.Abs(e) / 5
		worst = max(worst, err)
		if err > 4e-16 {
			t.Fatalf("inverseFifthRoots(%v) = %v: relative error %.3g", v, got[i], err)
		}
	}
	t.Logf("largest relative error %.3g", worst)
	special := []float64{math.Inf(1), math.NaN()}
	inverseFifthRoots(special)
	if special[0] != 0 || !math.IsNaN(special[1]) {
		t.Errorf("inverseFifthRoots(+Inf, NaN) = %v, want 0, NaN", special)
	}
}
