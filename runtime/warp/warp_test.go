package warp

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestApplyInverseMonotone(t *testing.T) {
	for _, lambda := range []float64{-2, -0.5, 0, 0.5, 1, 1.5, 2, 3, 4} {
		w := Warp{Mean: 0.3, SD: 2, Lambda: lambda, Lo: math.Inf(-1), Hi: math.Inf(1)}
		prev := math.Inf(-1)
		for y := -6.0; y <= 6; y += 0.25 {
			z := w.Apply(y)
			if !(z > prev) {
				t.Fatalf("λ = %v: Apply(%v) = %v does not increase on %v", lambda, y, z, prev)
			}
			prev = z
			if back := w.Inverse(z); math.Abs(back-y) > 1e-9*(1+math.Abs(y)) {
				t.Fatalf("λ = %v: Inverse(Apply(%v)) = %v", lambda, y, back)
			}
			const h = 1e-6
			if fd := (w.Apply(y+h) - w.Apply(y-h)) / (2 * h); math.Abs(fd-w.Slope(y)) > 1e-5*(1+math.Abs(fd)) {
				t.Fatalf("λ = %v: Slope(%v) = %v, finite difference %v", lambda, y, w.Slope(y), fd)
			}
		}
	}
}

// TestInverseBounded: a warped mean beyond ψ's range (z >= −1/λ for λ < 0,
// an extrapolation) inverts to the edge of the fitted values' widened range,
// not to +Inf, and so does a value far below them; within it Inverse undoes
// Apply.
func TestInverseBounded(t *testing.T) {
	w := Warp{Mean: 10, SD: 2, Lambda: -1, Lo: -1, Hi: 2}
	if got := w.Inverse(1.5); got != 10+2*5 {
		t.Errorf("Inverse beyond ψ's range = %v, want the widened range's top 20", got)
	}
	if got := w.Inverse(-100); got != 10+2*(-4) {
		t.Errorf("Inverse far below = %v, want the widened range's bottom 2", got)
	}
	if got := w.Inverse(w.Apply(13)); math.Abs(got-13) > 1e-12 {
		t.Errorf("Inverse(Apply(13)) = %v", got)
	}
	if f := Fit([]float64{1, 2, 4, 100}); f.Lo != (1-f.Mean)/f.SD || f.Hi != (100-f.Mean)/f.SD {
		t.Errorf("Fit's range [%v, %v], want the standardised least and greatest values", f.Lo, f.Hi)
	}
}

// TestFit: normal values keep λ near 1 (the identity); a heavy right tail
// (log-normal values) takes λ well below 1, towards a logarithm, and its
// heavy left mirror well above; equal values give the identity.
func TestFit(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	normal, right, left := make([]float64, 400), make([]float64, 400), make([]float64, 400)
	for i := range normal {
		g := rng.NormFloat64()
		normal[i], right[i], left[i] = 3+2*g, math.Exp(1.2*g), -math.Exp(1.2*g)
	}
	if w := Fit(normal); math.Abs(w.Lambda-1) > 0.25 {
		t.Errorf("normal values: λ = %v, want about 1", w.Lambda)
	}
	if w := Fit(right); w.Lambda > 0.5 {
		t.Errorf("a heavy right tail: λ = %v, want well below 1", w.Lambda)
	}
	if w := Fit(left); w.Lambda < 1.5 {
		t.Errorf("a heavy left tail: λ = %v, want well above 1", w.Lambda)
	}
	if w := Fit([]float64{2, 2, 2}); w.Lambda != 1 || w.Apply(2) != 0 {
		t.Errorf("equal values: %+v", w)
	}
	if a := testing.AllocsPerRun(10, func() { Fit(right) }); a != 0 {
		t.Errorf("Fit allocates %v times", a)
	}
}

// TestFitWorseTail: a heavy tail of bad values (the left: larger is better)
// is warped as Fit warps it; a heavy tail of good values, which Fit
// compresses, keeps the identity; so do equal values.
func TestFitWorseTail(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	right, left := make([]float64, 400), make([]float64, 400)
	for i := range right {
		g := rng.NormFloat64()
		right[i], left[i] = math.Exp(1.2*g), -math.Exp(1.2*g)
	}
	if w, want := FitWorseTail(left), Fit(left); math.Abs(w.Lambda-want.Lambda) > 1e-3 || w.Lambda < 1.5 {
		t.Errorf("a heavy tail of bad values: λ = %v, want Fit's %v", w.Lambda, want.Lambda)
	}
	if w := FitWorseTail(right); w.Lambda != 1 {
		t.Errorf("a heavy tail of good values: λ = %v, want the identity", w.Lambda)
	}
	if w := FitWorseTail([]float64{2, 2, 2}); w.Lambda != 1 || w.Apply(2) != 0 {
		t.Errorf("equal values: %+v", w)
	}
	if a := testing.AllocsPerRun(10, func() { FitWorseTail(left) }); a != 0 {
		t.Errorf("FitWorseTail allocates %v times", a)
	}
}

// TestFitAuto: normal values keep the identity; a heavy tail is warped.
func TestFitAuto(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	normal, right := make([]float64, 60), make([]float64, 60)
	for i := range normal {
		g := rng.NormFloat64()
		normal[i], right[i] = 3+2*g, math.Exp(1.5*g)
	}
	if w := FitAuto(normal); w.Lambda != 1 {
		t.Errorf("normal values: λ = %v, want the identity", w.Lambda)
	}
	if w := FitAuto(right); w.Lambda > 0.5 {
		t.Errorf("a heavy right tail: λ = %v, want it warped", w.Lambda)
	}
	if w := FitAuto([]float64{1, 1}); w.Lambda != 1 {
		t.Errorf("equal values: %+v", w)
	}
}
