package acq

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// kgCase is a random knowledge-gradient problem: n evaluated points with
// means and covariances with a candidate, the candidate's posterior and the
// observation noise.
type kgCase struct {
	means, covs           []float64
	mean, variance, noise float64
}

func randomKGCase(r *rand.Rand, n int) kgCase {
	c := kgCase{means: make([]float64, n), covs: make([]float64, n)}
	c.variance = 0.05 + r.Float64()
	c.noise = r.Float64() * 0.5
	c.mean = r.NormFloat64()
	for i := range n {
		c.means[i] = r.NormFloat64()
		// |cov| <= σ(x)·σ(s) with prior variance about 1.
		c.covs[i] = (2*r.Float64() - 1) * math.Sqrt(c.variance) * 0.8
	}
	return c
}

// monteCarloKG is E[max_s (a_s + b_s Z)] − μ⁺ by sampling, μ⁺ the best of
// the evaluated points' means (the candidate's without them).
func monteCarloKG(c kgCase, draws int, r *rand.Rand) (mean, stderr float64) {
	s := math.Sqrt(c.variance + c.noise)
	best := c.mean
	if len(c.means) > 0 {
		best = slices.Max(c.means)
	}
	sum, sum2 := 0.0, 0.0
	for range draws {
		z := r.NormFloat64()
		top := c.mean + c.variance/s*z
		for i, m := range c.means {
			top = max(top, m+c.covs[i]/s*z)
		}
		gain := top - best
		sum += gain
		sum2 += gain * gain
	}
	mean = sum / float64(draws)
	return mean, math.Sqrt((sum2/float64(draws) - mean*mean) / float64(draws))
}

func TestKGMatchesMonteCarlo(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 3, 10, 40} {
		for range 5 {
			c := randomKGCase(r, n)
			lines := make([]Line, n+1)
			got := KG(c.means, c.covs, c.mean, math.Sqrt(c.variance), c.noise, lines)
			want, se := monteCarloKG(c, 400000, r)
			if math.Abs(got-want) > 5*se+1e-12 {
				t.Errorf("n = %d: KG = %.6g, Monte Carlo %.6g ± %.2g", n, got, want, se)
			}
		}
	}
}

// Without noise the evaluated points' covariances vanish and KG is EI
// against the best posterior mean.
func TestKGWithoutNoiseIsEI(t *testing.T) {
	means := []float64{0.3, -1, 0.7, 0.1}
	covs := make([]float64, len(means))
	lines := make([]Line, len(means)+1)
	for _, m := range []float64{-40, -3, 0, 0.7, 1.5} {
		for _, sd := range []float64{0.01, 0.3, 2} {
			got := LogKG(means, covs, m, sd, 0, lines)
			want := LogEI(m, sd, 0.7, 0)
			if math.Abs(got-want) > 1e-12*max(1, math.Abs(want)) {
				t.Errorf("mean %g sd %g: LogKG %.15g, LogEI %.15g", m, sd, got, want)
			}
		}
	}
}

// Far from everything KG underflows but its logarithm still ranks candidates.
func TestLogKGTail(t *testing.T) {
	means := []float64{0, 0.5}
	covs := []float64{0, 0.001}
	lines := make([]Line, 3)
	prev := math.Inf(-1)
	for _, m := range []float64{-1e3, -100, -40, -10, -1} {
		v := LogKG(means, covs, m, 1, 0.1, lines)
		if math.IsInf(v, 0) || math.IsNaN(v) || v <= prev {
			t.Errorf("LogKG at mean %g = %g after %g: want finite and increasing", m, v, prev)
		}
		prev = v
	}
}

func TestKGDegenerate(t *testing.T) {
	lines := make([]Line, 3)
	if v := LogKG([]float64{1, 2}, []float64{0, 0}, 0, 0, 0, lines); !math.IsInf(v, -1) {
		t.Errorf("no variance, no noise: LogKG = %g, want -Inf", v)
	}
	// Every line parallel: the observation moves every mean alike.
	if v := LogKG([]float64{1, 2}, []float64{1, 1}, 0, 1, 0, lines); !math.IsInf(v, -1) {
		t.Errorf("parallel lines: LogKG = %g, want -Inf", v)
	}
	dcovs := []float64{7, 7}
	v, dm, dv := LogKGGrad([]float64{1, 2}, []float64{0, 0}, 0, 0, 0, lines, dcovs)
	if !math.IsInf(v, -1) || dm != 0 || dv != 0 || dcovs[0] != 0 || dcovs[1] != 0 {
		t.Errorf("LogKGGrad without variance = %g, %g, %g, %v; want -Inf and zeros", v, dm, dv, dcovs)
	}
}

