package suggest

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/bocdev/boc/bench/internal/optbench"
	rtkernel "github.com/bocdev/boc/runtime/kernel"
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

// emittedKernel is the model's kernel as boc emitted it, straight-line code
// for this problem.
func emittedKernel(a, b *[Dim]float64) float64 {
	var h hyperparameters
	return kernel(&h, a, b)
}

// genericKernel is the same kernel through the runtime's generic path.
var genericKernel = rtkernel.NewStationary(rtkernel.SE, 1, []float64{0.3})

func TestGeneratedCodeIsCurrent(t *testing.T) { optbench.CheckGenerated(t, "suggest.bo") }

func TestSuggestAndObserveAllocateNothing(t *testing.T) { problem.CheckNoAllocations(t, 30) }

// TestEmittedKernelMatchesRuntimeKernel checks the emitted kernel against
// runtime/kernel to 1e-14 relative.
func TestEmittedKernelMatchesRuntimeKernel(t *testing.T) {
	a, b := kernelPoints(200)
	for i := range a {
		got, want := emittedKernel(&a[i], &b[i]), genericKernel.Eval(a[i][:], b[i][:])
		if math.Abs(got-want) > 1e-14*want {
			t.Errorf("k(%v, %v): emitted %v, runtime/kernel %v", a[i], b[i], got, want)
		}
	}
}

// kernelPoints returns n pairs of points in [0,1]^4.
func kernelPoints(n int) (a, b [][Dim]float64) {
	rng := rand.New(rand.NewPCG(5, 6))
	a, b = make([][Dim]float64, n), make([][Dim]float64, n)
	for i := range n {
		for c := range Dim {
			a[i][c], b[i][c] = rng.Float64(), rng.Float64()
		}
	}
	return a, b
}

// BenchmarkKernel times 1000 kernel evaluations on the same pairs of points
// with the emitted straight-line kernel and with runtime/kernel: the ratio
// of the two is the gain from specialisation.
func BenchmarkKernel(b *testing.B) {
	x, y := kernelPoints(1000)
	out := make([]float64, len(x))
	b.Run("emitted", func(b *testing.B) {
		for b.Loop() {
			for i := range x {
				out[i] = emittedKernel(&x[i], &y[i])
			}
		}
	})
	b.Run("generic", func(b *testing.B) {
		for b.Loop() {
			for i := range x {
				out[i] = genericKernel.Eval(x[i][:], y[i][:])
			}
		}
	})
}

func BenchmarkSuggest(b *testing.B) { problem.BenchmarkSuggest(b, 50, 200, 999) }

func BenchmarkObserve(b *testing.B) { problem.BenchmarkObserve(b, 50, 200, 1000) }

func BenchmarkFill(b *testing.B) { problem.BenchmarkFill(b, 50, 200, 1000) }
