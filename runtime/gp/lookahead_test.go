package gp

import (
	"math"
	"testing"
)

// lookaheadGP is a GP of newProblem's data under the squared-exponential
// kernel, and the kernel vector of a query point.
func lookaheadGP(t *testing.T, noisy bool) (*GP, *problem, func(x []float64) []float64) {
	t.Helper()
	p := newProblem(5, 25, 2, gradLengthscale, noisy)
	g := New(len(p.x))
	for i, xi := range p.x {
		kvec := make([]float64, i)
		for l := range kvec {
			kvec[l] = seKernel(xi, p.x[l])
		}
		if err := g.Add(kvec, 1, p.y[i], p.noise[i]); err != nil {
			t.Fatal(err)
		}
	}
	kvecAt := func(x []float64) []float64 {
		k := make([]float64, g.Len())
		for i := range k {
			k[i] = seKernel(x, p.x[i])
		}
		return k
	}
	return g, p, kvecAt
}

// TestTrainPosteriorCovariance checks the joint posterior covariance of the
// training points against PosteriorCovariance of each pair.
func TestTrainPosteriorCovariance(t *testing.T) {
	for _, noisy := range []bool{false, true} {
		g, p, kvecAt := lookaheadGP(t, noisy)
		n := g.Len()
		work, got := make([]float64, n*n), make([]float64, n*n)
		g.TrainPosteriorCovariance(work, got)
		for i, xi := range p.x {
			vi := kvecAt(xi)
			g.Predict(vi, 1)
			for j, xj := range p.x {
				vj := kvecAt(xj)
				g.Predict(vj, 1)
				want := g.PosteriorCovariance(vi, vj, seKernel(xi, xj))
				if math.Abs(got[i*n+j]-want) > 1e-9*max(1, math.Abs(want)) {
					t.Errorf("noisy %v: cov(%d, %d) = %.12g, PosteriorCovariance %.12g", noisy, i, j, got[i*n+j], want)
				}
			}
		}
	}
}

// trainCovariances is TrainCovariances at x from scratch.
func trainCovariances(g *GP, kvecAt func([]float64) []float64, x []float64) []float64 {
	v := kvecAt(x)
	g.Predict(v, 1)
	w := make([]float64, g.Len())
	g.SolveWeights(v, w)
	cov := make([]float64, g.Len())
	g.TrainCovariances(w, cov)
	return cov
}

func TestTrainCovariances(t *testing.T) {
	for _, noisy := range []bool{false, true} {
		g, p, kvecAt := lookaheadGP(t, noisy)
		x := []float64{0.31, 0.62}
		got := trainCovariances(g, kvecAt, x)
		vx := kvecAt(x)
		g.Predict(vx, 1)
		for i, xi := range p.x {
			vi := kvecAt(xi)
			g.Predict(vi, 1)
			want := g.PosteriorCovariance(vi, vx, seKernel(xi, x))
			if math.Abs(got[i]-want) > 1e-9*max(1, math.Abs(want)) {
				t.Errorf("noisy %v: cov of training point %d = %.12g, PosteriorCovariance %.12g", noisy, i, got[i], want)
			}
		}
	}
}

func TestTrainCovariancesGrad(t *testing.T) {
	for _, noisy := range []bool{false, true} {
		g, p, kvecAt := lookaheadGP(t, noisy)
		n := g.Len()
		c := make([]float64, n)
		for i := range c {
			c[i] = math.Sin(float64(3*i + 1))
		}
		weighted := func(x []float64) float64 {
			sum := 0.0
			for i, v := range trainCovariances(g, kvecAt, x) {
				sum += c[i] * v
			}
			return sum
		}
		x := []float64{0.44, 0.27}
		dk := make([]float64, n*p.dim)
		for i, xi := range p.x {
			seGrad(x, xi, dk[i*p.dim:(i+1)*p.dim])
		}
		grad := make([]float64, p.dim)
		g.TrainCovariancesGrad(c, dk, make([]float64, n), grad)
		for j := range grad {
			if want := partial(weighted, x, j); !matchesDifference(grad[j], want) {
				t.Errorf("noisy %v: ∂/∂x_%d = %.10g, finite difference %.10g", noisy, j, grad[j], want)
			}
		}
	}
}

func TestNewObservationNoise(t *testing.T) {
	g := New(4)
	if v := g.NewObservationNoise(); v != 0 {
		t.Errorf("empty GP: %g, want 0", v)
	}
	for i, noise := range []float64{0.5, 1.5} {
		kvec := make([]float64, i)
		if err := g.Add(kvec, 1, float64(i), noise); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.AddFantasy([]float64{0, 0}, 1, 0, 0); err != nil {
		t.Fatal(err)
	}
	if v := g.NewObservationNoise(); v != 1 {
		t.Errorf("noise 0.5 and 1.5 and a noise-free fantasy: %g, want 1", v)
	}
}
