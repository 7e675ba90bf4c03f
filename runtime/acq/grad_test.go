package acq

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/bocdev/boc/runtime/search"
)

// gradCase is a posterior (mean, sd) against best with xi = 0.1, chosen so
// that z = (mean − best − xi)/sd covers the centre, both branches of the tail
// switch at z = −5, and the far tail where EI and PI underflow.
type gradCase struct{ mean, sd float64 }

var gradCases = []gradCase{
	{2.1, 1}, {0.4, 0.5}, {0.1, 2}, {-0.9, 1}, {-3.9, 1}, {-5.5, 1}, {-19.9, 1}, {-79.9, 2}, {-1e4, 3},
}

const gradBest, gradXi = 0, 0.1

// centralDifference is the derivative of f at x by a central difference
// with a relative step.
func centralDifference(f func(float64) float64, x float64) float64 {
	h := 1e-6 * max(1, math.Abs(x))
	return (f(x+h) - f(x-h)) / (2 * h)
}

// checkDerivative compares an analytic derivative with a central difference,
// to 1e-6 relative to the larger of the two and the function's scale.
func checkDerivative(t *testing.T, what string, got float64, f func(float64) float64, x float64) {
	t.Helper()
	want := centralDifference(f, x)
	if math.IsNaN(got) || math.Abs(got-want) > 1e-6*max(math.Abs(want), math.Abs(got), 1e-300) && math.Abs(got-want) > 1e-9 {
		t.Errorf("%s = %.12g, finite difference %.12g", what, got, want)
	}
}

// gradFunc is a value-and-gradient function of (mean, sd) and the plain
// function it differentiates.
type gradFunc struct {
	name  string
	grad  func(mean, sd float64) (v, dMean, dSD float64)
	plain func(mean, sd float64) float64
	log   bool // defined (finite) everywhere, not only where it is normal
}

var gradFuncs = []gradFunc{
	{"UCB", func(m, s float64) (float64, float64, float64) { return UCBGrad(m, s, 2.5) },
		func(m, s float64) float64 { return UCB(m, s, 2.5) }, true},
	{"PI", func(m, s float64) (float64, float64, float64) { return PIGrad(m, s, gradBest, gradXi) },
		func(m, s float64) float64 { return PI(m, s, gradBest, gradXi) }, false},
	{"LogPI", func(m, s float64) (float64, float64, float64) { return LogPIGrad(m, s, gradBest, gradXi) },
		func(m, s float64) float64 { return LogPI(m, s, gradBest, gradXi) }, true},
	{"EI", func(m, s float64) (float64, float64, float64) { return EIGrad(m, s, gradBest, gradXi) },
		func(m, s float64) float64 { return EI(m, s, gradBest, gradXi) }, false},
	{"LogEI", func(m, s float64) (float64, float64, float64) { return LogEIGrad(m, s, gradBest, gradXi) },
		func(m, s float64) float64 { return LogEI(m, s, gradBest, gradXi) }, true},
}

// TestGradientsMatchFiniteDifferences checks every ...Grad function's value
// against the plain function and its derivatives against central
// differences; the plain (not log-space) acquisitions only where their value
// is a normal number, the log-space ones everywhere.
func TestGradientsMatchFiniteDifferences(t *testing.T) {
	for _, fn := range gradFuncs {
		for _, c := range gradCases {
			t.Run(fmt.Sprintf("%s/%g,%g", fn.name, c.mean, c.sd), func(t *testing.T) {
				v, dMean, dSD := fn.grad(c.mean, c.sd)
				if want := fn.plain(c.mean, c.sd); v != want {
					t.Errorf("value %v, plain function %v", v, want)
				}
				if !fn.log && !(math.Abs(v) >= 1e-290) {
					return
				}
				if math.IsInf(v, 0) || math.IsNaN(v) {
					t.Fatalf("value %v", v)
				}
				checkDerivative(t, "d/dmean", dMean, func(m float64) float64 { return fn.plain(m, c.sd) }, c.mean)
				checkDerivative(t, "d/dsd", dSD, func(s float64) float64 { return fn.plain(c.mean, s) }, c.sd)
			})
		}
	}
}

