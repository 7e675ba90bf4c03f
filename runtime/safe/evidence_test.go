package safe

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/bocdev/boc/runtime/kernel"
)

// line is a one-dimensional problem on a grid of [0, 1]: an objective f
// that grows to the right and a constraint g ≥ 0 whose truth need not be
// what the explorer's kernel assumes.
type line struct {
	points []float64
	f, g   func(x float64) float64
}

func newLine(n int, g func(x float64) float64) *line {
	l := &line{points: make([]float64, n), f: func(x float64) float64 { return x }, g: g}
	for i := range l.points {
		l.points[i] = float64(i) / float64(n-1)
	}
	return l
}

// config is SGP-UCB on l with an SE kernel of the given lengthscale and
// variance 1, the declared noise sd, and seeds at the given points.
func (l *line) config(lengthscale, noiseSD float64, seeds ...int) Config {
	return Config{Dim: 1, Points: l.points, Seeds: seeds, Capacity: 120, Delta: 0.01, Window: 5, Cap: 10,
		Constraints: []Constraint{{Name: "g", Kernel: kernel.NewStationary(kernel.SE, 1, []float64{lengthscale}),
			NoiseVariance: noiseSD * noiseSD, AtLeast: true}}}
}

// lineRecord is what a run on a line did.
type lineRecord struct {
	played    []int
	readings  []float64
	safeSizes []int // after every Prepare
	frozenAt  int   // the round the models froze, −1 if never
	unsafe    int   // evaluations of truly unsafe points
	replays   int   // evaluations of points an earlier reading put below the limit by more than 3 noise sds
	explorer  *Explorer
	frozeSize int    // the safe set's size in the round the models froze
	frozeSafe []bool // and the set itself
}

// run plays rounds of cfg on l, measuring g with noise of sd trueSD (which
// may differ from the declared noise); the objective's posterior is its true
// value with a small constant sd.
func (l *line) run(t *testing.T, cfg Config, trueSD float64, rounds int, seed uint64) lineRecord {
	t.Helper()
	e, err := NewExplorer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	n := len(l.points)
	mean, sd := make([]float64, n), make([]float64, n)
	for i, x := range l.points {
		mean[i], sd[i] = l.f(x), 0.01
	}
	declared := math.Sqrt(cfg.Constraints[0].NoiseVariance)
	rec := lineRecord{frozenAt: -1, explorer: e}
	sums, counts := make([]float64, n), make([]int, n)
	for round := range rounds {
		if _, err := e.Prepare(); err != nil {
			t.Fatal(err)
		}
		rec.safeSizes = append(rec.safeSizes, e.set.Len())
		if e.frozen && rec.frozenAt < 0 {
			rec.frozenAt, rec.frozeSize, rec.frozeSafe = round, e.set.Len(), append([]bool(nil), e.Safe()...)
		}
		c, err := e.Choose(mean, sd)
		if errors.Is(err, ErrNoSafePoint) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		x := c.Index
		if counts[x] > 0 && sums[x]/float64(counts[x])+3*declared/math.Sqrt(float64(counts[x])) < 0 {
			rec.replays++
		}
		truth := l.g(l.points[x])
		if truth < 0 {
			rec.unsafe++
		}
		v := truth + trueSD*rng.NormFloat64()
		sums[x] += v
		counts[x]++
		rec.played, rec.readings = append(rec.played, x), append(rec.readings, v)
		if err := e.Observe(l.points[x:x+1], []float64{v}); err != nil {
			t.Fatal(err)
		}
	}
	return rec
}

// cliff is +1 left of 0.5 and −0.7 right of it: far shorter than any
// lengthscale a smooth kernel declares.
func cliff(x float64) float64 {
	if x < 0.5 {
		return 1
	}
	return -0.7
}

