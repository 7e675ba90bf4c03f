package safe

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/bocdev/boc/runtime/kernel"
)

// TestMethods runs every method and first phase on drawn worlds and checks
// the invariants run checks, that no unsafe point is played or certified
// (β_t at δ = 0.01 on 40 points), and the phases: a first phase of seeds
// only, then the second phase for good.
func TestMethods(t *testing.T) {
	for _, tc := range []struct {
		name   string
		method Method
		first  FirstPhase
		lip    bool
	}{
		{"sgp-ucb random", SGPUCB, RandomSeeds, false},
		{"sgp-ucb uncertainty", SGPUCB, UncertainSeeds, false},
		{"sgp-ucb naive", SGPUCB, NoFirstPhase, false},
		{"safeopt", SafeOpt, 0, false},
		{"safeopt lipschitz", SafeOpt, 0, true},
		{"stageopt", StageOpt, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(5, 6))
			for r := range 5 {
				w := newWorld(rng, 40)
				seeds := safest(w.g, 3)
				cfg := w.config(seeds, 0.1, 0.01)
				cfg.Method, cfg.FirstPhase, cfg.Window, cfg.Cap, cfg.Seed = tc.method, tc.first, 5, 15, uint64(r)
				if tc.lip {
					cfg.Lipschitz = []float64{4}
				}
				rec := w.run(t, cfg, 0.1, 40, rng)
				if rec.unsafe {
					t.Errorf("realisation %d: an unsafe point was played or certified", r)
				}
				seen2 := false
				for i, ph := range rec.phases {
					seed := false
					for _, s := range seeds {
						seed = seed || s == rec.played[i]
					}
					switch {
					case ph == 2:
						seen2 = true
					case seen2:
						t.Fatalf("realisation %d: phase 1 again at round %d", r, i+1)
					case tc.method != StageOpt && !seed:
						t.Fatalf("realisation %d: round %d of phase 1 played %d, not a seed", r, i+1, rec.played[i])
					}
				}
				if tc.first == NoFirstPhase && rec.phases[len(seeds)] != 2 {
					t.Errorf("naive SGP-UCB is in phase %d after the seeds", rec.phases[len(seeds)])
				}
				if !seen2 && tc.method != SafeOpt {
					t.Errorf("realisation %d: no second phase in 40 rounds (cap 15)", r)
				}
			}
		})
	}
}

// TestLearnedHyperparameters learns the lengthscale, the variance (with
// Standardise) and the noise from the first phase and checks that they
// stay frozen in the second.
func TestLearnedHyperparameters(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	w := newWorld(rng, 40)
	cfg := w.config(safest(w.g, 4), 0.1, 0.01)
	c := &cfg.Constraints[0]
	c.Learned, c.Lower, c.Upper = []bool{true, true}, []float64{0.05, 0.05}, []float64{20, 2}
	c.NoiseVariance, c.NoiseLower, c.NoiseUpper = -1, 1e-4, 1
	c.Standardise = true
	cfg.Window, cfg.Cap = 5, 12
	e, err := NewExplorer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	theta := make([]float64, 2)
	var frozen []float64
	for round := range 30 {
		if _, err := e.Prepare(); err != nil {
			t.Fatal(err)
		}
		c, err := e.Choose(w.f, make([]float64, 40))
		if err != nil {
			t.Fatal(err)
		}
		if err := e.Observe(e.point(c.Index), []float64{w.g[c.Index] + 0.1*rng.NormFloat64()}); err != nil {
			t.Fatal(err)
		}
		e.models[0].Kernel.Params(theta)
		switch {
		case c.Phase == 2 && frozen == nil:
			frozen = append([]float64{e.models[0].scale, e.models[0].noise}, theta...)
		case c.Phase == 2:
			now := append([]float64{e.models[0].scale, e.models[0].noise}, theta...)
			for i := range now {
				if now[i] != frozen[i] {
					t.Fatalf("round %d: a frozen value moved: %v, was %v", round+1, now, frozen)
				}
			}
		}
	}
	if frozen == nil {
		t.Fatal("no second phase")
	}
	if s := e.models[0].scale; s == 1 || !(s > 0) {
		t.Errorf("s = %v, want the seeds' RMS distance to the limit", s)
	}
}

