package kernel

import (
	"math"
	"math/rand/v2"
	"testing"
)

const dim = 3

// testKernels returns fresh kernels of every kind on inputs of dimension dim.
func testKernels() []struct {
	name string
	k    Kernel
} {
	ard := []float64{0.3, 0.7, 1.3}
	iso := []float64{0.5}
	return []struct {
		name string
		k    Kernel
	}{
		{"se iso", NewStationary(SE, 1.7, iso)},
		{"se ard", NewStationary(SE, 0.8, ard)},
		{"matern12 ard", NewStationary(Matern12, 1.2, ard)},
		{"matern32 iso", NewStationary(Matern32, 0.9, iso)},
		{"matern32 ard", NewStationary(Matern32, 1.1, ard)},
		{"matern52 ard", NewStationary(Matern52, 2.0, ard)},
		{"rq ard", NewRQ(1.3, 0.7, ard)},
		{"rq iso", NewRQ(0.6, 3.0, iso)},
		{"rqmix ard", NewStationary(RQMix, 0.4, ard)},
		{"linear", NewLinear(0.5, 0)},
		{"linear offset", NewLinear(0.5, 0.2)},
		{"sum", NewSum(NewStationary(SE, 1, ard), NewLinear(0.3, 0.1), NewStationary(Matern52, 0.5, iso))},
		{"product", NewProduct(NewStationary(SE, 1.5, ard), NewRQ(1, 2, iso))},
		{"scaled", NewScaled(2.5, NewStationary(Matern32, 1, ard))},
		{"nested", NewScaled(0.5, NewSum(NewProduct(NewLinear(1, 0.5), NewStationary(SE, 1, iso)), NewStationary(RQMix, 1, ard)))},
	}
}

func randomPoint(rng *rand.Rand) []float64 {
	p := make([]float64, dim)
	for i := range p {
		p[i] = rng.Float64()
	}
	return p
}

// TestValues checks kernels against closed forms at one pair of points.
func TestValues(t *testing.T) {
	a, b := []float64{0.1, 0.5, 0.9}, []float64{0.4, 0.1, 0.8}
	ls := []float64{0.5, 0.25, 1}
	r2 := 0.3*0.3/0.25 + 0.4*0.4/0.0625 + 0.1*0.1
	r := math.Sqrt(r2)
	rqmix := 0.0
	for _, alpha := range []float64{0.2, 0.5, 1, 2, 5} {
		rqmix += math.Pow(1+r2/(2*alpha), -alpha)
	}
	tests := []struct {
		name string
		k    Kernel
		want float64
	}{
		{"se", NewStationary(SE, 2, ls), 2 * math.Exp(-r2/2)},
		{"matern12", NewStationary(Matern12, 2, ls), 2 * math.Exp(-r)},
		{"matern32", NewStationary(Matern32, 2, ls), 2 * (1 + math.Sqrt(3)*r) * math.Exp(-math.Sqrt(3)*r)},
		{"matern52", NewStationary(Matern52, 2, ls), 2 * (1 + math.Sqrt(5)*r + 5*r2/3) * math.Exp(-math.Sqrt(5)*r)},
		{"rq", NewRQ(2, 1.5, ls), 2 * math.Pow(1+r2/3, -1.5)},
		{"rqmix", NewStationary(RQMix, 2, ls), 2 * rqmix},
		{"se iso", NewStationary(SE, 1, []float64{0.5}), math.Exp(-(0.09 + 0.16 + 0.01) / 0.5)},
		{"linear", NewLinear(3, 0.5), 3*(0.04+0.05+0.72) + 0.5},
		{"sum", NewSum(NewLinear(1, 0), NewLinear(2, 1)), 3*(0.04+0.05+0.72) + 1},
		{"product", NewProduct(NewLinear(1, 0), NewLinear(2, 1)), (0.81) * (2*0.81 + 1)},
		{"scaled", NewScaled(4, NewStationary(SE, 2, ls)), 8 * math.Exp(-r2/2)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.k.Eval(a, b); math.Abs(got-tt.want) > 1e-13*math.Abs(tt.want) {
				t.Errorf("Eval = %.17g, want %.17g", got, tt.want)
			}
			if got, want := tt.k.Eval(b, a), tt.k.Eval(a, b); got != want {
				t.Errorf("not symmetric: k(b, a) = %v, k(a, b) = %v", got, want)
			}
		})
	}
}

