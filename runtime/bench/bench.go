// Package bench holds the standard test functions of Bayesian optimisation,
// in the user's units and with their usual definitions (the Virtual Library
// of Simulation Experiments, Surjanovic & Bingham, and AIRBO's 1-D functions,
// MATH.md §8), together with their search boxes and known optima for tests
// and regret. Every function is allocation-free and returns NaN when given a
// number of inputs it is not defined for.
package bench

import "math"

// Branin is the Branin–Hoo function of x = (x1, x2), usually on
// [-5, 10]×[0, 15]; minimum 5/(4π) ≈ 0.397887 at (−π, 12.275), (π, 2.275)
// and (3π, 2.475).
func Branin(x []float64) float64 {
	if len(x) != 2 {
		return math.NaN()
	}
	const (
		b = 5.1 / (4 * math.Pi * math.Pi)
		c = 5 / math.Pi
		r = 6
		s = 10
		t = 1 / (8 * math.Pi)
	)
	u := x[1] - b*x[0]*x[0] + c*x[0] - r
	return u*u + s*(1-t)*math.Cos(x[0]) + s
}

var (
	hartmannAlpha = [4]float64{1.0, 1.2, 3.0, 3.2}
	hartmann3A    = [4][3]float64{{3, 10, 30}, {0.1, 10, 35}, {3, 10, 30}, {0.1, 10, 35}}
	hartmann3P    = [4][3]float64{
		{0.3689, 0.1170, 0.2673},
		{0.4699, 0.4387, 0.7470},
		{0.1091, 0.8732, 0.5547},
		{0.0381, 0.5743, 0.8828},
	}
	hartmann6A = [4][6]float64{
		{10, 3, 17, 3.5, 1.7, 8},
		{0.05, 10, 17, 0.1, 8, 14},
		{3, 3.5, 1.7, 10, 17, 8},
		{17, 8, 0.05, 10, 0.1, 14},
	}
	hartmann6P = [4][6]float64{
		{0.1312, 0.1696, 0.5569, 0.0124, 0.8283, 0.5886},
		{0.2329, 0.4135, 0.8307, 0.3736, 0.1004, 0.9991},
		{0.2348, 0.1451, 0.3522, 0.2883, 0.3047, 0.6650},
		{0.4047, 0.8828, 0.8732, 0.5743, 0.1091, 0.0381},
	}
)

// Hartmann3 is the 3-D Hartmann function on [0,1]^3; minimum −3.86278 at
// (0.114614, 0.555649, 0.852547).
func Hartmann3(x []float64) float64 {
	if len(x) != 3 {
		return math.NaN()
	}
	sum := 0.0
	for i, a := range hartmann3A {
		e := 0.0
		for j, aij := range a {
			d := x[j] - hartmann3P[i][j]
			e += aij * d * d
		}
		sum += hartmannAlpha[i] * math.Exp(-e)
	}
	return -sum
}

// Hartmann6 is the 6-D Hartmann function on [0,1]^6; minimum −3.32237 at
// (0.20169, 0.150011, 0.476874, 0.275332, 0.311652, 0.6573).
func Hartmann6(x []float64) float64 {
	if len(x) != 6 {
		return math.NaN()
	}
	sum := 0.0
	for i, a := range hartmann6A {
		e := 0.0
		for j, aij := range a {
			d := x[j] - hartmann6P[i][j]
			e += aij * d * d
		}
		sum += hartmannAlpha[i] * math.Exp(-e)
	}
	return -sum
}

// Michalewicz is −Σ_i sin(x_i)·sin^{2m}(i·x_i²/π) with m = 10, any dimension,
// usually on [0, π]^d; minimum −1.8013 at (2.20, 1.57) for d = 2.
func Michalewicz(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	sum := 0.0
	for i, xi := range x {
		sum += michalewiczTerm(i+1, xi)
	}
	return sum
}

// michalewiczTerm is the i-th (1-based) summand of Michalewicz.
func michalewiczTerm(i int, x float64) float64 {
	s := math.Sin(float64(i) * x * x / math.Pi)
	s2 := s * s
	s4 := s2 * s2
	s8 := s4 * s4
	s16 := s8 * s8
	return -math.Sin(x) * s16 * s4 // sin^{2m} with m = 10
}

// Sphere is Σ x_i², any dimension; minimum 0 at the origin.
func Sphere(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	sum := 0.0
	for _, v := range x {
		sum += v * v
	}
	return sum
}

