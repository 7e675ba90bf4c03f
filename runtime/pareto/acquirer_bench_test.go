package pareto

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/bocdev/boc/runtime/kernel"
	"github.com/bocdev/boc/runtime/outcome"
	"github.com/bocdev/boc/runtime/search"
)

// BenchmarkSuggest times what a suggestion of an optimiser of two
// objectives costs once the models are fitted: Prepare (the front of the
// posterior means at n points) and the L-BFGS search of the score (1024
// Sobol candidates, 4 refinements with the gradient) on a 4-D domain, the
// issue's goal being under 50 ms at n = 200:
// go test ./runtime/pareto -run '^$' -bench Suggest -benchmem.
func BenchmarkSuggest(b *testing.B) {
	const dim = 4
	for _, n := range []int{50, 200} {
		for _, method := range []Method{EHVI, ParEGO} {
			b.Run(fmt.Sprintf("n=%d/method=%d", n, method), func(b *testing.B) {
				s := search.NewLBFGS(dim, 1024, 4)
				var outputs []outcome.Output
				for _, name := range []string{"f1", "f2"} {
					outputs = append(outputs, outcome.Output{Name: name, Kernel: kernel.NewStationary(kernel.Matern52, 1, []float64{0.4, 0.4, 0.4, 0.4}),
						NoiseVariance: 1e-6})
				}
				models, err := outcome.New(outputs, dim, n, s.Workers(), n)
				if err != nil {
					b.Fatal(err)
				}
				rng := rand.New(rand.NewPCG(1, 2))
				u := make([]float64, dim)
				for range n {
					for j := range u {
						u[j] = rng.Float64()
					}
					// Two conflicting objectives, both minimised.
					f1 := u[0]*u[0] + u[1]*u[1] + 0.1*math.Sin(6*u[2])
					f2 := (1-u[0])*(1-u[0]) + u[1] + 0.1*u[3]
					if err := models.Observe(u, []float64{f1, f2}); err != nil {
						b.Fatal(err)
					}
				}
				a, err := NewAcquirer(models, dim, method, []bool{false, false}, []float64{math.NaN(), math.NaN()}, n, s.Workers())
				if err != nil {
					b.Fatal(err)
				}
				out := make([]float64, dim)
				b.ResetTimer()
				for i := range b.N {
					if err := a.Prepare(nil, uint64(i)); err != nil {
						b.Fatal(err)
					}
					if _, err := s.Maximize(a.Score, nil, uint64(i), out); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
