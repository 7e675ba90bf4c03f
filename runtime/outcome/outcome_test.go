package outcome

import (
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/bocdev/boc/runtime/acq"
	"github.com/bocdev/boc/runtime/gp"
	"github.com/bocdev/boc/runtime/kernel"
)

// purity and temperature are two outcomes over [0, 1]²: purity must be at
// least 0.5 (it is where x + y ≥ 1), temperature at most 0.2 (where x ≤ 0.6).
func purity(u []float64) float64      { return u[0] + u[1] - 0.5 }
func temperature(u []float64) float64 { return u[0] - 0.4 }

func constraints(learn bool) []Output {
	c := []Output{
		{Name: "purity", Kernel: kernel.NewStationary(kernel.SE, 1, []float64{0.5}), NoiseVariance: 1e-4,
			Limit: &Limit{Threshold: 0.5, AtLeast: true, Confidence: 0.95}},
		{Name: "temperature", Kernel: kernel.NewStationary(kernel.Matern52, 1, []float64{0.5, 0.5}), Limit: &Limit{Threshold: 0.2, Confidence: 0.9}},
	}
	if learn {
		c[0].Learned, c[0].Lower, c[0].Upper = []bool{false, true}, []float64{0, 0.05}, []float64{0, 5}
	}
	return c
}