// Levy is the Levy function, any dimension, usually on [-10, 10]^d; minimum 0
// at (1, ..., 1). With w_i = 1 + (x_i − 1)/4:
// sin²(πw_1) + Σ_{i<d} (w_i − 1)²(1 + 10 sin²(πw_i + 1)) + (w_d − 1)²(1 + sin²(2πw_d)).
func Levy(x []float64) float64 {
	d := len(x)
	if d == 0 {
		return math.NaN()
	}
	s := math.Sin(math.Pi * levyW(x[0]))
	sum := s * s
	for _, v := range x[:d-1] {
		wi := levyW(v)
		s := math.Sin(math.Pi*wi + 1)
		sum += (wi - 1) * (wi - 1) * (1 + 10*s*s)
	}
	wd := levyW(x[d-1])
	s = math.Sin(2 * math.Pi * wd)
	return sum + (wd-1)*(wd-1)*(1+s*s)
}

func levyW(v float64) float64 { return 1 + (v-1)/4 }

// Griewank is Σ x_i²/4000 − Π cos(x_i/√i) + 1, any dimension, usually on
// [-600, 600]^d; minimum 0 at the origin.
func Griewank(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	sum, prod := 0.0, 1.0
	for i, v := range x {
		sum += v * v
		prod *= math.Cos(v / math.Sqrt(float64(i+1)))
	}
	return sum/4000 - prod + 1
}

// Powell is the Powell function for d >= 4, usually on [-4, 5]^d. Each
// whole block of four inputs adds (x1 + 10x2)² + 5(x3 − x4)² + (x2 − 2x3)⁴
// + 10(x1 − x4)⁴; the last d mod 4 inputs, which make no block, are unused,
// as in BoTorch's Powell, which the corrected-EI paper ran with d = 5. The
// minimum is 0 where the used inputs are 0.
func Powell(x []float64) float64 {
	if len(x) < 4 {
		return math.NaN()
	}
	sum := 0.0
	for i := 0; i+4 <= len(x); i += 4 {
		a, b, c, d := x[i], x[i+1], x[i+2], x[i+3]
		t1, t2, t3, t4 := a+10*b, c-d, b-2*c, a-d
		sum += t1*t1 + 5*t2*t2 + t3*t3*t3*t3 + 10*t4*t4*t4*t4
	}
	return sum
}

// Ackley is the Ackley function with a = 20, b = 0.2, c = 2π, any dimension,
// usually on [-32.768, 32.768]^d; minimum 0 at the origin.
func Ackley(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	const a, b, c = 20, 0.2, 2 * math.Pi
	n := float64(len(x))
	squares, cosines := 0.0, 0.0
	for _, v := range x {
		squares += v * v
		cosines += math.Cos(c * v)
	}
	return -a*math.Exp(-b*math.Sqrt(squares/n)) - math.Exp(cosines/n) + a + math.E
}

var (
	rkhsWideCentres   = [...]float64{0.1, 0.15, 0.08, 0.3, 0.4}
	rkhsWideWeights   = [...]float64{4, -1, 2, -2, 1}
	rkhsNarrowCentres = [...]float64{0.8, 0.85, 0.9, 0.95, 0.92, 0.74, 0.91, 0.89, 0.79, 0.88, 0.86, 0.96, 0.99, 0.82}
	rkhsNarrowWeights = [...]float64{3, 4, 2, 1, -1, 2, 2, 3, 3, 2, -1, -2, 4, -3}
)

// RKHS1D is the 1-D RKHS function of Assael, Wang and de Freitas used by
// AIRBO (unscaled; AIRBO multiplies it by 10), on [0, 1], maximised: broad
// bumps of width 0.1 near 0.1 and narrow ones of width 0.01 near 0.9, where
// the global maximum 5.73839 lies (x ≈ 0.89235).
func RKHS1D(x []float64) float64 {
	if len(x) != 1 {
		return math.NaN()
	}
	sum := 0.0
	for j, s := range rkhsWideCentres {
		d := (x[0] - s) / 0.1
		sum += rkhsWideWeights[j] * math.Exp(-0.5*d*d)
	}
	for j, t := range rkhsNarrowCentres {
		d := (x[0] - t) / 0.01
		sum += rkhsNarrowWeights[j] * math.Exp(-0.5*d*d)
	}
	return sum
}

// DoublePeak is AIRBO's 1-D double-peak function on [0, 1], maximised:
// sinc(2πx) + 7.2·exp(−((x − 0.25)·37)²) + 8.9·exp(−((x − 0.35)·39)²) with the
// normalised sinc(t) = sin(πt)/(πt). The taller peak near 0.35 is the global
// maximum; the wider one near 0.25 is the robust optimum under input noise.
func DoublePeak(x []float64) float64 {
	if len(x) != 1 {
		return math.NaN()
	}
	a := (x[0] - 0.25) * 37
	b := (x[0] - 0.35) * 39
	return sinc(2*math.Pi*x[0]) + 7.2*math.Exp(-a*a) + 8.9*math.Exp(-b*b)
}

// sinc is the normalised sinc function sin(πt)/(πt), 1 at t = 0.
func sinc(t float64) float64 {
	if t == 0 {
		return 1
	}
	return math.Sin(math.Pi*t) / (math.Pi * t)
}
