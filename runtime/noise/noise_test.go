package noise

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/bocdev/boc/runtime/design"
	"gonum.org/v1/gonum/stat/distuv"
)

// distribution pairs a quantile function of this package with gonum's CDF
// and survival function and the textbook mean and variance.
type distribution struct {
	name           string
	quantile       func(u float64) float64
	cdf, survival  func(x float64) float64
	mean, variance float64
}

func distributions() []distribution {
	beta := func(a, b float64) distribution {
		d := distuv.Beta{Alpha: a, Beta: b}
		return distribution{name: "beta", quantile: func(u float64) float64 { return Beta(a, b, u) }, cdf: d.CDF, survival: d.Survival,
			mean: a / (a + b), variance: a * b / ((a + b) * (a + b) * (a + b + 1))}
	}
	chi2 := func(df float64) distribution {
		d := distuv.ChiSquared{K: df}
		return distribution{name: "chi2", quantile: func(u float64) float64 { return Chi2(df, u) }, cdf: d.CDF, survival: d.Survival,
			mean: df, variance: 2 * df}
	}
	return []distribution{
		{name: "normal", quantile: Normal, cdf: distuv.UnitNormal.CDF, survival: distuv.UnitNormal.Survival, mean: 0, variance: 1},
		beta(2, 5), beta(0.4, 0.2), beta(0.5, 0.5), beta(30, 3),
		chi2(3), chi2(0.5), chi2(40),
	}
}

// TestMoments: the mean and variance of m = 4096 Base draws pushed through a
// quantile function match the textbook values. Randomised QMC with m = 2¹²
// points integrates these smooth (if tail-heavy) integrands to within 6e-4 sd
// (mean) and 0.7% (variance, χ²(0.5)'s heavy tail); the tolerances are 0.3%
// of sd for the mean and 2% relative for the variance.
func TestMoments(t *testing.T) {
	const m = 4096
	dists := distributions()
	base := make([]float64, m*len(dists))
	if err := Base(m, len(dists), 7, base); err != nil {
		t.Fatal(err)
	}
	for j, d := range dists {
		var sum, sumSq float64
		for i := range m {
			x := d.quantile(base[i*len(dists)+j])
			sum += x
			sumSq += x * x
		}
		mean := sum / m
		variance := sumSq/m - mean*mean
		sd := math.Sqrt(d.variance)
		t.Logf("%s: mean error %.2g sd, variance error %.2g relative", d.name, (mean-d.mean)/sd, variance/d.variance-1)
		if math.Abs(mean-d.mean) > 0.003*sd {
			t.Errorf("%s (column %d): mean %.6g, want %.6g ± %.3g", d.name, j, mean, d.mean, 0.003*sd)
		}
		if math.Abs(variance/d.variance-1) > 0.02 {
			t.Errorf("%s (column %d): variance %.6g, want %.6g ± 2%%", d.name, j, variance, d.variance)
		}
	}
}

// TestQuantileRoundTrip: CDF(Quantile(u)) = u on a grid from 2⁻⁵⁴ (the
// smallest uniform Fresh makes) to 1 − 2⁻⁵³. Below the median the lower tail
// is compared, above it the upper one (1 − u is exact there), relatively to
// 1e-12. Where float64 cannot resolve the quantile that finely (beta(0.4,
// 0.2) piles its upper tail into the last ulps below 1; χ² and beta quantiles
// underflow to 0), u must lie between the tail probabilities of the
// quantile's two float64 neighbours instead: no representable answer is
// closer.
func TestQuantileRoundTrip(t *testing.T) {
	const tol = 1e-12
	grid := []float64{0x1p-54, 1e-15, 1e-12, 1e-9, 1e-6, 1e-3, 0.01, 0.1, 0.2499, 0.25, 0.3, 0.5, 0.7, 0.9, 0.99, 1 - 1e-3,
		1 - 1e-6, 1 - 1e-9, 1 - 1e-12, 1 - 1e-15, 1 - 0x1p-53}
	for _, d := range distributions() {
		for _, u := range grid {
			x := d.quantile(u)
			if math.IsNaN(x) || math.IsInf(x, 0) {
				t.Errorf("%s: quantile(%g) = %v", d.name, u, x)
				continue
			}
			tail, target := d.cdf, u
			if u > 0.5 {
				tail, target = d.survival, 1-u
			}
			got := tail(x)
			if math.Abs(got/target-1) <= tol {
				continue
			}
			lo, hi := tail(math.Nextafter(x, math.Inf(-1))), tail(math.Nextafter(x, math.Inf(1)))
			lo, hi = min(lo, hi), max(lo, hi)
			if target < lo*(1-tol) || target > hi*(1+tol) {
				t.Errorf("%s: quantile(%.17g) = %.17g has tail probability %.17g (neighbours %.3g..%.3g), want %.17g",
					d.name, u, x, got, lo, hi, target)
			}
		}
	}
}