// TestGradX compares AddGradX with central finite differences of Eval.
func TestGradX(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const h = 1e-6
	for _, tt := range testKernels() {
		t.Run(tt.name, func(t *testing.T) {
			for range 20 {
				a, b := randomPoint(rng), randomPoint(rng)
				grad := make([]float64, dim)
				for i := range grad {
					grad[i] = 1 // AddGradX must add, not overwrite
				}
				const w = 0.7
				value := tt.k.AddGradX(a, b, w, grad)
				if want := tt.k.Eval(a, b); math.Abs(value-want) > 1e-14*math.Abs(want) {
					t.Fatalf("AddGradX returned %v, Eval %v", value, want)
				}
				for i := range a {
					ai := a[i]
					a[i] = ai + h
					up := tt.k.Eval(a, b)
					a[i] = ai - h
					down := tt.k.Eval(a, b)
					a[i] = ai
					want := 1 + w*(up-down)/(2*h)
					if math.Abs(grad[i]-want) > 1e-6*(1+math.Abs(want)) {
						t.Errorf("at a=%v b=%v: component %d: %v, finite difference %v", a, b, i, grad[i], want)
					}
				}
			}
		})
	}
}

// TestGradParams compares AddGradParams with central finite differences in θ.
func TestGradParams(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const h = 1e-6
	for _, tt := range testKernels() {
		t.Run(tt.name, func(t *testing.T) {
			np := tt.k.NumParams()
			theta := make([]float64, np)
			tt.k.Params(theta)
			for range 20 {
				a, b := randomPoint(rng), randomPoint(rng)
				grad := make([]float64, np)
				const w = -1.3
				value := tt.k.AddGradParams(a, b, w, grad)
				if want := tt.k.Eval(a, b); math.Abs(value-want) > 1e-14*math.Abs(want) {
					t.Fatalf("AddGradParams returned %v, Eval %v", value, want)
				}
				for j := range theta {
					tj := theta[j]
					theta[j] = tj + h
					tt.k.SetParams(theta)
					up := tt.k.Eval(a, b)
					theta[j] = tj - h
					tt.k.SetParams(theta)
					down := tt.k.Eval(a, b)
					theta[j] = tj
					tt.k.SetParams(theta)
					want := w * (up - down) / (2 * h)
					if math.Abs(grad[j]-want) > 1e-6*(1+math.Abs(want)) {
						t.Errorf("parameter %d: %v, finite difference %v", j, grad[j], want)
					}
				}
			}
		})
	}
}

// TestParamsRoundTrip checks that SetParams(Params()) leaves a kernel as it
// was and that the parameter counts add up.
func TestParamsRoundTrip(t *testing.T) {
	counts := map[string]int{
		"se iso": 2, "se ard": 4, "rq ard": 5, "rq iso": 3, "linear": 1, "linear offset": 2,
		"sum": 4 + 2 + 2, "product": 4 + 3, "scaled": 4, "nested": 2 + 2 + 4,
	}
	a, b := []float64{0.2, 0.3, 0.4}, []float64{0.9, 0.1, 0.5}
	for _, tt := range testKernels() {
		t.Run(tt.name, func(t *testing.T) {
			if want, ok := counts[tt.name]; ok && tt.k.NumParams() != want {
				t.Errorf("NumParams = %d, want %d", tt.k.NumParams(), want)
			}
			before := tt.k.Eval(a, b)
			theta := make([]float64, tt.k.NumParams())
			tt.k.Params(theta)
			tt.k.SetParams(theta)
			if after := tt.k.Eval(a, b); math.Abs(after-before) > 1e-14*math.Abs(before) {
				t.Errorf("Eval changed from %v to %v", before, after)
			}
		})
	}
}

// TestPositiveDefinite checks that the Gram matrix of every kernel on
// distinct points has a Cholesky factor (with a relative jitter of 1e-10 for
// the rank-deficient linear kernels).
func TestPositiveDefinite(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n = 30
	points := make([][]float64, n)
	for i := range points {
		points[i] = randomPoint(rng)
	}
	for _, tt := range testKernels() {
		t.Run(tt.name, func(t *testing.T) {
			l := make([]float64, n*n)
			for i := range n {
				for j := 0; j <= i; j++ {
					s := tt.k.Eval(points[i], points[j])
					if i == j {
						s *= 1 + 1e-10
					}
					for c := range j {
						s -= l[i*n+c] * l[j*n+c]
					}
					if i == j {
						if !(s > 0) {
							t.Fatalf("pivot %d is %v", i, s)
						}
						l[i*n+i] = math.Sqrt(s)
					} else {
						l[i*n+j] = s / l[j*n+j]
					}
				}
			}
		})
	}
}

