package codegen

import (
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/runtime/pareto"
)

// several reports whether a case's library is an optimiser of several
// objectives.
func several(out *Output) bool {
	return strings.Contains(string(out.Library[0].Content), "\ntype Objectives ")
}

// severalTest is a test in the package of a case with several objectives:
// past the initial design Suggest and Observe allocate nothing; pending
// points are never suggested, SuggestBatch's are distinct, Pending then
// Observe is Observe and Pending then Release nothing, bit for bit.
func severalTest(out *Output) []byte {
	content := string(out.Library[0].Content)
	observe := "o.Observe(x, v)"
	if strings.Contains(content, "\ntype Constraints ") {
		observe = "o.Observe(x, v, ConstraintLimits)" // every constraint at its limit
	}
	// A safe exploration may have no point left to play for a batch (its
	// first phase plays the seeds).
	// Its state moves with every Suggest, so that the optimisers a and b
	// below, one of which suggests more, are not compared.
	batchEnds, imports, safeExploration := "false", "", "false"
	if strings.Contains(content, "func (o *Optimizer) Certificate(") {
		batchEnds, imports, safeExploration = "errors.Is(err, safe.ErrNoSafePoint)", "\t\"errors\"\n\t\"github.com/bocdev/boc/runtime/safe\"\n", "true"
	}
	return []byte(fmt.Sprintf(`package %[1]s

import (
%[2]s	"testing"
)

// observe observes synthetic objectives at x: the weighted sphere, less j
// times the first component for objective j.
func observe(o *Optimizer, x Point) error {
	y := 0.0
	for i, c := range x {
		y += float64(i+1) * c * c
	}
	var v Objectives
	for j := range v {
		v[j] = y - float64(j)*x[0]
	}
	return %[3]s
}

func step(t *testing.T, o *Optimizer) {
	x, err := o.Suggest()
	if err != nil {
		t.Fatal(err)
	}
	if err := observe(o, x); err != nil {
		t.Fatal(err)
	}
}

func warm(t *testing.T) *Optimizer {
	o := New(Seed)
	for o.Evaluations() < min(InitialDesign+2, Budget-4) {
		step(t, o)
	}
	return o
}

func TestAllocationFree(t *testing.T) {
	o := warm(t)
	if a := testing.AllocsPerRun(2, func() { step(t, o) }); a != 0 {
		t.Errorf("Suggest and Observe allocate %%v times", a)
	}
}

func TestPending(t *testing.T) {
	o := warm(t)
	var batch [3]Point
	if err := o.SuggestBatch(batch[:]); %[4]s {
		return
	} else if err != nil {
		t.Fatal(err)
	}
	for i, x := range batch {
		for _, p := range batch[:i] {
			if x == p {
				t.Errorf("SuggestBatch gives %%v twice", x)
			}
		}
		if o.Pending(x) == nil {
			t.Errorf("%%v was made pending twice", x)
		}
	}
	x, err := o.Suggest()
	if err != nil && !(%[4]s) {
		t.Fatal(err)
	}
	for _, p := range batch {
		if err == nil && x == p {
			t.Errorf("Suggest returns %%v, which is pending", x)
		}
		if !o.Release(p) || o.Release(p) {
			t.Errorf("releasing %%v", p)
		}
	}
	if %[5]s {
		return
	}
	a, b := warm(t), warm(t)
	x, err = a.Suggest()
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Pending(x); err != nil {
		t.Fatal(err)
	}
	if err := observe(a, x); err != nil {
		t.Fatal(err)
	}
	if err := observe(b, x); err != nil {
		t.Fatal(err)
	}
	if a.Release(x) {
		t.Errorf("%%v is pending after its observation", x)
	}
	p, err := a.Suggest()
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Pending(p); err != nil {
		t.Fatal(err)
	}
	a.Release(p)
	sa, errA := a.Suggest()
	sb, errB := b.Suggest()
	ha, _, _ := a.Hypervolume()
	hb, _, _ := b.Hypervolume()
	if sa != sb || errA != nil || errB != nil || ha != hb || len(a.Front()) != len(b.Front()) {
		t.Errorf("after Pending and Observe, and Pending and Release: Suggest gives %%v (%%v), without pending %%v (%%v); hypervolume %%v, %%v", sa, errA, sb, errB, ha, hb)
	}
	m := New(Seed)
	var many [Budget + 1]Point
	if err := m.SuggestBatch(many[:]); err == nil {
		t.Error("a batch beyond the budget was suggested")
	}
}
`, libraryPackage(out), imports, observe, batchEnds, safeExploration))
}

// paretoResult is the --json output of a program with several objectives,
// as far as the tests read it.
type paretoResult struct {
	Evaluations    int             `json:"evaluations"`
	Recommendation json.RawMessage `json:"recommendation"`
	Objectives     []struct {
		Name      string   `json:"name"`
		Maximize  bool     `json:"maximize"`
		Threshold *float64 `json:"threshold"`
	} `json:"objectives"`
	Pareto []struct {
		X              map[string]json.RawMessage `json:"x"`
		Objectives     map[string]float64         `json:"objectives"`
		Observed       map[string]float64         `json:"observed"`
		TrueObjectives map[string]*float64        `json:"true_objectives"`
	} `json:"pareto"`
	Hypervolume *float64           `json:"hypervolume"`
	Reference   map[string]float64 `json:"reference"`
	Trace       []struct {
		Objectives  map[string]float64 `json:"objectives"`
		Hypervolume *float64           `json:"hypervolume"`
		FrontSize   *int               `json:"front_size"`
	} `json:"trace"`
}

