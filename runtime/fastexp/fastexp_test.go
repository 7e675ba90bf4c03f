package fastexp

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// ulpError returns |got − want| in units of want's last place.
func ulpError(got, want float64) float64 {
	if got == want || math.IsNaN(got) && math.IsNaN(want) {
		return 0
	}
	if math.IsInf(want, 0) || math.IsNaN(want) || math.IsNaN(got) {
		return math.Inf(1)
	}
	ulp := math.Nextafter(want, math.Inf(1)) - want
	return math.Abs(got-want) / ulp
}

// kernelArguments returns count arguments, seeded: most in [−50, 0], the
// range of kernel rows, the rest spread over the whole fast range and just
// outside it.
func kernelArguments(count int, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 1))
	x := make([]float64, count)
	for i := range x {
		switch i % 4 {
		case 0, 1:
			x[i] = -50 * rng.Float64()
		case 2:
			x[i] = MinFast + (MaxFast-MinFast)*rng.Float64()
		default:
			x[i] = -760 + 1480*rng.Float64()
		}
	}
	return x
}

// TestAgreesWithMathExp compares Exp (the vector kernel where the CPU has
// one) and expPortable (the portable path) with math.Exp over four million
// arguments. math.Exp is itself off by up to one unit in the last place, so
// the two may differ by two; TestAccuracy measures against exact values.
func TestAgreesWithMathExp(t *testing.T) {
	x := kernelArguments(1<<22, 7)
	got := make([]float64, len(x))
	Exp(got, x)
	for _, p := range paths(got, x) {
		worst, worstAt, maxRel := 0.0, 0.0, 0.0
		for i, xi := range x {
			want, v := math.Exp(xi), p.eval(i)
			if e := ulpError(v, want); e > worst {
				worst, worstAt = e, xi
			}
			if want != 0 && !math.IsInf(want, 0) {
				maxRel = max(maxRel, math.Abs(v-want)/want)
			}
		}
		t.Logf("%s vs math.Exp: %d arguments, max difference %.3g ulp (at %v), max relative difference %.3g",
			p.name, len(x), worst, worstAt, maxRel)
		if worst > 2 || maxRel > 5e-16 {
			t.Errorf("%s: %.3g ulp (relative %.3g) from math.Exp at x = %v, want <= 2 ulp", p.name, worst, maxRel, worstAt)
		}
	}
}

// TestAccuracy measures the error against e^x computed exactly (to 200
// bits, then rounded) at twenty thousand arguments, for Exp, the portable
// path and, for comparison, math.Exp.
func TestAccuracy(t *testing.T) {
	x := kernelArguments(20000, 5)
	for i := range x {
		x[i] = max(MinFast, min(MaxFast, x[i]))
	}
	got := make([]float64, len(x))
	Exp(got, x)
	exact := make([]float64, len(x))
	for i, xi := range x {
		exact[i] = exactExp(xi)
	}
	all := append(paths(got, x), path{"math.Exp", func(i int) float64 { return math.Exp(x[i]) }})
	for _, p := range all {
		worst, worstAt := 0.0, 0.0
		for i := range x {
			if e := ulpError(p.eval(i), exact[i]); e > worst {
				worst, worstAt = e, x[i]
			}
		}
		t.Logf("%s: max error %.3g ulp (at %v) against the correctly rounded e^x", p.name, worst, worstAt)
		if p.name != "math.Exp" && worst > 1 {
			t.Errorf("%s: error %.3g ulp at x = %v, want <= 1", p.name, worst, worstAt)
		}
	}
}

// path is one way of computing the exponentials of a test's arguments.
type path struct {
	name string
	eval func(i int) float64
}

// paths returns Exp's results (got) and the portable path's.
func paths(got, x []float64) []path {
	return []path{
		{"Exp", func(i int) float64 { return got[i] }},
		{"portable", func(i int) float64 {
			var v [1]float64
			expPortable(v[:], x[i:i+1])
			return v[0]
		}},
	}
}