// TestMeasuredUnsafeNotReplayed: with a kernel far smoother than the truth
// (a cliff under lengthscale 0.3), a point measured unsafe is never played
// again, the contradiction is recorded, the lengthscale shrinks and the
// points between it and the safe measurements are excluded, so that about
// one evaluation per run falls past the cliff. Without the evidence, the
// explorer kept the certificate of a point measured at −0.7 and replayed it
// (20% of the evaluations unsafe); without the exclusion around it, it
// bisected its way to the cliff (3%).
func TestMeasuredUnsafeNotReplayed(t *testing.T) {
	l := newLine(201, cliff)
	totalUnsafe, evaluations := 0, 0
	for seed := range uint64(5) {
		rec := l.run(t, l.config(0.3, 0.02, 20, 40), 0.02, 100, seed)
		if rec.replays > 0 {
			t.Errorf("seed %d: %d evaluations at points already measured unsafe", seed, rec.replays)
		}
		events, count := rec.explorer.Contradictions()
		if rec.unsafe > 0 && (count == 0 || events[0].Kind != MeasuredUnsafe || events[0].Measured > 0) {
			t.Errorf("seed %d: %d unsafe evaluations, contradictions %+v", seed, rec.unsafe, events)
		}
		if rec.unsafe > 0 && rec.explorer.Corrected(0).Lengthscale >= 1 {
			t.Errorf("seed %d: the lengthscale was not corrected after %d unsafe evaluations", seed, rec.unsafe)
		}
		for _, ev := range events {
			if ev.Kind == MeasuredUnsafe && !rec.explorer.Excluded(ev.Index) {
				t.Errorf("seed %d: point %d measured unsafe is not excluded", seed, ev.Index)
			}
		}
		totalUnsafe += rec.unsafe
		evaluations += len(rec.played)
	}
	if share := float64(totalUnsafe) / float64(evaluations); share > 0.02 {
		t.Errorf("%d of %d evaluations unsafe (%.1f%%), want at most 2%%", totalUnsafe, evaluations, 100*share)
	}
	t.Logf("%d of %d evaluations unsafe", totalUnsafe, evaluations)
}

// TestSeedMeasuredUnsafe: a seed whose readings contradict its declaration
// is no longer played; the other seed carries the first phase.
func TestSeedMeasuredUnsafe(t *testing.T) {
	l := newLine(101, func(x float64) float64 { return 0.5 - 3*math.Abs(x-0.3) })
	rec := l.run(t, l.config(0.2, 0.02, 30, 60), 0.02, 20, 1) // g(0.6) = −0.4
	events, _ := rec.explorer.Contradictions()
	if len(events) == 0 || events[0].Kind != SeedUnsafe || events[0].Index != 60 {
		t.Fatalf("contradictions %+v, want the seed at 0.6 measured unsafe first", events)
	}
	for i, p := range rec.played {
		if p == 60 && i > events[0].Observation {
			t.Errorf("round %d replayed the seed measured unsafe", i+1)
		}
	}
}

// TestUnderstatedNoise: readings ten times noisier than declared refute the
// noise; the explorer inflates it, and its wider intervals keep the run
// about as safe as with the true noise.
func TestUnderstatedNoise(t *testing.T) {
	smooth := func(x float64) float64 { return 0.3 * math.Cos(4*x) } // unsafe past x ≈ 0.39
	l := newLine(201, smooth)
	unsafe, evaluations := 0, 0
	for seed := range uint64(5) {
		rec := l.run(t, l.config(0.3, 0.02, 10, 30), 0.2, 80, seed)
		events, _ := rec.explorer.Contradictions()
		refuted := false
		for _, ev := range events {
			refuted = refuted || ev.Kind == NoisierThanDeclared
		}
		if inflation := rec.explorer.Corrected(0).Noise; !refuted || inflation < 25 {
			t.Errorf("seed %d: noise inflated %.3g times, contradictions %+v", seed, inflation, events)
		}
		unsafe += rec.unsafe
		evaluations += len(rec.played)
	}
	if share := float64(unsafe) / float64(evaluations); share > 0.05 {
		t.Errorf("%d of %d evaluations unsafe, want at most 5%%", unsafe, evaluations)
	}
	t.Logf("%d of %d evaluations unsafe", unsafe, evaluations)
}