// checkPareto checks a run's Pareto set against problem p: its points in
// the domain, none dominating another by the posterior means it reports,
// and the hypervolume theirs above the reference point.
func checkPareto(t *testing.T, p *ir.Program, stdout string) paretoResult {
	t.Helper()
	var r paretoResult
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, stdout)
	}
	outs := p.Objective.Outputs
	if string(r.Recommendation) != "null" || len(r.Objectives) != len(outs) || r.Hypervolume == nil || len(r.Reference) != len(outs) {
		t.Fatalf("the result of several objectives: %s", stdout)
	}
	m := len(outs)
	var means []float64
	for _, f := range r.Pareto {
		checkPoint(t, p.Dims, f.X)
		for _, o := range outs {
			v, ok := f.Objectives[o.Name]
			if !ok {
				t.Fatalf("a point of the front lacks objective %s: %s", o.Name, stdout)
			}
			if !o.Maximize {
				v = -v
			}
			means = append(means, v)
		}
	}
	keep := make([]bool, len(r.Pareto))
	if n := pareto.NonDominated(means, m, keep); n != len(r.Pareto) {
		t.Errorf("%d of the %d points of the front are dominated by another: %s", len(r.Pareto)-n, len(r.Pareto), stdout)
	}
	ref := make([]float64, m)
	for j, o := range outs {
		ref[j] = r.Reference[o.Name]
		if !o.Maximize {
			ref[j] = -ref[j]
		}
		if !math.IsNaN(o.Threshold) && r.Reference[o.Name] != o.Threshold {
			t.Errorf("reference %v for objective %s, whose threshold is %v", r.Reference[o.Name], o.Name, o.Threshold)
		}
	}
	if want := pareto.Hypervolume(means, m, ref); math.Abs(*r.Hypervolume-want) > 1e-9*max(1, want) {
		t.Errorf("hypervolume %v, the front's is %v: %s", *r.Hypervolume, want, stdout)
	}
	return r
}

// TestParetoQuality: on BraninCurrin (golden case pareto) the optimiser's
// front dominates more than a random search's of the same budget, summed
// over seeds, and its trace reports every objective.
func TestParetoQuality(t *testing.T) {
	b := builtModule(t)
	p := checkFile(t, filepath.Join(goldenDir, "pareto.bo"))
	total := [2]float64{}
	for seed := 1; seed <= 3; seed++ {
		for i, baseline := range []bool{false, true} {
			args := []string{"run", "--json", "--trace", "--seed", fmt.Sprint(seed)}
			if baseline {
				args = append(args, "--random-search")
			}
			stdout, stderr, code := b.runProgram(t, "pareto", args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			r := checkPareto(t, p, stdout)
			if len(r.Trace) != p.Budget || r.Trace[len(r.Trace)-1].Objectives["currin"] == 0 || *r.Trace[len(r.Trace)-1].Hypervolume != *r.Hypervolume {
				t.Errorf("trace of %d evaluations, its last %+v: %s", len(r.Trace), r.Trace[len(r.Trace)-1], stdout)
			}
			total[i] += *r.Hypervolume
		}
	}
	t.Logf("hypervolume over 3 seeds: %.2f by the optimiser, %.2f by random search (largest 3 × 59.36)", total[0], total[1])
	if total[0] <= total[1] {
		t.Errorf("hypervolume over 3 seeds: %.2f by the optimiser, %.2f by random search", total[0], total[1])
	}
}

// TestParetoSafe: several objectives beside an unknown safety constraint
// (golden case pareto_safe): on every seed no evaluation breaks the
// constraint, measured or truly, each carries its certificate, the safe set
// grows beyond the seed, and the front is a Pareto set.
func TestParetoSafe(t *testing.T) {
	b := builtModule(t)
	p := checkFile(t, filepath.Join(goldenDir, "pareto_safe.bo"))
	for seed := 1; seed <= 4; seed++ {
		stdout, stderr, code := b.runProgram(t, "pareto_safe", "run", "--json", "--trace", "--seed", fmt.Sprint(seed))
		if code != 0 {
			t.Fatalf("seed %d: exit %d: %s", seed, code, stderr)
		}
		checkPareto(t, p, stdout)
		var r struct {
			Violations        *int `json:"violations"`
			UnsafeEvaluations *int `json:"unsafe_evaluations"`
			SafeSet           *int `json:"safe_set"`
			Unmet             *int `json:"unmet"`
			Trace             []struct {
				Certificate *struct {
					Phase int `json:"phase"`
				} `json:"certificate"`
			} `json:"trace"`
		}
		if err := json.Unmarshal([]byte(stdout), &r); err != nil {
			t.Fatal(err)
		}
		if r.Violations == nil || *r.Violations != 0 || r.UnsafeEvaluations == nil || *r.UnsafeEvaluations != 0 || r.SafeSet == nil || *r.SafeSet <= 1 || r.Unmet == nil {
			t.Errorf("seed %d: violations %v, unsafe %v, safe set %v, unmet %v", seed, r.Violations, r.UnsafeEvaluations, r.SafeSet, r.Unmet)
		}
		for i, step := range r.Trace {
			if step.Certificate == nil {
				t.Fatalf("seed %d: evaluation %d has no certificate", seed, i+1)
			}
		}
	}
}