// TestNoisyEIGradients checks NoisyEIGrad, LogNoisyEIGrad and
// LogNoisyPIGrad against central differences in the candidate's mean, sd and covariance with the
// incumbent.
func TestNoisyEIGradients(t *testing.T) {
	const bestMean, bestSD = 0.5, 0.3
	type noisy func(mean, sd, bestMean, bestSD, cov float64) float64
	type noisyGrad func(mean, sd, bestMean, bestSD, cov float64) (v, dMean, dSD, dCov float64)
	for _, fn := range []struct {
		name  string
		plain noisy
		grad  noisyGrad
	}{
		{"NoisyEI", NoisyEI, NoisyEIGrad},
		{"LogNoisyEI", LogNoisyEI, LogNoisyEIGrad},
		{"LogNoisyPI", logNoisyPI(0.05), logNoisyPIGrad(0.05)},
	} {
		for _, c := range []struct{ mean, sd, cov float64 }{
			{1, 1, 0.1}, {0.5, 0.4, 0.05}, {-1, 0.5, -0.02}, {-4, 0.6, 0.01},
		} {
			t.Run(fmt.Sprintf("%s/%g,%g,%g", fn.name, c.mean, c.sd, c.cov), func(t *testing.T) {
				v, dMean, dSD, dCov := fn.grad(c.mean, c.sd, bestMean, bestSD, c.cov)
				if want := fn.plain(c.mean, c.sd, bestMean, bestSD, c.cov); v != want {
					t.Errorf("value %v, plain function %v", v, want)
				}
				checkDerivative(t, "d/dmean", dMean, func(m float64) float64 { return fn.plain(m, c.sd, bestMean, bestSD, c.cov) }, c.mean)
				checkDerivative(t, "d/dsd", dSD, func(s float64) float64 { return fn.plain(c.mean, s, bestMean, bestSD, c.cov) }, c.sd)
				checkDerivative(t, "d/dcov", dCov, func(k float64) float64 { return fn.plain(c.mean, c.sd, bestMean, bestSD, k) }, c.cov)
			})
		}
	}
}

// logNoisyPI and logNoisyPIGrad fix LogNoisyPI's and LogNoisyPIGrad's ξ.
func logNoisyPI(xi float64) func(mean, sd, bestMean, bestSD, cov float64) float64 {
	return func(mean, sd, bestMean, bestSD, cov float64) float64 {
		return LogNoisyPI(mean, sd, bestMean, bestSD, cov, xi)
	}
}

func logNoisyPIGrad(xi float64) func(mean, sd, bestMean, bestSD, cov float64) (v, dMean, dSD, dCov float64) {
	return func(mean, sd, bestMean, bestSD, cov float64) (v, dMean, dSD, dCov float64) {
		return LogNoisyPIGrad(mean, sd, bestMean, bestSD, cov, xi)
	}
}

// TestNoisyEIMonteCarlo compares the corrected noisy EI and PI with Monte
// Carlo estimates of E[max(f(x) − f(x⁺), 0)] and P(f(x) − f(x⁺) > ξ) under the
// bivariate normal posterior of (f(x), f(x⁺)), to four standard errors.
func TestNoisyEIMonteCarlo(t *testing.T) {
	const samples = 400_000
	rng := rand.New(rand.NewPCG(7, 11))
	for _, c := range []struct{ mean, sd, bestMean, bestSD, rho float64 }{
		{0, 1, 0, 0.5, 0},
		{0.3, 0.8, 0.5, 0.4, 0.6},
		{-1, 0.5, 0, 0.9, -0.4},
		{2, 0.2, 1, 1, 0.95},
		{0.1, 0.3, 0, 0.3, 0.999},
	} {
		cov := c.rho * c.sd * c.bestSD
		const xi = 0.1
		sum, sumSq, improved := 0.0, 0.0, 0
		for range samples {
			a, b := rng.NormFloat64(), rng.NormFloat64()
			fx := c.mean + c.sd*a
			fBest := c.bestMean + c.bestSD*(c.rho*a+math.Sqrt(1-c.rho*c.rho)*b)
			gain := max(fx-fBest, 0)
			sum += gain
			sumSq += gain * gain
			if gain > xi {
				improved++
			}
		}
		estimate := sum / samples
		stderr := math.Sqrt((sumSq/samples - estimate*estimate) / samples)
		got := NoisyEI(c.mean, c.sd, c.bestMean, c.bestSD, cov)
		if math.Abs(got-estimate) > 4*stderr {
			t.Errorf("%+v: NoisyEI = %.6g, Monte Carlo %.6g ± %.2g", c, got, estimate, stderr)
		}
		// The binomial standard error, at least that of one sample in all.
		p := float64(improved) / samples
		if got, stderr := NoisyPI(c.mean, c.sd, c.bestMean, c.bestSD, cov, xi), max(math.Sqrt(p*(1-p)/samples), 1.0/samples); math.Abs(got-p) > 4*stderr {
			t.Errorf("%+v: NoisyPI = %.6g, Monte Carlo %.6g ± %.2g", c, got, p, stderr)
		}
	}
}

