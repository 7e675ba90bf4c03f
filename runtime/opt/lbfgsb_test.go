package opt

import (
	"errors"
	"math"
	"testing"
)

// rosenbrock is the chained Rosenbrock function, minimum 0 at (1, ..., 1).
func rosenbrock(x, grad []float64) float64 {
	for i := range grad {
		grad[i] = 0
	}
	f := 0.0
	for i := 0; i+1 < len(x); i++ {
		a, b := 1-x[i], x[i+1]-x[i]*x[i]
		f += a*a + 100*b*b
		grad[i] += -2*a - 400*x[i]*b
		grad[i+1] += 200 * b
	}
	return f
}

// quadratic returns ½(x−c)ᵀdiag(w)(x−c) plus a coupling term, so that the
// Hessian is not diagonal: f = Σ ½w_i(x_i−c_i)² + ½κ(Σ(x_i−c_i))².
func quadratic(w, c []float64, coupling float64) func(x, grad []float64) float64 {
	return func(x, grad []float64) float64 {
		sum, f := 0.0, 0.0
		for i := range x {
			sum += x[i] - c[i]
		}
		for i := range x {
			e := x[i] - c[i]
			f += 0.5 * w[i] * e * e
			grad[i] = w[i]*e + coupling*sum
		}
		return f + 0.5*coupling*sum*sum
	}
}

func filled(n int, v float64) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = v
	}
	return x
}

// checkKKT verifies first-order optimality on a box: zero gradient on free
// variables, a gradient pushing outwards on variables at a bound.
func checkKKT(t *testing.T, f func(x, grad []float64) float64, x, lo, hi []float64, tol float64) {
	t.Helper()
	g := make([]float64, len(x))
	f(x, g)
	for i := range x {
		switch {
		case x[i] == lo[i] && x[i] == hi[i]:
		case x[i] == lo[i]:
			if g[i] < -tol {
				t.Errorf("x[%d] at its lower bound with gradient %v < 0", i, g[i])
			}
		case x[i] == hi[i]:
			if g[i] > tol {
				t.Errorf("x[%d] at its upper bound with gradient %v > 0", i, g[i])
			}
		case math.Abs(g[i]) > tol:
			t.Errorf("free x[%d] = %v has gradient %v", i, x[i], g[i])
		}
	}
}

func TestMinimizeFindsMinima(t *testing.T) {
	tests := []struct {
		name   string
		f      func(x, grad []float64) float64
		start  []float64
		lo, hi []float64
		want   []float64
		tol    float64
	}{
		{"rosenbrock 2D", rosenbrock, []float64{-1.2, 1}, filled(2, -5), filled(2, 5), filled(2, 1), 1e-6},
		{"rosenbrock 10D", rosenbrock, filled(10, -1), filled(10, -5), filled(10, 5), filled(10, 1), 1e-6},
		{"rosenbrock from a corner", rosenbrock, filled(4, 3), filled(4, -3), filled(4, 3), filled(4, 1), 1e-6},
		// The unconstrained minimiser (2, −1, 0.5) lies outside in two
		// coordinates: the solution is on the face x0 = 1 and x1 = 0.
		{"quadratic on a face", quadratic([]float64{1, 2, 3}, []float64{2, -1, 0.5}, 0),
			[]float64{0.5, 0.5, 0.1}, filled(3, 0), filled(3, 1), []float64{1, 0, 0.5}, 1e-8},
		// Every coordinate of the minimiser (−1, 3) is outside: a corner.
		{"quadratic in a corner", quadratic([]float64{4, 1}, []float64{-1, 3}, 0.5),
			[]float64{0.3, 0.6}, filled(2, 0), filled(2, 1), []float64{0, 1}, 0},
		{"rosenbrock with the optimum cut off", rosenbrock, []float64{0, 0}, filled(2, -2), []float64{0.5, 2}, []float64{0.5, 0.25}, 1e-6},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n := len(tc.start)
			o := NewLBFGSB(n, 6)
			o.GradTol, o.FTol, o.MaxIterations = 1e-10, 0, 1000
			x := append([]float64(nil), tc.start...)
			res, err := o.Minimize(tc.f, x, tc.lo, tc.hi)
			if err != nil {
				t.Fatal(err)
			}
			for i := range x {
				if math.Abs(x[i]-tc.want[i]) > tc.tol {
					t.Fatalf("x = %v, want %v (%+v)", x, tc.want, res)
				}
				if x[i] < tc.lo[i] || x[i] > tc.hi[i] {
					t.Fatalf("x[%d] = %v outside [%v, %v]", i, x[i], tc.lo[i], tc.hi[i])
				}
			}
			g := make([]float64, n)
			if fx := tc.f(x, g); fx != res.F {
				t.Errorf("Result.F = %v, f(x) = %v", res.F, fx)
			}
			checkKKT(t, tc.f, x, tc.lo, tc.hi, 1e-6)
			if !res.Converged {
				t.Errorf("not converged: %+v", res)
			}
		})
	}
}

