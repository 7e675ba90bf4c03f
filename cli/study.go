package cli

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"runtime"

	"github.com/bocdev/boc/study"
)

var studyCommand = &command{
	name:    "study",
	args:    "FILE.bo... [--seeds N] [--budgets B,...] [--model M,...] [--acquisition A,...] [--random] [--optimum F] [--json|--markdown] [--plot DIR]",
	summary: "compare acquisitions and random search, and models, over many seeds",
	doc: `Study measures how well the optimiser of each FILE.bo does. For every
model in --model and every acquisition in --acquisition (default: the file's
own) it builds the file with that model and acquisition in place of its own,
and runs the program with seeds 1..N (--seeds), as many at once as --jobs.
A method is named by its model and acquisition, "MODEL / ACQ", when both lists
are given, else by the one that varies. --random adds random search: uniformly
random points of the domain, its recommendation judged under boc's default
model (gp) whatever the file's, so that a problem's random column is the same
in every study of it.

It reports, for each file, method and budget in --budgets (by default a
quarter, half, three quarters and all of the smallest file budget), the median and
quartiles over the seeds of two regrets: that of the recommendation (the
evaluated point with the best posterior mean) and that of the best observed
point, each the noise-free objective there minus the optimum f*, sign-adjusted
so that regret >= 0. Programs simulate a declared observation noise on
expression objectives, so noisy problems are judged on the noise-free function.
When the optimisers of the benchmark are known, a third table gives the
distance from the recommendation to the nearest of them, in the domain's
units (the second measure of the corrected-EI paper).

With input noise (the query x lands at x + ε), programs also report the robust
value of the recommendation, the mean of the noise-free objective over ε, and a
further table shows its robust regret: the best robust value of the domain,
found once per file by the program's robust-optimum command, minus the
recommendation's. Another averages the robust regret over the targets
evaluated so far, the measure of Oliveira et al.'s figures: it shows how much
a run loses while it learns, not only where it ends. The search for the best
robust value is a grid for domains of 1 or 2 components; for larger ones it
is a multi-start local search, whose result is only the best found, so the
study takes the better of it and the best robust value of any recommendation
or evaluated target of the study, and notes that the robust regrets may be
understated.

--json adds each seed's run to the quartiles: after each budget, the
recommended point and its regrets, to see where the runs settle.

--plot DIR draws each table after every evaluation, not only at the budgets:
for each file, a chart of one line per method, the median over the seeds,
in a band from the lower to the upper quartile, with a logarithmic y axis
when every value is positive. DIR/PROBLEM.svg and DIR/PROBLEM.png show the
regret of the recommendation; PROBLEM_best_observed, PROBLEM_distance,
PROBLEM_robust, PROBLEM_robust_evaluated, PROBLEM_average_regret and
PROBLEM_unsafe (.svg and .png) the other tables, for the files they list.
PROBLEM is the file's name without .bo. DIR is made if need be; the same
study draws the same bytes.

f* is the known optimum when the objective is a single benchmark call over the
domain's variables (branin(x1, x2), hartmann6(p)), the best candidate of a
finite decision set (candidates; random search then plays random candidates),
or else --optimum. Without any, the study compares the methods by the
noise-free values themselves (tables and plots "noise-free value of the
recommendation" and "of the best observed point", "measure": "value" in the
JSON), and says that a regret needs --optimum.

A file of several objectives is judged by hypervolumes instead: every
objective needs a threshold (together the reference point) and --optimum is
the largest hypervolume the front can dominate above it. Its two tables give
the log10 gap log10(HVmax - HV) of the Pareto set the program reports (HV of
its points' noise-free values) and of every evaluated point that truly meets
the simulated requirements; --plot names them PROBLEM_front_gap and
PROBLEM_evaluated_gap.
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
		optimum := fs.Float64("optimum", math.NaN(), "the optimal value `F` of objectives that are not a single benchmark call; with several objectives, the largest hypervolume")
		jobs := fs.Int("jobs", runtime.GOMAXPROCS(0), "run `N` programs at once")
		asJSON := fs.Bool("json", false, "print the results as one JSON object")
		markdown := fs.Bool("markdown", false, "print the results as Markdown tables")
		plots := fs.String("plot", "", "draw the regrets after every evaluation into `DIR`, as SVG and PNG")
		return func(e *env, args []string) int {
			cfg := study.Config{Seeds: *seeds, Random: *random, Optimum: *optimum, Jobs: *jobs}
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
				cfg.Budgets = study.DefaultBudgets(args)
			} else if cfg.Budgets, err = study.ParseBudgets(*budgets); err != nil {
				return e.usageError("--budgets: %v", err)
			}
			if cfg.Models, err = study.SplitCalls(*models); err != nil {
				return e.usageError("--model: %v", err)
			}
			if cfg.Acquisitions, err = study.SplitCalls(*acquisitions); err != nil {
				return e.usageError("--acquisition: %v", err)
			}
			// A directory that cannot take the plots fails now, not after the study.
			if *plots != "" {
				if err := plotDir(*plots); err != nil {
					return e.failf("--plot: cannot write into %s: %v", *plots, err)
				}
			}
			ctx, stop := stopContext()
			defer stop()
			results, err := study.Run(ctx, args, cfg, e.stderr)
			var compileErr *study.CompileError
			var buildErr *study.BuildError
			switch {
			case errors.As(err, &compileErr):
				report(e, compileErr.Unit, compileErr.Diagnostics)
				return exitFail
			case errors.As(err, &buildErr):
				return reportBuild(e, buildErr.Unit, buildErr.Err)
			case err != nil:
				return e.failf("%v", err)
			}
			switch {
			case *asJSON:
				err = study.WriteJSON(e.stdout, cfg, results)
			case *markdown:
				study.WriteMarkdown(e.stdout, cfg, results)
			default:
				study.WriteText(e.stdout, cfg, results)
			}
			if err != nil {
				return e.failf("%v", err)
			}
			if *plots != "" {
				files, err := study.WritePlots(*plots, cfg, results)
				for _, f := range files {
					fmt.Fprintf(e.stderr, "boc study: wrote %s\n", f)
				}
				if err != nil {
					return e.failf("--plot: %v", err)
				}
			}
			return exitOK
		}
	},
}

// plotDir makes dir if need be and checks that a file can be written in it.
func plotDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".boc-study-*")
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}
