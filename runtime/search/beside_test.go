package search

import (
	"math"
	"testing"
)

func TestBeside(t *testing.T) {
	for _, u := range [][]float64{{0, 1}, {0.5, 0.4999}, {0.25, 0.999, 0.0005}} {
		dst := make([]float64, len(u))
		Beside(dst, u)
		for j := range u {
			if dst[j] < 0 || dst[j] > 1 {
				t.Errorf("Beside(%v) = %v: coordinate %d leaves the cube", u, dst, j)
			}
			want := u[j] + besideStep
			if u[j] >= 0.5 {
				want = u[j] - besideStep
			}
			if math.Abs(dst[j]-want) > 1e-12 {
				t.Errorf("Beside(%v) = %v: coordinate %d is %g, want %g (a step inwards)", u, dst, j, dst[j], want)
			}
		}
	}
}