func TestLogKGGrad(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 4, 25} {
		for range 10 {
			c := randomKGCase(r, n)
			lines := make([]Line, n+1)
			dcovs := make([]float64, n)
			sd := math.Sqrt(c.variance)
			v, dMean, dSD := LogKGGrad(c.means, c.covs, c.mean, sd, c.noise, lines, dcovs)
			if want := LogKG(c.means, c.covs, c.mean, sd, c.noise, lines); v != want {
				t.Fatalf("LogKGGrad value %g, LogKG %g", v, want)
			}
			at := func(mean, sd float64, covs []float64) float64 {
				return LogKG(c.means, covs, mean, sd, c.noise, lines)
			}
			checkDerivative(t, "dMean", dMean, func(m float64) float64 { return at(m, sd, c.covs) }, c.mean)
			checkDerivative(t, "dSD", dSD, func(s float64) float64 { return at(c.mean, s, c.covs) }, sd)
			for i := range n {
				covs := append([]float64(nil), c.covs...)
				checkDerivative(t, "dCov", dcovs[i], func(x float64) float64 { covs[i] = x; return at(c.mean, sd, covs) }, c.covs[i])
			}
		}
	}
}

func TestKGAllocatesNothing(t *testing.T) {
	c := randomKGCase(rand.New(rand.NewPCG(5, 6)), 30)
	lines := make([]Line, 31)
	dcovs := make([]float64, 30)
	if a := testing.AllocsPerRun(100, func() {
		LogKG(c.means, c.covs, c.mean, 0.5, c.noise, lines)
		LogKGGrad(c.means, c.covs, c.mean, 0.5, c.noise, lines, dcovs)
	}); a != 0 {
		t.Errorf("%g allocations per call, want 0", a)
	}
}

func BenchmarkLogKGGrad(b *testing.B) {
	c := randomKGCase(rand.New(rand.NewPCG(7, 8)), 100)
	lines := make([]Line, 101)
	dcovs := make([]float64, 100)
	for b.Loop() {
		LogKGGrad(c.means, c.covs, c.mean, 0.5, c.noise, lines, dcovs)
	}
}

// Pruning keeps every line of the envelope: the knowledge gradient is the
// same as from all lines sorted, on sets where most slopes are near 0 (the
// evaluated points far from the candidate) and on sets with ties.
func TestKGPruneKeepsTheEnvelope(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for trial := range 300 {
		n := 1 + r.IntN(60)
		c := randomKGCase(r, n)
		for i := range c.covs {
			switch trial % 3 {
			case 0:
				c.covs[i] *= math.Pow(10, -6*r.Float64()) // mostly tiny
			case 1:
				c.covs[i] = math.Round(4*c.covs[i]) / 4 // ties
				c.means[i] = math.Round(2*c.means[i]) / 2
			}
		}
		sd := math.Sqrt(c.variance)
		lines := make([]Line, n+1)
		got := LogKG(c.means, c.covs, c.mean, sd, c.noise, lines)

		s := math.Sqrt(c.variance + c.noise)
		all := make([]Line, n+1)
		for i, m := range c.means {
			all[i] = Line{a: m, b: c.covs[i] / s, point: i}
		}
		all[n] = Line{a: c.mean, b: c.variance / s, point: n}
		slices.SortFunc(all, byslope)
		want, _ := withGain(logSum(upperEnvelope(all)), c.means, c.mean)
		if math.Abs(got-want) > 1e-12*max(1, math.Abs(want)) {
			t.Fatalf("trial %d: pruned LogKG %.15g, from all lines %.15g", trial, got, want)
		}
	}
}

// TestKGLeavesOutNaN: an evaluated point whose mean is NaN is left out: KG
// and its gradient are those without it, and its covariance's derivative
// is 0.
func TestKGLeavesOutNaN(t *testing.T) {
	means, covs := []float64{0.2, math.NaN(), 0.5, 0.1}, []float64{0.1, 0.3, 0.2, -0.05}
	kept, keptCovs := []float64{0.2, 0.5, 0.1}, []float64{0.1, 0.2, -0.05}
	lines := make([]Line, 5)
	for _, mean := range []float64{0.3, 0.7} {
		dcovs, keptD := make([]float64, 4), make([]float64, 3)
		v, dm, ds := LogKGGrad(means, covs, mean, 0.4, 0.01, lines, dcovs)
		w, wm, ws := LogKGGrad(kept, keptCovs, mean, 0.4, 0.01, lines, keptD)
		if v != w || dm != wm || ds != ws || dcovs[1] != 0 || dcovs[0] != keptD[0] || dcovs[2] != keptD[1] || dcovs[3] != keptD[2] {
			t.Errorf("mean %v: %v %v %v %v, without the point %v %v %v %v", mean, v, dm, ds, dcovs, w, wm, ws, keptD)
		}
		if got := LogKG(means, covs, mean, 0.4, 0.01, lines); got != w {
			t.Errorf("mean %v: LogKG %v, without the point %v", mean, got, w)
		}
	}
}
