package study

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/bocdev/boc/driver"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/google/go-cmp/cmp"
)

// tinyProblem is a small Branin problem; %s is its objective's expression.
const tinyProblem = `problem tiny

domain {
    x1 in [-5, 10]
    x2 in [0, 15]
}

objective minimize %s

observation noise ~ normal(0, 3)

model gp(kernel = matern52(lengthscale = 0.5))
acquisition ei
budget 8
init sobol(3)
seed 1
`

// writeStudyFile writes tinyProblem with objective into a temporary file.
func writeStudyFile(t *testing.T, objective string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tiny.bo")
	if err := os.WriteFile(path, []byte(strings.Replace(tinyProblem, "%s", objective, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// runStudy runs a study of path with cfg (two jobs, f* from the file unless
// given) and returns what write printed and the log.
func runStudy(t *testing.T, path string, cfg Config, write func(io.Writer, Config, []*Problem) error) (stdout, log string) {
	t.Helper()
	if cfg.Optimum == 0 {
		cfg.Optimum = math.NaN()
	}
	cfg.Jobs = 2
	var out, logs bytes.Buffer
	problems, err := Run(t.Context(), []string{path}, cfg, &logs)
	if err != nil {
		t.Fatalf("%v\n%s", err, logs.String())
	}
	if err := write(&out, cfg, problems); err != nil {
		t.Fatal(err)
	}
	return out.String(), logs.String()
}

// tables adapts a table writer to runStudy.
func tables(write func(io.Writer, Config, []*Problem)) func(io.Writer, Config, []*Problem) error {
	return func(w io.Writer, cfg Config, problems []*Problem) error {
		write(w, cfg, problems)
		return nil
	}
}

// TestStudyJSON runs a tiny study: three acquisitions, one of which this
// version cannot emit, and random search, three seeds, two budgets.
func TestStudyJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs programs")
	}
	path := writeStudyFile(t, "branin(x1, x2)")
	stdout, stderr := runStudy(t, path, Config{Seeds: 3, Budgets: []int{4, 8},
		Acquisitions: []string{"ei", "ucb(beta = 1)", "uei"}, Random: true}, WriteJSON)
	var got studyJSON
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if got.Seeds != 3 || !slices.Equal(got.Budgets, []int{4, 8}) {
		t.Errorf("seeds %d budgets %v", got.Seeds, got.Budgets)
	}
	var methods []string
	for _, c := range got.Results {
		methods = append(methods, c.Method)
		if c.Problem != "tiny" || c.File != path || c.Optimum == nil || math.Abs(*c.Optimum-0.397887) > 1e-6 || c.Measure != "regret" {
			t.Errorf("%s: problem %q file %q optimum %v measure %q", c.Method, c.Problem, c.File, c.Optimum, c.Measure)
		}
		if c.Method == "uei" {
			if c.Skipped == "" || c.Recommendation != nil || c.BestObserved != nil {
				t.Errorf("uei is not reported as skipped: %+v", c)
			}
			continue
		}
		if c.Skipped != "" || len(c.Recommendation) != 2 || len(c.BestObserved) != 2 {
			t.Fatalf("%s: skipped %q, %d and %d budgets", c.Method, c.Skipped, len(c.Recommendation), len(c.BestObserved))
		}
		for k, q := range slices.Concat(c.Recommendation, c.BestObserved) {
			if !(0 <= q.Q1 && q.Q1 <= q.Median && q.Median <= q.Q3) || math.IsInf(q.Q3, 0) {
				t.Errorf("%s, entry %d: quartiles %+v are not ordered non-negative regrets", c.Method, k, q)
			}
		}
		// The runs are what the quartiles summarise, with the recommended points.
		if len(c.Runs) != 3 {
			t.Fatalf("%s: %d runs, want 3", c.Method, len(c.Runs))
		}
		for k := range got.Budgets {
			var regrets []float64
			for _, r := range c.Runs {
				var x struct{ X1, X2 *float64 }
				if err := json.Unmarshal(r.Recommendation[k], &x); err != nil || x.X1 == nil || x.X2 == nil {
					t.Fatalf("%s, seed %d: recommendation %s is not a point of the domain (%v)", c.Method, r.Seed, r.Recommendation[k], err)
				}
				regrets = append(regrets, float64(r.Regret[k]))
				// Branin's three minimisers, all inside the domain.
				nearest := math.Inf(1)
				for _, opt := range [][2]float64{{-math.Pi, 12.275}, {math.Pi, 2.275}, {9.42478, 2.475}} {
					nearest = min(nearest, math.Hypot(*x.X1-opt[0], *x.X2-opt[1]))
				}
				if len(r.Distance) != len(got.Budgets) || math.Abs(float64(r.Distance[k])-nearest) > 1e-4 {
					t.Errorf("%s, seed %d: distances %v, want %v after %d evaluations", c.Method, r.Seed, r.Distance, nearest, got.Budgets[k])
				}
			}
			if q := summarise(regrets); q != c.Recommendation[k] {
				t.Errorf("%s, budget %d: the runs' regrets %v summarise to %+v, the table has %+v", c.Method, got.Budgets[k], regrets, q, c.Recommendation[k])
			}
		}
	}
	if want := []string{"ei", "ucb(beta = 1)", "uei", "random"}; !slices.Equal(methods, want) {
		t.Errorf("methods %q, want %q", methods, want)
	}
	if !strings.Contains(stderr, "with uei: skipped: ") {
		t.Errorf("stderr does not report the skipped acquisition:\n%s", stderr)
	}
}

// TestRandomColumnIsTheProblems: random search is judged by the default
// model whatever the file's model and acquisition, so two files of one
// problem give it the same column.
func TestRandomColumnIsTheProblems(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs programs")
	}
	column := func(model, acquisition string) []studyJSONRun {
		src := strings.Replace(tinyProblem, "%s", "branin(x1, x2)", 1)
		src = strings.Replace(src, "model gp(kernel = matern52(lengthscale = 0.5))", model, 1)
		src = strings.Replace(src, "acquisition ei", acquisition, 1)
		path := filepath.Join(t.TempDir(), "tiny.bo")
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		stdout, _ := runStudy(t, path, Config{Seeds: 2, Budgets: []int{6}, Random: true}, WriteJSON)
		var got studyJSON
		if err := json.Unmarshal([]byte(stdout), &got); err != nil {
			t.Fatal(err)
		}
		return got.Results[len(got.Results)-1].Runs
	}
	a := column("model gp(kernel = matern32(lengthscale = 0.2))", "acquisition ucb")
	b := column("model gp", "acquisition pi")
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("random search differs between the files (-first +second):\n%s", diff)
	}
}

