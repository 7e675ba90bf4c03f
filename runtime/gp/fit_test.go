package gp

import (
	"math"
	"testing"
)

// TestRefactorAfterNewHyperparameters: a GP built with one lengthscale whose
// kernel rows and noise are overwritten with another's and refactored
// predicts like a GP built with the other from the start, whose scale is the
// deviation of all the data.
func TestRefactorAfterNewHyperparameters(t *testing.T) {
	tests := []struct {
		name       string
		n          int
		from, to   float64
		noiseScale float64
	}{
		// Powers of two, so that the reference's scale, that of the last
		// doubling, is that of all the data, as Refactor's.
		{"longer", 32, 0.1, 0.4, 1},
		{"shorter, noisier", 64, 0.5, 0.2, 3},
		{"one point", 1, 0.3, 0.6, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newProblem(9, tt.n, 2, tt.from, true)
			g := filled(t, p, tt.n, tt.n+5)
			q := newProblem(9, tt.n, 2, tt.to, true)
			for i := range q.noise {
				q.noise[i] *= tt.noiseScale
			}
			for i := range tt.n {
				row := g.KernelRow(i)
				q.kernelVector(q.x[i], i, row)
				row[i] = q.kernel(q.x[i], q.x[i])
				g.SetNoise(i, q.noise[i])
			}
			if err := g.Refactor(); err != nil {
				t.Fatal(err)
			}
			if got, want := g.Scale(), populationSD(q.y); tt.n > 1 && !closeTo(got, want, 1e-12) {
				t.Errorf("scale %v, want the deviation of all data %v", got, want)
			}
			ref := newReference(t, q, tt.n, make([]float64, tt.n))
			kvec := make([]float64, tt.n)
			for _, x := range [][]float64{{0.2, 0.7}, {0.9, 0.1}, q.x[0]} {
				mean, variance := g.Predict(q.kernelVector(x, tt.n, kvec), 1)
				wantMean, wantVar := ref.predict(x)
				if !closeTo(mean, wantMean, 1e-8) || math.Abs(variance-wantVar) > 1e-8*max(1, wantVar) {
					t.Errorf("at %v: %v ± %v, reference %v ± %v", x, mean, variance, wantMean, wantVar)
				}
			}
			if allocs := testing.AllocsPerRun(5, func() { _ = g.Refactor() }); allocs != 0 {
				t.Errorf("Refactor allocates %v times", allocs)
			}
		})
	}
}

func TestRefactorRejectsNonFiniteKernel(t *testing.T) {
	p := newProblem(2, 5, 1, 0.3, false)
	g := filled(t, p, 5, 5)
	g.KernelRow(3)[1] = math.NaN()
	if err := g.Refactor(); err == nil {
		t.Error("no error for a NaN kernel value")
	}
}

// TestSetY: a GP whose values are all replaced (SetY) and refactored
// predicts like a GP built with the new values from the start, as a model
// that refits its output warping does (32 values: the reference's scale,
// that of its last doubling, is that of all of them, as Refactor's).
func TestSetY(t *testing.T) {
	const n = 32
	p := newProblem(4, n, 2, 0.3, true)
	g := filled(t, p, n, n)
	q := newProblem(4, n, 2, 0.3, true)
	for i := range q.y {
		q.y[i] = math.Exp(q.y[i]) // the same points, other values
		g.SetY(i, q.y[i])
	}
	if err := g.Refactor(); err != nil {
		t.Fatal(err)
	}
	ref := filled(t, q, n, n)
	kvec := make([]float64, n)
	for _, x := range [][]float64{{0.2, 0.7}, {0.9, 0.1}, q.x[3]} {
		mean, variance := g.Predict(q.kernelVector(x, n, kvec), 1)
		wantMean, wantVar := ref.Predict(q.kernelVector(x, n, kvec), 1) // Predict overwrites kvec
		if !closeTo(mean, wantMean, 1e-9) || math.Abs(variance-wantVar) > 1e-9*max(1, wantVar) {
			t.Errorf("at %v: %v ± %v, built with the values %v ± %v", x, mean, variance, wantMean, wantVar)
		}
	}
}

