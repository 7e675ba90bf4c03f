package gp

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// problem is a synthetic regression data set: points in [0,1]^dim, a
// squared-exponential kernel with unit signal variance, and observations on
// a scale far from standardised (mean ≈ 5, sd ≈ 3) so that standardisation
// matters.
type problem struct {
	dim         int
	lengthscale float64
	x           [][]float64
	y, noise    []float64
}

func newProblem(seed uint64, n, dim int, lengthscale float64, noisy bool) *problem {
	rng := rand.New(rand.NewPCG(seed, 1))
	p := &problem{dim: dim, lengthscale: lengthscale}
	for range n {
		x := make([]float64, dim)
		for j := range x {
			x[j] = rng.Float64()
		}
		f := 5 + 3*math.Sin(6*x[0])
		if dim > 1 {
			f += 2 * math.Cos(4*x[1])
		}
		noise := 0.0
		if noisy {
			noise = 0.001 + 0.05*rng.Float64()
		}
		p.x = append(p.x, x)
		p.y = append(p.y, f+math.Sqrt(noise)*rng.NormFloat64())
		p.noise = append(p.noise, noise)
	}
	return p
}

func (p *problem) kernel(a, b []float64) float64 {
	r2 := 0.0
	for j := range a {
		d := (a[j] - b[j]) / p.lengthscale
		r2 += d * d
	}
	return math.Exp(-0.5 * r2)
}

// kernelVector writes k(x, x_i) for the first n points to out.
func (p *problem) kernelVector(x []float64, n int, out []float64) []float64 {
	out = out[:n]
	for i := range out {
		out[i] = p.kernel(x, p.x[i])
	}
	return out
}

// add appends point i of p to g.
func (p *problem) add(g *GP, i int, kvec []float64) error {
	return g.Add(p.kernelVector(p.x[i], i, kvec), p.kernel(p.x[i], p.x[i]), p.y[i], p.noise[i])
}

// reference is the dense textbook posterior for the first n points, with
// the scale the standardisation policy prescribes.
type reference struct {
	p            *problem
	n            int
	shift, scale float64
	chol         mat.Cholesky
	alpha        *mat.VecDense
}

func newReference(t *testing.T, p *problem, n int, jitter []float64) *reference {
	t.Helper()
	return newReferenceWithMean(t, p, n, jitter, p.average(n))
}

// average is the mean of the first n observations.
func (p *problem) average(n int) float64 {
	sum := 0.0
	for _, y := range p.y[:n] {
		sum += y
	}
	return sum / float64(n)
}

// newReferenceWithMean is newReference with the prior mean shift.
func newReferenceWithMean(t *testing.T, p *problem, n int, jitter []float64, shift float64) *reference {
	t.Helper()
	r := &reference{p: p, n: n, scale: 1, shift: shift}
	// The GP re-standardises at n = 2, 4, 8, ...: the scale is the sd of the
	// first m observations, m the largest power of two <= n.
	if n >= 2 {
		m := 1
		for 2*m <= n {
			m *= 2
		}
		r.scale = populationSD(p.y[:m])
	}
	r.factor(t, jitter)
	return r
}

// newFixedPriorReference is the dense zero-mean GP on y's own scale that
// WithFixedPrior makes.
func newFixedPriorReference(t *testing.T, p *problem, n int) *reference {
	t.Helper()
	r := &reference{p: p, n: n, scale: 1}
	r.factor(t, nil)
	return r
}

// factor solves for α with the dense Cholesky factor of A.
func (r *reference) factor(t *testing.T, jitter []float64) {
	t.Helper()
	p, n := r.p, r.n
	a := mat.NewSymDense(n, nil)
	z := mat.NewVecDense(n, nil)
	for i := range n {
		for j := range i + 1 {
			a.SetSym(i, j, p.kernel(p.x[i], p.x[j]))
		}
		extra := p.noise[i] / (r.scale * r.scale)
		if jitter != nil {
			extra += jitter[i]
		}
		a.SetSym(i, i, a.At(i, i)+extra)
		z.SetVec(i, (p.y[i]-r.shift)/r.scale)
	}
	if !r.chol.Factorize(a) {
		t.Fatalf("reference: matrix for n = %d is not positive definite", n)
	}
	r.alpha = mat.NewVecDense(n, nil)
	if err := r.chol.SolveVecTo(r.alpha, z); !conditionWarning(err) {
		t.Fatal(err)
	}
}

