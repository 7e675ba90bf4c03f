package learned

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

func TestGeneratedCodeIsCurrent(t *testing.T) { optbench.CheckGenerated(t, "learned.bo") }

func TestSuggestAndObserveAllocateNothing(t *testing.T) { problem.CheckNoAllocations(t, 30) }

// The sizes stop at 200: filling the optimiser to 1000 observations takes
// minutes of refits (docs/performance.md). Observe is timed through Fill,
// the whole cost of n Observes with their refits: the Observes between two
// refits cost what they cost with a fixed kernel (bench/suggest), and
// BenchmarkObserve's untimed refills would be dominated by refits.

func BenchmarkSuggest(b *testing.B) { problem.BenchmarkSuggest(b, 50, 200) }

func BenchmarkFill(b *testing.B) { problem.BenchmarkFill(b, 50, 200) }
