package acq

import (
	"math"
	"math/big"
	"sync"
	"testing"
)

// refPrecision returns the working precision for the reference at z: 200
// bits beyond the e^{z²/2} ≈ 2^{0.72 z²} cancellation of the Taylor series
// for Φ/φ.
func refPrecision(z float64) uint {
	return 200 + uint(math.Ceil(0.7214*z*z))
}

// refPi is π to 2000 bits from Machin's formula π = 16 atan(1/5) − 4 atan(1/239).
var refPi = sync.OnceValue(func() *big.Float {
	const prec = 2000
	atanInv := func(n int64) *big.Float {
		x := new(big.Float).SetPrec(prec).Quo(big.NewFloat(1).SetPrec(prec), new(big.Float).SetInt64(n))
		x2 := new(big.Float).SetPrec(prec).Mul(x, x)
		sum := new(big.Float).SetPrec(prec).Set(x)
		power := new(big.Float).SetPrec(prec).Set(x)
		for k := int64(1); ; k++ {
			power.Mul(power, x2)
			term := new(big.Float).SetPrec(prec).Quo(power, new(big.Float).SetInt64(2*k+1))
			if k%2 == 1 {
				sum.Sub(sum, term)
			} else {
				sum.Add(sum, term)
			}
			if term.MantExp(nil) < -prec-10 {
				return sum
			}
		}
	}
	pi := new(big.Float).SetPrec(prec).Mul(big.NewFloat(16), atanInv(5))
	return pi.Sub(pi, new(big.Float).SetPrec(prec).Mul(big.NewFloat(4), atanInv(239)))
})

// refExp returns e^x for x >= 0 at precision prec: the Taylor series of
// e^{x/2^k} for x/2^k < 1, squared k times.
func refExp(x *big.Float, prec uint) *big.Float {
	k := max(0, x.MantExp(nil))
	arg := new(big.Float).SetPrec(prec).SetMantExp(x, -k)
	sum := new(big.Float).SetPrec(prec).SetInt64(1)
	term := new(big.Float).SetPrec(prec).SetInt64(1)
	for n := int64(1); ; n++ {
		term.Mul(term, arg)
		term.Quo(term, new(big.Float).SetInt64(n))
		sum.Add(sum, term)
		if term.Sign() == 0 || term.MantExp(nil) < -int(prec)-10 {
			break
		}
	}
	for range k {
		sum.Mul(sum, sum)
	}
	return sum
}

// refHalfSquare returns z²/2 exactly (a float64 squared needs 106 bits).
func refHalfSquare(z float64, prec uint) *big.Float {
	bz := new(big.Float).SetPrec(prec).SetFloat64(z)
	return bz.SetMantExp(bz.Mul(bz, bz), -1)
}

// refPDF returns φ(z) = 1/(√(2π)·e^{z²/2}).
func refPDF(z float64) *big.Float {
	prec := refPrecision(z)
	pdf := new(big.Float).SetPrec(prec).Mul(refPi(), big.NewFloat(2))
	pdf.Sqrt(pdf)
	pdf.Mul(pdf, refExp(refHalfSquare(z, prec), prec))
	return pdf.Quo(big.NewFloat(1).SetPrec(prec), pdf)
}

// refImprovementRatio returns r(z) = h(z)/φ(z) = 1 + z·Φ(z)/φ(z), using
// Φ(z)/φ(z) = √(π/2)·e^{z²/2} + Σ_k z^{2k+1}/(2k+1)!!, a series that shares
// nothing with the implementation's erfc or continued fraction.
func refImprovementRatio(z float64) *big.Float {
	prec := refPrecision(z)
	bz := new(big.Float).SetPrec(prec).SetFloat64(z)
	z2 := new(big.Float).SetPrec(prec).Mul(bz, bz)
	ratio := new(big.Float).SetPrec(prec).Quo(refPi(), big.NewFloat(2))
	ratio.Sqrt(ratio)
	ratio.Mul(ratio, refExp(refHalfSquare(z, prec), prec))
	term := new(big.Float).SetPrec(prec).Set(bz)
	for k := int64(1); ; k++ {
		ratio.Add(ratio, term)
		term.Mul(term, z2)
		term.Quo(term, new(big.Float).SetInt64(2*k+1))
		if float64(k) > z*z && (term.Sign() == 0 || term.MantExp(nil) < -200) {
			break
		}
	}
	r := new(big.Float).SetPrec(prec).Mul(bz, ratio)
	return r.Add(r, big.NewFloat(1))
}

// refImprovement returns h(z) = φ(z)·r(z) rounded once to float64 (zero or
// subnormal where it underflows).
func refImprovement(z float64) float64 {
	h, _ := new(big.Float).SetPrec(refPrecision(z)).Mul(refPDF(z), refImprovementRatio(z)).Float64()
	return h
}