// TestNoisyEIReducesToEI: with a noise-free incumbent (σ(x⁺) = 0, so cov = 0)
// corrected noisy EI is EI and corrected PI is PI; a certain difference
// (σ̃ = 0) gives max(u, 0) and the step of u.
func TestNoisyEIReducesToEI(t *testing.T) {
	for _, c := range gradCases {
		if got, want := NoisyEI(c.mean, c.sd, 0.7, 0, 0), EI(c.mean, c.sd, 0.7, 0); got != want {
			t.Errorf("NoisyEI(%v, %v, 0.7, 0, 0) = %v, EI %v", c.mean, c.sd, got, want)
		}
		if got, want := LogNoisyEI(c.mean, c.sd, 0.7, 0, 0), LogEI(c.mean, c.sd, 0.7, 0); got != want {
			t.Errorf("LogNoisyEI(%v, %v, 0.7, 0, 0) = %v, LogEI %v", c.mean, c.sd, got, want)
		}
		if got, want := LogNoisyPI(c.mean, c.sd, 0.7, 0, 0, 0.1), LogPI(c.mean, c.sd, 0.7, 0.1); got != want {
			t.Errorf("LogNoisyPI(%v, %v, 0.7, 0, 0, 0.1) = %v, LogPI %v", c.mean, c.sd, got, want)
		}
	}
	// x = x⁺: σ̃² = σ² + σ² − 2σ² = 0 and u = 0.
	if got := NoisyEI(0.4, 0.3, 0.4, 0.3, 0.09); got != 0 {
		t.Errorf("NoisyEI at the incumbent = %v, want 0", got)
	}
	if got := NoisyEI(0.9, 0.3, 0.4, 0.3, 0.09); got != 0.5 {
		t.Errorf("NoisyEI of a certain improvement 0.5 = %v", got)
	}
	if got := NoisyPI(0.4, 0.3, 0.4, 0.3, 0.09, 0); got != 0 {
		t.Errorf("NoisyPI at the incumbent = %v, want 0", got)
	}
	if got := NoisyPI(0.9, 0.3, 0.4, 0.3, 0.09, 0.2); got != 1 {
		t.Errorf("NoisyPI of a certain improvement 0.5 by more than 0.2 = %v, want 1", got)
	}
	if got := NoisyPI(0.9, 0.3, 0.4, 0.3, 0.09, 0.6); got != 0 {
		t.Errorf("NoisyPI of a certain improvement 0.5 by more than 0.6 = %v, want 0", got)
	}
}

// TestLogPI checks LogPI against log Φ where Φ is a normal number and
// against the asymptotic series log φ(z) − log q + log(1 − 1/q² + 3/q⁴ − 15/q⁶)
// far beyond it.
func TestLogPI(t *testing.T) {
	for _, z := range []float64{3, 0.5, 0, -2, -5, -5.5, -12, -30} {
		if got, want := LogPI(z, 1, 0, 0), math.Log(NormCDF(z)); !closeRel(got, want, 1e-14) {
			t.Errorf("LogPI at z = %v: %v, want %v", z, got, want)
		}
	}
	for _, q := range []float64{100, 1e3, 1e6} {
		want := -0.5*q*q - logSqrt2Pi - math.Log(q) + math.Log1p(-1/(q*q)+3/(q*q*q*q)-15/math.Pow(q, 6))
		if got := LogPI(-q, 1, 0, 0); !closeRel(got, want, 1e-14) {
			t.Errorf("LogPI at z = %v: %v, want %v", -q, got, want)
		}
	}
	if got := LogPI(1, 0, 2, 0); !math.IsInf(got, -1) {
		t.Errorf("LogPI of a certain non-improvement = %v, want -Inf", got)
	}
}

func closeRel(got, want, rel float64) bool {
	return math.Abs(got-want) <= rel*math.Abs(want)
}

