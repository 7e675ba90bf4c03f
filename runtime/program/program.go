// Package program is the command line of the programs boc generates. The
// emitted main package describes its problem in a Problem and calls Main:
//
//	PROG run [--json [--trace]] [--seed N] [--budget N] [--random-search] [--input-noise-scale R] [--constraint-noise-scale R]
//	PROG ask | tell ID ... | status [--journal J] [--study NAME]
//	PROG report [--journal J] [--study NAME] -o FILE
//	PROG robust-optimum [--grid N | --starts N] [--input-noise-scale R] [--json]
//	PROG optimum [--json]
//	PROG version
//
// run prints one progress line per evaluation on standard error and the
// result on standard output, human-readable or, with --json, as exactly one
// JSON object (its keys are documented on the type result). --random-search
// evaluates random points of the domain instead of the optimiser's
// suggestions, the baseline of a study. For a problem with input noise and an
// expression objective, robust-optimum finds the point of the domain whose
// robust value E[f(x + ε)] is best, the reference of a study's robust regret:
// by a grid search for 1 or 2 components, and for more by a multi-start local
// search whose result is the best found, not guaranteed. --input-noise-scale
// multiplies the simulated input noise, and --constraint-noise-scale the
// simulated constraints' measurement noise, for studies of a misjudged noise.
// For a finite decision set and an expression objective, optimum prints the
// best candidate and its value, the reference of a study's regret. ask, tell
// and status drive a study one trial at a time from a journal (study.go);
// report writes a study's HTML report (report.go).
// The package knows nothing of the .bo language and imports no compiler
// package.
package program

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"

	"github.com/bocdev/boc/runtime/command"
)

// Dim describes one dimension of the problem's domain (command.Dim).
type Dim = command.Dim

// Problem is what a generated program tells the command line about itself.
type Problem struct {
	Name   string // the problem name, also the program's name in messages
	Source string // the .bo file it was generated from
	Text   string // that file's text, "" when it is not known
	Dims   []Dim
	// Lower and Upper are the bounds of the domain, one per component.
	Lower, Upper []float64
	Budget       int    // the compiled budget: the most evaluations a run can make
	Seed         uint64 // the problem's seed, the default of --seed
	Maximize     bool
	// Objectives are the objectives of a problem with several, in
	// declaration order; nil for one (Maximize then says its sense). Such a
	// problem's result is a Pareto set (ParetoSession, Result.Front).
	Objectives []Objective
	// ReportsSD says the objective reports each value's noise sd (observation
	// noise reported); the trace then shows it.
	ReportsSD bool
	// Run optimises the objective; nil when the objective is external, so
	// that the program cannot evaluate it.
	Run func(ctx context.Context, opt Options) (Result, error)
	// Robust returns the robust value E_{x̃~P_x}[f(x̃)] of the noise-free
	// objective at x, x̃ = x + ε the point the input noise moves x to (a
	// Monte-Carlo estimate with a fixed seed, so a deterministic function).
	// Nil when the problem has no input noise or its objective is not an
	// expression. It may cost thousands of evaluations of f. noiseScale
	// multiplies every draw of the noise (1: the noise as declared), as
	// Options.InputNoiseScale does in a run.
	Robust func(x []float64, noiseScale float64) float64
	// InputNoise returns n draws of the input noise ε at x (a query aimed at
	// x lands at x + ε), one value per component, 0 in those without noise:
	// quasi-random draws with a fixed seed, so a deterministic function. Nil
	// when the problem has no input noise or its optimiser never draws it.
	InputNoise func(x []float64, n int) ([][]float64, error)
	// ModelOverInputs says that the optimiser's model is over input
	// distributions (Model's posterior at x is then of the robust value
	// E[f(x + ε)]).
	ModelOverInputs bool
	// Optimum returns the best point of a finite decision set and its
	// noise-free value (NaN when no candidate is feasible). Nil unless the
	// problem has candidates and an expression objective.
	Optimum func() (x []float64, value float64)
	// Constraints are the unknown safety constraints, in declaration order.
	Constraints []Constraint
	// SimulatesConstraintNoise says that Run adds simulated measurement
	// noise to some unknown constraint, which Options.ConstraintNoiseScale
	// scales.
	SimulatesConstraintNoise bool
	// CarriesState says the optimiser's suggestions depend on the ones
	// before, not on the observations alone: a portfolio acquisition judges
	// its arms by what each proposed. A safe optimiser (safety
	// Constraints) does too. Replaying a study then suggests before each observation, as ask
	// did.
	CarriesState bool
	// Identity describes what the problem is, budget aside (the checked
	// program's canonical text): a journal's study records its hash, and
	// only a program of the same identity continues the study.
	Identity string
	// NewSession returns the problem's optimiser seeded with seed, for ask,
	// tell and status.
	NewSession func(seed uint64) Session
	// Evaluate evaluates trial number trial (1 for the first) at x, for
	// run --journal; nil when the objective is external. A simulated
	// problem draws the trial's noise from streams keyed by its number, so
	// that a trial made again measures the same.
	Evaluate func(ctx context.Context, trial int, x []float64) (Evaluation, error)
}