// refLogImprovement is log h(z) = −z²/2 − log√(2π) + log r(z), with z²/2
// rounded once.
func refLogImprovement(z float64) float64 {
	r, _ := refImprovementRatio(z).Float64()
	halfSquare, _ := refHalfSquare(z, refPrecision(z)).Float64()
	return -halfSquare - logSqrt2Pi + math.Log(r)
}

// testPoints covers [−40, 8] in steps of 1/8, plus non-dyadic points on
// both sides of the switch to the continued fraction at z = −5.
func testPoints() []float64 {
	zs := []float64{-37.3, -12.7, -5.0001, -4.9999, -0.3, 2.2}
	for z := -40.0; z <= 8; z += 0.125 {
		zs = append(zs, z)
	}
	return zs
}

func TestEIAgainstHighPrecisionReference(t *testing.T) {
	for _, z := range testPoints() {
		wantLog := refLogImprovement(z)
		if got := LogEI(z, 1, 0, 0); math.Abs(got-wantLog) > 1e-14*math.Max(1, math.Abs(wantLog)) {
			t.Errorf("LogEI at z = %v: %.17g, want %.17g", z, got, wantLog)
		}
		want := refImprovement(z)
		got := EI(z, 1, 0, 0)
		switch {
		case want > 1e-300:
			if math.Abs(got-want) > 1e-14*want {
				t.Errorf("EI at z = %v: %.17g, want %.17g (relative error %.2g)", z, got, want, math.Abs(got-want)/want)
			}
		case want > 0:
			// Subnormal results keep fewer digits, but never drop to zero.
			if !(got > 0) || math.Abs(got-want) > 1e-6*want+0x1p-1074 {
				t.Errorf("EI at z = %v: %g, want %g", z, got, want)
			}
		}
	}
}

// TestEIScaleAndShift checks EI(mean, sd, best, xi) = sd·h((mean−best−xi)/sd)
// in user units, including a scale that rescues a value whose standardised
// improvement would underflow.
func TestEIScaleAndShift(t *testing.T) {
	tests := []struct {
		mean, sd, best, xi float64
	}{
		{3, 2, 1, 0.5},
		{-1, 0.5, 2, 0},
		{10, 1e-3, 10.01, 0},
		{0, 1e10, 3.8e11, 0}, // z = −38: h(z) ≈ 2e-317, EI ≈ 2e-307
	}
	for _, tc := range tests {
		z := (tc.mean - tc.best - tc.xi) / tc.sd
		want := math.Exp(math.Log(tc.sd) + refLogImprovement(z))
		if got := EI(tc.mean, tc.sd, tc.best, tc.xi); math.Abs(got-want) > 1e-12*want {
			t.Errorf("EI%v = %.17g, want %.17g", tc, got, want)
		}
	}
}

func TestDegenerateDeviation(t *testing.T) {
	tests := []struct {
		mean, sd, best, xi float64
		ei, pi             float64
	}{
		{2, 0, 1, 0.5, 0.5, 1},
		{1, 0, 1, 0, 0, 0},
		{0, 0, 1, 0, 0, 0},
		{2, -1, 1, 0, 1, 1},
	}
	for _, tc := range tests {
		if got := EI(tc.mean, tc.sd, tc.best, tc.xi); got != tc.ei {
			t.Errorf("EI(%v, %v, %v, %v) = %v, want %v", tc.mean, tc.sd, tc.best, tc.xi, got, tc.ei)
		}
		if got := PI(tc.mean, tc.sd, tc.best, tc.xi); got != tc.pi {
			t.Errorf("PI(%v, %v, %v, %v) = %v, want %v", tc.mean, tc.sd, tc.best, tc.xi, got, tc.pi)
		}
	}
	if got := LogEI(0, 0, 1, 0); !math.IsInf(got, -1) {
		t.Errorf("LogEI without improvement or uncertainty = %v, want -Inf", got)
	}
}