// conditionWarning reports whether err is nil or only mat's warning that
// the matrix is ill-conditioned (the solution is still computed).
func conditionWarning(err error) bool {
	var cond mat.Condition
	return err == nil || errors.As(err, &cond)
}

func populationSD(y []float64) float64 {
	mean := 0.0
	for _, v := range y {
		mean += v
	}
	mean /= float64(len(y))
	ss := 0.0
	for _, v := range y {
		ss += (v - mean) * (v - mean)
	}
	return math.Sqrt(ss / float64(len(y)))
}

func (r *reference) predict(x []float64) (mean, variance float64) {
	k := mat.NewVecDense(r.n, r.p.kernelVector(x, r.n, make([]float64, r.n)))
	w := mat.NewVecDense(r.n, nil)
	if err := r.chol.SolveVecTo(w, k); !conditionWarning(err) {
		panic(err)
	}
	mean = r.shift + r.scale*mat.Dot(k, r.alpha)
	variance = r.scale * r.scale * (r.p.kernel(x, x) - mat.Dot(k, w))
	return mean, variance
}

func (r *reference) logMarginalLikelihood() float64 {
	fit := 0.0
	for i := range r.n {
		fit += (r.p.y[i] - r.shift) / r.scale * r.alpha.AtVec(i)
	}
	n := float64(r.n)
	return -0.5*fit - 0.5*r.chol.LogDet() - 0.5*n*math.Log(2*math.Pi) - n*math.Log(r.scale)
}

func closeTo(got, want, rel float64) bool {
	return math.Abs(got-want) <= rel*math.Abs(want)
}

// TestMatchesDenseReference adds 60 observations one by one (crossing the
// re-standardisations at 2, 4, ..., 32) and after every Add compares
// predictions, training means and the marginal likelihood with a dense
// solve, to 1e-9 relative.
func TestMatchesDenseReference(t *testing.T) {
	const n, rel = 60, 1e-9
	for _, tc := range []struct {
		name        string
		dim         int
		lengthscale float64
	}{{"d=1", 1, 0.2}, {"d=2", 2, 0.3}, {"d=4", 4, 0.6}} {
		t.Run(tc.name, func(t *testing.T) {
			p := newProblem(7, n, tc.dim, tc.lengthscale, true)
			test := newProblem(8, 5, tc.dim, tc.lengthscale, false)
			g := New(n)
			kvec := make([]float64, n)
			for m := 1; m <= n; m++ {
				if err := p.add(g, m-1, kvec); err != nil {
					t.Fatalf("Add %d: %v", m, err)
				}
				if g.Len() != m {
					t.Fatalf("Len = %d, want %d", g.Len(), m)
				}
				ref := newReference(t, p, m, nil)
				if !closeTo(g.Scale(), ref.scale, 1e-12) || !closeTo(g.Shift(), ref.shift, 1e-12) {
					t.Fatalf("n = %d: standardisation (%v, %v), want (%v, %v)", m, g.Shift(), g.Scale(), ref.shift, ref.scale)
				}
				for _, x := range test.x {
					gotMean, gotVar := g.Predict(p.kernelVector(x, m, kvec), p.kernel(x, x))
					wantMean, wantVar := ref.predict(x)
					if !closeTo(gotMean, wantMean, rel) || !closeTo(gotVar, wantVar, rel) {
						t.Fatalf("n = %d at %v: (%v, %v), want (%v, %v)", m, x, gotMean, gotVar, wantMean, wantVar)
					}
				}
				for i := range m {
					want, _ := ref.predict(p.x[i])
					if got := g.TrainMean(i); !closeTo(got, want, rel) {
						t.Fatalf("n = %d: TrainMean(%d) = %v, want %v", m, i, got, want)
					}
					if g.Y(i) != p.y[i] {
						t.Fatalf("Y(%d) = %v, want %v", i, g.Y(i), p.y[i])
					}
				}
				if got, want := g.LogMarginalLikelihood(), ref.logMarginalLikelihood(); !closeTo(got, want, rel) {
					t.Fatalf("n = %d: log marginal likelihood %v, want %v", m, got, want)
				}
			}
		})
	}
}