// TestLoad: a GP loaded with another subset of observations, its kernel
// rows written and refactored, predicts exactly as a GP built from that
// subset with Add and refactored, and forgets what it held before.
func TestLoad(t *testing.T) {
	p := newProblem(4, 40, 3, 0.3, true)
	g := filled(t, p, 30, 32)
	if err := g.AddFantasy(make([]float64, 30), 1, 0, 0.1); err != nil {
		t.Fatal(err)
	}
	subset := []int{3, 7, 8, 20, 31, 35, 39}
	ys, noise := make([]float64, len(subset)), make([]float64, len(subset))
	q := &problem{dim: p.dim, lengthscale: p.lengthscale}
	for k, i := range subset {
		ys[k], noise[k] = p.y[i], p.noise[i]
		q.x, q.y, q.noise = append(q.x, p.x[i]), append(q.y, p.y[i]), append(q.noise, p.noise[i])
	}
	g.Load(ys, noise)
	for i := range len(subset) {
		row := g.KernelRow(i)
		q.kernelVector(q.x[i], i, row)
		row[i] = q.kernel(q.x[i], q.x[i])
	}
	if err := g.Refactor(); err != nil {
		t.Fatal(err)
	}
	want := filled(t, q, len(subset), len(subset))
	if err := want.Refactor(); err != nil {
		t.Fatal(err)
	}
	kvec := make([]float64, len(subset))
	for _, x := range [][]float64{{0.2, 0.7, 0.1}, p.x[0], p.x[7]} {
		mean, variance := g.Predict(q.kernelVector(x, len(subset), kvec), 1)
		wantMean, wantVar := want.Predict(q.kernelVector(x, len(subset), kvec), 1)
		if mean != wantMean || variance != wantVar {
			t.Errorf("at %v: %v ± %v, built from the subset %v ± %v", x, mean, variance, wantMean, wantVar)
		}
	}
	if g.Len() != len(subset) || g.MinY() != want.MinY() {
		t.Errorf("Len %d, MinY %v; want %d, %v", g.Len(), g.MinY(), len(subset), want.MinY())
	}
	if allocs := testing.AllocsPerRun(5, func() { g.Load(ys, noise) }); allocs != 0 {
		t.Errorf("Load allocates %v times", allocs)
	}
}

// TestStandardise: a GP standardised with a given shift and scale predicts
// shift + scale·(the prediction of a fixed-prior GP on (y − shift)/scale
// with noise/scale²), keeps them through Refactor, and Load forgets them.
func TestStandardise(t *testing.T) {
	p := newProblem(5, 20, 2, 0.3, true)
	const shift, scale = 1.5, 2.5
	g := filled(t, p, 20, 20)
	g.Standardise(shift, scale)
	if err := g.Refactor(); err != nil {
		t.Fatal(err)
	}
	q := &problem{dim: p.dim, lengthscale: p.lengthscale, x: p.x}
	for i := range p.y {
		q.y = append(q.y, (p.y[i]-shift)/scale)
		q.noise = append(q.noise, p.noise[i]/(scale*scale))
	}
	ref := New(20).WithFixedPrior()
	rows, self := kernelRows(q)
	for i := range q.y {
		if err := ref.Add(rows[i], self[i], q.y[i], q.noise[i]); err != nil {
			t.Fatal(err)
		}
	}
	kvec := make([]float64, 20)
	for _, x := range [][]float64{{0.2, 0.7}, p.x[3], {5, 5}} {
		mean, variance := g.Predict(p.kernelVector(x, 20, kvec), 1)
		m, v := ref.Predict(q.kernelVector(x, 20, kvec), 1)
		if !closeTo(mean, shift+scale*m, 1e-9) || !closeTo(variance, scale*scale*v, 1e-9) {
			t.Errorf("at %v: %v ± %v, want %v ± %v", x, mean, variance, shift+scale*m, scale*scale*v)
		}
	}
	if g.Shift() != shift || g.Scale() != scale {
		t.Errorf("standardised with %v, %v after Refactor, want %v, %v", g.Shift(), g.Scale(), shift, scale)
	}
	g.Load(p.y[:10], p.noise[:10])
	for i := range 10 {
		row := g.KernelRow(i)
		copy(row, rows[i])
		row[i] = self[i]
	}
	if err := g.Refactor(); err != nil {
		t.Fatal(err)
	}
	if got, want := g.Scale(), Deviation(p.y[:10]); got != want {
		t.Errorf("after Load the scale is %v, want the observations' deviation %v", got, want)
	}
}