func TestEIMonotone(t *testing.T) {
	// In mean (sd fixed): LogEI strictly increasing, EI non-decreasing.
	prevLog, prevEI := math.Inf(-1), 0.0
	for mean := -45.0; mean <= 10; mean += 1.0 / 64 {
		l, e := LogEI(mean, 1, 0, 0), EI(mean, 1, 0, 0)
		if !(l > prevLog) || e < prevEI {
			t.Fatalf("not increasing in mean at %v: log %v after %v, EI %v after %v", mean, l, prevLog, e, prevEI)
		}
		prevLog, prevEI = l, e
	}
	// In sd (mean fixed), below and above the incumbent.
	// Strictly below the incumbent; above it the gain from sd can be below
	// one ulp of the improvement, so only non-decreasing is required.
	for _, tc := range []struct {
		mean   float64
		strict bool
	}{{-30, true}, {-3, true}, {0.5, false}} {
		mean := tc.mean
		prevLog, prevEI = math.Inf(-1), 0.0
		for sd := 0.05; sd <= 20; sd *= 1.01 {
			l, e := LogEI(mean, sd, 0, 0), EI(mean, sd, 0, 0)
			if l < prevLog || (tc.strict && l == prevLog) || e < prevEI {
				t.Fatalf("mean %v: not increasing in sd at %v: log %v after %v", mean, sd, l, prevLog)
			}
			prevLog, prevEI = l, e
		}
	}
}

func TestNormal(t *testing.T) {
	for _, z := range []float64{0, 0.5, 1, 3, 8, -1, -4, -4.875, -5, -5.125, -10, -25, -37, -37.625} {
		pdf, _ := refPDF(z).Float64()
		if got := NormPDF(z); math.Abs(got-pdf) > 1e-14*pdf {
			t.Errorf("NormPDF(%v) = %.17g, want %.17g", z, got, pdf)
		}
		// Φ(z) = φ(z)·(r(z) − 1)/z.
		cdf := 0.5
		if z != 0 {
			c := new(big.Float).SetPrec(refPrecision(z)).Sub(refImprovementRatio(z), big.NewFloat(1))
			c.Mul(c, refPDF(z))
			cdf, _ = c.Quo(c, big.NewFloat(z)).Float64()
		}
		if got := NormCDF(z); math.Abs(got-cdf) > 1e-14*cdf {
			t.Errorf("NormCDF(%v) = %.17g, want %.17g", z, got, cdf)
		}
	}
}

func TestPIAndUCB(t *testing.T) {
	if got := UCB(1, 2, 3); got != 7 {
		t.Errorf("UCB(1, 2, 3) = %v, want 7", got)
	}
	if got, want := PI(1, 2, 0, 0), NormCDF(0.5); got != want {
		t.Errorf("PI(1, 2, 0, 0) = %v, want %v", got, want)
	}
	prev := 0.0
	for mean := -10.0; mean <= 10; mean += 0.25 {
		p := PI(mean, 1.5, 0.5, 0.1)
		if p < prev || p < 0 || p > 1 {
			t.Fatalf("PI not a monotone probability at mean %v: %v after %v", mean, p, prev)
		}
		prev = p
	}
}

func TestNoAllocations(t *testing.T) {
	var sink float64
	n := testing.AllocsPerRun(100, func() {
		sink += EI(0.3, 1.2, 1, 0.01) + EI(-50, 1, 0, 0) + LogEI(-50, 1, 0, 0) + PI(0.3, 1, 0, 0) + UCB(1, 1, 2)
		sink += LogPI(-50, 1, 0, 0) + NoisyEI(0.3, 1, 0, 0.2, 0.05) + LogNoisyEI(-50, 1, 0, 0.2, 0.05)
		_, dMean, dSD := LogEIGrad(-50, 1, 0, 0)
		_, _, _, dCov := LogNoisyEIGrad(-50, 1, 0, 0.2, 0.05)
		v, _, _, dPICov := LogNoisyPIGrad(-50, 1, 0, 0.2, 0.05, 0.01)
		sink += dMean + dSD + dCov + v + dPICov + SrinivasWeight(10, 3, 0.1) + IGPUCBBeta(5, 0.1, 1, 0.1)
	})
	if n != 0 {
		t.Errorf("%v allocations", n)
	}
	_ = sink
}

func BenchmarkEI(b *testing.B) {
	for _, bc := range []struct {
		name string
		mean float64
	}{{"z=0.5", 0.5}, {"z=-3", -3}, {"z=-20", -20}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			var sink float64
			for b.Loop() {
				sink += EI(bc.mean, 1, 0, 0)
			}
			_ = sink
		})
	}
}

// TestMillsTailDepth: with the depth millsTerms gives, the continued
// fraction has the bits of a 400-term evaluation, on a fine grid from q = 5
// to 10⁵.
func TestMillsTailDepth(t *testing.T) {
	deep := func(q float64) float64 {
		v := 0.0
		for k := 400; k >= 1; k-- {
			v = float64(k) / (q + v)
		}
		return v
	}
	for q := 5.0; q < 1e5; q *= 1 + 5e-5 {
		if got, want := millsTail(q), deep(q); got != want {
			t.Fatalf("millsTail(%v) = %v, 400 terms give %v", q, got, want)
		}
	}
}
