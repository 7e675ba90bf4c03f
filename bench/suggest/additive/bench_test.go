package additive

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
			panic(err) // hartmann6 is defined everywhere
		}
		return y
	},
}

func TestGeneratedCodeIsCurrent(t *testing.T) { optbench.CheckGenerated(t, "additive.bo") }

// The initial design is 200 points: a suggestion searches from n = 200 on.
func BenchmarkSuggest(b *testing.B) { problem.BenchmarkSuggest(b, 250) }