// TestFirstPhaseSetNeverShrinks: with the constraint's model fully given
// (nothing learned), the safe set of the first phase never shrinks, nor
// when the first phase ends: intervals are intersected under one model
// throughout. (It used to be rebuilt every round, at a growing β_t.)
func TestFirstPhaseSetNeverShrinks(t *testing.T) {
	l := newLine(201, func(x float64) float64 { return 0.8 - x })
	cfg := l.config(0.3, 0.2, 20, 30)
	cfg.Window, cfg.Cap = 40, 60
	rec := l.run(t, cfg, 0.2, 80, 3)
	if rec.frozenAt < 0 {
		t.Fatal("the first phase never ended")
	}
	for r := 1; r < len(rec.safeSizes); r++ {
		if rec.safeSizes[r] < rec.safeSizes[r-1] {
			t.Fatalf("round %d: the safe set shrank from %d to %d (first phase until round %d)", r+1, rec.safeSizes[r-1], rec.safeSizes[r], rec.frozenAt+1)
		}
	}
	if rec.frozeSize <= 2 {
		t.Errorf("the first phase certified nothing beyond the seeds")
	}
}

// TestChiSquareQuantile checks the approximation against tabulated values.
func TestChiSquareQuantile(t *testing.T) {
	for _, tc := range []struct {
		df   int
		q    float64
		want float64
	}{
		{2, 0.9999, 18.421}, {10, 0.9999, 35.564}, {50, 0.9999, 93.168}, {10, 0.5, 9.342},
	} {
		if got := chiSquareQuantile(tc.df, tc.q); math.Abs(got-tc.want) > 0.05*tc.want {
			t.Errorf("χ²(%d) quantile %g: %g, want %g", tc.df, tc.q, got, tc.want)
		}
	}
}

// TestFlatSeedsDoNotCertifyTheDomain: a constraint whose lengthscale and
// variance are learned from three flat seed readings (the cliff, seen only
// left of it) certifies with a lengthscale capped at the seeds' spread, so
// the first phase ends with no point past the cliff certified.
// Certifying with the fitted lengthscale, the longest the flat readings
// like, certified the whole line.
func TestFlatSeedsDoNotCertifyTheDomain(t *testing.T) {
	l := newLine(201, cliff)
	cfg := l.config(0.3, 0.02, 20, 40, 60)
	c := &cfg.Constraints[0]
	c.Learned, c.Lower, c.Upper, c.Standardise = []bool{true, true}, []float64{0.05, 0.01}, []float64{20, 10}, true
	cfg.Window, cfg.Cap = 5, 12
	rec := l.run(t, cfg, 0.02, 13, 1)
	if rec.frozenAt < 0 {
		t.Fatal("the first phase never ended")
	}
	past := 0
	for i, in := range rec.frozeSafe {
		if in && cliff(l.points[i]) < 0 {
			past++
		}
	}
	if past > 0 {
		t.Errorf("when the first phase ended %d points past the cliff were certified (safe set %d)", past, rec.frozeSize)
	}
	if rec.frozeSize <= 3 {
		t.Errorf("nothing beyond the seeds is certified")
	}
	t.Logf("safe set %d when the first phase ended", rec.frozeSize)
}

// TestLipschitzSafety: a constraint certified from its readings and a
// Lipschitz bound alone (LoSBO), with a kernel far too smooth for it that
// no longer matters: with the true constant no evaluation is unsafe and the
// safe set grows to near the limit; with a constant four times too small,
// the first point measured unsafe raises it to what the readings show and
// is never played again.
func TestLipschitzSafety(t *testing.T) {
	g := func(x float64) float64 { return 0.8 - 2*math.Abs(x-0.3) } // Lipschitz 2, safe on [0, 0.7]
	l := newLine(201, g)
	for _, tc := range []struct {
		method    Method
		lipschitz float64
		maxUnsafe int
	}{{SGPUCB, 2, 0}, {SGPUCB, 0.5, 5}, {SafeOpt, 2, 0}, {SafeOpt, 0.5, 5}, {StageOpt, 2, 0}, {StageOpt, 0.5, 5}} {
		unsafe, farthest := 0, 0.0
		for seed := range uint64(5) {
			cfg := l.config(1, 0.02, 60)
			cfg.Method, cfg.Constraints[0].Lipschitz = tc.method, tc.lipschitz
			rec := l.run(t, cfg, 0.02, 60, seed)
			if rec.replays > 0 {
				t.Errorf("method %d, L = %g, seed %d: %d evaluations at points measured unsafe", tc.method, tc.lipschitz, seed, rec.replays)
			}
			if rec.unsafe > 0 && !(rec.explorer.Corrected(0).Lipschitz > 1) {
				t.Errorf("method %d, L = %g, seed %d: %d unsafe evaluations, and the constant was not raised", tc.method, tc.lipschitz, seed, rec.unsafe)
			}
			unsafe += rec.unsafe
			for _, p := range rec.played {
				if g(l.points[p]) >= 0 {
					farthest = max(farthest, l.points[p])
				}
			}
		}
		if unsafe > tc.maxUnsafe {
			t.Errorf("method %d, L = %g: %d unsafe evaluations in 5 runs, want at most %d", tc.method, tc.lipschitz, unsafe, tc.maxUnsafe)
		}
		if farthest < 0.6 {
			t.Errorf("method %d, L = %g: the runs got no farther than %g toward the limit at 0.7", tc.method, tc.lipschitz, farthest)
		}
		t.Logf("method %d, L = %g: %d unsafe evaluations, farthest safe point %g", tc.method, tc.lipschitz, unsafe, farthest)
	}
}

