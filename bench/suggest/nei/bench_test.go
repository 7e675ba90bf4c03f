package nei

import (
	"context"
	"testing"

	"github.com/bocdev/boc/bench/internal/optbench"
)

var problem = optbench.Problem[Point]{
	New: func() optbench.Optimizer[Point] { return New(Seed) },
	Objective: func(x Point) float64 {
		y, err := Objective(context.Background(), x)
		if err != nil {
			panic(err) // levy is defined everywhere
		}
		return y
	},
}

func TestGeneratedCodeIsCurrent(t *testing.T) { optbench.CheckGenerated(t, "nei.bo") }

func TestSuggestAndObserveAllocateNothing(t *testing.T) { problem.CheckNoAllocations(t, 30) }

// The sizes stop at 200, as bench/suggest/learned's, whose Suggest is ei's.
func BenchmarkSuggest(b *testing.B) { problem.BenchmarkSuggest(b, 50, 200) }
