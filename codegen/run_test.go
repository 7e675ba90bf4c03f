package codegen

import (
	"encoding/json"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/bocdev/boc/runtime/bench"
)

// TestNoiseEmission: Run adds the declared noise, drawn by the distribution's
// sampler, to the values of an expression objective and to no other.
func TestNoiseEmission(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // fragments of run.go
		wantErr   string
	}{
		{"normal", problemWith("observation noise ~ normal(0, 0.5)"),
			[]string{"return 0.5 * rng.NormFloat64()", "noiseRand := rand.New(rand.NewPCG(seed, noiseStream))",
				"y := value + observationNoise(noiseRand)"}, ""},
		{"beta", problemWith("observation noise ~ beta(2, 2, scale = 0.2)"), []string{"return 0.2 * distuv.Beta{"}, ""},
		{"chi2", problemWith("observation noise ~ chi2(3)"), []string{"return distuv.ChiSquared{"}, ""},
		{"uniform", problemWith("observation noise ~ uniform(-0.3, 0.3)"), []string{"return -0.3 + 0.6*rng.Float64()"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, diags := generate(t, checkSource(t, tt.src), Options{})
			if tt.wantErr != "" {
				if !strings.Contains(diags.Error(), tt.wantErr) {
					t.Errorf("diagnostics %v, want %q", diags, tt.wantErr)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			run := string(out.Library[1].Content)
			for _, w := range tt.want {
				if !strings.Contains(run, w) {
					t.Errorf("run.go lacks %q:\n%s", w, run)
				}
			}
		})
	}
	// A command's values come with their own noise: none is simulated.
	out, diags := generate(t, checkSource(t, strings.Replace(problemWith("observation noise ~ normal(0, 0.5)"),
		"sphere(x, y)", `exec "./measure"`, 1)), Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if run := string(out.Library[1].Content); strings.Contains(run, "observationNoise") || !strings.Contains(run, "return math.NaN()") {
		t.Errorf("an exec objective gets simulated noise or noise-free values:\n%s", run)
	}
}

// tracedRun is the JSON of run --json --trace, as far as these tests read it.
type tracedRun struct {
	RandomSearch        bool                       `json:"random_search"`
	Evaluations         int                        `json:"evaluations"`
	Recommendation      map[string]json.RawMessage `json:"recommendation"`
	RecommendationValue *float64                   `json:"recommendation_value"`
	BestObserved        *struct {
		X     map[string]json.RawMessage `json:"x"`
		Y     float64                    `json:"y"`
		Value *float64                   `json:"value"`
	} `json:"best_observed"`
	Trace []struct {
		Evaluation          int                        `json:"evaluation"`
		X                   map[string]json.RawMessage `json:"x"`
		Y                   float64                    `json:"y"`
		SD                  *float64                   `json:"sd"`
		Value               *float64                   `json:"value"`
		RecommendationValue *float64                   `json:"recommendation_value"`
		BestObservedValue   *float64                   `json:"best_observed_value"`
	} `json:"trace"`
}

// traced runs a golden program with --json --trace and decodes its output.
func (b *goldenBuild) traced(t *testing.T, name string, args ...string) tracedRun {
	t.Helper()
	stdout, stderr, code := b.runProgram(t, name, append([]string{"run", "--json", "--trace"}, args...)...)
	if code != 0 {
		t.Fatalf("%s %v: exit %d: %s", name, args, code, stderr)
	}
	var r tracedRun
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("%s: %v\n%s", name, err, stdout)
	}
	if len(r.Trace) != r.Evaluations || r.Evaluations == 0 {
		t.Fatalf("%s: %d trace entries for %d evaluations", name, len(r.Trace), r.Evaluations)
	}
	for i, s := range r.Trace {
		if s.Evaluation != i+1 {
			t.Fatalf("%s: trace entry %d is evaluation %d", name, i, s.Evaluation)
		}
	}
	return r
}

// coordinate reads a scalar dimension of a JSON point.
func coordinate(t *testing.T, point map[string]json.RawMessage, name string) float64 {
	t.Helper()
	var v float64
	if err := json.Unmarshal(point[name], &v); err != nil {
		t.Fatalf("%s of %v: %v", name, point, err)
	}
	return v
}

// TestSimulatedNoise: se_ard declares observation noise ~ normal(0, 0.01) on
// an expression objective. The program adds it to every value it observes,
// deterministically per seed, and reports the noise-free values beside.
func TestSimulatedNoise(t *testing.T) {
	b := builtModule(t)
	const sd = 0.01
	objective := func(a, bb float64) float64 { // se_ard.bo's objective
		return -bench.Sphere([]float64{a - 0.5, bb/4 - 0.25}) + 0.1*math.Cos(3*a)
	}
	r := b.traced(t, "se_ard", "--seed", "3", "--budget", "12")
	sumSq, values := 0.0, map[string]float64{}
	for _, s := range r.Trace {
		if s.Value == nil || s.RecommendationValue == nil || s.BestObservedValue == nil {
			t.Fatalf("evaluation %d lacks a noise-free value", s.Evaluation)
		}
		want := objective(coordinate(t, s.X, "a"), coordinate(t, s.X, "b"))
		if math.Abs(*s.Value-want) > 1e-12 {
			t.Errorf("evaluation %d: value %v, want the objective %v", s.Evaluation, *s.Value, want)
		}
		noise := s.Y - *s.Value
		if noise == 0 || math.Abs(noise) > 5*sd {
			t.Errorf("evaluation %d: noise %v is not a draw of normal(0, %v)", s.Evaluation, noise, sd)
		}
		sumSq += noise * noise
		values[string(s.X["a"])+","+string(s.X["b"])] = *s.Value
	}
	if rms := math.Sqrt(sumSq / float64(len(r.Trace))); rms < sd/3 || rms > 3*sd {
		t.Errorf("root mean square noise %v, want about %v", rms, sd)
	}
	// The recommendation's value is the noise-free value of an evaluated point.
	rec := string(r.Recommendation["a"]) + "," + string(r.Recommendation["b"])
	last := r.Trace[len(r.Trace)-1]
	if v, ok := values[rec]; !ok || r.RecommendationValue == nil || *r.RecommendationValue != v || *last.RecommendationValue != v {
		t.Errorf("recommendation %s has value %v, evaluated values %v", rec, r.RecommendationValue, values)
	}
	if *r.BestObserved.Value != *last.BestObservedValue {
		t.Errorf("best observed value %v, last trace entry %v", *r.BestObserved.Value, *last.BestObservedValue)
	}

	if again := b.traced(t, "se_ard", "--seed", "3", "--budget", "12"); !reflect.DeepEqual(again, r) {
		t.Errorf("two runs with seed 3 differ")
	}
	other := b.traced(t, "se_ard", "--seed", "4", "--budget", "3")
	if other.Trace[0].Y-*other.Trace[0].Value == r.Trace[0].Y-*r.Trace[0].Value {
		t.Errorf("seeds 3 and 4 drew the same noise for the first (explicit) initial point")
	}
}

// TestNoiseFreeValues: without declared noise an expression objective's
// observed and noise-free values agree; a Go objective's noise-free values
// are unknown (null).
func TestNoiseFreeValues(t *testing.T) {
	b := builtModule(t)
	for _, s := range b.traced(t, "quickstart", "--budget", "8").Trace {
		if s.Value == nil || *s.Value != s.Y {
			t.Errorf("quickstart evaluation %d: value %v, observed %v", s.Evaluation, s.Value, s.Y)
		}
	}
	r := b.traced(t, "gobind", "--budget", "6")
	if r.RecommendationValue != nil || r.BestObserved.Value != nil {
		t.Errorf("gobind: noise-free values %v %v reported for a Go objective", r.RecommendationValue, r.BestObserved.Value)
	}
	for _, s := range r.Trace {
		if s.Value != nil || s.RecommendationValue != nil || s.BestObservedValue != nil {
			t.Errorf("gobind evaluation %d reports noise-free values", s.Evaluation)
		}
	}
}

// TestReportedSD: under observation noise reported, the trace shows each
// evaluation's sd as the objective reported it (exec_reported.bo's command
// reports 0.05; gobind_reported.bo's Go function 0.01 + 0.05·|x|), the
// values are measured as they are, and other problems' traces have no sd.
func TestReportedSD(t *testing.T) {
	b := builtModule(t)
	tests := []struct {
		name string
		sd   func(x float64) float64
	}{
		{"exec_reported", func(float64) float64 { return 0.05 }},
		{"gobind_reported", func(x float64) float64 { return 0.01 + 0.05*math.Abs(x) }},
	}
	for _, tt := range tests {
		r := b.traced(t, tt.name, "--budget", "7")
		for _, s := range r.Trace {
			want := tt.sd(coordinate(t, s.X, "x"))
			if s.SD == nil || math.Abs(*s.SD-want) > 1e-12 {
				t.Errorf("%s evaluation %d: sd %v, want %v", tt.name, s.Evaluation, s.SD, want)
			}
			if s.Value != nil {
				t.Errorf("%s evaluation %d: a noise-free value %v for a measured objective", tt.name, s.Evaluation, *s.Value)
			}
		}
	}
	for _, s := range b.traced(t, "gobind", "--budget", "6").Trace {
		if s.SD != nil {
			t.Errorf("gobind evaluation %d: sd %v without reported noise", s.Evaluation, *s.SD)
		}
	}
}

// TestRandomSearch: --random-search evaluates points of the domain that
// satisfy the known constraints (mixed.bo: integer and log-scaled dimensions,
// capacity: layers * (1 - dropout) >= 2), deterministically per seed, and
// not the optimiser's.
func TestRandomSearch(t *testing.T) {
	b := builtModule(t)
	p := checkFile(t, filepath.Join(goldenDir, "mixed.bo"))
	r := b.traced(t, "mixed", "--random-search", "--seed", "8", "--budget", "15")
	if !r.RandomSearch || r.Evaluations != 15 {
		t.Fatalf("random_search %v after %d evaluations", r.RandomSearch, r.Evaluations)
	}
	for _, s := range r.Trace {
		checkPoint(t, p.Dims, s.X)
		if layers, dropout := coordinate(t, s.X, "layers"), coordinate(t, s.X, "dropout"); layers*(1-dropout) < 2 {
			t.Errorf("evaluation %d violates capacity: %v", s.Evaluation, s.X)
		}
	}
	if again := b.traced(t, "mixed", "--random-search", "--seed", "8", "--budget", "15"); !reflect.DeepEqual(again, r) {
		t.Errorf("two random searches with seed 8 differ")
	}
	optimised := b.traced(t, "mixed", "--seed", "8", "--budget", "15")
	same := 0
	for i := range r.Trace {
		if reflect.DeepEqual(r.Trace[i].X, optimised.Trace[i].X) {
			same++
		}
	}
	if same > 0 {
		t.Errorf("random search and the optimiser share %d of 15 points", same)
	}
	// Log-scaled lr in [1e-4, 1e-1] is drawn log-uniformly: about a third of
	// the points in each decade.
	low := 0
	for _, s := range r.Trace {
		if coordinate(t, s.X, "lr") < 1e-3 {
			low++
		}
	}
	if low == 0 || low == 15 {
		t.Errorf("%d of 15 random lr values below 1e-3; want a log-uniform spread", low)
	}
}
