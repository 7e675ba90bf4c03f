package study

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/bocdev/boc/driver"
	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ast"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/internal/proc"
	"github.com/bocdev/boc/runtime/bench"
)

// Config is what a study compares and how.
type Config struct {
	Seeds        int      // seeds 1..Seeds
	Budgets      []int    // report the regrets after these numbers of evaluations, increasing
	Models       []string // the models compared; none: the file's
	Acquisitions []string // the acquisitions compared; none: the file's
	Random       bool     // add random search
	Optimum      float64  // f* of objectives that are not a benchmark call; NaN: not given
	Jobs         int      // programs run at once
}

// A CompileError is a file, or a variant of it, that does not compile, with
// the diagnostics that say why.
type CompileError struct {
	Unit        *driver.Unit
	Diagnostics dsl.Diagnostics
}

func (e *CompileError) Error() string { return e.Unit.Path + " does not compile" }

// A BuildError is a variant's program that did not build (Err is the
// driver's).
type BuildError struct {
	Unit *driver.Unit
	Err  error
}

func (e *BuildError) Error() string {
	return "building the program for " + e.Unit.Path + ": " + e.Err.Error()
}
func (e *BuildError) Unwrap() error { return e.Err }

// randomMethod names random search among the methods.
const randomMethod = "random"

// DefaultBudgets are the checkpoints of a study without --budgets: a
// quarter, half, three quarters and all of the smallest budget of the files,
// so that every file reaches every column. Files that do not compile count
// for nothing here; the study reports their errors.
func DefaultBudgets(paths []string) []int {
	smallest := 0
	for _, path := range paths {
		if u, err := driver.Load(path, driver.Options{}); err == nil && u.OK() && (smallest == 0 || u.Program.Budget < smallest) {
			smallest = u.Program.Budget
		}
	}
	var out []int
	for _, quarter := range []int{1, 2, 3, 4} {
		n := max(1, (smallest*quarter+3)/4)
		if len(out) == 0 || n > out[len(out)-1] {
			out = append(out, n)
		}
	}
	return out
}

// ParseBudgets reads a comma-separated increasing list of positive numbers.
func ParseBudgets(s string) ([]int, error) {
	var out []int
	for _, field := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(field))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%q is not a positive number of evaluations", field)
		}
		if len(out) > 0 && n <= out[len(out)-1] {
			return nil, fmt.Errorf("budgets must increase, got %d after %d", n, out[len(out)-1])
		}
		out = append(out, n)
	}
	return out, nil
}

// SplitCalls splits a comma-separated list of plugin calls at the commas
// outside parentheses and brackets: "ei,ucb(beta = 2, x = [1, 2])" is two.
func SplitCalls(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case '\n':
			return nil, errors.New("a call must fit on one line")
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
		if depth < 0 {
			return nil, fmt.Errorf("unbalanced brackets in %q", s)
		}
	}
	if depth != 0 {
		return nil, fmt.Errorf("unbalanced brackets in %q", s)
	}
	out = append(out, strings.TrimSpace(s[start:]))
	if slices.Contains(out, "") {
		return nil, fmt.Errorf("empty call in %q", s)
	}
	return out, nil
}

// Problem is one .bo file of a study and its methods.
type Problem struct {
	path    string
	name    string  // the file's base name without .bo
	optimum float64 // f*
	minimum bool    // f* is a minimum (regret = f - f*), else a maximum
	// noOptimum says f* is unknown: the tables then compare noise-free
	// values, not regrets.
	noOptimum bool
	budget    int // the compiled budget
	methods   []*method
	// optimisers, for a benchmark with known optimisers, gives the distance
	// of a point to the nearest; nil otherwise.
	optimisers *optimum
	// components is the number of components of a point of the domain.
	components int
	// robustReported says the programs report the robust value of the
	// recommendation (input noise); robustOptimum is then the best robust
	// value of the domain, and robustNote, if not empty, says why it is only
	// the best known.
	robustReported bool
	robustOptimum  float64
	robustNote     string
	// several, for a problem with several objectives, describes them; its
	// optimum is then the largest hypervolume (pareto.go).
	several *severalObjectives
}

