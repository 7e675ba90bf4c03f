package safe

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/bocdev/boc/bench/internal/optbench"
)

func TestGeneratedCodeIsCurrent(t *testing.T) { optbench.CheckGenerated(t, "safe.bo") }

// filled returns an optimiser that has observed n points: its own
// suggestions, measured with the simulated constraints and noise-free
// values, so that the safe set grows as in a run.
func filled(tb testing.TB, n int) *Optimizer {
	o := New(Seed)
	for o.Evaluations() < n {
		x, err := o.Suggest()
		if err != nil {
			tb.Fatal(err)
		}
		y, g, err := Measure(context.Background(), x)
		if err != nil {
			tb.Fatal(err)
		}
		if err := o.Observe(x, y, g); err != nil {
			tb.Fatal(err)
		}
	}
	return o
}

// TestSuggestAndObserveAllocateNothing checks a round past the first phase.
func TestSuggestAndObserveAllocateNothing(t *testing.T) {
	o := filled(t, 30)
	rng := rand.New(rand.NewPCG(1, 1))
	round := func() {
		x, err := o.Suggest()
		if err != nil {
			t.Fatal(err)
		}
		y, g, _ := Measure(context.Background(), x)
		if err := o.Observe(x, y+0.01*rng.NormFloat64(), g); err != nil {
			t.Fatal(err)
		}
	}
	if a := testing.AllocsPerRun(5, round); a != 0 {
		t.Errorf("a round allocates %v times", a)
	}
}

// BenchmarkSuggest times Suggest with two constraints at n = 200
// observations: the explorer's update of both constraints' intervals over
// the uncertified points, the objective's posterior at the safe ones, and
// the choice. Each iteration observes its suggestion first, so that
// Suggest does the round's whole work; run it with -benchtime 20x (n then
// goes from 200 to 220).
func BenchmarkSuggest(b *testing.B) {
	o := filled(b, 200)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		x, err := o.Suggest()
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		y, g, _ := Measure(context.Background(), x)
		if err := o.Observe(x, y, g); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(o.Certificate().SafeSize), "safe-points")
}