// Objective is one of a problem's several objectives.
type Objective struct {
	Name     string
	Maximize bool
	// Threshold is the hypervolume's reference point's coordinate: values
	// beyond it are of no interest; NaN where it is inferred from the front.
	Threshold float64
}

// several reports whether the problem has several objectives.
func (p Problem) several() bool { return len(p.Objectives) > 0 }

// robustWith returns the problem's robust value with the input noise scaled
// by noiseScale, or nil when it has none.
func (p Problem) robustWith(noiseScale float64) func([]float64) float64 {
	if p.Robust == nil {
		return nil
	}
	return func(x []float64) float64 { return p.Robust(x, noiseScale) }
}

// Options are the settings of one run.
type Options struct {
	Seed   uint64
	Budget int
	// RandomSearch evaluates uniformly random points of the domain instead of
	// the optimiser's suggestions.
	RandomSearch bool
	// InputNoiseScale multiplies every draw of the input noise the run
	// simulates (1: the noise as declared), so that the optimiser's model of
	// the noise can be studied when it is wrong (Oliveira et al. §6.1: the
	// model assumes the declared noise, the world has a scaled one).
	InputNoiseScale float64
	// ConstraintNoiseScale multiplies every draw of the simulated
	// constraints' measurement noise (1: as declared), so that safety can be
	// studied when the declared noise is wrong.
	ConstraintNoiseScale float64
	// StopOnContradiction ends the run after an evaluation that contradicted
	// the unknown constraints' model.
	StopOnContradiction bool
	// Progress is called after every evaluation; never nil.
	Progress func(Progress)
}

// Progress describes one evaluation and the state after it. The values
// "without observation noise" are NaN when the program cannot know them (the
// objective is not an expression).
type Progress struct {
	Evaluation int // 1 for the first
	Budget     int
	X          []float64 // the point evaluated, one value per component
	Y          float64   // its observed value
	SD         float64   // the noise sd reported with Y, when Problem.ReportsSD
	Value      float64   // its value without observation noise
	BestY      float64   // the best value observed so far
	BestValue  float64   // the value there without observation noise
	// Recommendation is the evaluated point with the best posterior mean,
	// RecommendationMean that mean and RecommendationValue the value there
	// without observation noise.
	Recommendation      []float64
	RecommendationMean  float64
	RecommendationValue float64
	// RecommendationRobust is Problem.Robust at the recommendation, NaN when
	// Robust is nil. The command line fills it in, for the trace, only when
	// the recommendation changed; Run leaves it alone.
	RecommendationRobust float64
	// Robust is Problem.Robust at X, NaN when Robust is nil; the command line
	// fills it in for the trace, Run leaves it alone.
	Robust float64
	// Infeasible says that no evaluated point meets the requirements
	// (Constraint.Required) with their confidence, so that there is no
	// recommendation; TrulyInfeasible that the recommendation breaks a
	// simulated requirement's true value, or that there is none.
	Infeasible, TrulyInfeasible bool
	// Safety reports the measured constraints, when the problem has any.
	Safety Safety
	// Objectives, with several, are the values observed at X (Y is then
	// NaN), TrueObjectives their values without observation noise (NaN
	// unless simulated); Hypervolume, TrueHypervolume (that of the front's
	// values without noise, NaN unless simulated) and FrontSize describe
	// the Pareto set after the evaluation.
	Objectives, TrueObjectives   []float64
	Hypervolume, TrueHypervolume float64
	FrontSize                    int
}

