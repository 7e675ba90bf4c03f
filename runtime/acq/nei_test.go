package acq

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// neiCase is a joint normal posterior of n evaluated points and a candidate:
// means, covariance cov (n×n) of the points, the candidate's mean and sd,
// and covs, its covariances with the points.
type neiCase struct {
	means, cov, covs []float64
	mean, sd         float64
}

// randomNEICase draws a positive definite joint covariance of n+1 values
// as BBᵀ + noise·I, the last value the candidate.
func randomNEICase(seed uint64, n int, noise float64) neiCase {
	rng := rand.New(rand.NewPCG(seed, 3))
	m := n + 1
	b := make([]float64, m*m)
	for i := range b {
		b[i] = rng.NormFloat64() * 0.6
	}
	joint := make([]float64, m*m)
	for i := range m {
		for j := range m {
			for k := range m {
				joint[i*m+j] += b[i*m+k] * b[j*m+k]
			}
		}
		joint[i*m+i] += noise
	}
	c := neiCase{means: make([]float64, n), cov: make([]float64, n*n), covs: make([]float64, n)}
	for i := range n {
		c.means[i] = rng.NormFloat64() * 0.5
		copy(c.cov[i*n:(i+1)*n], joint[i*m:i*m+n])
		c.covs[i] = joint[i*m+n]
	}
	c.mean, c.sd = rng.NormFloat64()*0.5, math.Sqrt(joint[m*m-1])
	return c
}

// bruteNEI estimates E[max(f(x) − max_i f(x_i), 0)] by sampling the joint
// normal directly, with its standard error.
func bruteNEI(c neiCase, draws int, seed uint64) (estimate, stderr float64) {
	n, m := len(c.means), len(c.means)+1
	joint := make([]float64, m*m)
	for i := range n {
		copy(joint[i*m:i*m+n], c.cov[i*n:(i+1)*n])
		joint[i*m+n], joint[n*m+i] = c.covs[i], c.covs[i]
	}
	joint[m*m-1] = c.sd * c.sd
	l := make([]float64, m*m) // dense Cholesky factor
	for i := range m {
		for j := range i + 1 {
			s := joint[i*m+j]
			for k := range j {
				s -= l[i*m+k] * l[j*m+k]
			}
			if i == j {
				l[i*m+i] = math.Sqrt(s)
			} else {
				l[i*m+j] = s / l[j*m+j]
			}
		}
	}
	rng := rand.New(rand.NewPCG(seed, 5))
	z, f := make([]float64, m), make([]float64, m)
	sum, sumSq := 0.0, 0.0
	for range draws {
		for i := range z {
			z[i] = rng.NormFloat64()
		}
		for i := range m {
			f[i] = 0
			for k := range i + 1 {
				f[i] += l[i*m+k] * z[k]
			}
		}
		best := math.Inf(-1)
		for i := range n {
			best = max(best, c.means[i]+f[i])
		}
		gain := max(c.mean+f[n]-best, 0)
		sum += gain
		sumSq += gain * gain
	}
	estimate = sum / float64(draws)
	return estimate, math.Sqrt((sumSq/float64(draws) - estimate*estimate) / float64(draws))
}

func prepared(t testing.TB, c neiCase, samples int, seed uint64) (*LatentDraws, []float64) {
	t.Helper()
	f := NewLatentDraws(len(c.means)+2, samples)
	if err := f.Prepare(c.means, c.cov, seed); err != nil {
		t.Fatal(err)
	}
	return f, make([]float64, f.ScratchLen())
}

// TestNEIMonteCarlo compares NEI, with many draws, against sampling the
// joint posterior of the evaluated points and the candidate directly.
func TestNEIMonteCarlo(t *testing.T) {
	for seed := range uint64(6) {
		c := randomNEICase(seed, 1+int(seed), 0.05)
		f, scratch := prepared(t, c, 20_000, seed)
		got := math.Exp(f.LogNEI(c.covs, c.mean, c.sd, scratch))
		want, stderr := bruteNEI(c, 400_000, seed)
		if math.Abs(got-want) > 4*stderr+0.01*want {
			t.Errorf("seed %d: NEI = %.5g, direct sampling %.5g ± %.2g", seed, got, want, stderr)
		}
	}
}

// TestNEIGradient checks LogNEIGrad against central differences of LogNEI
// in the candidate's mean, sd and each covariance.
func TestNEIGradient(t *testing.T) {
	for seed := range uint64(4) {
		c := randomNEICase(seed, 3+int(seed), 0.1)
		f, scratch := prepared(t, c, 64, seed)
		dcovs := make([]float64, len(c.covs))
		v, dMean, dSD := f.LogNEIGrad(c.covs, c.mean, c.sd, scratch, dcovs)
		logNEI := func(covs []float64, mean, sd float64) float64 { return f.LogNEI(covs, mean, sd, scratch) }
		if want := logNEI(c.covs, c.mean, c.sd); v != want {
			t.Errorf("seed %d: LogNEIGrad's value %v, LogNEI %v", seed, v, want)
		}
		name := fmt.Sprintf("seed %d d/dmean", seed)
		checkDerivative(t, name, dMean, func(m float64) float64 { return logNEI(c.covs, m, c.sd) }, c.mean)
		checkDerivative(t, fmt.Sprintf("seed %d d/dsd", seed), dSD, func(s float64) float64 { return logNEI(c.covs, c.mean, s) }, c.sd)
		for i := range c.covs {
			covs := slices.Clone(c.covs)
			checkDerivative(t, fmt.Sprintf("seed %d d/dcov%d", seed, i), dcovs[i], func(k float64) float64 {
				covs[i] = k
				return logNEI(covs, c.mean, c.sd)
			}, c.covs[i])
		}
	}
}