// TestSmoothInParameters: the quantiles are smooth in the distribution's
// parameters, so draws built on fixed base uniforms move smoothly when an
// optimiser changes them: central differences with steps h and h/2 agree to
// 1e-4 relative (a jump or a kink would make them differ by O(1)).
func TestSmoothInParameters(t *testing.T) {
	const h = 1e-4
	derivative := func(f func(float64) float64, p, h float64) float64 { return (f(p+h) - f(p-h)) / (2 * h) }
	for _, u := range []float64{1e-9, 0.01, 0.3, 0.5, 0.8, 0.999} {
		for a := 0.3; a < 6; a += 0.37 {
			funcs := map[string]func(float64) float64{
				"beta in a":  func(p float64) float64 { return Beta(p, 1.7, u) },
				"beta in b":  func(p float64) float64 { return Beta(1.7, p, u) },
				"chi2 in df": func(p float64) float64 { return Chi2(p, u) },
			}
			for name, f := range funcs {
				d1, d2 := derivative(f, a, h), derivative(f, a, h/2)
				if math.IsNaN(d1) || math.Abs(d1-d2) > 1e-4*max(math.Abs(d1), 1e-12) {
					t.Errorf("%s at %.2f, u=%g: differences %.10g (h=%g) and %.10g (h=%g)", name, a, u, d1, h, d2, h/2)
				}
			}
		}
	}
}

func TestQuantileInvalid(t *testing.T) {
	for name, v := range map[string]float64{
		"normal u<0": Normal(-0.1), "normal u>1": Normal(1.5), "normal NaN": Normal(math.NaN()),
		"beta a=0": Beta(0, 1, 0.5), "beta b<0": Beta(1, -1, 0.5), "beta a=inf": Beta(math.Inf(1), 1, 0.5), "beta u>1": Beta(1, 1, 2),
		"chi2 df=0": Chi2(0, 0.5), "chi2 u<0": Chi2(1, -1), "chi2 df=NaN": Chi2(math.NaN(), 0.5),
	} {
		if !math.IsNaN(v) {
			t.Errorf("%s = %v, want NaN", name, v)
		}
	}
	if Normal(0) != math.Inf(-1) || Normal(1) != math.Inf(1) || Chi2(2, 0) != 0 || Beta(2, 2, 1) != 1 {
		t.Errorf("quantiles at 0 and 1: Normal %v %v, Chi2(2, 0) %v, Beta(2, 2, 1) %v", Normal(0), Normal(1), Chi2(2, 0), Beta(2, 2, 1))
	}
}