// FrontPoint is an evaluated point of the Pareto set of a problem with
// several objectives: where it is, the objectives' posterior means there
// (by which it is on the front), what was observed, and, in a run of a
// simulated problem, the values without noise (NaN otherwise) and whether
// it truly meets the simulated requirements.
type FrontPoint struct {
	X                               []float64
	Means, Observed, TrueObjectives []float64
	TrulyFeasible                   bool
}

// Result is the outcome of a run.
type Result struct {
	Evaluations         int
	Recommendation      []float64 // the evaluated point with the best posterior mean
	RecommendationMean  float64
	RecommendationValue float64 // the value there without observation noise, NaN if unknown
	// RecommendationRobust is Problem.Robust at the recommendation, NaN when
	// Robust is nil; the command line fills it in, Run leaves it alone.
	RecommendationRobust float64
	BestX                []float64 // the evaluated point with the best observed value
	BestY                float64
	BestValue            float64 // the value there without observation noise, NaN if unknown
	Stopped              string  // why the run ended, e.g. "budget"
	// Violations, UnsafeEvaluations, Unmet and TrulyUnmet are the final
	// counts of Safety's; SafeSize is the number of points certified safe
	// at the last suggestion, SeedPoints the number of seeds it started
	// from.
	Violations, UnsafeEvaluations int
	Unmet, TrulyUnmet             int
	SafeSize, SeedPoints          int
	// Contradictions counts the measurements that contradicted the
	// constraints' model.
	Contradictions int
	// Infeasible says that no evaluated point meets the requirements
	// (Constraint.Required) with their confidence: there is no
	// recommendation. TrulyInfeasible says that the recommendation breaks
	// a simulated requirement's true value, or that there is none.
	Infeasible, TrulyInfeasible bool
	// Front is the Pareto set of a problem with several objectives, and
	// Hypervolume the hypervolume its posterior means dominate above
	// Reference, TrueHypervolume that of its values without noise (NaN
	// unless simulated); the recommendation's fields are then unused.
	Front                        []FrontPoint
	Hypervolume, TrueHypervolume float64
	Reference                    []float64
}

// Exit codes of a program.
const (
	ExitOK      = 0
	ExitFailure = 1 // the run failed: an objective error, a numerical failure
	ExitUsage   = 2 // the command line is wrong
)

// Main runs the command line of os.Args and exits; an interrupt or SIGTERM
// cancels the run.
func Main(p Problem) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := Run(ctx, p, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// Run runs the command line args and returns the exit code.
func Run(ctx context.Context, p Problem, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(p, stderr)
		return ExitUsage
	}
	switch args[0] {
	case "run":
		return runCommand(ctx, p, args[1:], stdout, stderr)
	case "robust-optimum":
		return robustOptimumCommand(ctx, p, args[1:], stdout, stderr)
	case "optimum":
		return optimumCommand(p, args[1:], stdout, stderr)
	case "ask":
		return askCommand(p, args[1:], stdout, stderr)
	case "tell":
		return tellCommand(p, args[1:], stdout, stderr)
	case "status":
		return statusCommand(p, args[1:], stdout, stderr)
	case "report":
		return reportCommand(p, args[1:], stdout, stderr)
	case "serve":
		return serveCommand(ctx, p, args[1:], stdout, stderr)
	case "version":
		if len(args) > 1 {
			fmt.Fprintf(stderr, "%s: version takes no arguments\n", p.Name)
			return ExitUsage
		}
		version(p, stdout)
		return ExitOK
	case "help", "-h", "-help", "--help":
		usage(p, stdout)
		return ExitOK
	}
	fmt.Fprintf(stderr, "%s: unknown command %q\n", p.Name, args[0])
	usage(p, stderr)
	return ExitUsage
}