// TestBadInput checks the errors of NewExplorer and Observe.
func TestBadInput(t *testing.T) {
	k := kernel.NewStationary(kernel.SE, 1, []float64{0.3})
	base := Config{Dim: 1, Points: []float64{0, 0.5, 1}, Seeds: []int{0}, Capacity: 5, Delta: 0.01,
		Constraints: []Constraint{{Name: "heat", Kernel: k, AtLeast: true}}}
	for _, tc := range []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"no seed", func(c *Config) { c.Seeds = nil }, "no seed point"},
		{"seed outside", func(c *Config) { c.Seeds = []int{3} }, "seed index 3"},
		{"no constraint", func(c *Config) { c.Constraints = nil }, "no constraint"},
		{"delta", func(c *Config) { c.Delta = 1 }, "δ = 1"},
	} {
		cfg := base
		tc.edit(&cfg)
		if _, err := NewExplorer(cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	e, err := NewExplorer(base)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Observe([]float64{0}, []float64{math.NaN()}); err == nil || !strings.Contains(err.Error(), "constraint heat") {
		t.Errorf("NaN value: %v, want an error naming the constraint", err)
	}
	if e.Len() != 0 {
		t.Errorf("a rejected observation was kept")
	}
}

// TestExplorerAllocations checks that a round allocates nothing, in the
// first phase (which refits) and in the second, for every landing rule.
func TestExplorerAllocations(t *testing.T) {
	for _, landing := range []Landing{AtAim, InMean, ByChance} {
		rng := rand.New(rand.NewPCG(1, 2))
		w := newWorld(rng, 40)
		cfg := w.config(safest(w.g, 2), 0.1, 0.01)
		c := &cfg.Constraints[0]
		c.Learned, c.Lower, c.Upper, c.Standardise = []bool{true, true}, []float64{0.05, 0.05}, []float64{20, 2}, true
		c.Landing, c.Alpha = landing, 0.1
		cfg.Capacity, cfg.Window, cfg.Cap = 400, 8, 16
		cfg.Draws, cfg.Land = 4, func(u, out []float64) {
			for j := range 4 {
				out[2*j], out[2*j+1] = u[0]+0.02*float64(j%2), u[1]+0.02*float64(j/2)
			}
		}
		e, err := NewExplorer(cfg)
		if err != nil {
			t.Fatal(err)
		}
		sd := make([]float64, 40)
		round := func() {
			if _, err := e.Prepare(); err != nil {
				t.Fatal(err)
			}
			c, err := e.Choose(w.f, sd)
			if err != nil {
				t.Fatal(err)
			}
			if err := e.Observe(e.point(c.Index), []float64{w.g[c.Index]}); err != nil {
				t.Fatal(err)
			}
		}
		for range 3 {
			round()
		}
		if allocs := testing.AllocsPerRun(5, round); allocs != 0 || e.frozen {
			t.Errorf("landing %d: a first-phase round allocates %v times (frozen %v)", landing, allocs, e.frozen)
		}
		for range 10 {
			round()
		}
		if allocs := testing.AllocsPerRun(20, round); allocs != 0 || !e.frozen {
			t.Errorf("landing %d: a second-phase round allocates %v times (frozen %v)", landing, allocs, e.frozen)
		}
	}
}

// BenchmarkPaperRun is a whole T = 500 run of SGP-UCB's explorer in the
// paper's setting (§5): 100 points, one constraint, 10 seeds; the
// objective's posterior is left out (the emitted optimiser's model).
func BenchmarkPaperRun(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	w := newWorld(rng, 100)
	cfg := w.config(safest(w.g, 10), 0.1, 0.01)
	cfg.Capacity, cfg.Window, cfg.Cap = 500, 20, 100
	sd := make([]float64, 100)
	b.ReportAllocs()
	for range b.N {
		e, err := NewExplorer(cfg)
		if err != nil {
			b.Fatal(err)
		}
		for range 500 {
			if _, err := e.Prepare(); err != nil {
				b.Fatal(err)
			}
			c, err := e.Choose(w.f, sd)
			if err != nil {
				b.Fatal(err)
			}
			if err := e.Observe(e.point(c.Index), []float64{w.g[c.Index] + 0.1*rng.NormFloat64()}); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkGridRound is a second-phase round of SGP-UCB with two
// constraints on a 64×64 grid of the unit square at n = 200 observations
// (the continuous case; the objective's posterior is the emitted
// optimiser's and left out): Observe, then Prepare, which updates both
// constraints' intervals at every point, and Choose.
func BenchmarkGridRound(b *testing.B) {
	points := Grid([]int{64, 64})
	k := func() Constraint {
		return Constraint{Kernel: kernel.NewStationary(kernel.Matern52, 1, []float64{0.3}), NoiseVariance: 0.01, AtLeast: true, Threshold: 0.5}
	}
	c1, c2 := k(), k()
	c1.Name, c2.Name = "a", "b"
	cfg := Config{Dim: 2, Points: points, Seeds: []int{0, 1}, Constraints: []Constraint{c1, c2},
		Capacity: 400, Delta: 0.01, Window: 1, Cap: 1}
	e, err := NewExplorer(cfg)
	if err != nil {
		b.Fatal(err)
	}
	n := len(points) / 2
	mean, sd := make([]float64, n), make([]float64, n)
	rng := rand.New(rand.NewPCG(3, 4))
	round := func() {
		if _, err := e.Prepare(); err != nil {
			b.Fatal(err)
		}
		c, err := e.Choose(mean, sd)
		if err != nil {
			b.Fatal(err)
		}
		i := c.Index
		if e.frozen {
			i = rng.IntN(n) // observations anywhere, so that n grows as in a run
		}
		if err := e.Observe(e.point(i), []float64{rng.Float64(), rng.Float64()}); err != nil {
			b.Fatal(err)
		}
	}
	for range 200 {
		round()
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N { // n grows by one per round: time it with -benchtime 20x
		round()
	}
}

// TestBaselines checks the study baselines: the oracle plays only the true
// safe set it is given, the unsafe baseline any point, uncertified.
func TestBaselines(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	w := newWorld(rng, 40)
	var truth []int
	for i, g := range w.g {
		if g >= limit {
			truth = append(truth, i)
		}
	}
	for _, method := range []Method{Oracle, Unsafe} {
		cfg := w.config(truth, 0.1, 0.01)
		cfg.Method = method
		if method == Unsafe {
			cfg.Seeds = nil
		}
		e, err := NewExplorer(cfg)
		if err != nil {
			t.Fatal(err)
		}
		mean, sd := make([]float64, 40), make([]float64, 40)
		copy(mean, w.f)
		need, err := e.Prepare()
		if err != nil || !need {
			t.Fatalf("method %d: Prepare = %v, %v", method, need, err)
		}
		c, err := e.Choose(mean, sd)
		if err != nil {
			t.Fatal(err)
		}
		best := Argmax(mean, e.set)
		if c.Index != best {
			t.Errorf("method %d chose %d, want the best of its set %d", method, c.Index, best)
		}
		if method == Oracle && (w.g[c.Index] < limit || c.Phase != 2 || !c.Seed) {
			t.Errorf("the oracle chose %d (g = %v, phase %d, seed %v)", c.Index, w.g[c.Index], c.Phase, c.Seed)
		}
		if method == Unsafe && (c.Phase != 0 || c.SafeSize != 40) {
			t.Errorf("the unsafe baseline: phase %d, set %d", c.Phase, c.SafeSize)
		}
	}
}

// TestSafeOptAccuracy checks SafeOpt's switch: with an accuracy ε, once
// every possible maximiser and expander is known to within ε it plays the
// safe maximiser of the objective's lower bound again and again, a point
// whose true value is within ε of the best in the safe set it certified;
// without one it keeps sampling the widest interval.
func TestSafeOptAccuracy(t *testing.T) {
	const rounds, epsilon = 60, 1.0
	for r := range 3 {
		distinct := map[float64]int{}
		for _, accuracy := range []float64{0, epsilon} {
			rng := rand.New(rand.NewPCG(21, uint64(r)))
			w := newWorld(rng, 40)
			cfg := w.config(safest(w.g, 3), 0.1, 0.01)
			cfg.Method, cfg.Accuracy = SafeOpt, accuracy
			rec := w.run(t, cfg, 0.1, rounds, rng)
			if rec.unsafe {
				t.Fatalf("realisation %d, ε = %g: an unsafe point was played or certified", r, accuracy)
			}
			last := map[int]bool{}
			for _, x := range rec.played[rounds-20:] {
				last[x] = true
			}
			distinct[accuracy] = len(last)
			if accuracy == 0 {
				continue
			}
			x := rec.played[rounds-1]
			if len(last) != 1 {
				t.Errorf("realisation %d: the last 20 rounds played %d points, want SafeOpt's recommendation only", r, len(last))
			}
			best := math.Inf(-1)
			for i, in := range rec.safe {
				if in {
					best = max(best, w.f[i])
				}
			}
			if w.f[x] < best-epsilon {
				t.Errorf("realisation %d: recommendation f = %.3f, the safe set's best %.3f: not within ε = %g", r, w.f[x], best, epsilon)
			}
		}
		if distinct[0] < 2 {
			t.Errorf("realisation %d: without an accuracy SafeOpt played one point in its last 20 rounds", r)
		}
	}
}

// TestFeasibilityRestricts: with outcome constraints (Config.Feasibility,
// here the point's first coordinate), the second phase of SGP-UCB and of
// StageOpt plays a certified point where they are more likely met than
// not whenever there is one, and otherwise the certified point where they
// are likeliest.
func TestFeasibilityRestricts(t *testing.T) {
	for _, method := range []Method{SGPUCB, StageOpt} {
		rng := rand.New(rand.NewPCG(7, 8))
		restricted, fallbacks := 0, 0
		for r := range 4 {
			w := newWorld(rng, 40)
			cfg := w.config(safest(w.g, 3), 0.1, 0.01)
			cfg.Method, cfg.Window, cfg.Cap, cfg.Seed = method, 5, 10, uint64(r)
			cfg.Feasibility = func(i int) float64 { return w.points[i][0] }
			e, err := NewExplorer(cfg)
			if err != nil {
				t.Fatal(err)
			}
			var played []int
			var fObs []float64
			fMean, fSD := make([]float64, len(w.points)), make([]float64, len(w.points))
			for range 30 {
				if _, err := e.Prepare(); err != nil {
					t.Fatal(err)
				}
				fixedPriorPosterior(w.points, played, fObs, se, 0.01, fMean, fSD)
				likeliest := -1
				for i, in := range e.Safe() {
					if in && e.playable(i) && (likeliest < 0 || w.points[i][0] > w.points[likeliest][0]) {
						likeliest = i
					}
				}
				c, err := e.Choose(fMean, fSD)
				if err != nil {
					t.Fatal(err)
				}
				if c.Phase == 2 {
					x := w.points[c.Index][0]
					switch {
					case w.points[likeliest][0] > 0.5:
						restricted++
						if x <= 0.5 {
							t.Fatalf("%v, realisation %d: played x=%v with a certified point at %v", method, r, x, w.points[likeliest][0])
						}
					case c.Index != likeliest:
						t.Fatalf("%v, realisation %d: played x=%v, not the likeliest certified point %v", method, r, x, w.points[likeliest][0])
					default:
						fallbacks++
					}
				}
				played = append(played, c.Index)
				fObs = append(fObs, w.f[c.Index]+0.1*rng.NormFloat64())
				if err := e.Observe(e.point(c.Index), []float64{w.g[c.Index] + 0.1*rng.NormFloat64()}); err != nil {
					t.Fatal(err)
				}
			}
		}
		if restricted == 0 || fallbacks == 0 {
			t.Errorf("%v: %d restricted choices, %d fallbacks: the test covers neither case", method, restricted, fallbacks)
		}
	}
}
