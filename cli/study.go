package cli

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/bocdev/boc/driver"
	"github.com/bocdev/boc/dsl/ast"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/runtime/bench"
)

var studyCommand = &command{
	name:    "study",
	args:    "FILE.bo... [--seeds N] [--budgets B,...] [--model M,...] [--acquisition A,...] [--random] [--optimum F] [--json|--markdown]",
	summary: "compare acquisitions and random search, and models, over many seeds",
	doc: `Study measures how well the optimiser of each FILE.bo does. For every
model in --model and every acquisition in --acquisition (default: the file's
own) it builds the file with that model and acquisition in place of its own,
and runs the program with seeds 1..N (--seeds), as many at once as --jobs.
A method is named by its model and acquisition, "MODEL / ACQ", when both lists
are given, else by the one that varies. --random adds random search: the same
program evaluating uniformly random points of the domain.

It reports, for each file, method and budget in --budgets (by default a
quarter, half, three quarters and all of the smallest file budget), the median and
quartiles over the seeds of two regrets: that of the recommendation (the
evaluated point with the best posterior mean) and that of the best observed
point, each the noise-free objective there minus the optimum f*, sign-adjusted
so that regret >= 0. Programs simulate a declared observation noise on
expression objectives, so noisy problems are judged on the noise-free function.

With input noise (the query x lands at x + ε), programs also report the robust
value of the recommendation, the mean of the noise-free objective over ε, and a
third table shows its robust regret: the best robust value of the domain,
found once per file by the program's robust-optimum command, minus the
recommendation's. A fourth table averages the robust regret over the targets
evaluated so far, the measure of Oliveira et al.'s figures: it shows how much
a run loses while it learns, not only where it ends. The search for the best
robust value is a grid for domains of 1 or 2 components; for larger ones it
is a multi-start local search, whose result is only the best found, so the
study takes the better of it and the best robust value of any recommendation
or evaluated target of the study, and notes that the robust regrets may be
understated.

--json adds each seed's run to the quartiles: after each budget, the
recommended point and its regrets, to see where the runs settle.

f* is the known optimum when the objective is a single benchmark call over the
domain's variables (branin(x1, x2), hartmann6(p)); otherwise give --optimum.
A model or acquisition that does not compile with the file (ugp without
input noise, say) is reported as skipped, with the reason. The
objective must be an expression: boc knows no noise-free value of a Go or exec
objective.`,
	nargs: -1,
	flags: func(fs *flag.FlagSet) func(*env, []string) int {
		seeds := fs.Int("seeds", 10, "run seeds 1..`N`")
		budgets := fs.String("budgets", "", "report the regrets after these numbers of evaluations `B,...` (default: a quarter, half, three quarters and all of the smallest file budget)")
		models := fs.String("model", "", "compare these models `M,...`, e.g. gp,mmd(samples = 16) (default: the file's)")
		acquisitions := fs.String("acquisition", "", "compare these acquisitions `A,...`, e.g. ei,ucb(beta = 2) (default: the file's)")
		random := fs.Bool("random", false, "add random search as a method")
		optimum := fs.Float64("optimum", math.NaN(), "the optimal value `F` of objectives that are not a single benchmark call")
		jobs := fs.Int("jobs", runtime.GOMAXPROCS(0), "run `N` programs at once")
		asJSON := fs.Bool("json", false, "print the results as one JSON object")
		markdown := fs.Bool("markdown", false, "print the results as Markdown tables")
		return func(e *env, args []string) int {
			cfg := studyConfig{seeds: *seeds, random: *random, optimum: *optimum, jobs: *jobs}
			switch {
			case len(args) == 0:
				return e.usageError("missing FILE.bo")
			case *seeds < 1:
				return e.usageError("--seeds must be at least 1")
			case *jobs < 1:
				return e.usageError("--jobs must be at least 1")
			case *asJSON && *markdown:
				return e.usageError("--json and --markdown exclude each other")
			}
			var err error
			if *budgets == "" {
				cfg.budgets = defaultBudgets(args)
			} else if cfg.budgets, err = parseBudgets(*budgets); err != nil {
				return e.usageError("--budgets: %v", err)
			}
			if cfg.models, err = splitCalls(*models); err != nil {
				return e.usageError("--model: %v", err)
			}
			if cfg.acquisitions, err = splitCalls(*acquisitions); err != nil {
				return e.usageError("--acquisition: %v", err)
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
			defer stop()
			results, code := runStudy(ctx, e, args, cfg)
			if code != exitOK {
				return code
			}
			switch {
			case *asJSON:
				err = writeStudyJSON(e.stdout, cfg, results)
			case *markdown:
				writeStudyMarkdown(e.stdout, cfg, results)
			default:
				writeStudyText(e.stdout, cfg, results)
			}
			if err != nil {
				return e.failf("%v", err)
			}
			return exitOK
		}
	},
}

// studyConfig is what boc study was asked to do.
type studyConfig struct {
	seeds        int
	budgets      []int // increasing
	models       []string
	acquisitions []string
	random       bool
	optimum      float64 // NaN: not given
	jobs         int
}

// randomMethod names random search among the methods.
const randomMethod = "random"

// defaultBudgets are the checkpoints of a study without --budgets: a
// quarter, half, three quarters and all of the smallest budget of the files,
// so that every file reaches every column. Files that do not compile count
// for nothing here; the study reports their errors.
func defaultBudgets(paths []string) []int {
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

// parseBudgets reads a comma-separated increasing list of positive numbers.
func parseBudgets(s string) ([]int, error) {
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

// splitCalls splits a comma-separated list of plugin calls at the commas
// outside parentheses and brackets: "ei,ucb(beta = 2, x = [1, 2])" is two.
func splitCalls(s string) ([]string, error) {
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

// studyProblem is one .bo file of a study and its methods.
type studyProblem struct {
	path    string
	name    string  // the file's base name without .bo
	optimum float64 // f*
	minimum bool    // f* is a minimum (regret = f - f*), else a maximum
	budget  int     // the compiled budget
	methods []*studyMethod
	// components is the number of components of a point of the domain.
	components int
	// robustReported says the programs report the robust value of the
	// recommendation (input noise); robustOptimum is then the best robust
	// value of the domain, and robustNote, if not empty, says why it is only
	// the best known.
	robustReported bool
	robustOptimum  float64
	robustNote     string
}

// studyMethod is one way of optimising a problem: a model and acquisition, or
// random search. exe is the program that runs it; skipped, if not empty, says
// why it cannot.
type studyMethod struct {
	name    string
	exe     string
	random  bool
	skipped string
	// recommendation[k][s] is the regret of the recommendation after
	// budgets[k] evaluations with seed s+1; bestObserved that of the best
	// observed point.
	recommendation, bestObserved [][]float64
	// recommended[k][s] is the recommended point itself, as the program's
	// trace wrote it.
	recommended [][]json.RawMessage
	// robustValue[k][s] is the robust value of the recommendation after
	// budgets[k] evaluations with seed s+1 (NaN when the program reported
	// null), robustReported[s] whether that run reported robust values at all,
	// and robust the robust regrets, once the robust optimum is known.
	robustValue    [][]float64
	robustReported []bool
	robust         [][]float64
	// evaluatedRobust[k][s] is the mean robust value of the targets evaluated
	// in the first budgets[k] evaluations with seed s+1 (NaN when one is
	// unknown), bestEvaluated[s] the best robust value of any of them, and
	// evaluated the regrets of those means, once the robust optimum is known.
	evaluatedRobust [][]float64
	bestEvaluated   []float64
	evaluated       [][]float64
	// evaluations[s] is the number of evaluations the run with seed s+1 made:
	// fewer than the last budget when it stopped early (a `stop when`, or every
	// reachable point evaluated), and then its last values stand for the
	// budgets it did not reach.
	evaluations []int
}

// runStudy builds every problem's methods and runs them for every seed.
func runStudy(ctx context.Context, e *env, paths []string, cfg studyConfig) ([]*studyProblem, int) {
	tmp, err := os.MkdirTemp("", "boc-study-*")
	if err != nil {
		return nil, e.failf("%v", err)
	}
	defer os.RemoveAll(tmp)
	var problems []*studyProblem
	for i, path := range paths {
		p, code := prepareProblem(ctx, e, path, cfg, filepath.Join(tmp, strconv.Itoa(i)))
		if code != exitOK {
			return nil, code
		}
		problems = append(problems, p)
	}
	if err := runSeeds(ctx, problems, cfg); err != nil {
		return nil, e.failf("%v", err)
	}
	for _, p := range problems {
		if err := p.judgeRobust(ctx, e); err != nil {
			return nil, e.failf("%v", err)
		}
	}
	return problems, exitOK
}

// prepareProblem compiles the file at path, finds f* and builds one program
// per variant (model and acquisition) into dir.
func prepareProblem(ctx context.Context, e *env, path string, cfg studyConfig, dir string) (*studyProblem, int) {
	u, ok := compile(e, path)
	if !ok {
		return nil, exitFail
	}
	p := &studyProblem{path: path, name: strings.TrimSuffix(filepath.Base(path), ".bo"), budget: u.Program.Budget,
		minimum: !u.Program.Objective.Maximize, components: u.Program.D, robustOptimum: math.NaN()}
	if u.Program.Objective.Binding.Kind != ir.ExprBinding {
		return nil, e.failf("%s: the objective is not an expression, so its noise-free values are unknown and boc study cannot judge them", path)
	}
	if last := cfg.budgets[len(cfg.budgets)-1]; last > p.budget {
		return nil, e.failf("%s: --budgets goes up to %d, beyond the file's budget %d", path, last, p.budget)
	}
	switch known, ok := knownOptimum(u.Program); {
	case ok:
		p.optimum = known
	case !math.IsNaN(cfg.optimum):
		p.optimum = cfg.optimum
	default:
		return nil, e.failf("%s: the optimum of the objective is unknown: it is not a single benchmark call over the domain; give it with --optimum", path)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, e.failf("%v", err)
	}
	for i, v := range studyVariants(cfg.models, cfg.acquisitions, ownAcquisition(u)) {
		m := &studyMethod{name: v.name, exe: filepath.Join(dir, strconv.Itoa(i)+exeSuffix())}
		if code := buildMethod(ctx, e, u, v, m); code != exitOK {
			return nil, code
		}
		p.methods = append(p.methods, m)
	}
	if cfg.random {
		// Random search ignores the model and acquisition: any built program
		// serves.
		r := &studyMethod{name: randomMethod, random: true}
		for _, m := range p.methods {
			if m.skipped == "" {
				r.exe = m.exe
				break
			}
		}
		if r.exe == "" {
			r.skipped = "no program of this file could be built"
		}
		p.methods = append(p.methods, r)
	}
	return p, exitOK
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
func buildMethod(ctx context.Context, e *env, u *driver.Unit, v studyVariant, m *studyMethod) int {
	src := withStatements(u, v.statements...)
	variant := driver.Compile(u.Path, src, driver.Options{Dir: u.Dir()})
	out, _ := variant.Generate(driver.ProgramOptions)
	if out == nil {
		if alone := driver.Compile(u.Path, src, driver.Options{Dir: u.Dir(), StatementsOnly: true}); alone.Diagnostics.HasErrors() {
			report(e, alone, alone.Diagnostics.Errors())
			return exitFail
		}
		m.skipped = "it does not compile"
		if errs := variant.Diagnostics.Errors(); len(errs) > 0 {
			m.skipped = errs[0].Message
		}
		fmt.Fprintf(e.stderr, "boc study: %s with %s: skipped: %s\n", u.Path, v.name, m.skipped)
		return exitOK
	}
	fmt.Fprintf(e.stderr, "boc study: building %s with %s\n", u.Path, v.name)
	return buildUnit(ctx, e, variant, out, m.exe)
}

// knownOptimum returns f* when the objective is one benchmark call whose
// arguments are whole domain variables, in the benchmark's sense (minimise
// or maximise), with a known optimiser inside the domain.
func knownOptimum(p *ir.Program) (float64, bool) {
	call, ok := p.Objective.Binding.Expr.(*ir.CallExpr)
	if !ok {
		return 0, false
	}
	name, ok := strings.CutPrefix(call.Plugin, "benchmark.")
	if !ok {
		return 0, false
	}
	var lo, hi []float64
	for _, arg := range call.Args {
		v, ok := arg.(*ir.VarExpr)
		if !ok {
			return 0, false
		}
		for range v.Dim.Size {
			lo, hi = append(lo, v.Dim.Lo), append(hi, v.Dim.Hi)
		}
	}
	opt, ok := bench.Known(name, len(lo))
	if !ok || opt.Maximize != p.Objective.Maximize {
		return 0, false
	}
	for _, x := range opt.X {
		inside := true
		for i, v := range x {
			inside = inside && lo[i] <= v && v <= hi[i]
		}
		if inside {
			return opt.F, true
		}
	}
	return 0, false
}

// studyRun is one program run of a study.
type studyRun struct {
	problem *studyProblem
	method  *studyMethod
	seed    int
}

// runSeeds runs every method of every problem for seeds 1..cfg.seeds, up to
// cfg.jobs at once, and fills in the regrets.
func runSeeds(ctx context.Context, problems []*studyProblem, cfg studyConfig) error {
	var runs []studyRun
	for _, p := range problems {
		for _, m := range p.methods {
			if m.skipped != "" {
				continue
			}
			m.prepare(len(cfg.budgets), cfg.seeds)
			for seed := 1; seed <= cfg.seeds; seed++ {
				runs = append(runs, studyRun{p, m, seed})
			}
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	work := make(chan int)
	errs := make([]error, len(runs))
	var wg sync.WaitGroup
	for range min(cfg.jobs, len(runs)) {
		wg.Go(func() {
			for i := range work {
				if errs[i] = runs[i].run(ctx, cfg.budgets); errs[i] != nil {
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

// prepare allocates the tables a method's runs fill in.
func (m *studyMethod) prepare(budgets, seeds int) {
	m.recommendation, m.bestObserved = perRun[float64](budgets, seeds), perRun[float64](budgets, seeds)
	m.robustValue, m.robustReported = perRun[float64](budgets, seeds), make([]bool, seeds)
	m.evaluatedRobust, m.bestEvaluated = perRun[float64](budgets, seeds), slices.Repeat([]float64{math.NaN()}, seeds)
	m.evaluations = make([]int, seeds)
	m.recommended = perRun[json.RawMessage](budgets, seeds)
}

// perRun makes a table of one value per budget and seed.
func perRun[T any](budgets, seeds int) [][]T {
	t := make([][]T, budgets)
	for i := range t {
		t[i] = make([]T, seeds)
	}
	return t
}