func usage(p Problem, w io.Writer) {
	fmt.Fprintf(w, `usage: %[1]s run [--json [--trace]] [--seed N] [--budget N] [--random-search] [--input-noise-scale R]
             [--constraint-noise-scale R] [--on-contradiction continue|stop]
       %[1]s run --journal J [--study NAME] [--budget N] [--json] [--workers N]
             [--eval-timeout D] [--retries R] [--on-failure continue|stop] [--lease D]
             [--on-contradiction continue|stop]
       %[1]s ask [-n K] [--journal J] [--study NAME] [--json]
       %[1]s tell ID (--value Y [--sd S] [--constraint NAME=V]... | --failed [--reason TEXT]) [--journal J] [--study NAME]
       %[1]s status [--journal J] [--study NAME] [--json]
       %[1]s report [--journal J] [--study NAME] -o FILE
       %[1]s serve [--journal J] [--study NAME] [--listen HOST:PORT] [--token-file F]
       %[1]s robust-optimum [--grid N | --starts N] [--input-noise-scale R] [--json]
       %[1]s optimum [--json]
       %[1]s version

%[1]s is the Bayesian optimiser of problem %[1]s, generated by boc from %[2]s.

  run             evaluate the objective for the budget and print the recommendation
  ask             reserve trials at the optimiser's next points and print them
  tell            record what trial ID measured (or that it failed)
  status          print a study's evaluations, pending trials and recommendation
  report          write a study's report as one HTML file, which opens offline
                  and prints: status, settings, the problem, convergence,
                  safety and every trial
  serve           serve a study on the web: a lab page to ask for trials and
                  tell their results from a browser, and the same as a JSON
                  API (docs/serve.md); it prints the page's address with the
                  token every request needs
  robust-optimum  find the best robust value E[f(x + input noise)] of the domain
                  (problems with input noise and an expression objective): a
                  grid search for 1 or 2 components; for more, a multi-start
                  local search, whose result is the best found, not guaranteed
  optimum         print the best candidate of a finite decision set and its
                  value (problems with candidates and an expression objective)
  version         print the versions it was built with

Flags of run:
  --json           print the result as one JSON object
  --trace          add every evaluation to the JSON object
  --seed N         random seed (default %[3]d, the problem's; 0 is the problem's too)
  --budget N       number of evaluations, 1..%[4]d (default %[4]d)
  --random-search  evaluate random points of the domain instead of the
                   optimiser's suggestions (a baseline)
  --input-noise-scale R
                   multiply every simulated draw of the input noise by R
                   (default 1): the world's noise differs from the declared
                   one, which the model still assumes; robust values are
                   judged under the scaled noise
  --constraint-noise-scale R
                   multiply every simulated draw of the constraints'
                   measurement noise by R (default 1): the optimiser still
                   assumes the declared noise
  --on-contradiction P
                   continue (default): when a measurement contradicts the
                   safety constraints' model (a point measured unsafe, a
                   seed measured unsafe, readings outside their certified
                   interval or noisier than declared), say so, exclude the
                   point and correct the model; stop: say so and end the run
  --journal J      record every trial in the journal J (a file, or a
                   postgres:// URL shared by runs on many hosts) before
                   evaluating it, and its result before taking another; run
                   again, it replays the study and goes on (any objective
                   but an external one); with --study
                   NAME, --budget N (trials of the study in all), --json and:
  --workers N      evaluate N trials at once (exec: N processes; go: N
                   goroutines, so the function must be safe for concurrent
                   use); pending trials are accounted for as by ask -n
  --eval-timeout D give up an evaluation after D (default 1h; 0: never): an
                   exec command is killed with every process it started
  --retries R      evaluate a failed trial up to R more times (default 0)
  --on-failure P   continue (default): record the failure, penalise the
                   point and go on; stop: record it and end the run
  --lease D        a trial a run evaluates is leased to it for D (default
                   1m), renewed while it runs; a trial whose run died is
                   taken over when its lease expires (at once when that run
                   was on this host)

Flags of ask, tell, status and report:
  --journal J      the study's journal file (default %[1]s.journal): one JSON
                   line per event, written before the command returns
  --study NAME     the study within the journal (default %[1]s)
  --json           ask: print {"trials": [{"id": ..., "x": {...}}]};
                   status: print the study as one JSON object
  -n K             ask: reserve K trials (default 1); the optimiser accounts
                   for pending trials (as the worst value told for ei and pi,
                   by GP-BUCB's hallucination for ucb; a safe optimiser only
                   leaves them out), so none is asked for twice
  --value Y        tell: the measured value (with several objectives,
                   --value NAME=V for each); --sd S its noise sd, when the
                   noise is reported; --constraint NAME=V each unknown
                   constraint's measured value
  -o FILE          report: the HTML file to write
  --failed         tell: the evaluation failed (--reason TEXT says why); the
                   optimiser holds the point below the worst value told (by
                   the values' spread); before any value, or with unknown
                   safety constraints, it leaves the point out until the
                   next value is told

Flags of serve (and --journal, --study as above):
  --listen A       the address to listen at (default 127.0.0.1:8080; port 0
                   picks a free one); beyond the loopback it needs
                   --token-file
  --token-file F   the token, on F's first line (at least %[9]d letters,
                   digits, '-', '_', '.' or '~'); default: a random one

Flags of robust-optimum:
  --grid N         1 or 2 components: grid points per dimension before the
                   local refinement (default %[5]d in 1-D, %[6]d in 2-D)
  --starts N       more components: Sobol starting points, of which the %[8]d
                   best are refined by compass search (default %[7]d per
                   component)
  --input-noise-scale R
                   the robust value under the input noise scaled by R
  --json           print {"x": [...], "robust": value, "exhaustive": bool};
                   exhaustive is false when the result is only the best found
`, p.Name, p.Source, p.Seed, p.Budget, defaultGrid1D, defaultGrid2D, startsPerComponent, refinedStarts, minTokenLength)
}