// method is one way of optimising a problem: a model and acquisition, or
// random search. exe is the program that runs it; skipped, if not empty, says
// why it cannot.
type method struct {
	name    string
	exe     string
	random  bool
	skipped string
	// The tables below hold one value per evaluation and seed: t[i][s] is
	// the value after i+1 evaluations with seed s+1, up to the study's last
	// budget, for the tables at the budgets and the plots of every evaluation.
	//
	// recommendation is the regret of the recommendation, bestObserved that
	// of the best observed point, and distance the recommendation's distance
	// to the nearest known optimiser (Problem.optimisers).
	recommendation, bestObserved, distance [][]float64
	// recommended[k][s] is the recommended point itself after budgets[k]
	// evaluations, as the program's trace wrote it: only the budgets' are kept.
	recommended [][]json.RawMessage
	// robustValue is the robust value of the recommendation (NaN when the
	// program reported null), robustReported[s] whether the run with seed s+1
	// reported robust values at all, and robust the robust regrets, once the
	// robust optimum is known.
	robustValue    [][]float64
	robustReported []bool
	robust         [][]float64
	// evaluatedRobust is the mean robust value of the targets evaluated so
	// far (NaN when one is unknown), bestEvaluated[s] the best robust value of
	// any of them, and evaluated the regrets of those means, once the robust
	// optimum is known.
	evaluatedRobust [][]float64
	bestEvaluated   []float64
	evaluated       [][]float64
	// averageRegret is the mean regret of the points evaluated so far (the
	// SGP-UCB paper's measure: cumulative regret over the rounds); unsafe the
	// number of them whose simulated constraints were truly broken, and
	// safetyReported[s] whether the run reported constraints at all.
	averageRegret, unsafe [][]float64
	// unsafeReported[s] says it counted truly unsafe evaluations
	// (simulated constraints).
	safetyReported, unsafeReported []bool
	// infeasible is 1 where the run had no recommendation, or one that
	// truly breaks a simulated requirement (outcome constraint), else 0; the
	// recommendation's regret and distance are NaN there, left out of the
	// quartiles. requiresReported[s] says the run judged its
	// recommendations so (it has simulated requirements).
	infeasible       [][]float64
	requiresReported []bool
	// evaluations[s] is the number of evaluations the run with seed s+1 made:
	// fewer than the last budget when it stopped early (a `stop when`, or every
	// reachable point evaluated), and then its last values stand for the
	// evaluations it did not make.
	evaluations []int
}

// Run builds every problem's methods and runs them for every seed. It
// writes its progress, and the files' warnings, to log. A file that does
// not compile is a *CompileError, a program that does not build a
// *BuildError.
func Run(ctx context.Context, paths []string, cfg Config, log io.Writer) ([]*Problem, error) {
	tmp, err := os.MkdirTemp("", "boc-study-*")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	var problems []*Problem
	for i, path := range paths {
		p, err := prepareProblem(ctx, log, path, cfg, filepath.Join(tmp, strconv.Itoa(i)))
		if err != nil {
			return nil, err
		}
		problems = append(problems, p)
	}
	if err := runSeeds(ctx, problems, cfg); err != nil {
		return nil, err
	}
	for _, p := range problems {
		if err := p.judgeRobust(ctx, log); err != nil {
			return nil, err
		}
	}
	return problems, nil
}

