package safe

import (
	"math"
	"testing"

	"github.com/bocdev/boc/runtime/kernel"
)

// TestEstimate compares a constraint's posterior away from the decision set
// with the closed form of one observation, and checks the seeds and the
// errors.
func TestEstimate(t *testing.T) {
	const noise, limit, g0 = 0.01, 1.0, 3.0
	k := kernel.NewStationary(kernel.SE, 2, []float64{0.3})
	e, err := NewExplorer(Config{Dim: 1, Points: []float64{0.2, 0.8}, Seeds: []int{0}, Capacity: 4, Delta: 0.1, Beta: 4,
		Constraints: []Constraint{{Name: "g", Kernel: k, NoiseVariance: noise, Threshold: limit}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Observe([]float64{0.2}, []float64{g0}); err != nil {
		t.Fatal(err)
	}
	u := []float64{0.5}
	mean, sd, beta, err := e.Estimate(0, u)
	if err != nil {
		t.Fatal(err)
	}
	// z = limit − g for a ≤ constraint; the prior puts z at 0.
	k01, k00, k11 := k.Eval(u, []float64{0.2}), k.Eval([]float64{0.2}, []float64{0.2}), k.Eval(u, u)
	z := k01 / (k00 + noise) * (limit - g0)
	wantSD := math.Sqrt(k11 - k01*k01/(k00+noise))
	if math.Abs(mean-(limit-z)) > 1e-12 || math.Abs(sd-wantSD) > 1e-12 || beta != 4 {
		t.Errorf("Estimate = %v ± %v (β %v), want %v ± %v (β 4)", mean, sd, beta, limit-z, wantSD)
	}
	if s := e.Seeds(); len(s) != 1 || e.Point(s[0])[0] != 0.2 {
		t.Errorf("Seeds = %v", s)
	}
	if _, _, _, err := e.Estimate(1, u); err == nil {
		t.Error("Estimate of constraint 1 of 1: no error")
	}
	if _, _, _, err := e.Estimate(0, []float64{0.5, 0.5}); err == nil {
		t.Error("Estimate at a point of 2 components in 1: no error")
	}
}