func TestMatern12AtZeroDistance(t *testing.T) {
	k := NewStationary(Matern12, 1, []float64{0.5})
	a := []float64{0.3, 0.3, 0.3}
	grad := make([]float64, dim)
	k.AddGradX(a, a, 1, grad)
	theta := make([]float64, 2)
	k.AddGradParams(a, a, 1, theta)
	for _, v := range append(grad, theta...) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("gradient at r = 0 is not finite: x %v, θ %v", grad, theta)
		}
	}
	if theta[0] != 1 || theta[1] != 0 {
		t.Errorf("θ gradient at r = 0 = %v, want [1 0]", theta)
	}
}

func TestConstructorsRejectBadHyperparameters(t *testing.T) {
	tests := []struct {
		name string
		make func()
	}{
		{"zero variance", func() { NewStationary(SE, 0, []float64{1}) }},
		{"negative lengthscale", func() { NewStationary(SE, 1, []float64{1, -1}) }},
		{"no lengthscale", func() { NewStationary(Matern52, 1, nil) }},
		{"rq via NewStationary", func() { NewStationary(RQ, 1, []float64{1}) }},
		{"zero alpha", func() { NewRQ(1, 0, []float64{1}) }},
		{"infinite lengthscale", func() { NewStationary(SE, 1, []float64{math.Inf(1)}) }},
		{"negative offset", func() { NewLinear(1, -1) }},
		{"empty sum", func() { NewSum() }},
		{"zero scale", func() { NewScaled(0, NewLinear(1, 0)) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			tt.make()
		})
	}
}

func TestNoAllocations(t *testing.T) {
	a, b := []float64{0.1, 0.2, 0.3}, []float64{0.3, 0.2, 0.1}
	grad := make([]float64, 16)
	for _, tt := range testKernels() {
		allocs := testing.AllocsPerRun(100, func() {
			tt.k.Eval(a, b)
			tt.k.AddGradX(a, b, 1, grad)
			tt.k.AddGradParams(a, b, 1, grad)
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per evaluation", tt.name, allocs)
		}
	}
}

func TestFamilyString(t *testing.T) {
	if got := Matern52.String(); got != "matern52" {
		t.Errorf("Matern52.String() = %q", got)
	}
	if got := Family(42).String(); got != "Family(42)" {
		t.Errorf("Family(42).String() = %q", got)
	}
}

func BenchmarkEval(b *testing.B) {
	x, y := []float64{0.1, 0.2, 0.3}, []float64{0.3, 0.2, 0.1}
	for _, tt := range testKernels() {
		b.Run(tt.name, func(b *testing.B) {
			for b.Loop() {
				tt.k.Eval(x, y)
			}
		})
	}
}

// TestNamed checks that Named builds each family by its .bo name and
// refuses unknown names and bad hyperparameters.
func TestNamed(t *testing.T) {
	a, b := []float64{0.1, 0.7}, []float64{0.4, 0.2}
	for f, name := range familyNames {
		k, err := Named(name, 2, 0.5, []float64{0.3})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want := NewRQ(2, 0.5, []float64{0.3})
		if Family(f) != RQ {
			want = NewStationary(Family(f), 2, []float64{0.3})
		}
		if got, w := k.Eval(a, b), want.Eval(a, b); got != w || k.Family() != Family(f) {
			t.Errorf("%s: %v, want %v", name, got, w)
		}
	}
	if _, err := Named("matern42", 1, 1, []float64{1}); err == nil {
		t.Error("an unknown family was accepted")
	}
	if _, err := Named("se", 0, 1, []float64{1}); err == nil {
		t.Error("a zero variance was accepted")
	}
}

// TestRow checks Row against Eval for every family, to within the ulps
// fastexp allows.
func TestRow(t *testing.T) {
	points := []float64{0.1, 0.2, 0.9, 0.4, 0.5, 0.5, 0.1, 0.2, 3, -2}
	a := []float64{0.3, 0.1}
	out := make([]float64, 5)
	for f, name := range familyNames {
		for _, ls := range [][]float64{{0.3}, {0.2, 0.7}} {
			k, err := Named(name, 1.7, 0.8, ls)
			if err != nil {
				t.Fatal(err)
			}
			k.Row(a, points, out)
			for i := range out {
				want := k.Eval(a, points[2*i:2*i+2])
				if math.Abs(out[i]-want) > 1e-14*math.Max(1, math.Abs(want)) {
					t.Errorf("%v %v: Row[%d] = %v, Eval %v", Family(f), ls, i, out[i], want)
				}
			}
		}
	}
}