// TestQuadraticIterations: with enough memory, a strictly convex quadratic is
// solved in about n iterations.
func TestQuadraticIterations(t *testing.T) {
	for _, n := range []int{2, 5, 10, 20} {
		w, c := make([]float64, n), make([]float64, n)
		for i := range n {
			w[i] = 1 + 9*float64(i)/float64(n) // condition number up to 10
			c[i] = math.Sin(float64(i + 1))
		}
		f := quadratic(w, c, 0.3)
		o := NewLBFGSB(n, n)
		o.GradTol, o.FTol = 1e-8, 0
		x := make([]float64, n)
		res, err := o.Minimize(f, x, filled(n, -10), filled(n, 10))
		if err != nil {
			t.Fatal(err)
		}
		if !res.Converged || res.Iterations > n+5 {
			t.Errorf("n = %d: %+v, want convergence within %d iterations", n, res, n+5)
		}
		for i := range x {
			if math.Abs(x[i]-c[i]) > 1e-7 {
				t.Fatalf("n = %d: x = %v, want %v", n, x, c)
			}
		}
	}
}

func TestDegenerateInputs(t *testing.T) {
	nanStart := func(x, grad []float64) float64 { grad[0] = 1; return math.NaN() }
	infGrad := func(x, grad []float64) float64 { grad[0] = math.Inf(1); return 0 }
	// NaN away from the start: the line search must shrink into the region
	// where f is defined (x < 0.5) and find the minimum at 0.3 there.
	partial := func(x, grad []float64) float64 {
		if x[0] > 0.5 {
			grad[0] = 0
			return math.NaN()
		}
		grad[0] = 2 * (x[0] - 0.3)
		return (x[0] - 0.3) * (x[0] - 0.3)
	}
	constant := func(x, grad []float64) float64 {
		for i := range grad {
			grad[i] = 0
		}
		return 7
	}
	tests := []struct {
		name    string
		f       func(x, grad []float64) float64
		x       []float64
		lo, hi  []float64
		wantErr error
		wantX   []float64
	}{
		{"NaN at the start", nanStart, []float64{0}, []float64{-1}, []float64{1}, ErrNotFinite, nil},
		{"infinite gradient at the start", infGrad, []float64{0}, []float64{-1}, []float64{1}, ErrNotFinite, nil},
		{"lo > hi", constant, []float64{0}, []float64{1}, []float64{0}, ErrBadInput, nil},
		{"NaN bound", constant, []float64{0}, []float64{math.NaN()}, []float64{0}, ErrBadInput, nil},
		{"short slice", constant, []float64{0}, []float64{0, 0}, []float64{1}, ErrBadInput, nil},
		{"NaN beyond a threshold", partial, []float64{-4}, []float64{-5}, []float64{5}, nil, []float64{0.3}},
		{"start projected into the box", constant, []float64{9}, []float64{-1}, []float64{1}, nil, []float64{1}},
		{"fixed variable", func(x, grad []float64) float64 {
			grad[0], grad[1] = 2*(x[0]-3), 2*(x[1]+1)
			return (x[0]-3)*(x[0]-3) + (x[1]+1)*(x[1]+1)
		}, []float64{0, 0}, []float64{0.25, -5}, []float64{0.25, 5}, nil, []float64{0.25, -1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := NewLBFGSB(1, 3)
			if len(tc.x) == 2 {
				o = NewLBFGSB(2, 3)
			}
			res, err := o.Minimize(tc.f, tc.x, tc.lo, tc.hi)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("err = %v, want %v", err, tc.wantErr)
			}
			for i, want := range tc.wantX {
				if math.Abs(tc.x[i]-want) > 1e-6 || !res.Converged {
					t.Fatalf("x = %v, want %v (%+v)", tc.x, tc.wantX, res)
				}
			}
		})
	}
}

