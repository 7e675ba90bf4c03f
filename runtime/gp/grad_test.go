package gp

import (
	"math"
	"slices"
	"testing"
)

// differentiableKernel is a kernel with its gradient in the first argument.
type differentiableKernel struct {
	name string
	k    func(a, b []float64) float64
	// grad writes ∂k(a, b)/∂a to out.
	grad func(a, b, out []float64)
	// stationary kernels have k(x, x) constant; the others get the
	// derivative of k(x, x) by the chain rule, ∂k(a, b)/∂a + ∂k(a, b)/∂b at a = b.
	stationary bool
}

const gradLengthscale = 0.35

func seKernel(a, b []float64) float64 {
	r2 := 0.0
	for j := range a {
		d := (a[j] - b[j]) / gradLengthscale
		r2 += d * d
	}
	return math.Exp(-0.5 * r2)
}

func seGrad(a, b, out []float64) {
	k := seKernel(a, b)
	for j := range a {
		out[j] = -k * (a[j] - b[j]) / (gradLengthscale * gradLengthscale)
	}
}

// A non-stationary kernel: squared exponential plus 0.5·(a·b).
func seLinear(a, b []float64) float64 {
	s := seKernel(a, b)
	for j := range a {
		s += 0.5 * a[j] * b[j]
	}
	return s
}

func seLinearGrad(a, b, out []float64) {
	seGrad(a, b, out)
	for j := range a {
		out[j] += 0.5 * b[j]
	}
}

func TestPredictGradMatchesFiniteDifferences(t *testing.T) {
	kernels := []differentiableKernel{
		{"se", seKernel, seGrad, true},
		{"se+linear", seLinear, seLinearGrad, false},
	}
	queries := [][]float64{{0.3, 0.7, 0.1}, {0.95, 0.05, 0.5}, {0.5, 0.5, 0.5}}
	for _, kern := range kernels {
		for _, noisy := range []bool{false, true} {
			p := newProblem(11, 30, 3, gradLengthscale, noisy)
			g := New(len(p.x))
			for i, xi := range p.x {
				kvec := make([]float64, i)
				for l := range kvec {
					kvec[l] = kern.k(xi, p.x[l])
				}
				if err := g.Add(kvec, kern.k(xi, xi), p.y[i], p.noise[i]); err != nil {
					t.Fatal(err)
				}
			}
			n, dim := g.Len(), p.dim
			predict := func(x []float64) (float64, float64) {
				kvec := make([]float64, n)
				for i := range kvec {
					kvec[i] = kern.k(x, p.x[i])
				}
				return g.Predict(kvec, kern.k(x, x))
			}
			for _, x := range queries {
				kvec, dk, work := make([]float64, n), make([]float64, n*dim), make([]float64, n)
				for i := range n {
					kvec[i] = kern.k(x, p.x[i])
					kern.grad(x, p.x[i], dk[i*dim:(i+1)*dim])
				}
				var dkself []float64
				if !kern.stationary {
					// ∂k(x, x)/∂x: the kernel is symmetric, so twice the
					// derivative in the first argument at b = x.
					dkself = make([]float64, dim)
					kern.grad(x, x, dkself)
					for j := range dkself {
						dkself[j] *= 2
					}
				}
				dmean, dvar := make([]float64, dim), make([]float64, dim)
				mean, variance := g.PredictGrad(kvec, dk, kern.k(x, x), dkself, work, dmean, dvar)
				wantMean, wantVar := predict(x)
				if !closeTo(mean, wantMean, 1e-12) || !closeTo(variance, wantVar, 1e-12) {
					t.Fatalf("%s: PredictGrad = (%v, %v), Predict = (%v, %v)", kern.name, mean, variance, wantMean, wantVar)
				}
				meanAt := func(x []float64) float64 { m, _ := predict(x); return m }
				varianceAt := func(x []float64) float64 { _, v := predict(x); return v }
				for j := range dim {
					fdMean, fdVar := partial(meanAt, x, j), partial(varianceAt, x, j)
					if !matchesDifference(dmean[j], fdMean) || !matchesDifference(dvar[j], fdVar) {
						t.Errorf("%s noisy=%v x=%v j=%d: gradient (%v, %v), finite differences (%v, %v)",
							kern.name, noisy, x, j, dmean[j], dvar[j], fdMean, fdVar)
					}
				}
			}
		}
	}
}

func TestPosteriorCovarianceGradMatchesFiniteDifferences(t *testing.T) {
	p := newProblem(3, 25, 2, gradLengthscale, true)
	g := filled(t, p, len(p.x), len(p.x))
	n, dim := g.Len(), p.dim
	fixed := []float64{0.6, 0.2}
	kernelVector := func(x []float64) []float64 {
		k := make([]float64, n)
		for i := range k {
			k[i] = seKernel(x, p.x[i])
		}
		return k
	}
	v2 := kernelVector(fixed)
	g.Predict(v2, 1)
	covariance := func(x []float64) float64 {
		v := kernelVector(x)
		g.Predict(v, 1)
		return g.PosteriorCovariance(v, v2, seKernel(x, fixed))
	}
	w2 := make([]float64, n)
	g.SolveWeights(v2, w2)
	for _, x := range [][]float64{{0.1, 0.9}, {0.55, 0.25}, {0.3, 0.3}} {
		dk, dk12, dcov := make([]float64, n*dim), make([]float64, dim), make([]float64, dim)
		for i := range n {
			seGrad(x, p.x[i], dk[i*dim:(i+1)*dim])
		}
		seGrad(x, fixed, dk12)
		g.PosteriorCovarianceGrad(dk, dk12, w2, dcov)
		for j := range dim {
			fd := partial(covariance, x, j)
			if !matchesDifference(dcov[j], fd) {
				t.Errorf("x=%v j=%d: gradient %v, finite differences %v", x, j, dcov[j], fd)
			}
		}
	}
}

func TestPredictGradAllocatesNothing(t *testing.T) {
	const n, dim = 40, 3
	p := newProblem(5, n, dim, gradLengthscale, true)
	g := filled(t, p, n, n)
	x := []float64{0.2, 0.4, 0.6}
	kvec, dk, work := make([]float64, n), make([]float64, n*dim), make([]float64, n)
	dmean, dvar := make([]float64, dim), make([]float64, dim)
	allocs := testing.AllocsPerRun(100, func() {
		for i := range n {
			kvec[i] = seKernel(x, p.x[i])
			seGrad(x, p.x[i], dk[i*dim:(i+1)*dim])
		}
		g.PredictGrad(kvec, dk, 1, nil, work, dmean, dvar)
		g.SolveWeights(kvec, work)
		g.PosteriorCovarianceGrad(dk, dmean, work, dvar)
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per PredictGrad", allocs)
	}
}

// partial is ∂f/∂x_j at x by a central difference with step 1e-6.
func partial(f func([]float64) float64, x []float64, j int) float64 {
	const h = 1e-6
	up, down := slices.Clone(x), slices.Clone(x)
	up[j] += h
	down[j] -= h
	return (f(up) - f(down)) / (2 * h)
}

// matchesDifference reports whether an analytic derivative agrees with a
// central difference to 1e-6, relative above 1 and absolute below.
func matchesDifference(got, difference float64) bool {
	return math.Abs(got-difference) <= 1e-6*max(1, math.Abs(difference))
}