// TestFixedPrior checks that a GP WithFixedPrior never standardises: its
// posterior is the dense zero-mean one on y's scale after every Add and a
// Refactor, and far from the data it returns to the prior (mean 0).
func TestFixedPrior(t *testing.T) {
	const n, rel = 20, 1e-9
	p := newProblem(3, n, 2, 0.3, true)
	test := newProblem(4, 5, 2, 0.3, false)
	g := New(n).WithFixedPrior()
	kvec := make([]float64, n)
	check := func(m int) {
		t.Helper()
		ref := newFixedPriorReference(t, p, m)
		for _, x := range test.x {
			gotMean, gotVar := g.Predict(p.kernelVector(x, m, kvec), p.kernel(x, x))
			wantMean, wantVar := ref.predict(x)
			if !closeTo(gotMean, wantMean, rel) || !closeTo(gotVar, wantVar, rel) {
				t.Fatalf("n = %d at %v: (%v, %v), want (%v, %v)", m, x, gotMean, gotVar, wantMean, wantVar)
			}
		}
	}
	for m := 1; m <= n; m++ {
		if err := p.add(g, m-1, kvec); err != nil {
			t.Fatalf("Add %d: %v", m, err)
		}
		if g.Shift() != 0 || g.Scale() != 1 {
			t.Fatalf("n = %d: standardised to (%v, %v)", m, g.Shift(), g.Scale())
		}
		check(m)
	}
	if err := g.Refactor(); err != nil {
		t.Fatal(err)
	}
	check(n)
	far := []float64{50, 50}
	if mean, variance := g.Predict(p.kernelVector(far, n, kvec), p.kernel(far, far)); math.Abs(mean) > 1e-12 || !closeTo(variance, 1, 1e-9) {
		t.Fatalf("far from the data: (%v, %v), want the prior (0, 1)", mean, variance)
	}
}

// TestPriorMean: under each prior mean the posterior is the dense one with
// that constant mean, returns to it far from the data, and Standardisation
// gives what a refactored GP standardises with.
func TestPriorMean(t *testing.T) {
	const n = 20
	p := newProblem(5, n, 2, 0.3, true)
	far := []float64{50, 50}
	for _, c := range []struct {
		name  string
		mean  PriorMean
		shift float64
	}{
		{"average", Average, p.average(n)},
		{"least", Least, slices.Min(p.y)},
		{"greatest", Greatest, slices.Max(p.y)},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := New(n).WithMean(c.mean)
			kvec := make([]float64, n)
			for i := range n {
				if err := p.add(g, i, kvec); err != nil {
					t.Fatal(err)
				}
			}
			ref := newReferenceWithMean(t, p, n, nil, c.shift)
			x := []float64{0.3, 0.6}
			gotMean, gotVar := g.Predict(p.kernelVector(x, n, kvec), p.kernel(x, x))
			if wantMean, wantVar := ref.predict(x); !closeTo(gotMean, wantMean, 1e-9) || !closeTo(gotVar, wantVar, 1e-9) {
				t.Errorf("at %v: (%v, %v), want (%v, %v)", x, gotMean, gotVar, wantMean, wantVar)
			}
			if mean := g.Mean(p.kernelVector(far, n, kvec)); !closeTo(mean, c.shift, 1e-12) {
				t.Errorf("far from the data the mean is %v, want the prior's %v", mean, c.shift)
			}
			if err := g.Refactor(); err != nil {
				t.Fatal(err)
			}
			if shift, scale := g.Standardisation(); shift != g.Shift() || scale != g.Scale() || shift != c.shift {
				t.Errorf("Standardisation (%v, %v), the refactored GP's (%v, %v), want shift %v", shift, scale, g.Shift(), g.Scale(), c.shift)
			}
		})
	}
}