// TestNEIWithoutNoise: when the evaluated points' values are certain (Σ = 0,
// no covariance with the candidate), NEI is EI against their best mean.
func TestNEIWithoutNoise(t *testing.T) {
	c := neiCase{means: []float64{0.2, 0.9, -0.4}, cov: make([]float64, 9), covs: make([]float64, 3), mean: 0.5, sd: 0.7}
	f, scratch := prepared(t, c, 16, 1)
	if got, want := f.LogNEI(c.covs, c.mean, c.sd, scratch), LogEI(c.mean, c.sd, 0.9, 0); math.Abs(got-want) > 1e-14 {
		t.Errorf("LogNEI = %v, LogEI against the best mean %v", got, want)
	}
	empty := NewLatentDraws(4, 8)
	if err := empty.Prepare(nil, nil, 1); err != nil {
		t.Fatal(err)
	}
	if got := empty.LogNEI(nil, 0.3, 1, make([]float64, empty.ScratchLen())); got != 0 {
		t.Errorf("LogNEI before any evaluation = %v, want 0", got)
	}
}

// TestNEILeavesOutNaN: the improvement is measured from the best of the
// points whose mean is not NaN; with none, there is nothing to improve on.
func TestNEILeavesOutNaN(t *testing.T) {
	nan := math.NaN()
	c := neiCase{cov: make([]float64, 16), covs: make([]float64, 4), mean: 0.5, sd: 0.7}
	f := NewLatentDraws(4, 8)
	scratch := make([]float64, f.ScratchLen())
	for _, tc := range []struct {
		means []float64
		want  float64
	}{
		{[]float64{0.2, nan, -0.4, nan}, LogEI(c.mean, c.sd, 0.2, 0)},
		{[]float64{nan, 0.9, -0.4, 0.95}, LogEI(c.mean, c.sd, 0.95, 0)},
		{[]float64{nan, nan, nan, nan}, 0},
	} {
		if err := f.Prepare(tc.means, c.cov, 1); err != nil {
			t.Fatal(err)
		}
		if got := f.LogNEI(c.covs, c.mean, c.sd, scratch); math.Abs(got-tc.want) > 1e-14 {
			t.Errorf("means %v: LogNEI = %v, want %v", tc.means, got, tc.want)
		}
	}
}

// TestNEIDeterministic: the same seed draws the same values, another
// seed others.
func TestNEIDeterministic(t *testing.T) {
	c := randomNEICase(9, 5, 0.1)
	f1, s1 := prepared(t, c, 32, 7)
	f2, s2 := prepared(t, c, 32, 7)
	f3, s3 := prepared(t, c, 32, 8)
	v1, v2, v3 := f1.LogNEI(c.covs, c.mean, c.sd, s1), f2.LogNEI(c.covs, c.mean, c.sd, s2), f3.LogNEI(c.covs, c.mean, c.sd, s3)
	if v1 != v2 || v1 == v3 {
		t.Errorf("seed 7 twice: %v and %v; seed 8: %v", v1, v2, v3)
	}
}

// TestNEIRefusesNaN: a covariance that is not finite is an error, not a
// silent score.
func TestNEIRefusesNaN(t *testing.T) {
	for _, at := range []int{4, 1} { // a variance, a covariance
		c := randomNEICase(2, 3, 0.1)
		c.cov[at], c.cov[3*(at%3)+at/3] = math.NaN(), math.NaN()
		if err := NewLatentDraws(3, 8).Prepare(c.means, c.cov, 1); err == nil {
			t.Errorf("Prepare accepted a NaN at %d", at)
		}
	}
}

func TestNEINoAllocations(t *testing.T) {
	c := randomNEICase(3, 12, 0.1)
	f, scratch := prepared(t, c, 32, 1)
	dcovs := make([]float64, len(c.covs))
	var sink float64
	n := testing.AllocsPerRun(50, func() {
		if err := f.Prepare(c.means, c.cov, 2); err != nil {
			t.Fatal(err)
		}
		sink += f.LogNEI(c.covs, c.mean, c.sd, scratch)
		v, dm, ds := f.LogNEIGrad(c.covs, c.mean, c.sd, scratch, dcovs)
		sink += v + dm + ds
	})
	if n != 0 {
		t.Errorf("%v allocations", n)
	}
	_ = sink
}

// BenchmarkNEI measures the score of one candidate and its gradient, and a
// suggestion's preparation, for 60 evaluated points and 32 draws.
func BenchmarkNEI(b *testing.B) {
	c := randomNEICase(4, 60, 0.1)
	f, scratch := prepared(b, c, 32, 1)
	dcovs := make([]float64, len(c.covs))
	b.Run("LogNEI", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			f.LogNEI(c.covs, c.mean, c.sd, scratch)
		}
	})
	b.Run("LogNEIGrad", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			f.LogNEIGrad(c.covs, c.mean, c.sd, scratch, dcovs)
		}
	})
	b.Run("Prepare", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := f.Prepare(c.means, c.cov, 2); err != nil {
				b.Fatal(err)
			}
		}
	})
}
