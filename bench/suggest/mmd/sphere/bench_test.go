package sphere

import (
	"context"
	"testing"

	"github.com/bocdev/boc/bench/internal/optbench"
	"github.com/bocdev/boc/bench/suggest/mmd"
)

var problem = mmd.Problem(func() *Optimizer { return New(Seed) }, func(x Point) float64 {
	y, err := Objective(context.Background(), x)
	if err != nil {
		panic(err) // sphere is defined everywhere
	}
	return y
})

func TestGeneratedCodeIsCurrent(t *testing.T) { optbench.CheckGenerated(t, "sphere.bo") }

func TestSuggestAndObserveAllocateNothing(t *testing.T) { problem.CheckNoAllocations(t, 30) }

func BenchmarkSuggest(b *testing.B) { problem.BenchmarkSuggest(b, 50, 100) }