func TestPosteriorCovariance(t *testing.T) {
	p := newProblem(3, 20, 2, 0.3, true)
	g := New(20)
	kvec := make([]float64, 20)
	for i := range 20 {
		if err := p.add(g, i, kvec); err != nil {
			t.Fatal(err)
		}
	}
	ref := newReference(t, p, 20, nil)
	a, b := []float64{0.2, 0.7}, []float64{0.25, 0.6}
	va := p.kernelVector(a, 20, make([]float64, 20))
	vb := p.kernelVector(b, 20, make([]float64, 20))
	kb := mat.NewVecDense(20, append([]float64(nil), vb...))
	g.Predict(va, p.kernel(a, a))
	g.Predict(vb, p.kernel(b, b))
	w := mat.NewVecDense(20, nil)
	if err := ref.chol.SolveVecTo(w, kb); err != nil {
		t.Fatal(err)
	}
	ka := mat.NewVecDense(20, p.kernelVector(a, 20, make([]float64, 20)))
	want := ref.scale * ref.scale * (p.kernel(a, b) - mat.Dot(ka, w))
	if got := g.PosteriorCovariance(va, vb, p.kernel(a, b)); !closeTo(got, want, 1e-9) {
		t.Fatalf("covariance %v, want %v", got, want)
	}
	// A point's covariance with itself is its variance.
	_, variance := g.Predict(p.kernelVector(a, 20, va), p.kernel(a, a))
	if got := g.PosteriorCovariance(va, va, p.kernel(a, a)); !closeTo(got, variance, 1e-12) {
		t.Fatalf("self-covariance %v, want variance %v", got, variance)
	}
}

func TestPriorBeforeData(t *testing.T) {
	g := New(3)
	mean, variance := g.Predict(nil, 1.5)
	if mean != 0 || variance != 1.5 {
		t.Fatalf("prior (%v, %v), want (0, 1.5)", mean, variance)
	}
}

// TestJitterRescuesSingularData: duplicated and nearly coincident points
// without noise make K singular; Add must still succeed, and the result must
// be the posterior of the jittered matrix (computed densely). The cluster's
// jittered matrix still has a condition number near 1e14, so there the
// reference itself is only good to about 1e-4.
func TestJitterRescuesSingularData(t *testing.T) {
	cluster := make([][]float64, 25)
	for i := range cluster {
		cluster[i] = []float64{0.5 + 1e-4*float64(i)}
	}
	tests := []struct {
		name string
		x    [][]float64
		f    func(x float64, i int) float64
		rel  float64
	}{
		// Different values at the same point: only jitter reconciles them.
		{"duplicates", [][]float64{{0.3}, {0.3}, {0.3}, {0.7}, {0.7}},
			func(x float64, i int) float64 { return 2 + math.Sin(5*x) + 0.01*float64(i%2) }, 1e-8},
		{"cluster", cluster, func(x float64, _ int) float64 { return 2 + math.Sin(5*x) }, 1e-4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n := len(tc.x)
			p := &problem{dim: 1, lengthscale: 0.5, x: tc.x, y: make([]float64, n), noise: make([]float64, n)}
			for i, x := range tc.x {
				p.y[i] = tc.f(x[0], i)
			}
			g := New(n)
			kvec := make([]float64, n)
			for i := range n {
				if err := p.add(g, i, kvec); err != nil {
					t.Fatalf("Add %d: %v", i, err)
				}
			}
			usedJitter := false
			for _, j := range g.jitter[:n] {
				usedJitter = usedJitter || j > 0
			}
			if !usedJitter {
				t.Fatal("no jitter was needed; the test data are not singular")
			}
			ref := newReference(t, p, n, g.jitter)
			for _, x := range [][]float64{{0.3}, {0.5}, {0.5012}, {0.9}} {
				gotMean, gotVar := g.Predict(p.kernelVector(x, n, kvec), p.kernel(x, x))
				wantMean, wantVar := ref.predict(x)
				if math.IsNaN(gotMean) || math.IsNaN(gotVar) || gotVar < 0 {
					t.Fatalf("at %v: (%v, %v)", x, gotMean, gotVar)
				}
				if !closeTo(gotMean, wantMean, tc.rel) || math.Abs(gotVar-wantVar) > tc.rel*ref.scale*ref.scale {
					t.Fatalf("at %v: (%v, %v), want (%v, %v)", x, gotMean, gotVar, wantMean, wantVar)
				}
			}
		})
	}
}