// TestLogSpaceSearchLeavesUnderflow is the reason the search maximises the
// logarithm: a posterior whose mean rises towards u = 1 but lies ~1000
// standard deviations below the incumbent everywhere makes EI and PI exactly
// 0 on the whole cube, a flat surface without a direction, while their
// logarithms still rise, so the search ends at the better end.
func TestLogSpaceSearchLeavesUnderflow(t *testing.T) {
	posterior := func(u []float64) (mean, sd float64) { return -1000 + 10*u[0], 1 }
	for _, c := range []struct {
		name     string
		plain    func(mean, sd float64) float64
		logSpace func(mean, sd float64) float64
	}{
		{"EI", func(m, s float64) float64 { return EI(m, s, 0, 0) }, func(m, s float64) float64 { return LogEI(m, s, 0, 0) }},
		{"PI", func(m, s float64) float64 { return PI(m, s, 0, 0) }, func(m, s float64) float64 { return LogPI(m, s, 0, 0) }},
		{"NoisyEI", func(m, s float64) float64 { return NoisyEI(m, s, 0, 0.1, 0) },
			func(m, s float64) float64 { return LogNoisyEI(m, s, 0, 0.1, 0) }},
		{"NoisyPI", func(m, s float64) float64 { return NoisyPI(m, s, 0, 0.1, 0, 0) },
			func(m, s float64) float64 { return LogNoisyPI(m, s, 0, 0.1, 0, 0) }},
	} {
		for _, u := range []float64{0, 0.5, 1} {
			if v := c.plain(posterior([]float64{u})); v != 0 {
				t.Fatalf("%s at u = %v is %v: the case does not underflow", c.name, u, v)
			}
		}
		p := search.NewPattern(1, 64, 2)
		out := make([]float64, 1)
		if _, err := p.Maximize(func(u []float64) float64 { return c.logSpace(posterior(u)) }, nil, 3, out); err != nil {
			t.Fatal(err)
		}
		if out[0] < 0.999 {
			t.Errorf("%s: the log-space search ended at u = %v, want the better end u = 1", c.name, out[0])
		}
	}
}

// TestSchedules checks the UCB schedules against values computed by hand and
// the β convention: Srinivas et al.'s β_t enters UCB as √β_t, IGP-UCB's as it
// is.
func TestSchedules(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"SrinivasBeta(1, 2, 0.1)", SrinivasBeta(1, 2, 0.1), 2 * math.Log(math.Pi*math.Pi/0.3)},
		{"SrinivasBeta(10, 4, 0.05)", SrinivasBeta(10, 4, 0.05), 2 * math.Log(1e4*math.Pi*math.Pi/0.15)},
		{"SrinivasBetaFinite(5, 100, 0.01)", SrinivasBetaFinite(5, 100, 0.01), 2 * math.Log(100*25*math.Pi*math.Pi/0.06)},
		{"SrinivasWeight(10, 4, 0.05)²", math.Pow(SrinivasWeight(10, 4, 0.05), 2), SrinivasBeta(10, 4, 0.05)},
		{"IGPUCBBeta(3, 0.2, 1, 0.1)", IGPUCBBeta(3, 0.2, 1, 0.1), 1 + 0.2*math.Sqrt(2*(3+1+math.Log(10)))},
		{"IGPUCBBeta without noise", IGPUCBBeta(math.Inf(1), 0, 1.5, 0.1), 1.5},
		{"UCB with Srinivas's weight", UCB(1, 0.5, SrinivasWeight(3, 2, 0.1)), 1 + math.Sqrt(SrinivasBeta(3, 2, 0.1))*0.5},
	} {
		if !closeRel(c.got, c.want, 1e-13) {
			t.Errorf("%s = %.15g, want %.15g", c.name, c.got, c.want)
		}
	}
	// β_t grows with t and shrinks with δ.
	if !(SrinivasBeta(20, 3, 0.1) > SrinivasBeta(10, 3, 0.1) && SrinivasBeta(10, 3, 0.01) > SrinivasBeta(10, 3, 0.1)) {
		t.Error("SrinivasBeta is not increasing in t and decreasing in δ")
	}
}

// BenchmarkScores measures the scores the search evaluates per candidate,
// in the centre (z = −0.5) and the far tail (z = −30), with their gradients.
func BenchmarkScores(b *testing.B) {
	for _, mean := range []float64{-0.5, -30} {
		for _, bc := range []struct {
			name string
			f    func(mean float64) float64
		}{
			{"LogEI", func(m float64) float64 { return LogEI(m, 1, 0, 0) }},
			{"LogEIGrad", func(m float64) float64 { v, dm, ds := LogEIGrad(m, 1, 0, 0); return v + dm + ds }},
			{"LogPI", func(m float64) float64 { return LogPI(m, 1, 0, 0) }},
			{"LogNoisyEI", func(m float64) float64 { return LogNoisyEI(m, 1, 0, 0.3, 0.1) }},
			{"LogNoisyEIGrad", func(m float64) float64 {
				v, dm, ds, dc := LogNoisyEIGrad(m, 1, 0, 0.3, 0.1)
				return v + dm + ds + dc
			}},
		} {
			b.Run(fmt.Sprintf("%s/z=%g", bc.name, mean), func(b *testing.B) {
				b.ReportAllocs()
				var sink float64
				for b.Loop() {
					sink += bc.f(mean)
				}
				_ = sink
			})
		}
	}
}
