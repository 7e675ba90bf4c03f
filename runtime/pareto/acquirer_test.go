package pareto

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/bocdev/boc/runtime/kernel"
	"github.com/bocdev/boc/runtime/outcome"
)

// braninCurrin is BoTorch's BraninCurrin on the unit square: two
// objectives, both minimised, reference point (18, 6), largest hypervolume
// 59.36.
func braninCurrin(u []float64) [2]float64 {
	x1, x2 := 15*u[0]-5, 15*u[1]
	branin := math.Pow(x2-5.1/(4*math.Pi*math.Pi)*x1*x1+5/math.Pi*x1-6, 2) + 10*(1-1/(8*math.Pi))*math.Cos(x1) + 10
	x, y := u[0], max(u[1], 1e-9)
	currin := (1 - math.Exp(-1/(2*y))) * (2300*x*x*x + 1900*x*x + 2092*x + 60) / (100*x*x*x + 500*x*x + 4*x + 20)
	return [2]float64{branin, currin}
}

// hypervolumeOf is the hypervolume that minimised vectors dominate below
// ref.
func hypervolumeOf(t *testing.T, values [][2]float64, ref [2]float64) float64 {
	d, err := New(2, []float64{-ref[0], -ref[1]}, len(values))
	if err != nil {
		t.Fatal(err)
	}
	flat := make([]float64, 0, 2*len(values))
	for _, v := range values {
		flat = append(flat, -v[0], -v[1])
	}
	if err := d.Update(flat); err != nil {
		t.Fatal(err)
	}
	return d.Hypervolume()
}

