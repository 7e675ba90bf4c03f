package uncertain

import (
	"math"
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/bocdev/boc/runtime/kernel"
)

// fixture holds inputs for the determinism and allocation tests.
type fixture struct {
	k                  Kernel
	d, m, h            int
	u, v               []float64
	ls, ma, Sa, mb, Sb []float64
	work               []float64
	e                  *Embedding
}

func newFixture(t testing.TB) *fixture {
	// m·m and m(m−1)/2 exceed minSplitValues: the sample sums are shared
	// with the helper goroutine when it is idle.
	const d, m, h = 2, 520, 6
	f := &fixture{
		k: seKernel(1.2, []float64{0.3, 0.5}), d: d, m: m, h: h,
		u:  gaussian{[]float64{0.4, 0.5}, []float64{0.01, 0.004, 0.004, 0.02}}.samples(m, 5),
		v:  gaussian{[]float64{0.6, 0.3}, diag(0.02, 0.01)}.samples(m, 6),
		ls: []float64{0.3, 0.5}, ma: []float64{0.4, 0.5}, Sa: []float64{0.01, 0.004, 0.004, 0.02},
		mb: []float64{0.6, 0.3}, Sb: diag(0.02, 0.01),
		work: make([]float64, WorkLen(d)),
		e:    NewEmbedding(h, d),
	}
	if err := f.e.Prepare(f.k); err != nil {
		t.Fatal(err)
	}
	return f
}

// results evaluates every estimator once, with its own workspaces, so that
// several goroutines can call it at once on a shared fixture.
func (f *fixture) results() []float64 {
	ny := NewNystrom(f.m, f.h, f.d)
	au, av := make([]float64, f.h), make([]float64, f.h)
	work := make([]float64, WorkLen(f.d))
	mu, emw := make([]float64, f.h), make([]float64, f.h)
	f.e.Embed(f.k, f.u, mu, emw)
	su, sv := SelfMeanKernel(f.k, f.u, f.d), SelfMeanKernel(f.k, f.v, f.d)
	return append([]float64{
		MeanKernel(f.k, f.u, f.v, f.d), su, sv, MMD2(f.k, f.u, f.v, f.d, su, sv),
		ny.Weights(f.k, f.u, au), ny.Weights(f.k, f.v, av), ny.Cross(f.k, f.u, au, f.v, av),
		IntegralSE(1.2, f.ls, f.ma, f.Sa, f.mb, f.Sb, work),
		SymmetricKLSE(1.2, f.ls, f.ma, f.Sa, f.mb, f.Sb, work),
	}, slices.Concat(mu, au, av)...)
}

// TestDeterministic: repeated calls, and calls from 8 goroutines at once
// under GOMAXPROCS 1 and 2 (sharing the Embedding, one Nystrom each), all
// give bitwise identical results.
func TestDeterministic(t *testing.T) {
	f := newFixture(t)
	if f.m*(f.m-1)/2 < minSplitValues {
		t.Fatalf("m = %d: the self sums do not reach minSplitValues, so no helper is tested", f.m)
	}
	want := f.results()
	for i, x := range want {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			t.Fatalf("result %d is %v", i, x)
		}
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2} {
		runtime.GOMAXPROCS(procs)
		const goroutines = 8
		got := make([][]float64, goroutines)
		var wg sync.WaitGroup
		for g := range got {
			wg.Go(func() {
				for range 3 {
					got[g] = f.results()
				}
			})
		}
		wg.Wait()
		for g, r := range got {
			for i := range want {
				if math.Float64bits(r[i]) != math.Float64bits(want[i]) {
					t.Errorf("GOMAXPROCS=%d goroutine %d: result %d = %v, want %v", procs, g, i, r[i], want[i])
				}
			}
		}
	}
}

func TestZeroAllocs(t *testing.T) {
	f := newFixture(t)
	ny := NewNystrom(f.m, f.h, f.d)
	au, av := make([]float64, f.h), make([]float64, f.h)
	ny.Weights(f.k, f.v, av)
	mu, emw := make([]float64, f.h), make([]float64, f.h)
	lo, hi := []float64{0, 0}, []float64{1, 1}
	var block Kernel = kernel.Block{Family: kernel.SE, Variance: 1.2, InvSquared: []float64{1 / 0.09, 1 / 0.25}}
	var sink float64
	for name, fn := range map[string]func(){
		"SqDist":            func() { sink += SqDist(f.u[:2], f.v[:2]) },
		"MeanKernel":        func() { sink += MeanKernel(f.k, f.u, f.v, f.d) },
		"SelfMeanKernel":    func() { sink += SelfMeanKernel(f.k, f.u, f.d) },
		"MeanKernel, Block": func() { sink += MeanKernel(block, f.u, f.v, f.d) },
		"MMD2":              func() { sink += MMD2(f.k, f.u, f.v, f.d, 1, 1) },
		"Nystrom.Weights":   func() { sink += ny.Weights(f.k, f.u, au) },
		"Nystrom.Cross":     func() { sink += ny.Cross(f.k, f.u, au, f.v, av) },
		"IntegralSE":        func() { sink += IntegralSE(1, f.ls, f.ma, f.Sa, f.mb, f.Sb, f.work) },
		"SymmetricKLSE":     func() { sink += SymmetricKLSE(1, f.ls, f.ma, f.Sa, f.mb, f.Sb, f.work) },
		"SetLandmarks+Prepare": func() {
			f.e.SetLandmarks(lo, hi)
			if f.e.Prepare(f.k) != nil {
				panic("Prepare failed")
			}
		},
		"Embed": func() { f.e.Embed(f.k, f.u, mu, emw) },
	} {
		if a := testing.AllocsPerRun(20, fn); a != 0 {
			t.Errorf("%s: %v allocations per run", name, a)
		}
	}
	_ = sink
}