func TestBase(t *testing.T) {
	const m, q = 1024, 5
	draw := func(seed uint64) []float64 {
		out := make([]float64, m*q)
		if err := Base(m, q, seed, out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	a, b, c := draw(3), draw(3), draw(4)
	if !slices.Equal(a, b) {
		t.Error("Base differs between two calls with seed 3")
	}
	if slices.Equal(a, c) {
		t.Error("Base is the same for seeds 3 and 4")
	}
	for _, seed := range []uint64{0, 3} {
		for i, u := range draw(seed) {
			if !(u > 0 && u < 1) {
				t.Fatalf("seed %d: value %d is %v, outside (0, 1)", seed, i, u)
			}
		}
	}
	if got := draw(0)[:q]; !slices.Equal(got, []float64{0x1p-53, 0x1p-53, 0x1p-53, 0x1p-53, 0x1p-53}) {
		t.Errorf("seed 0 starts at %v, want the origin clamped to 2⁻⁵³", got)
	}
	// The points are those of the shifted Sobol sequence.
	sobol, err := design.NewSobol(q, 3)
	if err != nil {
		t.Fatal(err)
	}
	want := make([]float64, q)
	for i := range 10 {
		sobol.Next(want)
		if !slices.Equal(a[i*q:(i+1)*q], want) {
			t.Errorf("point %d is %v, want Sobol's %v", i, a[i*q:(i+1)*q], want)
		}
	}
	for _, tt := range []struct{ m, q, n int }{{4, 2, 7}, {-1, 2, 0}, {3, 0, 0}, {1, design.MaxSobolDim + 1, design.MaxSobolDim + 1}} {
		if err := Base(tt.m, tt.q, 1, make([]float64, tt.n)); err == nil {
			t.Errorf("Base(%d, %d) with %d values: no error", tt.m, tt.q, tt.n)
		}
	}
}

func TestFresh(t *testing.T) {
	out, again := make([]float64, 10000), make([]float64, 10000)
	Fresh(rand.New(rand.NewPCG(1, 2)), out)
	Fresh(rand.New(rand.NewPCG(1, 2)), again)
	if !slices.Equal(out, again) {
		t.Error("Fresh differs for the same generator state")
	}
	var sum float64
	for i, u := range out {
		if !(u > 0 && u < 1) {
			t.Fatalf("value %d is %v, outside (0, 1)", i, u)
		}
		sum += u
	}
	// The mean of 10⁴ uniforms has sd 1/√(12·10⁴) ≈ 0.0029; allow 4 sd.
	if mean := sum / float64(len(out)); math.Abs(mean-0.5) > 0.0116 {
		t.Errorf("mean %v, want 0.5 ± 0.0116", mean)
	}
}

func TestPick(t *testing.T) {
	tests := []struct {
		weights []float64
		u       float64
		want    int
	}{
		{[]float64{1}, 0.999, 0},
		{[]float64{0.25, 0.75}, 0, 0},
		{[]float64{0.25, 0.75}, 0.2499, 0},
		{[]float64{0.25, 0.75}, 0.25, 1}, // the boundary belongs to the next component
		{[]float64{0, 0.5, 0.5}, 0, 1},   // a zero weight is never picked
		{[]float64{0.1, 0.2, 0.7}, 0.31, 2},
		{[]float64{0.1, 0.2, 0.7}, 0.29999, 1},
		{[]float64{0.1, 0.1, 0.1}, 0.9, 2}, // weights summing short of 1: the last catches the rest
		{[]float64{0.1, 0.2, 0.7}, 1 - 0x1p-53, 2},
	}
	for _, tt := range tests {
		if got := Pick(tt.weights, tt.u); got != tt.want {
			t.Errorf("Pick(%v, %v) = %d, want %d", tt.weights, tt.u, got, tt.want)
		}
	}
}

// TestDeterministicAndAllocationFree: the hot-path functions give identical
// results on repeated calls and never allocate.
// TestFreshAt: the draws are a function of the seed and the point, in
// (0, 1), different for points one bit apart and for another seed, and
// uniform on average.
func TestFreshAt(t *testing.T) {
	u := []float64{0.25, 0.5}
	next := []float64{0.25, math.Nextafter(0.5, 1)}
	out, again, other, reseeded := make([]float64, 10000), make([]float64, 10000), make([]float64, 10000), make([]float64, 10000)
	FreshAt(7, u, out)
	FreshAt(7, u, again)
	FreshAt(7, next, other)
	FreshAt(8, u, reseeded)
	if !slices.Equal(out, again) {
		t.Error("FreshAt differs for the same seed and point")
	}
	if out[0] == other[0] || out[0] == reseeded[0] {
		t.Errorf("the first draw %v is the same for a point one bit apart (%v) or another seed (%v)", out[0], other[0], reseeded[0])
	}
	var sum float64
	for i, x := range out {
		if !(x > 0 && x < 1) {
			t.Fatalf("value %d is %v, outside (0, 1)", i, x)
		}
		sum += x
	}
	if mean := sum / float64(len(out)); math.Abs(mean-0.5) > 0.0116 { // 4 sd, as in TestFresh
		t.Errorf("mean %v, want 0.5 ± 0.0116", mean)
	}
}

func TestDeterministicAndAllocationFree(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	buf := make([]float64, 64)
	weights := []float64{0.2, 0.3, 0.5}
	var sink float64
	calls := map[string]func(){
		"Fresh":      func() { Fresh(rng, buf) },
		"FreshAt":    func() { FreshAt(3, weights, buf) },
		"Normal":     func() { sink += Normal(1e-10) + Normal(0.7) },
		"Beta":       func() { sink += Beta(0.4, 0.2, 1e-9) + Beta(2, 5, 0.9) },
		"Chi2 lower": func() { sink += Chi2(0.5, 1e-12) + Chi2(3, 0.1) },
		"Chi2 upper": func() { sink += Chi2(3, 0.9) },
		"Pick":       func() { sink += float64(Pick(weights, 0.6)) },
	}
	for name, call := range calls {
		if allocs := testing.AllocsPerRun(100, call); allocs != 0 {
			t.Errorf("%s allocates %v times per call", name, allocs)
		}
	}
	for _, u := range []float64{1e-12, 0.1, 0.6} {
		if Chi2(0.7, u) != Chi2(0.7, u) || Beta(0.3, 4, u) != Beta(0.3, 4, u) || Normal(u) != Normal(u) {
			t.Errorf("a quantile at %g differs between calls", u)
		}
	}
	_ = sink
}

// TestGaussian: the draws of N(mean, cov) from standard normals have that
// mean and covariance, with a direction without variance, and allocate
// nothing; an indefinite covariance is refused.
func TestGaussian(t *testing.T) {
	const m, d = 4096, 3
	uniforms := make([]float64, m*d)
	if err := Base(m, d, 11, uniforms); err != nil {
		t.Fatal(err)
	}
	normals := make([]float64, m*d)
	for i, u := range uniforms {
		normals[i] = Normal(u)
	}
	mean := []float64{1, -2, 0.5}
	cov := []float64{0.04, 0.01, 0, 0.01, 0.09, 0, 0, 0, 0}
	out, work := make([]float64, m*d), make([]float64, d*d)
	if !Gaussian(mean, cov, normals, out, work) {
		t.Fatal("Gaussian refused a positive semi-definite covariance")
	}
	for i := range d {
		for k := range d {
			var mi, mk, c float64
			for j := range m {
				mi += out[j*d+i] / m
				mk += out[j*d+k] / m
			}
			for j := range m {
				c += (out[j*d+i] - mi) * (out[j*d+k] - mk) / m
			}
			if math.Abs(mi-mean[i]) > 0.01 || math.Abs(c-cov[i*d+k]) > 0.003 {
				t.Errorf("component %d, %d: mean %v (want %v), covariance %v (want %v)", i, k, mi, mean[i], c, cov[i*d+k])
			}
		}
	}
	if a := testing.AllocsPerRun(5, func() { Gaussian(mean, cov, normals, out, work) }); a != 0 {
		t.Errorf("%v allocations", a)
	}
	if Gaussian(mean[:2], []float64{1, 2, 2, 1}, normals, out[:2*m], work) {
		t.Error("an indefinite covariance was accepted")
	}
}