// TestStudyTables checks the shape of the text and Markdown tables, with the
// optimum given on the command line and the file's own acquisition.
func TestStudyTables(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs programs")
	}
	path := writeStudyFile(t, "branin(x1, x2) + 1")
	cfg := Config{Seeds: 2, Budgets: []int{5}, Optimum: 1.397887, Random: true}
	stdout, _ := runStudy(t, path, cfg, tables(WriteText))
	cell := `\d[\d.e+-]* \[\d[\d.e+-]*, \d[\d.e+-]*\]`
	text := regexp.MustCompile(`^median \[lower quartile, upper quartile\] over seeds 1\.\.2 .*\n\n` +
		`Regret of the recommendation .*:\nproblem +method +5\ntiny +ei +` + cell + `\ntiny +random +` + cell + `\n\n` +
		`Regret of the best observed point:\nproblem +method +5\ntiny +ei +` + cell + `\ntiny +random +` + cell + `\n$`)
	if !text.MatchString(stdout) {
		t.Errorf("text tables:\n%s", stdout)
	}
	stdout, _ = runStudy(t, path, cfg, tables(WriteMarkdown))
	markdown := regexp.MustCompile(`^Regret of the recommendation .*: median .*\.\n\n` +
		`\| problem \| method \| 5 \|\n\| --- \| --- \| ---: \|\n\| tiny \| ` + "`ei`" + ` \| ` + cell + ` \|\n\| tiny \| ` + "`random`" + ` \| ` + cell + ` \|\n\n` +
		`Regret of the best observed point: median .*\.\n\n\| problem \| method \| 5 \|\n\| --- \| --- \| ---: \|\n\| tiny \| ` + "`ei`" + ` \| ` + cell + ` \|\n\| tiny \| ` + "`random`" + ` \| ` + cell + ` \|\n$`)
	if !markdown.MatchString(stdout) {
		t.Errorf("markdown tables:\n%s", stdout)
	}
}

// TestStudyWithoutOptimum: a problem whose optimum is unknown is compared
// by noise-free value, in tables, JSON and plots of their own, with a note
// that a regret needs --optimum.
func TestStudyWithoutOptimum(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs programs")
	}
	path := writeStudyFile(t, "branin(x1, x2) + 1")
	cfg := Config{Seeds: 2, Budgets: []int{5}, Random: true}
	stdout, stderr := runStudy(t, path, cfg, tables(WriteText))
	if !strings.Contains(stderr, "the optimum is unknown") || !strings.Contains(stderr, "a regret needs --optimum") {
		t.Errorf("no note of the unknown optimum:\n%s", stderr)
	}
	cell := `\d[\d.e+-]* \[\d[\d.e+-]*, \d[\d.e+-]*\]`
	text := regexp.MustCompile(`\n\nNoise-free value of the recommendation \(the optimum is unknown: a regret needs --optimum\):\n\(the noise-free objective, for problems whose optimum is unknown\)\n` +
		`problem +method +5\ntiny +ei +` + cell + `\ntiny +random +` + cell + `\n\nNoise-free value of the best observed point:`)
	if !text.MatchString(stdout) || strings.Contains(stdout, "Regret of") {
		t.Errorf("text tables:\n%s", stdout)
	}
	stdout, _ = runStudy(t, path, cfg, WriteJSON)
	var got studyJSON
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	for _, c := range got.Results {
		// branin + 1 is at least 1.397887: values, not regrets.
		if c.Measure != "value" || c.Optimum != nil || len(c.Recommendation) != 1 || c.Recommendation[0].Q1 < 1.397 {
			t.Errorf("%s: measure %q optimum %v recommendation %+v", c.Method, c.Measure, c.Optimum, c.Recommendation)
		}
	}
}

