package safe

import (
	"math"
	"slices"
	"testing"

	"github.com/bocdev/boc/runtime/kernel"
)

// poolWorld is a 5-D problem for a pool: a bump-shaped constraint g ≥ 0.3
// around a, safe within a ball of radius 0.7 (clipped by the unit cube), and
// an objective that peaks at b, inside the safe region but 0.45 away from
// the seed.
type poolWorld struct{ a, b [5]float64 }

func (w poolWorld) g(u []float64) float64 {
	d := 0.0
	for i, v := range u {
		d += (v - w.a[i]) * (v - w.a[i])
	}
	return 0.8 * math.Exp(-d/(2*0.5*0.5))
}

func (w poolWorld) f(u []float64) float64 {
	d := 0.0
	for i, v := range u {
		d += (v - w.b[i]) * (v - w.b[i])
	}
	return -d
}

func (w poolWorld) config(seed uint64) Config {
	return Config{Dim: 5, Points: w.a[:], Seeds: []int{0}, Capacity: 120, Delta: 0.01, Pool: 2048,
		Window: 5, Cap: 10, Seed: seed,
		Constraints: []Constraint{{Name: "g", Kernel: kernel.NewStationary(kernel.SE, 1, []float64{0.5}),
			NoiseVariance: 1e-4, Threshold: 0.3, AtLeast: true}}}
}

// poolRun plays rounds on w with its explorer and returns the points played.
// On the way it checks that every choice is a seed or certified, truly
// safe, and that no certified point ever leaves the safe set or its slot.
func poolRun(t *testing.T, w poolWorld, e *Explorer, rounds int) [][]float64 {
	t.Helper()
	mean, sd := make([]float64, e.n), make([]float64, e.n)
	var played [][]float64
	certified := map[int][]float64{}
	for range rounds {
		need, err := e.Prepare()
		if err != nil {
			t.Fatal(err)
		}
		for i, x := range certified {
			if !e.Safe()[i] || !slices.Equal(e.Point(i), x) {
				t.Fatalf("round %d: certified point %v left slot %d", e.Len()+1, x, i)
			}
		}
		for i, in := range e.Safe() {
			if in && e.frozen {
				certified[i] = slices.Clone(e.Point(i))
			}
			if in && need {
				mean[i], sd[i] = w.f(e.Point(i)), 0.01
			}
		}
		c, err := e.Choose(mean, sd)
		if err != nil {
			t.Fatal(err)
		}
		x := slices.Clone(e.Point(c.Index))
		if !c.Seed && !(c.Bounds[0] >= 0.3) || w.g(x) < 0.3 {
			t.Fatalf("round %d: %v played, bound %v, truly %v", e.Len()+1, x, c.Bounds[0], w.g(x))
		}
		played = append(played, x)
		if err := e.Observe(x, []float64{w.g(x)}); err != nil {
			t.Fatal(err)
		}
	}
	return played
}

// poolRound returns a round of e on w that measures the constraint exactly,
// with a flat objective.
func poolRound(tb testing.TB, w poolWorld, e *Explorer) func() {
	mean, sd := make([]float64, e.n), make([]float64, e.n)
	return func() {
		if _, err := e.Prepare(); err != nil {
			tb.Fatal(err)
		}
		c, err := e.Choose(mean, sd)
		if err != nil {
			tb.Fatal(err)
		}
		if err := e.Observe(e.Point(c.Index), []float64{w.g(e.Point(c.Index))}); err != nil {
			tb.Fatal(err)
		}
	}
}

// TestPool: on a 5-D domain, certified local search leaves the seed, never
// plays an unsafe point, keeps every certified point, reaches the
// objective's optimum region, and does so deterministically; a pool round
// allocates nothing.
func TestPool(t *testing.T) {
	w := poolWorld{a: [5]float64{0.3, 0.3, 0.3, 0.3, 0.3}, b: [5]float64{0.5, 0.5, 0.5, 0.5, 0.5}}
	e, err := NewExplorer(w.config(1))
	if err != nil {
		t.Fatal(err)
	}
	if e.Points() != 2048/poolCloudShare {
		t.Fatalf("the first cloud holds %d points, want %d", e.Points(), 2048/poolCloudShare)
	}
	played := poolRun(t, w, e, 100)
	if e.phase != 2 {
		t.Fatal("no second phase in 100 rounds (cap 10)")
	}
	best, far := math.Inf(-1), 0.0
	for _, x := range played {
		best = max(best, w.f(x))
		far = max(far, math.Sqrt(-poolWorld{b: w.a}.f(x)))
	}
	// The seed's value is −5·0.2² = −0.2; the optimum 0.
	if best < -0.01 || far < 0.3 {
		t.Errorf("best value %.4f (want ≥ −0.01), farthest from the seed %.3f (want ≥ 0.3)", best, far)
	}
	e2, _ := NewExplorer(w.config(1))
	if again := poolRun(t, w, e2, 100); !slices.EqualFunc(played, again, slices.Equal) {
		t.Error("the same seed played other points")
	}

	round := poolRound(t, w, e)
	if allocs := testing.AllocsPerRun(10, round); allocs != 0 {
		t.Errorf("a pool round allocates %v times", allocs)
	}
}

// TestPoolRefused: a pool grows under SGP-UCB at the aim only, from at most
// its size of starting points.
func TestPoolRefused(t *testing.T) {
	w := poolWorld{}
	for name, edit := range map[string]func(*Config){
		"safeopt":   func(c *Config) { c.Method = SafeOpt },
		"landing":   func(c *Config) { c.Draws, c.Land = 2, func(u, out []float64) {} },
		"too small": func(c *Config) { c.Points, c.Pool = make([]float64, 15), 2 },
	} {
		cfg := w.config(1)
		edit(&cfg)
		if _, err := NewExplorer(cfg); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// BenchmarkPoolRound times a round of SGP-UCB's explorer on a 5-D pool of
// 4096 points at n = 200 observations: the proposals, their certification
// and the choice (the objective's posterior is left out).
func BenchmarkPoolRound(b *testing.B) {
	w := poolWorld{a: [5]float64{0.3, 0.3, 0.3, 0.3, 0.3}}
	cfg := w.config(1)
	cfg.Pool, cfg.Capacity = 4096, 400
	e, err := NewExplorer(cfg)
	if err != nil {
		b.Fatal(err)
	}
	round := poolRound(b, w, e)
	for range 200 {
		round()
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N { // n grows by one per round: time it with -benchtime 20x
		round()
	}
	b.ReportMetric(float64(e.set.Len()), "certified")
}