func TestMaxIterations(t *testing.T) {
	o := NewLBFGSB(2, 5)
	o.MaxIterations = 3
	x := []float64{-1.2, 1}
	res, err := o.Minimize(rosenbrock, x, filled(2, -5), filled(2, 5))
	if err != nil || res.Iterations != 3 || res.Converged {
		t.Fatalf("%+v, %v: want 3 iterations without convergence", res, err)
	}
}

func TestMinimizeAllocatesNothing(t *testing.T) {
	o := NewLBFGSB(10, 5)
	x := make([]float64, 10)
	lo, hi := filled(10, -2), filled(10, 2)
	allocs := testing.AllocsPerRun(20, func() {
		for i := range x {
			x[i] = -1
		}
		if _, err := o.Minimize(rosenbrock, x, lo, hi); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per Minimize", allocs)
	}
}

func BenchmarkMinimizeRosenbrock(b *testing.B) {
	for _, n := range []int{2, 10, 50} {
		b.Run(map[int]string{2: "n=2", 10: "n=10", 50: "n=50"}[n], func(b *testing.B) {
			o := NewLBFGSB(n, 10)
			x := make([]float64, n)
			lo, hi := filled(n, -2), filled(n, 2)
			b.ReportAllocs()
			for b.Loop() {
				for i := range x {
					x[i] = -1
				}
				if _, err := o.Minimize(rosenbrock, x, lo, hi); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestKeepMemoryReusesCurvature minimises a badly scaled quadratic, then one
// whose minimum moved a little, as a refit does: with KeepMemory the second
// search starts from the first one's curvature pairs and needs fewer
// evaluations than from none, and finds the same minimum.
func TestKeepMemoryReusesCurvature(t *testing.T) {
	const n = 6
	w := []float64{1, 3, 10, 30, 100, 300}
	lo, hi := filled(n, -10), filled(n, 10)
	moved := []float64{0.1, -0.2, 0.15, 0.05, -0.1, 0.2}
	evaluations := func(keep bool) (int, []float64) {
		o := NewLBFGSB(n, 6)
		o.KeepMemory = keep
		x := filled(n, 1)
		if _, err := o.Minimize(quadratic(w, filled(n, 0), 0.5), x, lo, hi); err != nil {
			t.Fatal(err)
		}
		res, err := o.Minimize(quadratic(w, moved, 0.5), x, lo, hi)
		if err != nil {
			t.Fatal(err)
		}
		return res.Evaluations, x
	}
	fresh, want := evaluations(false)
	kept, got := evaluations(true)
	if kept >= fresh {
		t.Errorf("the second search took %d evaluations with the kept pairs, %d without", kept, fresh)
	}
	for i := range got {
		if math.Abs(got[i]-moved[i]) > 1e-5 || math.Abs(want[i]-moved[i]) > 1e-5 {
			t.Errorf("x[%d]: %v with the kept pairs, %v without, want %v", i, got[i], want[i], moved[i])
		}
	}
}