// TestRejectsHopelessInput: invalid values and indefinite kernel values are
// errors, and a failed Add leaves the GP exactly as it was.
func TestRejectsHopelessInput(t *testing.T) {
	tests := []struct {
		name            string
		kvec            []float64
		kself, y, noise float64
		want            error
	}{
		{"NaN kself", []float64{0.5}, math.NaN(), 1, 0.1, ErrInvalidInput},
		{"Inf y", []float64{0.5}, 1, math.Inf(1), 0.1, ErrInvalidInput},
		{"NaN kernel value", []float64{math.NaN()}, 1, 1, 0.1, ErrInvalidInput},
		{"negative noise", []float64{0.5}, 1, 1, -0.1, ErrInvalidInput},
		{"short kernel vector", nil, 1, 1, 0.1, ErrInvalidInput},
		{"correlation above one", []float64{2}, 1, 1, 0, ErrNotPositiveDefinite},
		{"negative variance", []float64{0}, -1, 1, 0, ErrNotPositiveDefinite},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := New(3)
			if err := g.Add(nil, 1, 4, 0); err != nil {
				t.Fatal(err)
			}
			before, beforeVar := g.Predict([]float64{0.3}, 1)
			err := g.Add(tc.kvec, tc.kself, tc.y, tc.noise)
			if !errors.Is(err, tc.want) {
				t.Fatalf("Add: %v, want %v", err, tc.want)
			}
			after, afterVar := g.Predict([]float64{0.3}, 1)
			if g.Len() != 1 || before != after || beforeVar != afterVar {
				t.Fatalf("failed Add changed the GP: Len %d, (%v, %v) -> (%v, %v)", g.Len(), before, beforeVar, after, afterVar)
			}
			if err := g.Add([]float64{0.5}, 1, 5, 0.1); err != nil {
				t.Fatalf("valid Add after failure: %v", err)
			}
		})
	}
	g := New(1)
	if err := g.Add(nil, -2, 0, 0); !errors.Is(err, ErrNotPositiveDefinite) {
		t.Fatalf("negative first variance: %v", err)
	}
	if err := g.Add(nil, 1, 0, 0); err != nil {
		t.Fatal(err)
	}
	if err := g.Add([]float64{0}, 1, 0, 0); !errors.Is(err, ErrFull) {
		t.Fatalf("Add beyond capacity: %v, want ErrFull", err)
	}
}