// TestEverySeedMeasuredUnsafe: when the evidence excludes every seed, the
// explorer says so instead of playing one.
func TestEverySeedMeasuredUnsafe(t *testing.T) {
	l := newLine(11, func(float64) float64 { return -1 })
	e, err := NewExplorer(l.config(0.3, 0.02, 2, 3))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []int{2, 3} {
		if err := e.Observe(l.points[p:p+1], []float64{-1}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.Prepare(); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Choose(make([]float64, 11), make([]float64, 11)); !errors.Is(err, ErrNoSafePoint) || !strings.Contains(err.Error(), "every seed was measured unsafe") {
		t.Errorf("Choose: %v", err)
	}
}

// TestChanceRefuted: a chance constraint's seed whose readings land clearly
// past the limit in 40% of its readings, though their mean keeps it, breaks
// a chance rule of α = 0.05 and is excluded; a seed that lands past it in 5%
// of its readings, as α allows, is not.
func TestChanceRefuted(t *testing.T) {
	const spread, draws, noiseSD = 0.05, 8, 0.05
	points := make([]float64, 41)
	for i := range points {
		points[i] = float64(i) / 40
	}
	cfg := Config{Dim: 1, Points: points, Seeds: []int{10, 20}, Capacity: 80, Delta: 0.01, Window: 5, Cap: 10,
		Land: func(u, out []float64) {
			for j := range draws {
				out[j] = u[0] + spread*(2*(float64(j)+0.5)/draws-1)
			}
		}, Draws: draws,
		Constraints: []Constraint{{Name: "g", Kernel: kernel.NewStationary(kernel.SE, 1, []float64{0.3}),
			NoiseVariance: noiseSD * noiseSD, AtLeast: true, Landing: ByChance, Alpha: 0.05}}}
	e, err := NewExplorer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for r := range 40 {
		for _, s := range cfg.Seeds {
			v := 0.5 // clearly past the limit: seed 10 every 20th reading, seed 20 two in five
			if s == 10 && r%20 == 19 || s == 20 && r%5 >= 3 {
				v = -0.5
			}
			if err := e.Observe(e.point(s), []float64{v}); err != nil {
				t.Fatal(err)
			}
		}
	}
	events, _ := e.Contradictions()
	if len(events) != 1 || events[0].Kind != BreaksChance || events[0].Index != 20 {
		t.Fatalf("contradictions %+v, want seed 20 breaking its chance rule, only", events)
	}
	if !e.Excluded(20) || e.Excluded(10) {
		t.Errorf("excluded: seed 10 %v, seed 20 %v; want only 20", e.Excluded(10), e.Excluded(20))
	}
	if ev := events[0]; ev.Readings > 15 {
		t.Errorf("refuted after %d readings; 40%% breaches against 5%% allowed should take fewer", ev.Readings)
	}
	if s := e.Explain(0); len(s) != 1 || !strings.Contains(s[0], "chance rule") {
		t.Errorf("explained as %q", s)
	}
}
