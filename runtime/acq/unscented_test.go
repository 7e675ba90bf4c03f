package acq

import (
	"math"
	"testing"
)

// The sigma points reproduce the mean and covariance exactly, for full,
// diagonal and degenerate covariances.
func TestSigmaPointsMoments(t *testing.T) {
	cases := []struct {
		name      string
		mean, cov []float64
		kappa     float64
	}{
		{"1-D", []float64{0.3}, []float64{0.04}, 1},
		{"2-D full", []float64{1, -2}, []float64{0.5, 0.2, 0.2, 0.3}, 1},
		{"3-D with a noiseless component", []float64{0, 1, 2}, []float64{0.01, 0, 0.002, 0, 0, 0, 0.002, 0, 0.02}, 0.5},
		{"kappa 0", []float64{0, 0}, []float64{1, 0, 0, 4}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := len(c.mean)
			n := 2*d + 1
			points, weights, work := make([]float64, n*d), make([]float64, n), make([]float64, d*d)
			if !SigmaPoints(c.mean, c.cov, c.kappa, points, weights, work) {
				t.Fatal("SigmaPoints failed")
			}
			total := 0.0
			for _, w := range weights {
				total += w
			}
			if math.Abs(total-1) > 1e-14 {
				t.Errorf("weights sum to %v", total)
			}
			for i := range d {
				m := 0.0
				for s := range n {
					m += weights[s] * points[s*d+i]
				}
				if math.Abs(m-c.mean[i]) > 1e-12 {
					t.Errorf("mean[%d] = %v, want %v", i, m, c.mean[i])
				}
				for j := range d {
					v := 0.0
					for s := range n {
						v += weights[s] * (points[s*d+i] - c.mean[i]) * (points[s*d+j] - c.mean[j])
					}
					if math.Abs(v-c.cov[i*d+j]) > 1e-12 {
						t.Errorf("cov[%d][%d] = %v, want %v", i, j, v, c.cov[i*d+j])
					}
				}
			}
			if a := testing.AllocsPerRun(10, func() { SigmaPoints(c.mean, c.cov, c.kappa, points, weights, work) }); a != 0 {
				t.Errorf("%v allocations", a)
			}
		})
	}
}

func TestSigmaPointsRejects(t *testing.T) {
	points, weights, work := make([]float64, 10), make([]float64, 5), make([]float64, 4)
	if SigmaPoints([]float64{0, 0}, []float64{1, 2, 2, 1}, 1, points, weights, work) {
		t.Error("an indefinite covariance was accepted")
	}
	if SigmaPoints([]float64{0, 0}, []float64{1, 0, 0, 1}, -2, points, weights, work) {
		t.Error("d + kappa = 0 was accepted")
	}
}

func TestLogWeightedSum(t *testing.T) {
	logs := []float64{-800, -801, math.Inf(-1)}
	weights := []float64{0.5, 0.25, 0.25}
	want := -800 + math.Log(0.5+0.25*math.Exp(-1))
	if got := LogWeightedSum(logs, weights); math.Abs(got-want) > 1e-12 {
		t.Errorf("got %v, want %v", got, want)
	}
	if got := LogWeightedSum([]float64{math.Log(2), math.Log(4)}, []float64{0.5, 0.5}); math.Abs(got-math.Log(3)) > 1e-15 {
		t.Errorf("mean of 2 and 4: got exp %v", math.Exp(got))
	}
	if got := LogWeightedSum([]float64{1, 2}, []float64{0, 0}); !math.IsInf(got, -1) {
		t.Errorf("all weights zero: got %v", got)
	}
}