func TestSplitCalls(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"ei", []string{"ei"}},
		{" ei , ucb ", []string{"ei", "ucb"}},
		{"ucb(beta = 2, delta = 0.1),ei", []string{"ucb(beta = 2, delta = 0.1)", "ei"}},
		{"x(v = [1, 2], m = [[1, 0], [0, 1]]), y", []string{"x(v = [1, 2], m = [[1, 0], [0, 1]])", "y"}},
	}
	for _, tt := range tests {
		got, err := SplitCalls(tt.in)
		if err != nil || !cmp.Equal(got, tt.want) {
			t.Errorf("SplitCalls(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"ucb(", "ucb)", "a,", "ucb(beta\n= 2)"} {
		if _, err := SplitCalls(bad); err == nil {
			t.Errorf("SplitCalls(%q) succeeded", bad)
		}
	}
}

func TestSummarise(t *testing.T) {
	tests := []struct {
		in   []float64
		want quartiles
	}{
		{[]float64{3}, quartiles{3, 3, 3}},
		{[]float64{2, 1}, quartiles{1.25, 1.5, 1.75}},
		{[]float64{5, 1, 4, 2, 3}, quartiles{2, 3, 4}},
		{[]float64{10, 1, 2, 3}, quartiles{1.75, 2.5, 4.75}},
	}
	for _, tt := range tests {
		if got := summarise(tt.in); got != tt.want {
			t.Errorf("summarise(%v) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

func TestRegret(t *testing.T) {
	v := func(x float64) *float64 { return &x }
	tests := []struct {
		name    string
		p       Problem
		value   *float64
		safety  bool
		want    float64
		wantErr string
	}{
		{"minimum", Problem{optimum: 0.4, minimum: true}, v(1.4), false, 1, ""},
		{"maximum", Problem{optimum: 3}, v(2.5), false, 0.5, ""},
		{"within the optimum's precision", Problem{optimum: -3.86278, minimum: true}, v(-3.8627821), false, 0, ""},
		{"better than the optimum", Problem{optimum: 0.4, minimum: true}, v(0.3), false, 0, "better than the optimum"},
		{"unknown value", Problem{optimum: 0.4, minimum: true}, nil, false, 0, "no noise-free value"},
		// The optimum of a safe problem is the best truly safe value, which
		// an unsafe point may beat.
		{"beyond the safe optimum", Problem{optimum: 3}, v(3.5), true, -0.5, ""},
		{"safe and worse", Problem{optimum: 3}, v(2), true, 1, ""},
	}
	for _, tt := range tests {
		got, err := tt.p.regret(tt.value, tt.safety)
		if math.Abs(got-tt.want) > 1e-12 || (err == nil) != (tt.wantErr == "") || (err != nil && !strings.Contains(err.Error(), tt.wantErr)) {
			t.Errorf("%s: regret %v, %v; want %v, %q", tt.name, got, err, tt.want, tt.wantErr)
		}
	}
}

// TestWithStatements: the model and acquisition statements are replaced in
// the text, or added when the file has none, and the rest of the file is
// kept.
func TestWithStatements(t *testing.T) {
	base := strings.Replace(tinyProblem, "%s", "branin(x1, x2)", 1)
	const model = "model gp(kernel = matern52(lengthscale = 0.5))\n"
	noAcquisition := strings.Replace(base, "acquisition ei\n", "", 1)
	noModel := strings.Replace(base, model, "", 1)
	acq := func(call string) statement { return statement{"acquisition", call} }
	mod := func(call string) statement { return statement{"model", call} }
	tests := []struct {
		name  string
		src   string
		stmts []statement
		want  string
	}{
		{"nothing", base, nil, base},
		{"acquisition replaced", base, []statement{acq("ucb(beta = 1)")}, strings.Replace(base, "acquisition ei\n", "acquisition ucb(beta = 1)\n", 1)},
		{"acquisition with arguments replaced", strings.Replace(base, "acquisition ei", "acquisition pi(xi = 0.1)", 1), []statement{acq("ei")}, base},
		{"acquisition added", noAcquisition, []statement{acq("ucb")}, noAcquisition + "\nacquisition ucb\n"},
		{"model replaced", base, []statement{mod("gp")}, strings.Replace(base, model, "model gp\n", 1)},
		{"model added", noModel, []statement{mod("gp(kernel = rq)")}, noModel + "\nmodel gp(kernel = rq)\n"},
		{"both replaced, in either order", base, []statement{acq("pi"), mod("gp")},
			strings.Replace(strings.Replace(base, model, "model gp\n", 1), "acquisition ei\n", "acquisition pi\n", 1)},
		{"model replaced, acquisition added", noAcquisition, []statement{mod("gp"), acq("ucb")},
			strings.Replace(noAcquisition, model, "model gp\n", 1) + "\nacquisition ucb\n"},
		{"both added", strings.Replace(noModel, "acquisition ei\n", "", 1), []statement{mod("gp"), acq("ucb")},
			strings.Replace(noModel, "acquisition ei\n", "", 1) + "\nmodel gp\n\nacquisition ucb\n"},
	}
	for _, tt := range tests {
		u := driver.Compile("case.bo", []byte(tt.src), driver.Options{})
		if !u.OK() {
			t.Fatalf("%s: the source does not check", tt.name)
		}
		got := withStatements(u, tt.stmts...)
		if string(got) != tt.want {
			t.Errorf("%s:\n%s", tt.name, cmp.Diff(tt.want, string(got)))
		}
		if !driver.Compile("case.bo", got, driver.Options{}).OK() {
			t.Errorf("%s: the edited source does not check", tt.name)
		}
	}
}

// TestStudyVariants: the cross product of models and acquisitions, named by
// what varies, and the file's own statements kept where no list is given.
func TestStudyVariants(t *testing.T) {
	type variant = studyVariant
	acq := func(call string) statement { return statement{"acquisition", call} }
	mod := func(call string) statement { return statement{"model", call} }
	tests := []struct {
		name                 string
		models, acquisitions []string
		want                 []variant
	}{
		{"neither: the file as it is, named by its acquisition", nil, nil, []variant{{name: "ei"}}},
		{"acquisitions", nil, []string{"ei", "ucb(beta = 1)"},
			[]variant{{"ei", []statement{acq("ei")}}, {"ucb(beta = 1)", []statement{acq("ucb(beta = 1)")}}}},
		{"models", []string{"gp", "mmd(samples = 8)"}, nil,
			[]variant{{"gp", []statement{mod("gp")}}, {"mmd(samples = 8)", []statement{mod("mmd(samples = 8)")}}}},
		{"both: the cross product", []string{"gp", "ugp"}, []string{"ei", "pi"}, []variant{
			{"gp / ei", []statement{mod("gp"), acq("ei")}}, {"gp / pi", []statement{mod("gp"), acq("pi")}},
			{"ugp / ei", []statement{mod("ugp"), acq("ei")}}, {"ugp / pi", []statement{mod("ugp"), acq("pi")}}}},
	}
	for _, tt := range tests {
		got := studyVariants(tt.models, tt.acquisitions, "ei")
		if !cmp.Equal(got, tt.want, cmp.AllowUnexported(studyVariant{}, statement{})) {
			t.Errorf("%s: studyVariants = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

// TestStudyModels runs a tiny study of two models, one of which the file
// cannot have: ugp needs input noise, which it does not declare.
func TestStudyModels(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs programs")
	}
	path := writeStudyFile(t, "branin(x1, x2)")
	stdout, stderr := runStudy(t, path, Config{Seeds: 2, Budgets: []int{4}, Models: []string{"gp", "ugp"}, Acquisitions: []string{"ucb"}}, WriteJSON)
	var got studyJSON
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if len(got.Results) != 2 || got.Results[0].Method != "gp / ucb" || got.Results[1].Method != "ugp / ucb" {
		t.Fatalf("results %+v, want the methods gp / ucb and ugp / ucb", got.Results)
	}
	if c := got.Results[0]; c.Skipped != "" || len(c.Recommendation) != 1 {
		t.Errorf("gp / ucb: %+v", c)
	}
	if c := got.Results[1]; !strings.Contains(c.Skipped, "input noise") || c.Recommendation != nil {
		t.Errorf("ugp / ucb is not skipped for want of input noise: %+v", c)
	}
	if !strings.Contains(stderr, "with ugp / ucb: skipped: ") {
		t.Errorf("stderr does not report the skipped model:\n%s", stderr)
	}
}

// Runs that stop before the last budget are named, since their last values
// stand for the budgets they did not reach.
func TestEarlyStops(t *testing.T) {
	cfg := Config{Seeds: 3, Budgets: []int{10, 20}}
	done := &method{name: "ei", evaluations: []int{20, 20, 20}}
	early := &method{name: "ucb", evaluations: []int{20, 12, 7}}
	if got := earlyStops(cfg, done); len(got) != 0 {
		t.Errorf("earlyStops of complete runs = %v, want none", got)
	}
	want := []earlyStop{{Seed: 2, Evaluations: 12}, {Seed: 3, Evaluations: 7}}
	if got := earlyStops(cfg, early); !slices.Equal(got, want) {
		t.Errorf("earlyStops = %v, want %v", got, want)
	}
	var b strings.Builder
	writeEarlyStops(&b, cfg, []*Problem{{name: "p", methods: []*method{done, early}}})
	if msg := "\np with ucb stopped early (seed 2 after 12, seed 3 after 7 evaluations); its last values stand for the budgets it did not reach.\n"; b.String() != msg {
		t.Errorf("writeEarlyStops wrote %q, want %q", b.String(), msg)
	}
}

// TestRecordEveryEvaluation: a run's regrets are kept after every
// evaluation, not only at the budgets, and a run that stopped early keeps its
// last values for the evaluations it did not make; the recommended points are
// kept at the budgets only.
func TestRecordEveryEvaluation(t *testing.T) {
	budgets := []int{1, 4}
	p := &Problem{path: "p.bo", name: "p", optimum: 0, minimum: true, robustOptimum: math.NaN(), methods: []*method{{name: "ei"}}}
	m := p.methods[0]
	m.prepare(budgets, 1)
	out := `{"trace":[{"recommendation":{"x":1},"recommendation_value":3,"best_observed_value":2},` +
		`{"recommendation":{"x":2},"recommendation_value":0.5,"best_observed_value":0.25}]}`
	if err := (trial{problem: p, method: m, seed: 1}).record([]byte(out), budgets); err != nil {
		t.Fatal(err)
	}
	column := func(table [][]float64) []float64 {
		var out []float64
		for _, row := range table {
			out = append(out, row[0])
		}
		return out
	}
	if got, want := column(m.recommendation), []float64{3, 0.5, 0.5, 0.5}; !slices.Equal(got, want) {
		t.Errorf("regrets of the recommendation %v, want %v", got, want)
	}
	if got, want := column(m.bestObserved), []float64{2, 0.25, 0.25, 0.25}; !slices.Equal(got, want) {
		t.Errorf("regrets of the best observed point %v, want %v", got, want)
	}
	if got := fmt.Sprintf("%s %s", m.recommended[0][0], m.recommended[1][0]); got != `{"x":1} {"x":2}` {
		t.Errorf("recommended points %s, want those after 1 and 2 evaluations", got)
	}
}

// TestRecordInfeasible: a step without a recommendation, or whose
// recommendation truly breaks a simulated requirement, counts as a run
// without a feasible recommendation and is left out of the regrets'
// quartiles; the tables show the count and "none" where every run is left
// out, and the JSON null regrets.
func TestRecordInfeasible(t *testing.T) {
	cfg := Config{Seeds: 2, Budgets: []int{1, 2, 3}}
	p := &Problem{path: "p.bo", name: "p", optimum: -2, minimum: true, robustOptimum: math.NaN(), methods: []*method{{name: "ei"}}}
	m := p.methods[0]
	m.prepare(cfg.Budgets, cfg.Seeds)
	step := func(rec, value, truly string) string {
		return fmt.Sprintf(`{"recommendation":%s,"recommendation_value":%s,"best_observed_value":-1,"violations":1,"truly_feasible":%s}`, rec, value, truly)
	}
	runs := []string{
		`{"trace":[` + step("null", "null", "false") + "," + step(`{"x":1}`, "-1.5", "false") + "," + step(`{"x":2}`, "-1.75", "true") + `]}`,
		`{"trace":[` + step("null", "null", "false") + "," + step(`{"x":3}`, "-1", "true") + "," + step(`{"x":3}`, "-1", "true") + `]}`,
	}
	for s, out := range runs {
		if err := (trial{problem: p, method: m, seed: s + 1}).record([]byte(out), cfg.Budgets); err != nil {
			t.Fatal(err)
		}
	}
	var infeasible, regrets []string
	for _, r := range studyRegrets {
		if r.count {
			infeasible = cells(cfg, p, m, r)
		}
		if r.title == studyRegrets[0].title {
			regrets = cells(cfg, p, m, r)
		}
	}
	if want := []string{"2", "1", "0"}; !slices.Equal(infeasible, want) {
		t.Errorf("runs without a feasible recommendation %v, want %v", infeasible, want)
	}
	if want := []string{"none", "1 [1, 1]", "0.625 [0.438, 0.812]"}; !slices.Equal(regrets, want) {
		t.Errorf("regrets of the recommendation %v, want %v", regrets, want)
	}
	var b bytes.Buffer
	if err := WriteJSON(&b, cfg, []*Problem{p}); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Results []struct {
			Recommendation            []struct{ Median *float64 }
			InfeasibleRecommendations []int `json:"infeasible_recommendations"`
			Runs                      []struct {
				Regret     []*float64
				Infeasible []bool
			}
		}
	}
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	c := got.Results[0]
	if c.Recommendation[0].Median != nil || !slices.Equal(c.InfeasibleRecommendations, []int{2, 1, 0}) ||
		c.Runs[0].Regret[1] != nil || !slices.Equal(c.Runs[0].Infeasible, []bool{true, true, false}) {
		t.Errorf("JSON %s", b.String())
	}
}

// robustTrace is the canned output of a program with input noise, three
// evaluations: the robust value of the recommendation after each.
func robustTrace(robust ...string) string {
	var steps []string
	for i, r := range robust {
		steps = append(steps, fmt.Sprintf(`{"evaluation":%d,"x":{"x":0.5},"y":1,"value":-0.1,"robust":%s,"recommendation":{"x":%d},"recommendation_value":-0.1,"recommendation_robust":%s,"best_observed_value":-0.1}`, i+1, r, i+1, r))
	}
	return `{"problem":"tiny","evaluations":3,"trace":[` + strings.Join(steps, ",") + `]}`
}

// TestStudyRobustRegret judges canned program output of a maximisation with
// input noise: the robust values recorded from the traces, the robust optimum
// read from robust-optimum --json, the robust regrets and the third table. An
// end-to-end study of a .bo file with input noise needs the code generator to
// emit input-noise models, so it is left to a script test.
func TestStudyRobustRegret(t *testing.T) {
	budgets := []int{2, 3}
	noisy := &Problem{path: "noisy.bo", name: "noisy", optimum: 0, components: 1, robustOptimum: math.NaN(),
		methods: []*method{{name: "ei"}}}
	wide := &Problem{path: "wide.bo", name: "wide", optimum: 0, components: 3, robustOptimum: math.NaN(),
		methods: []*method{{name: "ei"}}}
	plain := &Problem{path: "plain.bo", name: "plain", optimum: 0, components: 1, robustOptimum: math.NaN(),
		methods: []*method{{name: "ei"}}}
	outputs := map[*Problem][]string{
		noisy: {robustTrace("-0.5", "-0.05", "-0.05"), robustTrace("-0.5", "-0.5", "-0.02")},
		wide:  {robustTrace("-1", "-1", "-1"), robustTrace("-1", "-1", "-1")},
		plain: {`{"trace":[{"recommendation_value":-0.1,"best_observed_value":-0.1}]}`, `{"trace":[{"recommendation_value":-0.2,"best_observed_value":-0.1}]}`},
	}
	for _, p := range []*Problem{noisy, wide, plain} {
		m := p.methods[0]
		m.prepare(budgets, 2)
		for s, out := range outputs[p] {
			if err := (trial{problem: p, method: m, seed: s + 1}).record([]byte(out), budgets); err != nil {
				t.Fatalf("%s, seed %d: %v", p.name, s+1, err)
			}
		}
	}
	if !slices.Equal(noisy.methods[0].robustReported, []bool{true, true}) || slices.Contains(plain.methods[0].robustReported, true) {
		t.Fatalf("robust values reported: noisy %v, plain %v; want all and none", noisy.methods[0].robustReported, plain.methods[0].robustReported)
	}
	optimum, exhaustive, err := parseRobustOptimum([]byte(`{"x":[0.3123],"robust":-0.01,"exhaustive":true}` + "\n"))
	if err != nil || !exhaustive {
		t.Fatalf("exhaustive %v, %v", exhaustive, err)
	}
	noisy.robustReported, noisy.robustOptimum = true, optimum
	if err := noisy.robustRegrets(); err != nil {
		t.Fatal(err)
	}
	// Seed 1 recommends robust values -0.05 after 2 and 3 evaluations, seed 2
	// -0.5 then -0.02: regrets 0.04, 0.49 and 0.04, 0.01 below r* = -0.01.
	want := [][]float64{{0.04, 0.49}, {0.04, 0.01}}
	// The traces' evaluated targets have the same robust values: means -0.275
	// and -0.2 for seed 1, -0.5 and -0.34 for seed 2.
	wantEvaluated := [][]float64{{0.265, 0.49}, {0.19, 0.33}}
	for k := range want {
		for s := range want[k] {
			if got := noisy.methods[0].robust[budgets[k]-1][s]; math.Abs(got-want[k][s]) > 1e-12 {
				t.Errorf("robust regret after %d evaluations, seed %d: %v, want %v", budgets[k], s+1, got, want[k][s])
			}
			if got := noisy.methods[0].evaluated[budgets[k]-1][s]; math.Abs(got-wantEvaluated[k][s]) > 1e-12 {
				t.Errorf("mean robust regret of the evaluated targets after %d evaluations, seed %d: %v, want %v", budgets[k], s+1, got, wantEvaluated[k][s])
			}
		}
	}
	wide.robustReported, wide.robustOptimum, wide.robustNote = true, -0.5, "only the best known"
	if err := wide.robustRegrets(); err != nil {
		t.Fatal(err)
	}

	cfg := Config{Seeds: 2, Budgets: budgets}
	problems := []*Problem{noisy, wide, plain}
	var text, markdown, js strings.Builder
	WriteText(&text, cfg, problems)
	WriteMarkdown(&markdown, cfg, problems)
	if err := WriteJSON(&js, cfg, problems); err != nil {
		t.Fatal(err)
	}
	_, robustTable, ok := strings.Cut(text.String(), "Robust regret of the recommendation (E over the input noise):\n")
	if !ok {
		t.Fatalf("no robust regret table:\n%s", text.String())
	}
	robustTable, notes, _ := strings.Cut(robustTable, "\n\n") // the table, then the notes
	if !strings.HasPrefix(notes, "Note on wide: only the best known.\n") {
		t.Errorf("the robust regret table is not followed by the note on wide:\n%s", notes)
	}
	for _, w := range []string{`noisy\s+ei\s+0\.265 \[0\.152, 0\.378\]\s+0\.025 \[0\.0175, 0\.0325\]\n`, `wide\s+ei\s+0\.5 \[0\.5, 0\.5\]\s+0\.5 \[0\.5, 0\.5\]`} {
		if !regexp.MustCompile(w).MatchString(robustTable) {
			t.Errorf("the robust regret table lacks %s:\n%s", w, robustTable)
		}
	}
	if strings.Contains(robustTable, "plain") {
		t.Errorf("the robust regret table lists a problem without input noise:\n%s", robustTable)
	}
	if !strings.Contains(markdown.String(), "Robust regret of the recommendation (E over the input noise): median") ||
		!strings.Contains(markdown.String(), "| noisy | `ei` | 0.265 [0.152, 0.378] | 0.025 [0.0175, 0.0325] |") ||
		!strings.Contains(markdown.String(), "| wide | `ei` | 0.5 [0.5, 0.5] | 0.5 [0.5, 0.5] |\n\nNote on wide: only the best known.\n") {
		t.Errorf("markdown lacks the robust table:\n%s", markdown.String())
	}
	var got studyJSON
	if err := json.Unmarshal([]byte(js.String()), &got); err != nil {
		t.Fatal(err)
	}
	for _, c := range got.Results {
		switch c.Problem {
		case "noisy":
			if c.RobustOptimum == nil || *c.RobustOptimum != -0.01 || len(c.RecommendationRobust) != 2 || c.RecommendationRobust[1].Median != 0.025 || c.RobustOptimumNote != "" {
				t.Errorf("noisy: robust optimum %v, robust regrets %+v, note %q", c.RobustOptimum, c.RecommendationRobust, c.RobustOptimumNote)
			}
			// Seed 2's run, after 2 and 3 evaluations: the recommendation of
			// that step of its trace, the regrets of the tables above.
			if len(c.Runs) != 2 {
				t.Fatalf("noisy: %d runs, want 2", len(c.Runs))
			}
			run := c.Runs[1]
			var points []string
			for _, p := range run.Recommendation {
				var b bytes.Buffer
				if err := json.Compact(&b, p); err != nil {
					t.Fatal(err)
				}
				points = append(points, b.String())
			}
			if run.Seed != 2 || !slices.Equal(points, []string{`{"x":2}`, `{"x":3}`}) ||
				!slices.Equal(run.RobustRegret, []float64{want[0][1], want[1][1]}) || !slices.Equal(run.Regret, []number{0.1, 0.1}) {
				t.Errorf("noisy, seed 2: %+v (recommendations %s), want seed 2 at x = 2 and 3 with robust regrets %v and %v, regrets 0.1",
					run, points, want[0][1], want[1][1])
			}
		case "wide":
			if c.RobustOptimum == nil || *c.RobustOptimum != -0.5 || c.RobustOptimumNote != "only the best known" {
				t.Errorf("wide: %+v, want the robust optimum -0.5 with its note", c)
			}
		case "plain":
			if c.RobustOptimum != nil || c.RecommendationRobust != nil || c.RobustOptimumNote != "" || c.Runs[0].RobustRegret != nil {
				t.Errorf("plain: %+v, want no robust regret", c)
			}
		}
	}
	// Without any problem with input noise there is no third table.
	var old strings.Builder
	WriteText(&old, cfg, []*Problem{plain})
	if strings.Contains(old.String(), "Robust") {
		t.Errorf("a study without input noise shows a robust table:\n%s", old.String())
	}
}

func TestStudyRobustErrors(t *testing.T) {
	for _, tt := range []struct{ output, want string }{
		{`garbage`, "reading the output"},
		{`{"x":[0.5],"exhaustive":true}`, `want {"x": [...], "robust": value, "exhaustive": bool}`},
		{`{"x":[],"robust":1,"exhaustive":true}`, `want {"x": [...], "robust": value`},
		{`{"x":[0.5],"robust":1}`, `want {"x": [...], "robust": value`},
	} {
		if _, _, err := parseRobustOptimum([]byte(tt.output)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("parseRobustOptimum(%s): error %v, want one containing %q", tt.output, err, tt.want)
		}
	}
	// A null robust value (the program could not compute it) fails the study.
	p := &Problem{path: "noisy.bo", name: "noisy", components: 1, robustReported: true, robustOptimum: 1, methods: []*method{{name: "ei"}}}
	p.methods[0].prepare([]int{2}, 1)
	if err := (trial{problem: p, method: p.methods[0], seed: 1}).record([]byte(robustTrace("null", "null")), []int{2}); err != nil {
		t.Fatal(err)
	}
	if err := p.robustRegrets(); err == nil || !strings.Contains(err.Error(), "no robust value") {
		t.Errorf("null robust value: error %v", err)
	}
	// A robust value beyond the robust optimum means the search missed it.
	v := 0.5
	if _, err := (&Problem{robustOptimum: 1, minimum: true}).robustRegret(&v); err == nil ||
		!strings.Contains(err.Error(), "robust value 0.5 is better than the robust optimum 1") {
		t.Errorf("robust value below the robust minimum: error %v", err)
	}
}

// TestJudgeRobust runs robust-optimum of a stand-in program, a shell script,
// once per problem whose programs reported robust values. A robust optimum
// that is only the best found gives way to a better recommendation's.
func TestJudgeRobust(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in program is a shell script")
	}
	dir := t.TempDir()
	script := func(name, output string) string {
		path := filepath.Join(dir, name)
		body := `[ "$*" = "robust-optimum --json" ] || { echo "unexpected arguments $*" >&2; exit 2; }` + "\necho '" + output + "'\n"
		if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
			t.Fatal(err)
		}
		return path
	}
	grid := script("grid", `{"x":[0.3],"robust":-0.01,"exhaustive":true}`)
	searched := script("searched", `{"x":[0.3,0.1,0.2],"robust":-0.01,"exhaustive":false}`)
	missed := script("missed", `{"x":[0.3,0.1,0.2],"robust":-0.5,"exhaustive":false}`)
	failing := filepath.Join(dir, "failing")
	if err := os.WriteFile(failing, []byte("#!/bin/sh\necho \"no robust value here\" >&2; exit 2\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	// problem is a maximisation whose one run recommends robust values -0.75
	// after the first evaluation and -0.25 after the second, and evaluates targets
	// of mean robust value -1 and -0.6, the best of which is bestEvaluated.
	problem := func(exe string, components int, reported bool, bestEvaluated float64) *Problem {
		p := &Problem{path: filepath.Join(dir, "p.bo"), name: "p", components: components, robustOptimum: math.NaN(),
			methods: []*method{{name: "ei", exe: exe}}}
		m := p.methods[0]
		m.prepare([]int{2}, 1)
		m.robustReported[0] = reported
		m.robustValue[0][0], m.robustValue[1][0] = -0.75, -0.25
		m.evaluatedRobust[0][0], m.evaluatedRobust[1][0] = -1, -0.6
		m.bestEvaluated[0] = bestEvaluated
		return p
	}
	tests := []struct {
		name        string
		p           *Problem
		wantOptimum float64 // NaN: not computed
		wantRegret  float64 // after the second evaluation
		wantNote    string  // a substring; "" for none
		wantErr     string
	}{
		{name: "grid search", p: problem(grid, 2, true, -0.3), wantOptimum: -0.01, wantRegret: 0.24},
		{name: "no input noise: nothing run", p: problem(failing, 1, false, math.NaN()), wantOptimum: math.NaN()},
		{name: "three components: the best found", p: problem(searched, 3, true, -0.3), wantOptimum: -0.01, wantRegret: 0.24,
			wantNote: "with 3 components, the best robust value of the domain is the best a multi-start local search found"},
		{name: "three components: a recommendation beats the search", p: problem(missed, 3, true, -0.3), wantOptimum: -0.25, wantRegret: 0,
			wantNote: "the robust regrets may be understated"},
		{name: "three components: an evaluated target beats the search", p: problem(missed, 3, true, -0.2), wantOptimum: -0.2, wantRegret: 0.05,
			wantNote: "the best of a recommendation or evaluated target of this study"},
		{name: "program fails", p: problem(failing, 1, true, -0.3), wantErr: "robust-optimum: exit status 2\nno robust value here"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr strings.Builder
			err := tt.p.judgeRobust(t.Context(), &stderr)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := tt.p.robustOptimum; got != tt.wantOptimum && !(math.IsNaN(got) && math.IsNaN(tt.wantOptimum)) {
				t.Errorf("robust optimum %v, want %v", got, tt.wantOptimum)
			}
			if !strings.Contains(tt.p.robustNote, tt.wantNote) || (tt.wantNote == "") != (tt.p.robustNote == "") {
				t.Errorf("note %q, want %q", tt.p.robustNote, tt.wantNote)
			}
			if tt.wantNote != "" && !strings.Contains(stderr.String(), "note: "+tt.p.robustNote) {
				t.Errorf("stderr lacks the note:\n%s", stderr.String())
			}
			if !math.IsNaN(tt.wantOptimum) && math.Abs(tt.p.methods[0].robust[1][0]-tt.wantRegret) > 1e-12 {
				t.Errorf("robust regret %v, want %v", tt.p.methods[0].robust[1][0], tt.wantRegret)
			}
		})
	}
}

// TestBestRobustValue: the best robust value of any recommendation, in the
// direction of optimisation, passing over NaN and skipped methods.
func TestBestRobustValue(t *testing.T) {
	newMethod := func(skipped string, values ...float64) *method {
		return &method{name: "m", skipped: skipped, robustValue: [][]float64{values}}
	}
	nan := math.NaN()
	tests := []struct {
		name      string
		minimum   bool
		methods   []*method
		want      float64
		wantFound bool
	}{
		{"maximum", false, []*method{newMethod("", -3, nan, -1), newMethod("", -2)}, -1, true},
		{"minimum", true, []*method{newMethod("", nan, -3, -1), newMethod("", -2)}, -3, true},
		{"skipped methods do not count", true, []*method{newMethod("no", -9), newMethod("", 4)}, 4, true},
		{"none known", true, []*method{newMethod("", nan), newMethod("no", 1)}, 0, false},
	}
	for _, tt := range tests {
		got, found := (&Problem{minimum: tt.minimum, methods: tt.methods}).bestRobustValue()
		if found != tt.wantFound || (found && got != tt.want) {
			t.Errorf("%s: %v, %v; want %v, %v", tt.name, got, found, tt.want, tt.wantFound)
		}
	}
}

// TestDefaultBudgets: the checkpoints of a study without --budgets are the
// quarters of the smallest file budget.
func TestDefaultBudgets(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, budget int) string {
		path := filepath.Join(dir, name)
		src := fmt.Sprintf("problem p\ndomain { x in [0, 1] }\nobjective minimize (x - 0.3)^2\nbudget %d\n", budget)
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	for _, tt := range []struct {
		paths []string
		want  []int
	}{
		{[]string{write("a.bo", 30)}, []int{8, 15, 23, 30}},
		{[]string{write("b.bo", 30), write("c.bo", 8)}, []int{2, 4, 6, 8}},
		{[]string{write("d.bo", 2)}, []int{1, 2}},
		{[]string{filepath.Join(dir, "missing.bo")}, []int{1}},
	} {
		if got := DefaultBudgets(tt.paths); !slices.Equal(got, tt.want) {
			t.Errorf("DefaultBudgets(%v) = %v, want %v", tt.paths, got, tt.want)
		}
	}
}

// TestStudyFiles: the problems of docs/quality.md check and have a known
// optimum, so that boc study can run them.
func TestStudyFiles(t *testing.T) {
	files, err := filepath.Glob("../bench/studies/*.bo")
	if err != nil || len(files) != 6 {
		t.Fatalf("study files %v, %v; want six", files, err)
	}
	for _, path := range files {
		u, err := driver.Load(path, driver.Options{})
		if err != nil || !u.OK() {
			t.Errorf("%s does not check: %v %v", path, err, u.Diagnostics)
			continue
		}
		if _, ok := knownOptimum(u.Program); !ok {
			t.Errorf("%s: no known optimum", path)
		}
	}
}

// TestCandidatesOptimum: on a finite decision set without a known optimum,
// f* is the best candidate, which every method (random search plays
// candidates too) can reach but never beat.
func TestCandidatesOptimum(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs programs")
	}
	path := filepath.Join(t.TempDir(), "draw.bo")
	src := "problem draw\ndomain { p[2] in [-1, 1] }\ncandidates uniform_ball(n = 12, radius = 1)\n" +
		"objective maximize gp_sample(p, 0.5, 2)\nbudget 12\ninit sobol(2)\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	problems, err := Run(t.Context(), []string{path}, Config{Seeds: 2, Budgets: []int{12}, Random: true, Optimum: math.NaN(), Jobs: 2}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	p := problems[0]
	if math.IsNaN(p.optimum) || math.IsInf(p.optimum, 0) {
		t.Fatalf("f* = %v", p.optimum)
	}
	// Twelve evaluations of twelve candidates visit every one: the best
	// observed point is the optimum, for the optimiser at least.
	for _, m := range p.methods {
		for s, r := range m.bestObserved[11] {
			if r < 0 || (m.name != randomMethod && r != 0) {
				t.Errorf("%s, seed %d: regret %v of the best observed candidate", m.name, s+1, r)
			}
		}
	}
}

// TestStudySafety judges canned output of a maximisation with a simulated
// constraint: the average regret of the evaluated points (negative where an
// unsafe point beats the safe optimum), the truly unsafe evaluations so far,
// and the tables that only safe problems have.
func TestStudySafety(t *testing.T) {
	budgets := []int{2, 3}
	step := func(value float64, unsafe int) string {
		return fmt.Sprintf(`{"value":%v,"recommendation":{"x":0},"recommendation_value":0.5,"best_observed_value":0.5,"violations":%d,"unsafe_evaluations":%d}`, value, unsafe, unsafe)
	}
	trace := func(steps ...string) string { return `{"trace":[` + strings.Join(steps, ",") + `]}` }
	p := &Problem{path: "safe.bo", name: "safe", optimum: 1, components: 1, robustOptimum: math.NaN(), methods: []*method{{name: "unsafe_ucb"}}}
	plain := &Problem{path: "plain.bo", name: "plain", optimum: 0, components: 1, robustOptimum: math.NaN(), methods: []*method{{name: "ei"}}}
	m := p.methods[0]
	m.prepare(budgets, 1)
	plain.methods[0].prepare(budgets, 1)
	// Regrets 0.5, -0.5 (an unsafe point beyond the safe optimum 1) and 1.
	if err := (trial{problem: p, method: m, seed: 1}).record([]byte(trace(step(0.5, 0), step(1.5, 1), step(0, 1))), budgets); err != nil {
		t.Fatal(err)
	}
	if err := (trial{problem: plain, method: plain.methods[0], seed: 1}).record([]byte(`{"trace":[{"value":-0.1,"recommendation_value":-0.1,"best_observed_value":-0.1}]}`), budgets); err != nil {
		t.Fatal(err)
	}
	// After each evaluation, not only at the budgets.
	if got, want := []float64{m.averageRegret[0][0], m.averageRegret[1][0], m.averageRegret[2][0]}, []float64{0.5, 0, 1.0 / 3}; !slices.EqualFunc(got, want, func(a, b float64) bool { return math.Abs(a-b) <= 1e-12 }) {
		t.Errorf("average regret %v, want %v", got, want)
	}
	if got := []float64{m.unsafe[0][0], m.unsafe[1][0], m.unsafe[2][0]}; !slices.Equal(got, []float64{0, 1, 1}) {
		t.Errorf("unsafe evaluations %v, want [0 1 1]", got)
	}
	var out bytes.Buffer
	WriteText(&out, Config{Seeds: 1, Budgets: budgets}, []*Problem{p, plain})
	text := out.String()
	for _, want := range []string{"Average regret of the evaluated points", "Unsafe evaluations so far"} {
		i := strings.Index(text, want)
		if i < 0 {
			t.Fatalf("no table %q:\n%s", want, text)
		}
		table := text[i:]
		if j := strings.Index(table[1:], "\n\n"); j >= 0 {
			table = table[:j+1]
		}
		if !strings.Contains(table, "safe") || strings.Contains(table, "plain") {
			t.Errorf("table %q lists the wrong problems:\n%s", want, table)
		}
	}
}

// TestDistance: the distance to the nearest known optimiser, over the
// benchmark call's variables in the call's order whatever the domain's; an
// input the benchmark does not use (Powell's fifth) does not count.
func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		domain, objective, point string
		want                     float64
	}{
		{"b in [0, 15]\n    a in [-5, 10]", "branin(a, b)", `{"b": 2.275, "a": 3.2}`, 3.2 - math.Pi},
		{"b in [0, 15]\n    a in [-5, 10]", "branin(a, b)", `{"b": 12.275, "a": -3}`, math.Pi - 3},
		{"x[5] in [-4, 5]", "powell(x)", `{"x": [0.3, 0, 0, -0.4, 4.5]}`, 0.5},
	} {
		src := fmt.Sprintf("problem p\ndomain {\n    %s\n}\nobjective minimize %s\nbudget 10\n", tc.domain, tc.objective)
		u := driver.Compile("p.bo", []byte(src), driver.Options{Dir: t.TempDir()})
		if !u.OK() {
			t.Fatalf("%s: %v", src, u.Diagnostics)
		}
		o, ok := knownOptimum(u.Program)
		if !ok {
			t.Fatalf("%s: no known optimum", tc.objective)
		}
		got, err := o.distance(json.RawMessage(tc.point))
		if err != nil || math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%s at %s: distance %v (%v), want %v", tc.objective, tc.point, got, err, tc.want)
		}
	}
}

// TestWritePlots draws a synthetic study: a problem without input noise
// whose second method was skipped, and one with input noise, whose robust
// regret after the first evaluation is unknown for one seed.
func TestWritePlots(t *testing.T) {
	cfg := Config{Seeds: 3, Budgets: []int{2, 4}}
	ran := func(name string, scale float64) *method {
		m := &method{name: name}
		m.prepare(cfg.Budgets, cfg.Seeds)
		for i := range m.recommendation {
			for s := range m.recommendation[i] {
				m.recommendation[i][s] = scale / float64(i+s+1)
				m.bestObserved[i][s] = scale / float64(i+s+2)
			}
		}
		m.robust, m.evaluated = m.recommendation, m.bestObserved
		return m
	}
	plain := &Problem{path: "a/plain.bo", name: "plain", methods: []*method{ran("ei", 1), {name: "ugp", skipped: "no input noise"}, ran("random", 2)}}
	noisy := &Problem{path: "a/noisy.bo", name: "noisy", robustReported: true, methods: []*method{ran("ei", 1)}}
	noisy.methods[0].robust = perRun[float64](4, 3)
	noisy.methods[0].robust[0][1] = math.NaN()
	dir := t.TempDir()
	files, err := WritePlots(dir, cfg, []*Problem{plain, noisy})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, strings.TrimPrefix(f, dir+string(filepath.Separator)))
		if info, err := os.Stat(f); err != nil || info.Size() == 0 {
			t.Errorf("%s: %v, %v", f, info, err)
		}
	}
	want := []string{"plain.svg", "plain.png", "plain_best_observed.svg", "plain_best_observed.png",
		"noisy.svg", "noisy.png", "noisy_best_observed.svg", "noisy_best_observed.png",
		"noisy_robust.svg", "noisy_robust.png", "noisy_robust_evaluated.svg", "noisy_robust_evaluated.png"}
	if !slices.Equal(names, want) {
		t.Errorf("files %q, want %q", names, want)
	}
	svg, err := os.ReadFile(filepath.Join(dir, "plain.svg"))
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{">plain<", ">ei<", ">random<", "regret of the recommendation (log scale)", "median over seeds 1..3"} {
		if !strings.Contains(string(svg), text) {
			t.Errorf("plain.svg lacks %q", text)
		}
	}
	if strings.Contains(string(svg), "ugp") {
		t.Error("plain.svg draws the skipped method")
	}
	// The robust regrets are 0 but where unknown: a linear axis.
	if svg, err := os.ReadFile(filepath.Join(dir, "noisy_robust.svg")); err != nil || strings.Contains(string(svg), "log scale") {
		t.Errorf("noisy_robust.svg: %v; a log scale for zero regrets", err)
	}

	twin := &Problem{path: "b/plain.bo", name: "plain", methods: []*method{ran("ei", 1)}}
	if _, err := WritePlots(dir, cfg, []*Problem{plain, twin}); err == nil || !strings.Contains(err.Error(), "a/plain.bo and b/plain.bo have the same name") {
		t.Errorf("two problems named alike: error %v", err)
	}
	if _, err := WritePlots(filepath.Join(dir, "plain.svg"), cfg, []*Problem{plain}); err == nil {
		t.Error("plots written into a file")
	}
}

