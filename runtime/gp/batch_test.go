package gp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/bocdev/boc/runtime/internal/vec"
)

// batchQueries returns m random query points' kernel vectors against the
// first n points of p (m×n row-major) and their prior variances.
func batchQueries(p *problem, n, m int, seed uint64) (kstar, kself []float64) {
	rng := rand.New(rand.NewPCG(seed, 2))
	kstar = make([]float64, m*n)
	kself = make([]float64, m)
	x := make([]float64, p.dim)
	for j := range m {
		for c := range x {
			x[c] = rng.Float64()
		}
		// Every fifth query is a training point, where the variance is
		// smallest and the solve's rounding matters most.
		if j%5 == 4 && n > 0 {
			copy(x, p.x[j%n])
		}
		p.kernelVector(x, n, kstar[j*n:(j+1)*n])
		kself[j] = p.kernel(x, x)
	}
	return kstar, kself
}

// TestPredictBatchMatchesPredict compares PredictBatch with Predict point by
// point: means, variances and the solved vectors to 1e-10 relative (the
// variance relative to the prior variance scale²·k(x, x), since it is the
// difference of two terms of that size).
func TestPredictBatchMatchesPredict(t *testing.T) {
	const rel = 1e-10
	tests := []struct{ n, m int }{
		{0, 3}, {1, 4}, {2, 1}, {7, 9}, {60, 13}, {201, 22}, {0, 0},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("n=%d/m=%d", tt.n, tt.m), func(t *testing.T) {
			p := newProblem(11, max(tt.n, 1), 3, 0.3, true)
			g := filled(t, p, tt.n, max(tt.n, 1))
			kstar, kself := batchQueries(p, tt.n, tt.m, 7)
			single := append([]float64(nil), kstar...)
			mean, variance := make([]float64, tt.m), make([]float64, tt.m)
			g.PredictBatch(kstar, tt.m, kself, mean, variance)
			n := tt.n
			for j := range tt.m {
				v := single[j*n : (j+1)*n]
				wantMean, wantVar := g.Predict(v, kself[j])
				if !closeTo(mean[j], wantMean, rel) {
					t.Errorf("point %d: mean %.17g, Predict %.17g", j, mean[j], wantMean)
				}
				prior := g.Scale() * g.Scale() * kself[j]
				if math.Abs(variance[j]-wantVar) > rel*prior {
					t.Errorf("point %d: variance %.17g, Predict %.17g", j, variance[j], wantVar)
				}
				for i, want := range v {
					if got := kstar[j*n+i]; math.Abs(got-want) > rel*(1+math.Abs(want)) {
						t.Fatalf("point %d: v[%d] = %v, Predict's %v", j, i, got, want)
					}
				}
			}
		})
	}
}

// TestBatchWorkersAreDeterministic checks that every number of workers gives
// bit-identical results to the sequential batch, and that up to a few workers
// per core it allocates nothing. With far more workers than cores (64) the
// Go runtime itself may allocate: parking that many goroutines on the wake
// channel can find its per-P cache of wait records empty on a loaded machine.
// The points make five blocks and a part of one, the last not a whole group.
func TestBatchWorkersAreDeterministic(t *testing.T) {
	const n, m = 90, 5*blockPoints + 2*vec.GroupPoints + 1
	p := newProblem(3, n, 4, 0.4, true)
	g := filled(t, p, n, n)
	kstar, kself := batchQueries(p, n, m, 9)
	run := func(workers int) (mean, variance, v []float64) {
		w := NewBatchWorkers(workers)
		defer w.Close()
		v = append([]float64(nil), kstar...)
		mean, variance = make([]float64, m), make([]float64, m)
		w.Predict(g, v, m, kself, mean, variance)
		work := make([]float64, len(v))
		if workers > 4 {
			return mean, variance, v
		}
		if allocs := testing.AllocsPerRun(10, func() {
			copy(work, kstar)
			w.Predict(g, work, m, kself, mean, variance)
		}); allocs != 0 {
			t.Errorf("%d workers: %v allocations per prediction", workers, allocs)
		}
		return mean, variance, v
	}
	wantMean, wantVar, wantV := run(1)
	for _, workers := range []int{2, 3, 4, 7, 64} {
		mean, variance, v := run(workers)
		for j := range m {
			if mean[j] != wantMean[j] || variance[j] != wantVar[j] {
				t.Fatalf("%d workers: point %d: (%v, %v), sequential (%v, %v)", workers, j, mean[j], variance[j], wantMean[j], wantVar[j])
			}
		}
		for i := range v {
			if v[i] != wantV[i] {
				t.Fatalf("%d workers: solved vector entry %d differs", workers, i)
			}
		}
	}
}

func TestPredictBatchRejectsShortSlices(t *testing.T) {
	p := newProblem(1, 5, 2, 0.5, false)
	g := filled(t, p, 5, 5)
	defer func() {
		if recover() == nil {
			t.Error("no panic for a kernel matrix with too few rows")
		}
	}()
	g.PredictBatch(make([]float64, 9), 2, make([]float64, 2), make([]float64, 2), make([]float64, 2))
}

func TestPredictBatchAllocatesNothing(t *testing.T) {
	const n, m = 50, 11
	p := newProblem(2, n, 3, 0.4, true)
	g := filled(t, p, n, n)
	kstar, kself := batchQueries(p, n, m, 3)
	work := make([]float64, len(kstar))
	mean, variance := make([]float64, m), make([]float64, m)
	allocs := testing.AllocsPerRun(50, func() {
		copy(work, kstar)
		g.PredictBatch(work, m, kself, mean, variance)
	})
	if allocs != 0 {
		t.Errorf("PredictBatch: %v allocations", allocs)
	}
}

// BenchmarkPredictBatch times the posterior at 10,000 points with n = 500,
// d = 4 (the workload of bench/predict, kernel matrix given), sequentially
// and on GOMAXPROCS workers, against a loop of Predict calls.
func BenchmarkPredictBatch(b *testing.B) {
	const n, m = 500, 10000
	p := newProblem(1, n, 4, 0.3, true)
	g := filled(b, p, n, n)
	kstar, kself := batchQueries(p, n, m, 5)
	work := make([]float64, len(kstar))
	mean, variance := make([]float64, m), make([]float64, m)
	b.Run("predict-loop", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			copy(work, kstar)
			for j := range m {
				mean[j], variance[j] = g.Predict(work[j*n:(j+1)*n], kself[j])
			}
		}
	})
	b.Run("batch", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			copy(work, kstar)
			g.PredictBatch(work, m, kself, mean, variance)
		}
	})
	b.Run("batch-workers", func(b *testing.B) {
		w := NewBatchWorkers(runtime.GOMAXPROCS(0))
		defer w.Close()
		b.ReportAllocs()
		for b.Loop() {
			copy(work, kstar)
			w.Predict(g, work, m, kself, mean, variance)
		}
	})
}