// TestTruncateAndReset: forgetting observations restores the posterior of
// the remaining ones.
func TestTruncateAndReset(t *testing.T) {
	p := newProblem(11, 30, 2, 0.3, true)
	g := New(30)
	kvec := make([]float64, 30)
	for i := range 20 {
		if err := p.add(g, i, kvec); err != nil {
			t.Fatal(err)
		}
	}
	x := []float64{0.4, 0.4}
	wantMean, wantVar := g.Predict(p.kernelVector(x, 20, kvec), p.kernel(x, x))
	for i := 20; i < 30; i++ {
		if err := p.add(g, i, kvec); err != nil {
			t.Fatal(err)
		}
	}
	g.Truncate(20)
	gotMean, gotVar := g.Predict(p.kernelVector(x, 20, kvec), p.kernel(x, x))
	// The scale of the 16 first observations was kept throughout.
	if !closeTo(gotMean, wantMean, 1e-12) || !closeTo(gotVar, wantVar, 1e-12) {
		t.Fatalf("after Truncate: (%v, %v), want (%v, %v)", gotMean, gotVar, wantMean, wantVar)
	}
	g.Reset()
	if g.Len() != 0 || g.Scale() != 1 || g.Shift() != 0 {
		t.Fatalf("after Reset: Len %d, scale %v, shift %v", g.Len(), g.Scale(), g.Shift())
	}
	for i := range 30 {
		if err := p.add(g, i, kvec); err != nil {
			t.Fatal(err)
		}
	}
	ref := newReference(t, p, 30, nil)
	gotMean, gotVar = g.Predict(p.kernelVector(x, 30, kvec), p.kernel(x, x))
	wantMean, wantVar = ref.predict(x)
	if !closeTo(gotMean, wantMean, 1e-9) || !closeTo(gotVar, wantVar, 1e-9) {
		t.Fatalf("rebuilt after Reset: (%v, %v), want (%v, %v)", gotMean, gotVar, wantMean, wantVar)
	}
}

// kernelRows precomputes the kernel vectors and variances of p's points so
// that allocation tests and benchmarks measure the GP alone.
func kernelRows(p *problem) (rows [][]float64, self []float64) {
	for i, x := range p.x {
		rows = append(rows, p.kernelVector(x, i, make([]float64, i)))
		self = append(self, p.kernel(x, x))
	}
	return rows, self
}

func filled(b testing.TB, p *problem, n, capacity int) *GP {
	g := New(capacity)
	rows, self := kernelRows(p)
	for i := range n {
		if err := g.Add(rows[i], self[i], p.y[i], p.noise[i]); err != nil {
			b.Fatal(err)
		}
	}
	return g
}

func TestNoAllocations(t *testing.T) {
	const n = 40
	p := newProblem(5, n, 3, 0.4, true)
	rows, self := kernelRows(p)
	g := New(n)
	// A full rebuild exercises Add, the re-standardisations and Reset.
	allocs := testing.AllocsPerRun(5, func() {
		g.Reset()
		for i := range n {
			if err := g.Add(rows[i], self[i], p.y[i], p.noise[i]); err != nil {
				t.Fatal(err)
			}
		}
	})
	if allocs != 0 {
		t.Errorf("Add: %v allocations per rebuild", allocs)
	}
	x := []float64{0.1, 0.5, 0.9}
	kvec := p.kernelVector(x, n, make([]float64, n))
	saved := append([]float64(nil), kvec...)
	allocs = testing.AllocsPerRun(100, func() {
		copy(kvec, saved)
		g.Predict(kvec, 1)
		g.TrainMean(3)
		g.LogMarginalLikelihood()
		g.PosteriorCovariance(kvec, kvec, 1)
	})
	if allocs != 0 {
		t.Errorf("Predict: %v allocations", allocs)
	}
}

// BenchmarkAdd measures appending the (n+1)-th observation; the growth from
// n = 100 to 800 should be close to quadratic.
func BenchmarkAdd(b *testing.B) {
	for _, n := range []int{100, 200, 400, 800} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			p := newProblem(1, n+1, 4, 0.5, true)
			g := filled(b, p, n, n+1)
			rows, self := kernelRows(p)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if err := g.Add(rows[n], self[n], p.y[n], p.noise[n]); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				g.Truncate(n)
				b.StartTimer()
			}
		})
	}
}

