package safe

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/bocdev/boc/runtime/kernel"
)

// BenchmarkChanceGrid is 150 rounds of SGP-UCB with a chance constraint on
// a 4096-point grid of [0, 1], 32 landing points per point.
func BenchmarkChanceGrid(b *testing.B) {
	const n, draws = 4096, 32
	points := make([]float64, n)
	for i := range points {
		points[i] = float64(i) / (n - 1)
	}
	g := func(x float64) float64 { return math.Sin(6*x) + 0.2 }
	f := make([]float64, n)
	copy(f, points)
	for b.Loop() {
		cfg := Config{Dim: 1, Points: points, Seeds: []int{205, 410, 614}, Capacity: 150, Delta: 0.01, Window: 20, Cap: 100,
			Draws: draws, Land: func(u, out []float64) {
				for j := range draws {
					out[j] = u[0] + 0.08*(2*(float64(j)+0.5)/draws-1)
				}
			},
			Constraints: []Constraint{{Name: "g", Kernel: kernel.NewStationary(kernel.SE, 1, []float64{0.2}),
				NoiseVariance: 0.0025, AtLeast: true, Landing: ByChance, Alpha: 0.1}}}
		e, err := NewExplorer(cfg)
		if err != nil {
			b.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		zero := make([]float64, n)
		for range 150 {
			if _, err := e.Prepare(); err != nil {
				b.Fatal(err)
			}
			c, err := e.Choose(f, zero)
			if err != nil {
				b.Fatal(err)
			}
			x := points[c.Index]
			if err := e.Observe([]float64{x}, []float64{g(x+0.08*(2*rng.Float64()-1)) + 0.05*rng.NormFloat64()}); err != nil {
				b.Fatal(err)
			}
		}
	}
}