// BenchmarkWritePlots draws a study of 10 methods over 200 evaluations and
// 10 seeds: the regret of the recommendation, of the best observed point and
// the distance to the optimiser, each as SVG and PNG.
func BenchmarkWritePlots(b *testing.B) {
	cfg := Config{Seeds: 10, Budgets: []int{50, 100, 200}}
	p := &Problem{path: "p.bo", name: "p", optimisers: &optimum{}}
	for k := range 10 {
		m := &method{name: fmt.Sprintf("method %d", k)}
		m.prepare(cfg.Budgets, cfg.Seeds)
		for i := range m.recommendation {
			for s := range m.recommendation[i] {
				m.recommendation[i][s] = math.Exp(-float64((i+1)*(k+1))/100) * float64(s+1)
				m.bestObserved[i][s] = m.recommendation[i][s] / 2
				m.distance[i][s] = m.recommendation[i][s] / 3
			}
		}
		p.methods = append(p.methods, m)
	}
	dir := b.TempDir()
	for b.Loop() {
		if files, err := WritePlots(dir, cfg, []*Problem{p}); err != nil || len(files) != 6 {
			b.Fatalf("%d files, %v", len(files), err)
		}
	}
}

// severalProblem is a small problem of two objectives with thresholds; the
// largest hypervolume above them is 0.5 (x in [0, 1]: f1 = x, f2 = 1 − x
// below (1, 1)).
const severalProblem = `problem duo

domain {
    x in [0, 1]
}

objective {
    minimize f1 = x <= 1
    minimize f2 = 1 - x <= 1
}

model gp(kernel = matern52(lengthscale = 0.5))
budget 8
init sobol(3)
seed 1
`

