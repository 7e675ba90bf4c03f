package mixed

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
			panic(err) // the objective is defined everywhere
		}
		return y
	},
	FromUnit: func(u []float64) Point { return fromUnit((*[Dim]float64)(u)) },
}

func TestGeneratedCodeIsCurrent(t *testing.T) { optbench.CheckGenerated(t, "mixed.bo") }

func TestSuggestAndObserveAllocateNothing(t *testing.T) { problem.CheckNoAllocations(t, 30) }

// Suggest at n = 50 and 200 (issue 32's goal: under 20 ms at n = 200).
func BenchmarkSuggest(b *testing.B) { problem.BenchmarkSuggest(b, 50, 200) }