func version(p Problem, w io.Writer) {
	fmt.Fprintf(w, "%s: generated by boc from %s\n", p.Name, p.Source)
	runtimeVersion := "(unknown)"
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, m := range append([]*debug.Module{&bi.Main}, bi.Deps...) {
			if m.Path == runtimeModule {
				runtimeVersion = m.Version
			}
		}
	}
	fmt.Fprintf(w, "runtime: %s %s\n", runtimeModule, runtimeVersion)
	fmt.Fprintf(w, "go: %s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// runtimeModule is the module this package belongs to.
const runtimeModule = "github.com/bocdev/boc"

func runCommand(ctx context.Context, p Problem, args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet(p.Name+" run", flag.ContinueOnError)
	flags.SetOutput(io.Discard)
	asJSON := flags.Bool("json", false, "")
	trace := flags.Bool("trace", false, "")
	randomSearch := flags.Bool("random-search", false, "")
	seed := flags.Uint64("seed", p.Seed, "")
	budget := flags.Int("budget", p.Budget, "")
	noiseScale := flags.Float64("input-noise-scale", 1, "")
	constraintScale := flags.Float64("constraint-noise-scale", 1, "")
	onContradiction := flags.String("on-contradiction", "continue", "")
	var journalled studyFlags
	flags.StringVar(&journalled.journal, "journal", "", "")
	flags.StringVar(&journalled.study, "study", p.Name, "")
	var policy runPolicy
	flags.IntVar(&policy.workers, "workers", 1, "")
	flags.DurationVar(&policy.evalTimeout, "eval-timeout", defaultEvalTimeout, "")
	flags.IntVar(&policy.retries, "retries", 0, "")
	onFailure := flags.String("on-failure", "continue", "")
	flags.DurationVar(&policy.lease, "lease", defaultLease, "")
	if code, ok := parseFlags(p, flags, "run", args, stdout, stderr); !ok {
		return code
	}
	if *seed == 0 {
		*seed = p.Seed // as the generated Run reads RunOptions{}
	}
	policySet := false
	flags.Visit(func(fl *flag.Flag) {
		switch fl.Name {
		case "workers", "eval-timeout", "retries", "on-failure", "lease":
			policySet = true
		}
	})
	if *budget < 1 || *budget > p.Budget {
		fmt.Fprintf(stderr, "%s: --budget %d is outside 1..%d, the budget the program was compiled for\n", p.Name, *budget, p.Budget)
		return ExitUsage
	}
	if journalled.journal != "" {
		if *trace || *randomSearch || *seed != p.Seed || *noiseScale != 1 || *constraintScale != 1 {
			fmt.Fprintf(stderr, "%s: run --journal takes --budget, --study, --json and the evaluation flags only: a study's seed is the problem's\n", p.Name)
			return ExitUsage
		}
		if msg := policy.check(*onFailure); msg != "" {
			fmt.Fprintf(stderr, "%s: %s\n", p.Name, msg)
			return ExitUsage
		}
		if msg := checkOnContradiction(p, *onContradiction); msg != "" {
			fmt.Fprintf(stderr, "%s: %s\n", p.Name, msg)
			return ExitUsage
		}
		policy.stopOnContradiction = *onContradiction == "stop"
		journalled.asJSON = *asJSON
		return runJournal(ctx, p, journalled, policy, *budget, stdout, stderr)
	}
	if policySet {
		fmt.Fprintf(stderr, "%s: --workers, --eval-timeout, --retries, --on-failure and --lease go with --journal, which records each evaluation\n", p.Name)
		return ExitUsage
	}
	if *trace && !*asJSON {
		fmt.Fprintf(stderr, "%s: --trace adds the evaluations to the JSON result; use it with --json\n", p.Name)
		return ExitUsage
	}
	if p.Run == nil {
		fmt.Fprintf(stderr, "%s: the objective is external, so this program cannot evaluate it; "+
			"use the generated package's Suggest and Observe\n", p.Name)
		return ExitUsage
	}
	if msg := checkNoiseScale(p, *noiseScale); msg != "" {
		fmt.Fprintf(stderr, "%s: %s\n", p.Name, msg)
		return ExitUsage
	}
	if msg := checkConstraintNoiseScale(p, *constraintScale); msg != "" {
		fmt.Fprintf(stderr, "%s: %s\n", p.Name, msg)
		return ExitUsage
	}
	if msg := checkOnContradiction(p, *onContradiction); msg != "" {
		fmt.Fprintf(stderr, "%s: %s\n", p.Name, msg)
		return ExitUsage
	}
	var steps []step
	robust := newRobustCache(p.robustWith(*noiseScale))
	progress := func(Progress) {}
	switch {
	case *trace:
		steps = make([]step, 0, *budget)
		evaluated := newRobustCache(p.robustWith(*noiseScale))
		progress = func(pr Progress) {
			pr.RecommendationRobust = math.NaN()
			if !pr.Infeasible {
				pr.RecommendationRobust = robust.at(pr.Recommendation)
			}
			pr.Robust = evaluated.at(pr.X)
			steps = append(steps, traceStep(p, pr))
		}
	case !*asJSON:
		progress = func(pr Progress) { writeProgress(stderr, p, pr) }
	}
	res, runErr := p.Run(ctx, Options{Seed: *seed, Budget: *budget, RandomSearch: *randomSearch, InputNoiseScale: *noiseScale,
		ConstraintNoiseScale: *constraintScale, StopOnContradiction: *onContradiction == "stop", Progress: progress})
	// A run that did not finish still prints what it did, marked.
	switch {
	case runErr != nil && ctx.Err() != nil:
		res.Stopped = stoppedInterrupted
	case runErr != nil:
		res.Stopped = "error"
	}
	res.RecommendationRobust = math.NaN()
	if res.Evaluations > 0 && !res.Infeasible {
		res.RecommendationRobust = robust.at(res.Recommendation)
	}
	if *asJSON {
		out := newResult(p, *seed, *randomSearch, res)
		if *trace {
			out.Trace = steps
		}
		if runErr != nil && ctx.Err() == nil {
			out.Error = runErr.Error()
		}
		if err := writeJSON(stdout, out); err != nil {
			printError(stderr, p, err)
			return ExitFailure
		}
	} else if res.Evaluations > 0 {
		writeSummary(stdout, p, res)
	}
	if runErr != nil {
		printError(stderr, p, runErr)
		if failed := (*evaluationError)(nil); p.Evaluate != nil && ctx.Err() == nil && errors.As(runErr, &failed) {
			fmt.Fprintf(stderr, "    hint: with --journal J a run records a failed evaluation and goes on, and can time evaluations out, retry them and resume\n")
		}
		return ExitFailure
	}
	return ExitOK
}

// formatValue formats a number for people: six significant digits.
func formatValue(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }

// formatPoint writes x as name=value pairs, vector dimensions as [a b c],
// leaving out the conditional dimensions that do not exist at x.
func formatPoint(dims []Dim, x []float64) string {
	var b strings.Builder
	off := 0
	for _, d := range dims {
		at := off
		off += d.Size
		if at+d.Size <= len(x) && !d.Exists(x) {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(d.Name)
		b.WriteByte('=')
		switch {
		case at+d.Size > len(x):
			b.WriteString("?")
		case !d.Vector:
			b.WriteString(formatComponent(d, x[at]))
		default:
			b.WriteByte('[')
			for j, v := range x[at : at+d.Size] {
				if j > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(formatValue(v))
			}
			b.WriteByte(']')
		}
	}
	return b.String()
}

func writeProgress(w io.Writer, p Problem, pr Progress) {
	width := len(strconv.Itoa(pr.Budget))
	if p.several() {
		fmt.Fprintf(w, "[%*d/%d] %s  %s  front=%d hypervolume=%s%s\n", width, pr.Evaluation, pr.Budget,
			formatPoint(p.Dims, pr.X), formatObjectives(p.objectiveNames(), pr.Objectives), pr.FrontSize, formatValue(pr.Hypervolume), safetyProgress(p, pr.Safety))
		return
	}
	noiseFree := ""
	if !math.IsNaN(pr.Value) && pr.Value != pr.Y {
		noiseFree = " (noise-free " + formatValue(pr.Value) + ")"
	}
	fmt.Fprintf(w, "[%*d/%d] %s  y=%s%s  best=%s%s\n", width, pr.Evaluation, pr.Budget,
		formatPoint(p.Dims, pr.X), formatValue(pr.Y), noiseFree, formatValue(pr.BestY), safetyProgress(p, pr.Safety))
}

func writeSummary(w io.Writer, p Problem, r Result) {
	goal := "minimise"
	if p.Maximize {
		goal = "maximise"
	}
	if p.several() {
		goal = p.goals()
	}
	fmt.Fprintf(w, "problem %s (%s): %d evaluations, stopped: %s\n", p.Name, goal, r.Evaluations, r.Stopped)
	if r.Evaluations == 0 {
		return
	}
	if p.several() {
		writeFront(w, p, r.Front, r.Hypervolume, r.Reference)
		fmt.Fprint(w, safetySummary(p, r))
		return
	}
	value := ""
	if !math.IsNaN(r.RecommendationValue) {
		value = ", objective " + formatValue(r.RecommendationValue)
	}
	if !math.IsNaN(r.RecommendationRobust) {
		value += ", robust value " + formatValue(r.RecommendationRobust)
	}
	if r.Infeasible {
		fmt.Fprintf(w, "recommendation: none (no evaluated point meets the requirements)\n")
	} else {
		fmt.Fprintf(w, "recommendation: %s  (posterior mean %s%s)\n", formatPoint(p.Dims, r.Recommendation), formatValue(r.RecommendationMean), value)
	}
	fmt.Fprintf(w, "best observed:  %s  y=%s\n", formatPoint(p.Dims, r.BestX), formatValue(r.BestY))
	fmt.Fprint(w, safetySummary(p, r))
}

// checkNoiseScale returns why --input-noise-scale cannot be scale, or "".
func checkNoiseScale(p Problem, scale float64) string {
	switch {
	case !(scale > 0) || math.IsInf(scale, 1):
		return fmt.Sprintf("--input-noise-scale %v must be a positive number", scale)
	case scale != 1 && p.Robust == nil:
		return "--input-noise-scale needs input noise that the program simulates (an expression objective)"
	}
	return ""
}

// checkConstraintNoiseScale returns why --constraint-noise-scale cannot be
// scale, or "".
func checkConstraintNoiseScale(p Problem, scale float64) string {
	switch {
	case !(scale > 0) || math.IsInf(scale, 1):
		return fmt.Sprintf("--constraint-noise-scale %v must be a positive number", scale)
	case scale != 1 && !p.SimulatesConstraintNoise:
		return "--constraint-noise-scale needs a simulated constraint with measurement noise"
	}
	return ""
}

// checkOnContradiction returns why --on-contradiction cannot be policy, or
// "".
func checkOnContradiction(p Problem, policy string) string {
	switch {
	case policy != "continue" && policy != "stop":
		return fmt.Sprintf("--on-contradiction %q: want continue or stop", policy)
	case policy == "stop" && !p.safe():
		return "--on-contradiction stop needs unknown safety constraints, whose model a measurement can contradict"
	}
	return ""
}

// parseFlags parses the arguments of command; when it returns false, the
// command ends with code (help printed, or a usage error reported).
// printError writes err to stderr after the program's name, once: errors
// of the optimiser's package already start with it (the package is named
// after the problem), and "fX: fX: ..." says nothing more.
func printError(stderr io.Writer, p Problem, err error) {
	msg := err.Error()
	if !strings.HasPrefix(msg, p.Name+": ") {
		msg = p.Name + ": " + msg
	}
	fmt.Fprintln(stderr, msg)
}

func parseFlags(p Problem, flags *flag.FlagSet, command string, args []string, stdout, stderr io.Writer) (code int, ok bool) {
	if err := flags.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			usage(p, stdout)
			return ExitOK, false
		}
		printError(stderr, p, err)
		return ExitUsage, false
	}
	if flags.NArg() > 0 {
		fmt.Fprintf(stderr, "%s: %s takes no arguments, got %q\n", p.Name, command, flags.Args())
		return ExitUsage, false
	}
	return 0, true
}

// EvaluationFailed marks err, a Run's error, as a failed evaluation of the
// objective, after which run suggests a journal (which records the failure
// and goes on) rather than for any other error.
func EvaluationFailed(err error) error { return &evaluationError{err} }

// evaluationError is EvaluationFailed's mark.
type evaluationError struct{ err error }

func (e *evaluationError) Error() string { return e.err.Error() }
func (e *evaluationError) Unwrap() error { return e.err }
