package kernel

import (
	"math"
	"math/rand/v2"
	"testing"
)

// mixedPoint draws a point of [0,1]^2 × 3 levels × [0,1] × 4 levels in unit
// coordinates, the categorical components at their levels' middles.
func mixedPoint(rng *rand.Rand) []float64 {
	return []float64{rng.Float64(), rng.Float64(), (float64(rng.IntN(3)) + 0.5) / 3, rng.Float64(), (float64(rng.IntN(4)) + 0.5) / 4}
}

var mixedLevels = []int{0, 0, 3, 0, 4}

// TestLevels checks a stationary kernel over categorical components: its
// value is the family's at the distance where two different levels are 1
// apart; its gradients agree with finite differences in the hyperparameters
// and vanish along the categorical components; Block gives the same values.
func TestLevels(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	ls := []float64{0.3, 0.5, 0.7, 0.4, 1.3}
	for _, f := range []Family{SE, Matern52, RQMix} {
		k := NewStationary(f, 1.7, ls)
		k.SetLevels(mixedLevels)
		for range 30 {
			a, b := mixedPoint(rng), mixedPoint(rng)
			r2 := 0.0
			for i, l := range ls {
				d := a[i] - b[i]
				if mixedLevels[i] > 0 {
					d = 0
					if a[i] != b[i] {
						d = 1
					}
				}
				r2 += d * d / (l * l)
			}
			g, _ := k.profile(r2)
			if v := k.Eval(a, b); math.Abs(v-1.7*g) > 1e-12 {
				t.Fatalf("%v: k = %v, want %v at r² = %v", f, v, 1.7*g, r2)
			}
			var row [1]float64
			Block{Family: f, Variance: 1.7, InvSquared: k.invSquared, Levels: k.levels}.Row(a, b, row[:])
			if math.Abs(row[0]-k.Eval(a, b)) > 1e-12 {
				t.Fatalf("%v: Block %v, Stationary %v", f, row[0], k.Eval(a, b))
			}
			gx := make([]float64, len(a))
			k.AddGradX(a, b, 1, gx)
			if gx[2] != 0 || gx[4] != 0 {
				t.Fatalf("%v: gradient %v along categorical components", f, gx)
			}
			theta := make([]float64, k.NumParams())
			k.Params(theta)
			grad := make([]float64, len(theta))
			k.AddGradParams(a, b, 1, grad)
			const h = 1e-6
			for j := range theta {
				tj := theta[j]
				theta[j] = tj + h
				k.SetParams(theta)
				up := k.Eval(a, b)
				theta[j] = tj - h
				k.SetParams(theta)
				down := k.Eval(a, b)
				theta[j] = tj
				k.SetParams(theta)
				if want := (up - down) / (2 * h); math.Abs(grad[j]-want) > 1e-6*(1+math.Abs(want)) {
					t.Fatalf("%v: ∂k/∂θ%d = %v, finite difference %v", f, j, grad[j], want)
				}
			}
		}
	}
}

func TestLevelDistance(t *testing.T) {
	for _, tc := range []struct{ a, b, levels, want float64 }{
		{0.25, 0.25, 2, 0}, {0.25, 0.75, 2, 1}, {0.1, 0.3, 5, 1}, {0.3, 0.3 + 1e-12, 5, 0},
	} {
		if got := LevelDistance(tc.a, tc.b, tc.levels); got != tc.want {
			t.Errorf("LevelDistance(%v, %v, %v) = %v, want %v", tc.a, tc.b, tc.levels, got, tc.want)
		}
	}
}
