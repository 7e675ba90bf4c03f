package uncertain

import (
	"math"
	"testing"
)

func TestToUnitMoments(t *testing.T) {
	// The box [0, 2] × [10, 20]: unit widths 2 and 10.
	u, offset := []float64{0.5, 0.25}, []float64{0.2, -1}
	lower, upper := []float64{0, 10}, []float64{2, 20}
	cov := []float64{0.04, 0.1, 0.1, 1}
	mean := make([]float64, 2)
	ToUnitMoments(u, offset, lower, upper, cov, mean)
	want := []float64{0.6, 0.15}
	wantCov := []float64{0.01, 0.005, 0.005, 0.01}
	for i := range mean {
		if math.Abs(mean[i]-want[i]) > 1e-15 {
			t.Errorf("mean[%d] = %v, want %v", i, mean[i], want[i])
		}
	}
	for i := range cov {
		if math.Abs(cov[i]-wantCov[i]) > 1e-15 {
			t.Errorf("cov[%d] = %v, want %v", i, cov[i], wantCov[i])
		}
	}
}

// TestSampleBox: the box holds every sample, and stays the unit cube when
// the samples do.
func TestSampleBox(t *testing.T) {
	lo, hi := []float64{0, 0}, []float64{1, 1}
	spread := func(u []float64) []float64 { return []float64{u[0] - 0.1, u[1], u[0] + 0.1, u[1] * 2} }
	if err := SampleBox(16, 2, spread, lo, hi); err != nil {
		t.Fatal(err)
	}
	if lo[0] != -0.1 || hi[0] < 1 || hi[0] > 1.1 || lo[1] != 0 || hi[1] < 1.8 {
		t.Errorf("box [%v, %v]", lo, hi)
	}
	lo, hi = []float64{0, 0}, []float64{1, 1}
	if err := SampleBox(16, 2, func(u []float64) []float64 { return u }, lo, hi); err != nil || lo[0] != 0 || hi[1] != 1 {
		t.Errorf("box [%v, %v] for samples inside the cube (%v)", lo, hi, err)
	}
}