// TestStudySeveral: a study of several objectives gives the log10
// hypervolume gaps of the Pareto set and of the evaluated points, in
// tables of their own and JSON whose measure says so; it needs every
// threshold and the largest hypervolume.
func TestStudySeveral(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs programs")
	}
	path := filepath.Join(t.TempDir(), "duo.bo")
	if err := os.WriteFile(path, []byte(severalProblem), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := Config{Seeds: 2, Budgets: []int{3, 8}, Random: true, Optimum: 0.5}
	stdout, _ := runStudy(t, path, cfg, tables(WriteText))
	for _, want := range []string{"Hypervolume gap of the Pareto set", "Hypervolume gap of the evaluated points", "log10(HVmax − HV)"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("no %q in the tables:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "Regret of") {
		t.Errorf("a problem of several objectives in a table of one:\n%s", stdout)
	}
	stdout, _ = runStudy(t, path, cfg, WriteJSON)
	var got studyJSON
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	for _, c := range got.Results {
		// Evenly spread points of the segment leave a gap of 1/(2(n+1))
		// or so: log10 about −1.2 after 8, never above log10(0.5).
		if c.Measure != "log10 hypervolume gap" || len(c.BestObserved) != 2 || !(c.BestObserved[1].Median <= math.Log10(0.5)) ||
			c.BestObserved[1].Median > c.BestObserved[0].Median {
			t.Errorf("%s: measure %q gaps %+v", c.Method, c.Measure, c.BestObserved)
		}
	}
	for _, tc := range []struct {
		src, optimum, want string
	}{
		{strings.Replace(severalProblem, "1 - x <= 1", "1 - x", 1), "0.5", "objective f2 has no threshold"},
		{severalProblem, "", "needs --optimum HVmax"},
	} {
		if err := os.WriteFile(path, []byte(tc.src), 0o644); err != nil {
			t.Fatal(err)
		}
		c := Config{Seeds: 1, Budgets: []int{4}, Optimum: math.NaN(), Jobs: 1}
		if tc.optimum != "" {
			c.Optimum = 0.5
		}
		if _, err := Run(t.Context(), []string{path}, c, io.Discard); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v", tc.want, err)
		}
	}
}