// observed returns models of constraints that observed n random points.
func observed(t testing.TB, learn bool, n int) *Models {
	t.Helper()
	m, err := New(constraints(learn), 2, 64, 1, 5)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range n {
		u := []float64{rng.Float64(), rng.Float64()}
		if err := m.Observe(u, []float64{purity(u), temperature(u)}); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

// TestLogFeasibility: the log probability is the sum over the constraints
// of log Φ of the posterior's distance to the limit, in sds, on the safe
// side; it is near 0 well inside both limits and very negative outside one.
func TestLogFeasibility(t *testing.T) {
	m := observed(t, false, 30)
	for _, u := range [][]float64{{0.3, 0.9}, {0.5, 0.5}, {0.9, 0.9}, {0.1, 0.1}, {0.55, 0.6}} {
		want := 0.0
		for k, c := range constraints(false) {
			mean, sd := m.Posterior(0, k, u)
			z := (mean - c.Limit.Threshold) / sd
			if !c.Limit.AtLeast {
				z = -z
			}
			want += math.Log(acq.NormCDF(z))
		}
		got := m.LogFeasibility(0, u, nil)
		if math.Abs(got-want) > 1e-9*max(1, math.Abs(want)) {
			t.Errorf("at %v: %v, want %v", u, got, want)
		}
	}
	if p := math.Exp(m.LogFeasibility(0, []float64{0.3, 0.9}, nil)); p < 0.99 {
		t.Errorf("well inside both limits: probability %v", p)
	}
	if lp := m.LogFeasibility(0, []float64{0.9, 0.9}, nil); lp > -10 {
		t.Errorf("past the temperature limit by 0.3: log probability %v", lp)
	}
}

// TestLogFeasibilityGradient checks the gradient against central
// differences, learned hyperparameters included.
func TestLogFeasibilityGradient(t *testing.T) {
	m := observed(t, true, 20)
	const h = 1e-6
	for _, u := range [][]float64{{0.3, 0.7}, {0.52, 0.48}, {0.61, 0.45}, {0.2, 0.2}} {
		grad := make([]float64, 2)
		v := m.LogFeasibility(0, u, grad)
		if plain := m.LogFeasibility(0, u, nil); math.Abs(plain-v) > 1e-12*max(1, math.Abs(v)) {
			t.Errorf("at %v: %v with the gradient, %v without", u, v, plain)
		}
		for j := range u {
			up, down := append([]float64(nil), u...), append([]float64(nil), u...)
			up[j] += h
			down[j] -= h
			fd := (m.LogFeasibility(0, up, nil) - m.LogFeasibility(0, down, nil)) / (2 * h)
			if math.Abs(grad[j]-fd) > 1e-5*max(1, math.Abs(fd)) {
				t.Errorf("at %v, component %d: gradient %v, central difference %v", u, j, grad[j], fd)
			}
		}
	}
}

// TestFeasibility: at the evaluated points, the probability of meeting both
// limits is near 1 where the values do with a margin, near 0 where one
// breaks them by a margin.
func TestFeasibility(t *testing.T) {
	m := observed(t, false, 30)
	for i := range m.Len() {
		u := m.Unit(i)
		margin := min(purity(u)-0.5, 0.2-temperature(u))
		p := m.Feasibility(0, i)
		switch {
		case margin > 0.05 && (p < 0.95 || !m.Feasible(i)):
			t.Errorf("point %v, inside by %.3f: probability %v, feasible %v", u, margin, p, m.Feasible(i))
		case margin < -0.05 && (p > 0.05 || m.Feasible(i)):
			t.Errorf("point %v, outside by %.3f: probability %v, feasible %v", u, -margin, p, m.Feasible(i))
		}
		// Feasible asks each constraint for its own confidence.
		each := true
		for k, c := range constraints(false) {
			mean, sd := m.Posterior(0, k, u)
			z := (mean - c.Limit.Threshold) / sd
			if !c.Limit.AtLeast {
				z = -z
			}
			each = each && acq.NormCDF(z) >= c.Limit.Confidence
		}
		if m.Feasible(i) != each {
			t.Errorf("point %v: Feasible %v, each constraint at its confidence %v", u, m.Feasible(i), each)
		}
	}
}

// TestRefit: a lengthscale learned from a function that varies on a short
// scale comes out shorter than the long one it started from.
func TestRefit(t *testing.T) {
	c := constraints(true)[:1]
	c[0].Kernel = kernel.NewStationary(kernel.SE, 1, []float64{3})
	m, err := New(c, 2, 64, 1, 5)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 40 {
		u := []float64{rng.Float64(), rng.Float64()}
		if err := m.Observe(u, []float64{math.Sin(12 * u[0])}); err != nil {
			t.Fatal(err)
		}
	}
	if l := m.models[0].vals[0]; !(l < 0.5) {
		t.Errorf("learned lengthscale %v from sin(12 x); want it well below the starting 3", l)
	}
}

// TestLikely: a point is likely feasible when every constraint's
// probability is at least 1/2; concurrent callers (as a search's
// goroutines are) get the same answers.
func TestLikely(t *testing.T) {
	m, err := New(constraints(false), 2, 64, 4, 5)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 30 {
		u := []float64{rng.Float64(), rng.Float64()}
		if err := m.Observe(u, []float64{purity(u), temperature(u)}); err != nil {
			t.Fatal(err)
		}
	}
	points := [][]float64{{0.3, 0.9}, {0.9, 0.9}, {0.1, 0.1}, {0.5, 0.55}, {0.58, 0.6}}
	want := make([]bool, len(points))
	for i, u := range points {
		want[i] = true
		for k, c := range constraints(false) {
			mean, sd := m.Posterior(0, k, u)
			z := (mean - c.Limit.Threshold) / sd
			if !c.Limit.AtLeast {
				z = -z
			}
			want[i] = want[i] && acq.NormCDF(z) >= 0.5
		}
	}
	if !want[0] || want[1] || want[2] {
		t.Errorf("likely %v at %v: inside both limits, past temperature's, below purity's", want, points)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				for i, u := range points {
					if got := m.Likely(u); got != want[i] {
						t.Errorf("at %v: Likely %v, want %v", u, got, want[i])
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	if a := testing.AllocsPerRun(20, func() { m.Likely(points[0]) }); a != 0 {
		t.Errorf("Likely allocates %v times", a)
	}
}

// TestLearnedNoise: a noise learned from values whose noise has an sd of
// 0.1 (a variance of 0.01, on values of scale 1) comes out within a factor
// of 3 of it, where it started at the middle of wide bounds, 0.001 of the
// data's variance.
func TestLearnedNoise(t *testing.T) {
	c := constraints(true)[:1]
	c[0].NoiseVariance, c[0].NoiseLower, c[0].NoiseUpper = -1, 1e-6, 1
	m, err := New(c, 2, 128, 1, 5)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 100 {
		u := []float64{rng.Float64(), rng.Float64()}
		if err := m.Observe(u, []float64{math.Sin(4*u[0]) + u[1] + 0.1*rng.NormFloat64()}); err != nil {
			t.Fatal(err)
		}
	}
	if v := m.models[0].noiseVariance(); !(v > 0.01/3 && v < 0.03) {
		t.Errorf("learned noise variance %v; want about 0.01", v)
	}
}

// TestObserveRefuses: a value that is not finite, a point of the wrong
// dimension and an observation beyond the capacity are errors, and leave
// the models as they were.
func TestObserveRefuses(t *testing.T) {
	m, err := New(constraints(false), 2, 2, 1, 5)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Observe([]float64{0.5, 0.5}, []float64{1, math.NaN()}); err == nil || m.Len() != 0 {
		t.Errorf("a NaN value: error %v, %d observations", err, m.Len())
	}
	if err := m.Observe([]float64{0.5}, []float64{1, 0}); err == nil {
		t.Error("a point of one component accepted")
	}
	for i := range 2 {
		if err := m.Observe([]float64{0.1 * float64(i), 0.5}, []float64{1, 0}); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.Observe([]float64{0.9, 0.5}, []float64{1, 0}); err != ErrFull {
		t.Errorf("beyond the capacity: %v", err)
	}
	// Taken back, the last observation makes room, and the posterior is
	// the one point's again.
	before := make([]float64, 2)
	one, _ := New(constraints(false), 2, 2, 1, 5)
	one.Observe([]float64{0, 0.5}, []float64{1, 0})
	before[0], before[1] = one.Posterior(0, 0, []float64{0.3, 0.3})
	m.Truncate(1)
	if m.Len() != 1 {
		t.Fatalf("%d observations after Truncate(1)", m.Len())
	}
	if mean, sd := m.Posterior(0, 0, []float64{0.3, 0.3}); mean != before[0] || sd != before[1] {
		t.Errorf("after Truncate(1): posterior %v ± %v, want %v ± %v", mean, sd, before[0], before[1])
	}
	if err := m.Observe([]float64{0.9, 0.5}, []float64{1, 0}); err != nil {
		t.Errorf("after Truncate: %v", err)
	}
}

// TestAllocationFree: Observe between refits, LogFeasibility and
// Feasibility allocate nothing.
func TestAllocationFree(t *testing.T) {
	m := observed(t, false, 10)
	u := []float64{0.4, 0.6}
	grad := make([]float64, 2)
	if a := testing.AllocsPerRun(20, func() {
		m.LogFeasibility(0, u, grad)
		m.LogFeasibility(0, u, nil)
		m.PosteriorGrad(0, 1, u, grad, grad)
		m.Feasibility(0, 3)
		m.Feasible(3)
	}); a != 0 {
		t.Errorf("LogFeasibility, Feasibility and Feasible allocate %v times", a)
	}
	v, values := make([]float64, 2), make([]float64, 2)
	if a := testing.AllocsPerRun(5, func() {
		v[0] += 0.01
		v[1] = 1 - v[0]
		values[0], values[1] = purity(v), temperature(v)
		if err := m.Observe(v, values); err != nil {
			t.Fatal(err)
		}
	}); a != 0 {
		t.Errorf("Observe allocates %v times", a)
	}
}

func BenchmarkLogFeasibility(b *testing.B) {
	m := observed(b, true, 60)
	u, grad := []float64{0.4, 0.6}, make([]float64, 2)
	for b.Loop() {
		m.LogFeasibility(0, u, grad)
	}
}

// TestPosteriorGrad checks the gradients of an output's posterior mean and
// sd against central differences, and the values against Posterior's.
func TestPosteriorGrad(t *testing.T) {
	m := observed(t, true, 12)
	u, dMean, dSD := []float64{0.37, 0.61}, make([]float64, 2), make([]float64, 2)
	for k := range 2 {
		mean, sd := m.PosteriorGrad(0, k, u, dMean, dSD)
		if wm, ws := m.Posterior(0, k, u); wm != mean || ws != sd {
			t.Fatalf("output %d: PosteriorGrad %v ± %v, Posterior %v ± %v", k, mean, sd, wm, ws)
		}
		const h = 1e-6
		for j := range u {
			u[j] += h
			upMean, upSD := m.Posterior(0, k, u)
			u[j] -= 2 * h
			downMean, downSD := m.Posterior(0, k, u)
			u[j] += h
			if fd := (upMean - downMean) / (2 * h); math.Abs(fd-dMean[j]) > 1e-5*max(1, math.Abs(fd)) {
				t.Errorf("output %d, component %d: mean gradient %v, central difference %v", k, j, dMean[j], fd)
			}
			if fd := (upSD - downSD) / (2 * h); math.Abs(fd-dSD[j]) > 1e-5*max(1, math.Abs(fd)) {
				t.Errorf("output %d, component %d: sd gradient %v, central difference %v", k, j, dSD[j], fd)
			}
		}
	}
}

// TestOutputsWithoutLimit: an output without a Limit (an objective) is
// modelled but never judged: the feasibility is that of the limited ones,
// and with none every point is feasible.
func TestOutputsWithoutLimit(t *testing.T) {
	outputs := constraints(false)
	objective := outputs[1]
	objective.Limit = nil
	mixed, err := New([]Output{outputs[0], objective}, 2, 16, 1, 5)
	if err != nil {
		t.Fatal(err)
	}
	alone, _ := New(outputs[:1], 2, 16, 1, 5)
	free, _ := New([]Output{objective}, 2, 16, 1, 5)
	rng := rand.New(rand.NewPCG(9, 10))
	for range 8 {
		u := []float64{rng.Float64(), rng.Float64()}
		for _, m := range []*Models{mixed, alone} {
			values := []float64{purity(u), temperature(u)}[:len(m.models)]
			if err := m.Observe(u, values); err != nil {
				t.Fatal(err)
			}
		}
		if err := free.Observe(u, []float64{temperature(u)}); err != nil {
			t.Fatal(err)
		}
	}
	u := []float64{0.3, 0.8}
	if a, b := mixed.LogFeasibility(0, u, nil), alone.LogFeasibility(0, u, nil); a != b {
		t.Errorf("log feasibility %v with an objective beside the constraint, %v without", a, b)
	}
	for i := range 8 {
		if mixed.Feasible(i) != alone.Feasible(i) || !free.Feasible(i) || free.Feasibility(0, i) != 1 {
			t.Fatalf("point %d: feasible %v beside an objective, %v alone; %v (%v) with no constraint", i,
				mixed.Feasible(i), alone.Feasible(i), free.Feasible(i), free.Feasibility(0, i))
		}
	}
}

// TestMeans: Mean and TrainMean are Posterior's mean, at a new point and at
// the evaluated ones.
func TestMeans(t *testing.T) {
	m := observed(t, true, 12)
	for k := range 2 {
		u := []float64{0.21, 0.77}
		if mean, _ := m.Posterior(0, k, u); math.Abs(m.Mean(0, k, u)-mean) > 1e-12 {
			t.Errorf("output %d: Mean %v, Posterior's %v", k, m.Mean(0, k, u), mean)
		}
		for i := range m.Len() {
			if mean, _ := m.Posterior(0, k, m.Unit(i)); math.Abs(m.TrainMean(k, i)-mean) > 1e-9*max(1, math.Abs(mean)) {
				t.Errorf("output %d, point %d: TrainMean %v, Posterior's %v", k, i, m.TrainMean(k, i), mean)
			}
		}
	}
}

// TestPriorMean: an output's Gaussian process returns to its prior mean far
// from the data, refits included: the values' average by default, the
// greatest or least value observed when Mean says so.
func TestPriorMean(t *testing.T) {
	for _, c := range []struct {
		name string
		mean gp.PriorMean
		want func(values []float64) float64
	}{
		{"average", gp.Average, gp.Average.Of},
		{"greatest", gp.Greatest, slices.Max[[]float64]},
		{"least", gp.Least, slices.Min[[]float64]},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := constraints(true)[0]
			out.Limit, out.Mean = nil, c.mean
			m, err := New([]Output{out}, 2, 16, 1, 5)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(11, 12))
			var values []float64
			for range 12 {
				u := []float64{rng.Float64(), rng.Float64()}
				values = append(values, purity(u))
				if err := m.Observe(u, values[len(values)-1:]); err != nil {
					t.Fatal(err)
				}
			}
			if got, want := m.Mean(0, 0, []float64{50, 50}), c.want(values); math.Abs(got-want) > 1e-9 {
				t.Errorf("far from the data the mean is %v, want %v", got, want)
			}
		})
	}
}