// prepareProblem compiles the file at path, finds f* and builds one program
// per variant (model and acquisition) into dir.
func prepareProblem(ctx context.Context, log io.Writer, path string, cfg Config, dir string) (*Problem, error) {
	u, err := driver.Load(path, driver.Options{})
	if err != nil {
		return nil, err
	}
	if !u.OK() {
		return nil, &CompileError{Unit: u, Diagnostics: u.Diagnostics}
	}
	u.Diagnostics.Render(log, u.Source)
	p := &Problem{path: path, name: strings.TrimSuffix(filepath.Base(path), ".bo"), budget: u.Program.Budget,
		minimum: !u.Program.Objective.Maximize, components: u.Program.D, robustOptimum: math.NaN()}
	if u.Program.Objective.Binding.Kind != ir.ExprBinding {
		return nil, fmt.Errorf("%s: the objective is not an expression, so its noise-free values are unknown and boc study cannot judge them", path)
	}
	if last := cfg.Budgets[len(cfg.Budgets)-1]; last > p.budget {
		return nil, fmt.Errorf("%s: --budgets goes up to %d, beyond the file's budget %d", path, last, p.budget)
	}
	// A finite decision set's optimum is asked of a built program below.
	fromCandidates := false
	switch known, ok := knownOptimum(u.Program); {
	case u.Program.Objective.Outputs != nil:
		if err := p.prepareSeveral(u.Program, cfg); err != nil {
			return nil, err
		}
	case ok:
		p.optimum, p.optimisers = known.f, &known
	case !math.IsNaN(cfg.Optimum):
		p.optimum = cfg.Optimum
	case u.Program.Candidates != nil:
		fromCandidates = true
	default:
		p.optimum, p.noOptimum = math.NaN(), true
		fmt.Fprintf(log, "boc study: %s: note: the optimum is unknown (the objective is not a single benchmark call over the domain), so the methods are compared by noise-free value; a regret needs --optimum\n", path)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	for i, v := range studyVariants(cfg.Models, cfg.Acquisitions, ownAcquisition(u)) {
		m := &method{name: v.name, exe: filepath.Join(dir, strconv.Itoa(i)+driver.ExeSuffix())}
		if err := buildMethod(ctx, log, u, v, m); err != nil {
			return nil, err
		}
		p.methods = append(p.methods, m)
	}
	if cfg.Random {
		r := &method{name: randomMethod, random: true, exe: filepath.Join(dir, "random"+driver.ExeSuffix())}
		if err := buildRandom(ctx, log, u, r); err != nil {
			return nil, err
		}
		p.methods = append(p.methods, r)
	}
	if fromCandidates {
		if err := p.candidatesOptimum(ctx); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// candidatesOptimum sets f* to the best value over the finite decision set,
// which any built program of the problem reports (its optimum command).
func (p *Problem) candidatesOptimum(ctx context.Context) error {
	for _, m := range p.methods {
		if m.skipped != "" {
			continue
		}
		cmd := exec.CommandContext(ctx, m.exe, "optimum", "--json")
		proc.EndWithParent(cmd)
		out, err := cmd.Output()
		if err != nil {
			return fmt.Errorf("%s: finding the optimum of the candidates: %w", p.path, err)
		}
		var res struct{ Value *float64 }
		if err := json.Unmarshal(out, &res); err != nil || res.Value == nil {
			return fmt.Errorf("%s: finding the optimum of the candidates: unexpected output %q", p.path, out)
		}
		p.optimum = *res.Value
		return nil
	}
	return fmt.Errorf("%s: no program of this file could be built to find the optimum of its candidates", p.path)
}

// ownAcquisition is the file's acquisition as written, or the name of the
// default one when the file has none.
func ownAcquisition(u *driver.Unit) string {
	if s := pluginStmt(u.Tree, "acquisition"); s != nil {
		return string(u.Source[s.Call.Span().Start.Offset:s.Call.Span().End.Offset])
	}
	return strings.TrimPrefix(u.Program.Acquisition.Plugin, "acquisition.")
}

// pluginStmt returns f's plugin statement with the keyword ("model",
// "acquisition"), nil when it has none.
func pluginStmt(f *ast.File, keyword string) *ast.PluginStmt {
	for _, s := range f.Stmts {
		if p, ok := s.(*ast.PluginStmt); ok && p.Keyword == keyword {
			return p
		}
	}
	return nil
}

// statement is a plugin statement, `keyword call`.
type statement struct{ keyword, call string }

// studyVariant is one program a study builds of a file: the file with
// statements in place of its own, and the method's name.
type studyVariant struct {
	name       string
	statements []statement
}

// studyVariants returns the variants of a file that a study compares: every
// model with every acquisition, where an empty list stands for the file's own
// statement. A variant is named "MODEL / ACQ" when both lists are given, else
// by the statement that varies, and by the file's acquisition when neither
// does.
func studyVariants(models, acquisitions []string, ownAcquisition string) []studyVariant {
	if len(models) == 0 && len(acquisitions) == 0 {
		return []studyVariant{{name: ownAcquisition}}
	}
	own := []string{""} // keep the file's statement
	if len(models) == 0 {
		models = own
	}
	if len(acquisitions) == 0 {
		acquisitions = own
	}
	var out []studyVariant
	for _, model := range models {
		for _, acq := range acquisitions {
			var v studyVariant
			if model != "" {
				v.statements = append(v.statements, statement{"model", model})
			}
			if acq != "" {
				v.statements = append(v.statements, statement{"acquisition", acq})
			}
			v.name = cmp.Or(model, acq)
			if model != "" && acq != "" {
				v.name = model + " / " + acq
			}
			out = append(out, v)
		}
	}
	return out
}

// withStatements returns u's source with each statement in place of the
// file's statement with its keyword, or appended when the file has none.
// Working on the text keeps every check of the language, lets included, and
// the diagnostics point at the line that was compiled.
func withStatements(u *driver.Unit, stmts ...statement) []byte {
	type edit struct {
		start, end int
		text       string
	}
	var edits []edit
	var added []string
	for _, st := range stmts {
		text := st.keyword + " " + st.call
		if s := pluginStmt(u.Tree, st.keyword); s != nil {
			edits = append(edits, edit{s.Span().Start.Offset, s.Span().End.Offset, text})
		} else {
			added = append(added, text)
		}
	}
	slices.SortFunc(edits, func(a, b edit) int { return a.start - b.start })
	var out []byte
	at := 0
	for _, ed := range edits {
		out = append(append(out, u.Source[at:ed.start]...), ed.text...)
		at = ed.end
	}
	out = append(out, u.Source[at:]...)
	for _, text := range added {
		out = fmt.Appendf(out, "\n%s\n", text)
	}
	return out
}

// buildMethod compiles the variant v of u and builds its program into m.exe.
// A variant whose statements are wrong (a misspelt model) is an error; one
// whose statements are right but that the file cannot use (ugp without
// input noise) is a skipped method, with the first error as the reason.
func buildMethod(ctx context.Context, log io.Writer, u *driver.Unit, v studyVariant, m *method) error {
	src := withStatements(u, v.statements...)
	variant := driver.Compile(u.Path, src, driver.Options{Dir: u.Dir()})
	out, _ := variant.Generate(driver.ProgramOptions)
	if out == nil {
		if alone := driver.Compile(u.Path, src, driver.Options{Dir: u.Dir(), StatementsOnly: true}); alone.Diagnostics.HasErrors() {
			return &CompileError{Unit: alone, Diagnostics: alone.Diagnostics.Errors()}
		}
		m.skipped = "it does not compile"
		if errs := variant.Diagnostics.Errors(); len(errs) > 0 {
			m.skipped = errs[0].Message
		}
		fmt.Fprintf(log, "boc study: %s with %s: skipped: %s\n", u.Path, v.name, m.skipped)
		return nil
	}
	fmt.Fprintf(log, "boc study: building %s with %s\n", u.Path, v.name)
	if err := variant.Build(ctx, out, m.exe); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return &BuildError{Unit: variant, Err: err}
	}
	return nil
}

// randomModel is the model that judges random search in every study: its
// points are uniform draws whatever the file's model and acquisition, and
// its recommendation, the best posterior mean, is taken under boc's default
// model, so that the random column of a problem is the same in every study
// of it, whichever model the file names.
const randomModel = "gp"

// buildRandom builds the program of random search into r.exe: the file with
// the default model and its own acquisition, or ei when that acquisition
// needs another model (an acquisition over input distributions).
func buildRandom(ctx context.Context, log io.Writer, u *driver.Unit, r *method) error {
	v := studyVariant{name: randomMethod, statements: []statement{{"model", randomModel}}}
	variant := driver.Compile(u.Path, withStatements(u, v.statements...), driver.Options{Dir: u.Dir()})
	if out, _ := variant.Generate(driver.ProgramOptions); out == nil {
		v.statements = append(v.statements, statement{"acquisition", "ei"})
	}
	return buildMethod(ctx, log, u, v, r)
}

// optimum is a benchmark's known optimum on a file's domain: its value, its
// optimisers inside the domain, and the benchmark call's arguments, the
// domain variables whose values, in this order, make a point of the
// benchmark.
type optimum struct {
	f          float64
	optimisers [][]float64
	args       []*ir.Dim
}

// knownOptimum returns f* and the optimisers when the objective is one
// benchmark call whose arguments are whole domain variables, in the
// benchmark's sense (minimise or maximise), with a known optimiser inside
// the domain.
func knownOptimum(p *ir.Program) (optimum, bool) {
	call, ok := p.Objective.Binding.Expr.(*ir.CallExpr)
	if !ok {
		return optimum{}, false
	}
	name, ok := strings.CutPrefix(call.Plugin, "benchmark.")
	if !ok {
		return optimum{}, false
	}
	var out optimum
	var lo, hi []float64
	for _, arg := range call.Args {
		v, ok := arg.(*ir.VarExpr)
		if !ok {
			return optimum{}, false
		}
		out.args = append(out.args, v.Dim)
		for range v.Dim.Size {
			lo, hi = append(lo, v.Dim.Lo), append(hi, v.Dim.Hi)
		}
	}
	opt, ok := bench.Known(name, len(lo))
	if !ok || opt.Maximize != p.Objective.Maximize {
		return optimum{}, false
	}
	for _, x := range opt.X {
		inside := true
		for i, v := range x {
			inside = inside && (math.IsNaN(v) || lo[i] <= v && v <= hi[i]) // NaN: an unused input
		}
		if inside {
			out.optimisers = append(out.optimisers, x)
		}
	}
	out.f = opt.F
	return out, len(out.optimisers) > 0
}

// distance is the Euclidean distance, in the domain's units, from a point
// as a program's trace writes it (an object from dimension names to values,
// arrays for vectors) to the nearest known optimiser; inputs the benchmark
// does not use (Powell's beyond its last block of four) do not count.
func (o optimum) distance(point json.RawMessage) (float64, error) {
	var byName map[string]json.RawMessage
	if err := json.Unmarshal(point, &byName); err != nil {
		return 0, fmt.Errorf("reading the point %s: %v", point, err)
	}
	var x []float64
	for _, d := range o.args {
		values := make([]float64, 1, d.Size)
		var err error
		if d.Vector {
			err = json.Unmarshal(byName[d.Name], &values)
		} else {
			err = json.Unmarshal(byName[d.Name], &values[0])
		}
		if err != nil || len(values) != d.Size {
			return 0, fmt.Errorf("the point %s has no value of %s", point, d.Name)
		}
		x = append(x, values...)
	}
	nearest := math.Inf(1)
	for _, opt := range o.optimisers {
		ss := 0.0
		for i, v := range opt {
			if !math.IsNaN(v) { // an unused input is optimal where it is
				ss += (x[i] - v) * (x[i] - v)
			}
		}
		nearest = min(nearest, math.Sqrt(ss))
	}
	return nearest, nil
}

// trial is one program run of a study.
type trial struct {
	problem *Problem
	method  *method
	seed    int
}

// runSeeds runs every method of every problem for seeds 1..cfg.Seeds, up to
// cfg.Jobs at once, and fills in the regrets.
func runSeeds(ctx context.Context, problems []*Problem, cfg Config) error {
	var runs []trial
	for _, p := range problems {
		for _, m := range p.methods {
			if m.skipped != "" {
				continue
			}
			m.prepare(cfg.Budgets, cfg.Seeds)
			for seed := 1; seed <= cfg.Seeds; seed++ {
				runs = append(runs, trial{p, m, seed})
			}
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	work := make(chan int)
	errs := make([]error, len(runs))
	var wg sync.WaitGroup
	for range min(cfg.Jobs, len(runs)) {
		wg.Go(func() {
			for i := range work {
				if errs[i] = runs[i].run(ctx, cfg.Budgets); errs[i] != nil {
					cancel() // the study fails: stop starting runs
				}
			}
		})
	}
	for i := range runs {
		if ctx.Err() != nil {
			break
		}
		work <- i
	}
	close(work)
	wg.Wait()
	// Report the failure that cancelled the others, not their cancellation.
	for _, err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) {
			return err
		}
	}
	return ctx.Err()
}

// prepare allocates the tables a method's runs fill in: per evaluation up
// to the last budget, and the recommended points per budget.
func (m *method) prepare(budgets []int, seeds int) {
	for _, t := range m.perEvaluation() {
		*t = perRun[float64](budgets[len(budgets)-1], seeds)
	}
	m.recommended = perRun[json.RawMessage](len(budgets), seeds)
	m.robustReported, m.bestEvaluated = make([]bool, seeds), slices.Repeat([]float64{math.NaN()}, seeds)
	m.evaluations = make([]int, seeds)
	m.safetyReported, m.unsafeReported = make([]bool, seeds), make([]bool, seeds)
	m.requiresReported = make([]bool, seeds)
}

// perEvaluation returns the tables a run fills in evaluation by evaluation.
func (m *method) perEvaluation() []*[][]float64 {
	return []*[][]float64{&m.recommendation, &m.bestObserved, &m.distance, &m.robustValue, &m.evaluatedRobust, &m.averageRegret, &m.unsafe, &m.infeasible}
}

// perRun makes a table of one value per row (an evaluation or a budget) and
// seed.
func perRun[T any](rows, seeds int) [][]T {
	t := make([][]T, rows)
	for i := range t {
		t[i] = make([]T, seeds)
	}
	return t
}