// BenchmarkBuild measures n Adds from empty, re-standardisations included:
// the amortised cost per Add.
func BenchmarkBuild(b *testing.B) {
	for _, n := range []int{100, 400} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			p := newProblem(1, n, 4, 0.5, true)
			rows, self := kernelRows(p)
			g := New(n)
			b.ReportAllocs()
			for b.Loop() {
				g.Reset()
				for i := range n {
					if err := g.Add(rows[i], self[i], p.y[i], p.noise[i]); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

func BenchmarkPredict(b *testing.B) {
	for _, n := range []int{200, 500} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			p := newProblem(1, n, 4, 0.5, true)
			g := filled(b, p, n, n)
			x := []float64{0.3, 0.3, 0.6, 0.6}
			saved := p.kernelVector(x, n, make([]float64, n))
			kvec := make([]float64, n)
			b.ReportAllocs()
			for b.Loop() {
				copy(kvec, saved)
				g.Predict(kvec, 1)
			}
		})
	}
}

// BenchmarkTriangularSolve compares the package's forward substitution with
// gonum's packed triangular solve on the same factor, the evidence for using
// plain loops.
func BenchmarkTriangularSolve(b *testing.B) {
	for _, n := range []int{200, 500} {
		p := newProblem(1, n, 4, 0.5, true)
		g := filled(b, p, n, n)
		saved := p.kernelVector([]float64{0.3, 0.3, 0.6, 0.6}, n, make([]float64, n))
		x := make([]float64, n)
		b.Run(fmt.Sprintf("loops/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				copy(x, saved)
				g.forwardSolve(n, x)
			}
		})
		b.Run(fmt.Sprintf("gonum/n=%d", n), func(b *testing.B) {
			packed := blas64.TriangularPacked{Uplo: blas.Lower, Diag: blas.NonUnit, N: n, Data: g.l}
			for b.Loop() {
				copy(x, saved)
				blas64.Tpsv(blas.NoTrans, packed, blas64.Vector{N: n, Inc: 1, Data: x})
			}
		})
	}
}

// TestFantasies: a fantasy at its own posterior mean leaves the mean where
// it was and shrinks the variance (GP-BUCB); fantasies, even past the size
// at which Add would re-standardise, move neither shift nor scale, Add after
// them is refused, and Truncate restores the GP bit for bit.
func TestFantasies(t *testing.T) {
	p := newProblem(5, 12, 2, 0.3, true)
	g := New(12)
	kvec := make([]float64, 12)
	for i := range 7 { // the next Add would re-standardise at 8
		if err := p.add(g, i, kvec); err != nil {
			t.Fatal(err)
		}
	}
	x := []float64{0.3, 0.6}
	wantMean, wantVar := g.Predict(p.kernelVector(x, 7, kvec), p.kernel(x, x))
	shift, scale, minY := g.Shift(), g.Scale(), g.MinY()
	for i := 7; i < 10; i++ {
		k := p.kernelVector(p.x[i], i, kvec)
		if err := g.AddFantasy(k, p.kernel(p.x[i], p.x[i]), g.Mean(k), p.noise[i]); err != nil {
			t.Fatal(err)
		}
	}
	mean, variance := g.Predict(p.kernelVector(x, 10, kvec), p.kernel(x, x))
	if !closeTo(mean, wantMean, 1e-9) || !(variance < wantVar) {
		t.Errorf("hallucinated: (%v, %v), want the mean %v and a variance below %v", mean, variance, wantMean, wantVar)
	}
	if g.Shift() != shift || g.Scale() != scale || g.MinY() != minY {
		t.Errorf("fantasies moved shift %v→%v, scale %v→%v or MinY %v→%v", shift, g.Shift(), scale, g.Scale(), minY, g.MinY())
	}
	if err := p.add(g, 10, kvec); err == nil {
		t.Error("Add after AddFantasy succeeded")
	}
	g.Truncate(7)
	mean, variance = g.Predict(p.kernelVector(x, 7, kvec), p.kernel(x, x))
	if mean != wantMean || variance != wantVar {
		t.Errorf("after Truncate: (%v, %v), want (%v, %v) exactly", mean, variance, wantMean, wantVar)
	}
	if err := p.add(g, 7, kvec); err != nil {
		t.Fatal(err)
	}
}