// exactExp returns e^x correctly rounded (barring a tie closer than 2⁻¹⁸⁰),
// from ln 2 and the Taylor series of e^r summed in 200-bit arithmetic.
func exactExp(x float64) float64 {
	const prec = 200
	k := math.Round(x / math.Ln2)
	r := new(big.Float).SetPrec(prec).SetFloat64(k)
	r.Mul(r, bigLn2)
	r.Sub(new(big.Float).SetPrec(prec).SetFloat64(x), r)
	sum := new(big.Float).SetPrec(prec).SetInt64(1)
	term := new(big.Float).SetPrec(prec).SetInt64(1)
	for j := int64(1); j < 60; j++ {
		term.Mul(term, r)
		term.Quo(term, new(big.Float).SetPrec(prec).SetInt64(j))
		sum.Add(sum, term)
	}
	sum.SetMantExp(sum, int(k))
	v, _ := sum.Float64()
	return v
}

// bigLn2 is ln 2 to 70 digits.
var bigLn2, _ = new(big.Float).SetPrec(230).SetString("0.6931471805599453094172321214581765680755001343602552541206800094933936")

// TestSpecialValues checks the arguments the polynomial does not take (they
// must give math.Exp's results bit for bit) and the edges of the fast range,
// at every position of a vector step.
func TestSpecialValues(t *testing.T) {
	specials := []float64{
		math.NaN(), math.Inf(-1), math.Inf(1), -746, -745.1332, -745, -720, -708.4,
		math.Nextafter(MinFast, math.Inf(-1)), MinFast, MaxFast, math.Nextafter(MaxFast, math.Inf(1)),
		709.78, 709.79, 710, 1e300, -1e300, 0, math.Copysign(0, -1), 1e-300, -1e-300,
		math.SmallestNonzeroFloat64, 1, -1, 0.5 * math.Ln2, -0.5 * math.Ln2,
	}
	for _, s := range specials {
		for pos := range 17 {
			x := make([]float64, 17)
			for i := range x {
				x[i] = -0.25 * float64(i)
			}
			x[pos] = s
			got := make([]float64, len(x))
			Exp(got, x)
			for i, xi := range x {
				want := math.Exp(xi)
				fast := xi >= MinFast && xi <= MaxFast
				if !fast && math.Float64bits(got[i]) != math.Float64bits(want) && !(math.IsNaN(got[i]) && math.IsNaN(want)) {
					t.Errorf("Exp(%v) at position %d = %v, want math.Exp's %v", xi, i, got[i], want)
				}
				if fast && ulpError(got[i], want) > 2 {
					t.Errorf("Exp(%v) at position %d = %v, want %v to 2 ulp of math.Exp", xi, i, got[i], want)
				}
			}
		}
	}
}

// TestLengthsAndAliasing runs every length up to 40, in place and into a
// longer destination, which must be left alone past len(src).
func TestLengthsAndAliasing(t *testing.T) {
	for n := range 41 {
		x := kernelArguments(n, uint64(n))
		want := make([]float64, n)
		for i, xi := range x {
			want[i] = math.Exp(xi)
		}
		dst := make([]float64, n+3)
		for i := range dst {
			dst[i] = -1
		}
		Exp(dst, x)
		Exp(x, x)
		for i := range n {
			if ulpError(dst[i], want[i]) > 2 || dst[i] != x[i] {
				t.Errorf("n=%d: element %d: %v into dst, %v in place, want %v", n, i, dst[i], x[i], want[i])
			}
		}
		for i := n; i < len(dst); i++ {
			if dst[i] != -1 {
				t.Errorf("n=%d: Exp wrote dst[%d]", n, i)
			}
		}
	}
}

func TestExpAllocatesNothing(t *testing.T) {
	x := kernelArguments(1000, 3)
	dst := make([]float64, len(x))
	if allocs := testing.AllocsPerRun(10, func() { Exp(dst, x) }); allocs != 0 {
		t.Errorf("Exp allocates %v times per call", allocs)
	}
}

// The benchmarks time a kernel row's worth of exponentials (500).

func benchArguments() ([]float64, []float64) {
	x := kernelArguments(500, 11)
	for i := range x {
		x[i] = -math.Abs(math.Mod(x[i], 40))
	}
	return x, make([]float64, len(x))
}

func BenchmarkExp(b *testing.B) {
	x, dst := benchArguments()
	for b.Loop() {
		Exp(dst, x)
	}
}

func BenchmarkPortable(b *testing.B) {
	x, dst := benchArguments()
	for b.Loop() {
		expPortable(dst, x)
	}
}

func BenchmarkMathExp(b *testing.B) {
	x, dst := benchArguments()
	for b.Loop() {
		for i, xi := range x {
			dst[i] = math.Exp(xi)
		}
	}
}
