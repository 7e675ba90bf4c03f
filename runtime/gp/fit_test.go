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