// TestRecordSeveral: a trace of several objectives gives, per evaluation,
// the log10 gap of the Pareto set's hypervolume and of the evaluated
// points', those that truly break a simulated requirement left out.
func TestRecordSeveral(t *testing.T) {
	budgets := []int{2, 3}
	p := &Problem{path: "p.bo", name: "p", optimum: 1, robustOptimum: math.NaN(), methods: []*method{{name: "ehvi"}},
		several: &severalObjectives{maximize: []bool{false, true}, reference: []float64{1, 0}, names: []string{"a", "b"},
			requirements: []*ir.Constraint{{Name: "c", Outcome: true, Threshold: 0.5}}}}
	m := p.methods[0]
	m.prepare(budgets, 1)
	out := `{"trace":[` +
		`{"true_objectives":{"a":0.5,"b":0.5},"true_constraints":{"c":0.2},"true_hypervolume":0.25},` +
		`{"true_objectives":{"a":0,"b":1},"true_constraints":{"c":0.9},"true_hypervolume":0.25}]}`
	if err := (trial{problem: p, method: m, seed: 1}).record([]byte(out), budgets); err != nil {
		t.Fatal(err)
	}
	gap := math.Log10(0.75) // 1 − 0.25: the second point breaks c
	for i, row := range m.bestObserved {
		if math.Abs(row[0]-gap) > 1e-12 || math.Abs(m.recommendation[i][0]-gap) > 1e-12 {
			t.Errorf("after %d evaluations: gaps %v and %v, want %v", i+1, m.recommendation[i][0], row[0], gap)
		}
	}
	for _, r := range studyRegrets {
		if r.lists(p) && !p.chart(Config{Seeds: 1, Budgets: budgets}, r).Linear {
			t.Errorf("%s: a log10 gap drawn on a log axis", r.title)
		}
	}
	beyond := `{"trace":[{"true_objectives":{"a":0,"b":1},"true_constraints":{"c":0},"true_hypervolume":2}]}`
	if err := (trial{problem: p, method: m, seed: 1}).record([]byte(beyond), budgets); err == nil || !strings.Contains(err.Error(), "beyond the --optimum") {
		t.Errorf("a hypervolume beyond the optimum: %v", err)
	}
}
