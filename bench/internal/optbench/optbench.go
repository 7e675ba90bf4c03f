// Package optbench is what the benchmarks of committed, boc-generated
// optimisers share: deterministic observations, Suggest and Observe timed at
// chosen numbers of observations, the allocation check, and the check that a
// committed generated package is what boc generates now (like sqlc diff).
//
// It works on optimisers over [0,1]^4, the dimension of the benchmark
// problems, through the methods every emitted optimiser has.
package optbench

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/bocdev/boc/codegen"
	"github.com/bocdev/boc/driver"
	_ "github.com/bocdev/boc/stdlib" // registers the built-in plugins
)

// Point is the point type of an emitted optimiser over four components,
// seven (bench/suggest/mixed) or a hundred (bench/suggest/additive).
type Point interface {
	~[4]float64 | ~[7]float64 | ~[100]float64
}

// Optimizer is the part of an emitted optimiser the benchmarks drive.
type Optimizer[P Point] interface {
	Suggest() (P, error)
	Observe(x P, y float64) error
}

// Problem is an emitted optimiser's constructor and objective.
type Problem[P Point] struct {
	New       func() Optimizer[P]
	Objective func(P) float64
	// FromUnit maps a point of the unit cube to the domain (the emitted
	// fromUnit, for a domain with whole-number or categorical components);
	// nil when the domain is the unit cube.
	FromUnit func(u []float64) P
}

// Data returns n points drawn uniformly from the unit cube with a fixed
// seed, mapped to the domain by FromUnit, and the objective's values at
// them.
func (p Problem[P]) Data(n int) (xs []P, ys []float64) {
	rng := rand.New(rand.NewPCG(2024, 11))
	xs, ys = make([]P, n), make([]float64, n)
	for i := range xs {
		u := make([]float64, len(xs[i]))
		for c := range u {
			u[c] = rng.Float64()
		}
		if p.FromUnit != nil {
			xs[i] = p.FromUnit(u)
		} else {
			for c := range u {
				xs[i][c] = u[c]
			}
		}
		ys[i] = p.Objective(xs[i])
	}
	return xs, ys
}

// Filled returns a new optimiser that has observed xs and ys.
func (p Problem[P]) Filled(tb testing.TB, xs []P, ys []float64) Optimizer[P] {
	o := p.New()
	for i, x := range xs {
		if err := o.Observe(x, ys[i]); err != nil {
			tb.Fatalf("observation %d: %v", i, err)
		}
	}
	return o
}

// BenchmarkSuggest times Suggest after n observations, for each n in sizes.
func (p Problem[P]) BenchmarkSuggest(b *testing.B, sizes ...int) {
	for _, n := range sizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			xs, ys := p.Data(n)
			o := p.Filled(b, xs, ys)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := o.Suggest(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkObserve times Observe at about n observations, for each n in
// sizes: the optimiser is filled with n − w points untimed, then the next w
// Observes are timed (w = max(5, n/10)), and so on until the benchmark has
// enough samples. An Observe that triggers a refit or re-standardisation is
// counted like any other, so these costs appear amortised.
func (p Problem[P]) BenchmarkObserve(b *testing.B, sizes ...int) {
	for _, n := range sizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			xs, ys := p.Data(n)
			start := n - max(5, n/10)
			var o Optimizer[P]
			next := n
			b.ReportAllocs()
			for b.Loop() {
				if next == n {
					b.StopTimer()
					o, next = p.Filled(b, xs[:start], ys[:start]), start
					b.StartTimer()
				}
				if err := o.Observe(xs[next], ys[next]); err != nil {
					b.Fatal(err)
				}
				next++
			}
		})
	}
}

// BenchmarkFill times observing the first n points from empty, for each n
// in sizes: the whole cost of building the model, refits included.
func (p Problem[P]) BenchmarkFill(b *testing.B, sizes ...int) {
	for _, n := range sizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			xs, ys := p.Data(n)
			b.ReportAllocs()
			for b.Loop() {
				p.Filled(b, xs, ys)
			}
		})
	}
}

// CheckNoAllocations fails t unless Suggest and Observe allocate nothing
// once the optimiser has n observations (n past the initial design, so that
// Suggest searches).
func (p Problem[P]) CheckNoAllocations(t *testing.T, n int) {
	const runs = 20
	xs, ys := p.Data(n + runs + 1) // AllocsPerRun calls once more to warm up
	o := p.Filled(t, xs[:n], ys[:n])
	next := n
	allocs := testing.AllocsPerRun(runs, func() {
		if _, err := o.Suggest(); err != nil {
			t.Fatal(err)
		}
		if err := o.Observe(xs[next], ys[next]); err != nil {
			t.Fatal(err)
		}
		next++
	})
	if allocs != 0 {
		t.Errorf("Suggest and Observe: %v allocations per call", allocs)
	}
}

// CheckGenerated regenerates the optimiser package from the .bo file source
// (a path relative to the test's directory, which holds the generated
// package), as `boc gen source -o .` does, and fails t if a committed file
// differs from the output or is missing.
func CheckGenerated(t *testing.T, source string) {
	u, err := driver.Load(source, driver.Options{Dir: "."})
	if err != nil {
		t.Fatal(err)
	}
	out, _ := u.Generate(codegen.Options{})
	if out == nil {
		t.Fatalf("%s: %v", source, u.Diagnostics)
	}
	for _, f := range out.Library {
		committed, err := os.ReadFile(f.Name)
		switch {
		case err != nil:
			t.Errorf("%v; run go generate", err)
		case !bytes.Equal(committed, f.Content):
			t.Errorf("%s is stale: boc generates different code from %s now; run go generate", f.Name, source)
		}
	}
}