// objectiveModels are the Gaussian processes of two objectives, with a
// learned Matérn 5/2 kernel each.
func objectiveModels(t *testing.T, capacity int) *outcome.Models {
	var outputs []outcome.Output
	for _, name := range []string{"branin", "currin"} {
		outputs = append(outputs, outcome.Output{Name: name, Kernel: kernel.NewStationary(kernel.Matern52, 1, []float64{0.3, 0.3}),
			Learned: []bool{true, true, true}, Lower: []float64{0.05, 0.01, 0.01}, Upper: []float64{20, 10, 10}, NoiseVariance: 1e-6})
	}
	m, err := outcome.New(outputs, 2, capacity, 1, 6)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestAcquirerBraninCurrin: 6 random points and then 18 that maximise the
// score among random candidates dominate more of BraninCurrin's front than
// 24 random points, on every seed, and by EHVI at least 85% of it (90-92%
// when the test was written; a search that follows the gradient does
// better), by ParEGO, whose random weights spread its points more thinly,
// at least 65% (72-82%).
func TestAcquirerBraninCurrin(t *testing.T) {
	for _, tc := range []struct {
		method Method
		least  float64
	}{{EHVI, 0.85}, {ParEGO, 0.65}} {
		acquirerBraninCurrin(t, tc.method, tc.least)
	}
}

func acquirerBraninCurrin(t *testing.T, method Method, least float64) {
	const design, budget, candidates = 6, 24, 2000
	ref := [2]float64{18, 6}
	for seed := range uint64(3) {
		rng := rand.New(rand.NewPCG(seed, 11))
		models := objectiveModels(t, budget)
		a, err := NewAcquirer(models, 2, method, []bool{false, false}, []float64{ref[0], ref[1]}, budget, 1)
		if err != nil {
			t.Fatal(err)
		}
		var found, random [][2]float64
		for i := range budget {
			u := []float64{rng.Float64(), rng.Float64()}
			random = append(random, braninCurrin([]float64{rng.Float64(), rng.Float64()}))
			if i >= design {
				if err := a.Prepare(nil, uint64(i)); err != nil {
					t.Fatal(err)
				}
				best := math.Inf(-1)
				for range candidates {
					c := []float64{rng.Float64(), rng.Float64()}
					if v := a.Score(0, c, nil); v > best {
						best, u = v, c
					}
				}
			}
			y := braninCurrin(u)
			found = append(found, y)
			if err := models.Observe(u, y[:]); err != nil {
				t.Fatal(err)
			}
		}
		hv, hvRandom := hypervolumeOf(t, found, ref), hypervolumeOf(t, random, ref)
		t.Logf("method %d, seed %d: hypervolume %.2f, %.2f at random (largest 59.36)", method, seed, hv, hvRandom)
		if hv <= hvRandom || hv < least*59.36 {
			t.Errorf("method %d, seed %d: hypervolume %.2f, %.2f at random", method, seed, hv, hvRandom)
		}
	}
}

// TestScoreGradient checks Score's gradient against central differences
// for both methods, the inferred reference point against its definition,
// and that Prepare and Score allocate nothing.
func TestScoreGradient(t *testing.T) {
	models := objectiveModels(t, 16)
	rng := rand.New(rand.NewPCG(3, 3))
	for range 10 {
		u := []float64{rng.Float64(), rng.Float64()}
		y := braninCurrin(u)
		if err := models.Observe(u, y[:]); err != nil {
			t.Fatal(err)
		}
	}
	for _, method := range []Method{EHVI, ParEGO} {
		scoreGradient(t, models, method)
	}
}

func scoreGradient(t *testing.T, models *outcome.Models, method Method) {
	a, err := NewAcquirer(models, 2, method, []bool{false, true}, []float64{math.NaN(), math.NaN()}, 16, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Prepare([]float64{0.5, 0.5}, 7); err != nil {
		t.Fatal(err)
	}
	ref := make([]float64, 2)
	a.Reference(ref)
	front := a.d.Front()
	worst := [2]float64{math.Inf(1), math.Inf(1)}
	best := [2]float64{math.Inf(-1), math.Inf(-1)}
	for i := 0; i < len(front); i += 2 {
		for j := range 2 {
			worst[j], best[j] = min(worst[j], front[i+j]), max(best[j], front[i+j])
		}
	}
	for j, sign := range []float64{-1, 1} {
		if want := sign * (worst[j] - 0.1*(best[j]-worst[j])); math.Abs(ref[j]-want) > 1e-12 {
			t.Errorf("reference %d: %v, want %v", j, ref[j], want)
		}
	}
	grad := make([]float64, 2)
	pending := []float64{0.5, 0.5}
	if allocs := testing.AllocsPerRun(5, func() {
		if err := a.Prepare(pending, 7); err != nil {
			t.Fatal(err)
		}
		a.Score(0, pending, grad)
	}); allocs != 0 {
		t.Errorf("method %d: Prepare and Score: %v allocations", method, allocs)
	}
	for _, u := range [][]float64{{0.2, 0.7}, {0.6, 0.3}, {0.9, 0.9}} {
		v := a.Score(0, u, grad)
		if w := a.Score(0, u, nil); math.Abs(v-w) > 1e-12 {
			t.Fatalf("at %v: %v with the gradient, %v without", u, v, w)
		}
		const h = 1e-6
		for i := range u {
			u[i] += h
			up := a.Score(0, u, nil)
			u[i] -= 2 * h
			down := a.Score(0, u, nil)
			u[i] += h
			if fd := (up - down) / (2 * h); math.Abs(fd-grad[i]) > 1e-4*max(1, math.Abs(fd)) {
				t.Errorf("method %d at %v, component %d: gradient %v, central difference %v", method, u, i, grad[i], fd)
			}
		}
	}
}

// TestFourObjectives: EHVI refuses four objectives, ParEGO scores them and
// the hypervolume is the sliced one, and neither takes one objective.
func TestFourObjectives(t *testing.T) {
	var outputs []outcome.Output
	for _, name := range []string{"a", "b", "c", "d"} {
		outputs = append(outputs, outcome.Output{Name: name, Kernel: kernel.NewStationary(kernel.SE, 1, []float64{0.3, 0.3})})
	}
	models, err := outcome.New(outputs, 2, 8, 1, 4)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for range 5 {
		u := []float64{rng.Float64(), rng.Float64()}
		if err := models.Observe(u, []float64{u[0], u[1], 1 - u[0], 1 - u[1]}); err != nil {
			t.Fatal(err)
		}
	}
	none := []float64{math.NaN(), math.NaN(), math.NaN(), math.NaN()}
	if _, err := NewAcquirer(models, 2, EHVI, make([]bool, 4), none, 8, 1); err == nil {
		t.Error("EHVI of four objectives accepted")
	}
	if _, err := NewAcquirer(models, 2, ParEGO, make([]bool, 1), none[:1], 8, 1); err == nil {
		t.Error("one objective accepted")
	}
	a, err := NewAcquirer(models, 2, ParEGO, []bool{true, true, true, true}, none, 8, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Prepare(nil, 3); err != nil {
		t.Fatal(err)
	}
	ref := make([]float64, 4)
	a.Reference(ref)
	front := make([]float64, 0, 20)
	for i := range 5 {
		for j := range 4 {
			front = append(front, models.TrainMean(j, i))
		}
	}
	if v, hv := a.Score(0, []float64{0.5, 0.5}, nil), a.Hypervolume(); math.IsNaN(v) || hv != Hypervolume(front, 4, ref) || !(hv > 0) {
		t.Errorf("score %v, hypervolume %v, want %v", v, hv, Hypervolume(front, 4, ref))
	}
}

// TestAcquirerWithRequirement: with a requirement (x ≤ 0.1 on BraninCurrin,
// half the region of interest; an output with a Limit after the
// objectives), the points the score chooses after 6 random ones meet it,
// all but one at most (all of them when the test was written; 15 of 18
// without the requirement), and the truly feasible evaluated points
// dominate more than random search's feasible ones; while no evaluated
// point meets it, the score is the log probability of meeting it.
func TestAcquirerWithRequirement(t *testing.T) {
	const design, budget, candidates = 6, 24, 2000
	ref := [2]float64{18, 6}
	requirement := func(u []float64) float64 { return u[0] }
	models := func() *outcome.Models {
		var outputs []outcome.Output
		for _, name := range []string{"branin", "currin", "x"} {
			outputs = append(outputs, outcome.Output{Name: name, Kernel: kernel.NewStationary(kernel.Matern52, 1, []float64{0.3, 0.3}),
				Learned: []bool{true, true, true}, Lower: []float64{0.05, 0.01, 0.01}, Upper: []float64{20, 10, 10}, NoiseVariance: 1e-6})
		}
		outputs[2].Limit = &outcome.Limit{Threshold: 0.1, Confidence: 0.9}
		m, err := outcome.New(outputs, 2, budget, 1, design)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	for seed := range uint64(2) {
		rng := rand.New(rand.NewPCG(seed, 13))
		m := models()
		a, err := NewAcquirer(m, 2, EHVI, []bool{false, false}, []float64{ref[0], ref[1]}, budget, 1)
		if err != nil {
			t.Fatal(err)
		}
		var found, random [][2]float64
		chosenFeasible := 0
		for i := range budget {
			u := []float64{rng.Float64(), rng.Float64()}
			if r := []float64{rng.Float64(), rng.Float64()}; requirement(r) <= 0.1 {
				random = append(random, braninCurrin(r))
			}
			if i >= design {
				if err := a.Prepare(nil, uint64(i)); err != nil {
					t.Fatal(err)
				}
				best := math.Inf(-1)
				for range candidates {
					c := []float64{rng.Float64(), rng.Float64()}
					if v := a.Score(0, c, nil); v > best {
						best, u = v, c
					}
				}
				if requirement(u) <= 0.1 {
					chosenFeasible++
				}
			}
			y := braninCurrin(u)
			if requirement(u) <= 0.1 {
				found = append(found, y)
			}
			if err := m.Observe(u, []float64{y[0], y[1], requirement(u)}); err != nil {
				t.Fatal(err)
			}
		}
		hv, hvRandom := hypervolumeOf(t, found, ref), hypervolumeOf(t, random, ref)
		t.Logf("seed %d: %d of %d chosen points feasible; feasible hypervolume %.2f, %.2f at random", seed, chosenFeasible, budget-design, hv, hvRandom)
		if hv <= hvRandom || chosenFeasible < budget-design-1 {
			t.Errorf("seed %d: %d of %d chosen points feasible; feasible hypervolume %.2f, %.2f at random", seed, chosenFeasible, budget-design, hv, hvRandom)
		}
	}
	// Every evaluated point breaks the requirement: the score seeks it.
	m := models()
	for _, u := range [][]float64{{0.5, 0.2}, {0.2, 0.8}, {0.9, 0.5}} {
		y := braninCurrin(u)
		if err := m.Observe(u, []float64{y[0], y[1], requirement(u)}); err != nil {
			t.Fatal(err)
		}
	}
	a, _ := NewAcquirer(m, 2, EHVI, []bool{false, false}, []float64{ref[0], ref[1]}, budget, 1)
	if err := a.Prepare(nil, 1); err != nil {
		t.Fatal(err)
	}
	u := []float64{0.7, 0.5}
	if !a.SeeksFeasibility() || a.Score(0, u, nil) != m.LogFeasibility(0, u, nil) {
		t.Errorf("no feasible point: seeks %v, score %v, log feasibility %v", a.SeeksFeasibility(), a.Score(0, u, nil), m.LogFeasibility(0, u, nil))
	}
	if _, err := NewAcquirer(m, 2, EHVI, []bool{false, false, false}, []float64{0, 0, 0}, budget, 1); err == nil {
		t.Error("an output with a limit accepted as an objective")
	}
}
