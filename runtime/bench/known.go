package bench

import (
	"math"
	"slices"
)

// Optimum is the global optimum of a benchmark function in one dimension.
type Optimum struct {
	// X holds every known global optimiser, in the user's units; a NaN
	// coordinate is an input the function does not use, optimal at any value.
	X        [][]float64
	F        float64 // the optimal value
	Maximize bool    // the function is maximised (else minimised)
}

// spec describes one benchmark: its function, accepted dimensions, usual
// search box and optimum.
type spec struct {
	f        func([]float64) float64
	fixedDim int // exactly this many inputs, or 0 for any
	leastDim int // for any dimension: at least this many (0: one)
	lo, hi   []float64
	optimum  func(dim int) Optimum
}

// published returns an optimum that does not depend on the dimension.
func published(f float64, maximize bool, x ...[]float64) func(int) Optimum {
	return func(int) Optimum { return Optimum{X: x, F: f, Maximize: maximize} }
}

// atPoint returns the optimum value f at the point with every coordinate v.
func atPoint(v, f float64) func(int) Optimum {
	return func(dim int) Optimum {
		x := make([]float64, dim)
		for i := range x {
			x[i] = v
		}
		return Optimum{X: [][]float64{x}, F: f}
	}
}

// maximum1D returns the global maximum of a 1-D benchmark on [0, 1].
func maximum1D(f func([]float64) float64) func(int) Optimum {
	return func(int) Optimum {
		x, v := argmax1D(func(u float64) float64 { return f([]float64{u}) }, 0, 1, 100000)
		return Optimum{X: [][]float64{{x}}, F: v, Maximize: true}
	}
}

// powellOptimum is 0 where the inputs of Powell's blocks of four are 0; the
// inputs after the last whole block are unused (NaN: any value).
func powellOptimum(dim int) Optimum {
	x := make([]float64, dim)
	for i := dim - dim%4; i < dim; i++ {
		x[i] = math.NaN()
	}
	return Optimum{X: [][]float64{x}, F: 0}
}

// michalewiczOptimum minimises Michalewicz in any dimension: the function is
// a sum of one-variable terms, so its minimum is the sum of their minima.
// Term i oscillates i times faster, hence the finer grid.
func michalewiczOptimum(dim int) Optimum {
	x := make([]float64, dim)
	total := 0.0
	for i := range x {
		term := func(u float64) float64 { return -michalewiczTerm(i+1, u) }
		xi, v := argmax1D(term, 0, math.Pi, 4000+400*(i+1))
		x[i] = xi
		total -= v
	}
	return Optimum{X: [][]float64{x}, F: total}
}

var specs = map[string]spec{
	"branin": {f: Branin, fixedDim: 2, lo: []float64{-5, 0}, hi: []float64{10, 15},
		optimum: published(5/(4*math.Pi), false, []float64{-math.Pi, 12.275}, []float64{math.Pi, 2.275}, []float64{3 * math.Pi, 2.475})},
	"hartmann3": {f: Hartmann3, fixedDim: 3, lo: []float64{0}, hi: []float64{1},
		optimum: published(-3.86278, false, []float64{0.114614, 0.555649, 0.852547})},
	"hartmann6": {f: Hartmann6, fixedDim: 6, lo: []float64{0}, hi: []float64{1},
		optimum: published(-3.32237, false, []float64{0.20169, 0.150011, 0.476874, 0.275332, 0.311652, 0.6573})},
	"michalewicz": {f: Michalewicz, lo: []float64{0}, hi: []float64{math.Pi}, optimum: michalewiczOptimum},
	"sphere":      {f: Sphere, lo: []float64{-5.12}, hi: []float64{5.12}, optimum: atPoint(0, 0)},
	"levy":        {f: Levy, lo: []float64{-10}, hi: []float64{10}, optimum: atPoint(1, 0)},
	"griewank":    {f: Griewank, lo: []float64{-600}, hi: []float64{600}, optimum: atPoint(0, 0)},
	"powell":      {f: Powell, leastDim: 4, lo: []float64{-4}, hi: []float64{5}, optimum: powellOptimum},
	"ackley":      {f: Ackley, lo: []float64{-32.768}, hi: []float64{32.768}, optimum: atPoint(0, 0)},
	"rkhs1d":      {f: RKHS1D, fixedDim: 1, lo: []float64{0}, hi: []float64{1}, optimum: maximum1D(RKHS1D)},
	"double_peak": {f: DoublePeak, fixedDim: 1, lo: []float64{0}, hi: []float64{1}, optimum: maximum1D(DoublePeak)},
}

// Names returns the names of all benchmark functions, sorted; they match the
// names of the stdlib benchmark plugins.
func Names() []string {
	names := make([]string, 0, len(specs))
	for name := range specs {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// Lookup returns the benchmark function called name.
func Lookup(name string) (func([]float64) float64, bool) {
	s, ok := specs[name]
	return s.f, ok
}

// accepts reports whether the function is defined for dim inputs.
func (s spec) accepts(dim int) bool {
	if s.fixedDim > 0 {
		return dim == s.fixedDim
	}
	return dim >= max(s.leastDim, 1)
}

// Domain returns the usual search box of function name in dimension dim;
// ok is false for an unknown name or a dimension the function does not take.
func Domain(name string, dim int) (lo, hi []float64, ok bool) {
	s, found := specs[name]
	if !found || !s.accepts(dim) {
		return nil, nil, false
	}
	lo, hi = make([]float64, dim), make([]float64, dim)
	for i := range dim {
		lo[i] = s.lo[min(i, len(s.lo)-1)]
		hi[i] = s.hi[min(i, len(s.hi)-1)]
	}
	return lo, hi, true
}

// Known returns the global optimum of function name in dimension dim; ok is
// false for an unknown name or a dimension the function does not take.
// Branin's and Hartmann's optima are the published ones; Michalewicz's and
// the 1-D functions' are computed on each call (milliseconds).
func Known(name string, dim int) (opt Optimum, ok bool) {
	s, found := specs[name]
	if !found || !s.accepts(dim) {
		return Optimum{}, false
	}
	opt = s.optimum(dim)
	// Callers get their own copies of the points.
	opt.X = slices.Clone(opt.X)
	for i, x := range opt.X {
		opt.X[i] = slices.Clone(x)
	}
	return opt, true
}

// argmax1D returns the maximiser and maximum of f on [lo, hi]: the best of
// grid+1 equally spaced points, refined by golden-section search on the two
// grid intervals around it (f must be unimodal there, which a fine enough
// grid ensures).
func argmax1D(f func(float64) float64, lo, hi float64, grid int) (float64, float64) {
	h := (hi - lo) / float64(grid)
	best, bestValue := lo, f(lo)
	for i := 1; i <= grid; i++ {
		if x := lo + float64(i)*h; f(x) > bestValue {
			best, bestValue = x, f(x)
		}
	}
	a, b := max(best-h, lo), min(best+h, hi)
	const invPhi = 0.6180339887498949 // 1/φ
	c, d := b-invPhi*(b-a), a+invPhi*(b-a)
	fc, fd := f(c), f(d)
	for b-a > 1e-12*max(1, math.Abs(best)) {
		if fc > fd {
			b, d, fd = d, c, fc
			c = b - invPhi*(b-a)
			fc = f(c)
		} else {
			a, c, fc = c, d, fd
			d = a + invPhi*(b-a)
			fd = f(d)
		}
	}
	if x := (a + b) / 2; f(x) > bestValue {
		return x, f(x)
	}
	return best, bestValue
}
