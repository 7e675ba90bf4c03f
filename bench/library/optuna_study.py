#!/usr/bin/python3
"""Regret of Optuna's samplers on boc's quality-study problems, measured as `boc study` measures boc.

For each problem file (default: the six of bench/studies/) and each method

    optuna-tpe      TPESampler(seed=s): Optuna's default sampler, library defaults
                    (10 random startup trials, then independent per-dimension TPE)
    optuna-tpe-mv   TPESampler(multivariate=True, seed=s): TPE with a joint density
    optuna-cmaes    CmaEsSampler(seed=s): CMA-ES from the centre of the box,
                    sigma0 = 1/6 of the shortest side (library defaults)
    optuna-random   RandomSampler(seed=s): uniform random points, a sanity row

this runs Optuna with seeds 1..N for the file's budget and reports, after each
budget in --budgets, the median and quartiles over the seeds of the regret

    regret = f(x) - f*

where f is the noise-free objective, f* its known optimum and x Optuna's
recommendation: its best trial so far, the one with the lowest observed
(possibly noisy) value, which is what `study.best_trial` returns. For Optuna the
recommendation and the best observed point are therefore the same point; the
JSON output gives both fields (equal) so that it reads like `boc study --json`.

The problem is read from the .bo file itself, which must be one of boc's simple
study files: a box domain, `objective minimize branin(...)`, `hartmann3(...)` or
`hartmann6(...)`, an optional `observation noise ~ normal(0, SD)` and a `budget`.
With noise, every value Optuna sees is the noise-free value plus a draw of
N(0, SD^2) from numpy's default_rng seeded by (problem, method, seed); regret is
always judged on the noise-free value, as in `boc study`. The benchmark functions
and optima are ports of runtime/bench (bench.go, known.go); quartiles interpolate
linearly between order statistics and numbers are printed with 3 significant
digits, as in cli/study_report.go, so the tables can sit beside boc's.

Run it with Debian's Python (python3-optuna, python3-cmaes, python3-numpy):

    /usr/bin/python3 bench/library/optuna_study.py                      # all six, 10 seeds, Markdown
    /usr/bin/python3 bench/library/optuna_study.py bench/studies/branin.bo \\
        --seeds 5 --budgets 10,25,50 --methods optuna-tpe,optuna-cmaes --json

bench/library.sh runs it next to `boc study` and merges the two (bench/README.md).
"""

import argparse
import json
import math
import os
import re
import sys
import time
import warnings
import zlib

import numpy as np
import optuna

# --- Benchmark functions: ports of runtime/bench/bench.go ---------------------


def branin(x):
    """Branin-Hoo on [-5, 10] x [0, 15]; minimum 5/(4 pi) at three points."""
    b = 5.1 / (4 * math.pi * math.pi)
    c = 5 / math.pi
    r, s, t = 6.0, 10.0, 1 / (8 * math.pi)
    u = x[1] - b * x[0] * x[0] + c * x[0] - r
    return u * u + s * (1 - t) * math.cos(x[0]) + s


HARTMANN_ALPHA = np.array([1.0, 1.2, 3.0, 3.2])
HARTMANN3_A = np.array([[3, 10, 30], [0.1, 10, 35], [3, 10, 30], [0.1, 10, 35]])
HARTMANN3_P = np.array([
    [0.3689, 0.1170, 0.2673],
    [0.4699, 0.4387, 0.7470],
    [0.1091, 0.8732, 0.5547],
    [0.0381, 0.5743, 0.8828],
])
HARTMANN6_A = np.array([
    [10, 3, 17, 3.5, 1.7, 8],
    [0.05, 10, 17, 0.1, 8, 14],
    [3, 3.5, 1.7, 10, 17, 8],
    [17, 8, 0.05, 10, 0.1, 14],
])
HARTMANN6_P = np.array([
    [0.1312, 0.1696, 0.5569, 0.0124, 0.8283, 0.5886],
    [0.2329, 0.4135, 0.8307, 0.3736, 0.1004, 0.9991],
    [0.2348, 0.1451, 0.3522, 0.2883, 0.3047, 0.6650],
    [0.4047, 0.8828, 0.8732, 0.5743, 0.1091, 0.0381],
])


def hartmann(a, p, x):
    """-sum_i alpha_i exp(-sum_j a_ij (x_j - p_ij)^2), the Hartmann family."""
    x = np.asarray(x, dtype=float)
    return -float(np.sum(HARTMANN_ALPHA * np.exp(-np.sum(a * (x - p) ** 2, axis=1))))


# Each benchmark: its function of a point, its number of inputs and its known
# minimum (runtime/bench/known.go: Branin's closed form, Hartmann's published).
BENCHMARKS = {
    # 5/(4 pi) rounded once, as Go's exact constant arithmetic gives it
    # (computing it in floats here would be 1 ulp off).
    "branin": (branin, 2, 0.3978873577297383),
    "hartmann3": (lambda x: hartmann(HARTMANN3_A, HARTMANN3_P, x), 3, -3.86278),
    "hartmann6": (lambda x: hartmann(HARTMANN6_A, HARTMANN6_P, x), 6, -3.32237),
}

# --- Methods ----------------------------------------------------------------------

METHODS = {
    "optuna-tpe": lambda seed: optuna.samplers.TPESampler(seed=seed),
    "optuna-tpe-mv": lambda seed: optuna.samplers.TPESampler(multivariate=True, seed=seed),
    "optuna-cmaes": lambda seed: optuna.samplers.CmaEsSampler(seed=seed),
    "optuna-random": lambda seed: optuna.samplers.RandomSampler(seed=seed),
}

# The quality study's budgets (docs/quality.md), by the file's budget, used
# when --budgets is not given; any other file budget reports that budget only.
DEFAULT_BUDGETS = {50: [10, 25, 50], 100: [25, 50, 100]}

# --- Reading a study file ---------------------------------------------------------

NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"


class Problem:
    """A study problem read from a .bo file."""

    def __init__(self, path):
        self.path = path
        self.name = os.path.splitext(os.path.basename(path))[0]  # as boc study names it
        with open(path) as f:
            text = re.sub(r"//[^\n]*", "", f.read())  # drop comments

        # Domain: one "NAME in [lo, hi]" or "NAME[n] in [lo, hi]" per line.
        block = re.search(r"\bdomain\s*\{(.*?)\}", text, re.S)
        if not block:
            raise SystemExit(f"{path}: no domain block")
        self.dims = []  # (parameter name, lo, hi), in the domain's order
        for line in block.group(1).strip().splitlines():
            m = re.fullmatch(rf"\s*(\w+)(?:\[(\d+)\])?\s+in\s+\[\s*({NUMBER})\s*,\s*({NUMBER})\s*\]\s*", line)
            if not m:
                raise SystemExit(f"{path}: cannot read domain line {line.strip()!r} (only boxes are supported)")
            name, count, lo, hi = m.group(1), m.group(2), float(m.group(3)), float(m.group(4))
            if count is None:
                self.dims.append((name, lo, hi))
            else:
                self.dims.extend((f"{name}[{i}]", lo, hi) for i in range(int(count)))

        m = re.search(r"\bobjective\s+minimize\s+(\w+)\s*\(", text)
        if not m or m.group(1) not in BENCHMARKS:
            raise SystemExit(f"{path}: the objective must be 'minimize' one of {', '.join(BENCHMARKS)}")
        self.function, dim, self.optimum = BENCHMARKS[m.group(1)]
        if dim != len(self.dims):
            raise SystemExit(f"{path}: {m.group(1)} takes {dim} inputs, the domain has {len(self.dims)}")

        m = re.search(rf"\bobservation\s+noise\s*~\s*normal\(\s*0\s*,\s*({NUMBER})\s*\)", text)
        self.noise_sd = float(m.group(1)) if m else 0.0
        if re.search(r"\bobservation\s+noise\b", text) and not m:
            raise SystemExit(f"{path}: only 'observation noise ~ normal(0, SD)' is supported")

        m = re.search(r"\bbudget\s+(\d+)", text)
        if not m:
            raise SystemExit(f"{path}: no budget")
        self.budget = int(m.group(1))

    def regret(self, value):
        """value - f*, clamped at 0 as cli/study_report.go does: f* is known to a
        few digits only, so a value better by less than a relative 1e-5 counts
        as 0, and one better by more means f* is wrong."""
        r = value - self.optimum
        if r < -1e-5 * max(1.0, abs(self.optimum)):
            raise SystemExit(f"{self.path}: noise-free value {value} is better than the optimum {self.optimum}")
        return max(r, 0.0)


# --- Running ----------------------------------------------------------------------


def noise_rng(problem, method, seed):
    """The noise stream of one run, seeded by (problem, method, seed); crc32
    rather than hash() so that it is the same in every Python process."""
    return np.random.default_rng([seed, zlib.crc32(problem.encode()), zlib.crc32(method.encode())])


def run(problem, method, seed, evaluations):
    """Runs one Optuna study and returns the noise-free value of study.best_trial
    after each trial."""
    rng = noise_rng(problem.name, method, seed)

    def objective(trial):
        x = [trial.suggest_float(name, lo, hi) for name, lo, hi in problem.dims]
        value = problem.function(x)
        trial.set_user_attr("noise_free", value)
        if problem.noise_sd > 0:
            return value + rng.normal(0.0, problem.noise_sd)
        return value

    best = []

    def record(study, trial):
        # Optuna's own choice: the trial with the lowest observed value so far.
        best.append(study.best_trial.user_attrs["noise_free"])

    study = optuna.create_study(direction="minimize", sampler=METHODS[method](seed))
    study.optimize(objective, n_trials=evaluations, callbacks=[record])
    if len(best) != evaluations:
        raise SystemExit(f"{problem.path} with {method}, seed {seed}: {len(best)} trials completed, want {evaluations}")
    return best


# --- Summaries, as cli/study_report.go computes and prints them ---------------------


def summarise(xs):
    """Median and quartiles, interpolating linearly between order statistics
    (R's default and numpy's percentile; cli/study_report.go's summarise)."""
    s = sorted(xs)

    def at(q):
        h = q * (len(s) - 1)
        i = int(h)
        if i + 1 >= len(s):
            return s[-1]
        return s[i] + (h - i) * (s[i + 1] - s[i])

    return {"q1": at(0.25), "median": at(0.5), "q3": at(0.75)}


def format_regret(x):
    """Three significant digits, like Go's strconv.FormatFloat(x, 'g', 3, 64)."""
    return "%.3g" % x


def cell(q):
    return f"{format_regret(q['median'])} [{format_regret(q['q1'])}, {format_regret(q['q3'])}]"


def write_markdown(out, seeds, results):
    """One table per set of budgets, as boc study --markdown prints them."""
    groups = {}
    for r in results:
        groups.setdefault(tuple(r["budgets"]), []).append(r)
    for i, (budgets, rows) in enumerate(groups.items()):
        if i > 0:
            out.write("\n")
        out.write(
            "Regret of Optuna's recommendation, its best trial (the trial with the lowest observed value, "
            "which is also its best observed point): median [lower quartile, upper quartile] over seeds "
            f"1..{seeds} of the noise-free objective minus the optimum, after each number of evaluations.\n\n"
        )
        out.write("| problem | method |" + "".join(f" {b} |" for b in budgets) + "\n")
        out.write("| --- | --- |" + " ---: |" * len(budgets) + "\n")
        for r in rows:
            out.write(f"| {r['problem']} | `{r['method']}` | " + " | ".join(cell(q) for q in r["recommendation"]) + " |\n")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    default_files = [
        os.path.join(here, "..", "studies", name + ".bo")
        for name in ("branin", "branin_noisy", "hartmann3", "hartmann3_noisy", "hartmann6", "hartmann6_noisy")
    ]
    parser = argparse.ArgumentParser(
        description="Regret of Optuna's samplers on boc's study problems, as boc study reports it.")
    parser.add_argument("files", nargs="*", metavar="FILE.bo", help="study files (default: the six of bench/studies/)")
    parser.add_argument("--seeds", type=int, default=10, metavar="N", help="run seeds 1..N (default 10)")
    parser.add_argument("--budgets", metavar="B,...",
                        help="report after these numbers of evaluations (default: 10,25,50 for a file budget "
                             "of 50, 25,50,100 for 100)")
    parser.add_argument("--methods", default=",".join(METHODS), metavar="M,...",
                        help=f"methods to run (default: all of {', '.join(METHODS)})")
    parser.add_argument("--problems", metavar="NAME,...",
                        help="only the files with these names (base name without .bo), e.g. branin,hartmann6")
    form = parser.add_mutually_exclusive_group()
    form.add_argument("--markdown", action="store_true", help="print Markdown tables (the default)")
    form.add_argument("--json", action="store_true", help="print one JSON object, like boc study --json")
    args = parser.parse_args()

    if args.seeds < 1:
        parser.error("--seeds must be at least 1")
    methods = args.methods.split(",")
    for m in methods:
        if m not in METHODS:
            parser.error(f"unknown method {m!r}: want some of {', '.join(METHODS)}")
    problems = [Problem(os.path.normpath(f) if args.files else os.path.relpath(f)) for f in (args.files or default_files)]
    if args.problems:
        wanted = args.problems.split(",")
        unknown = set(wanted) - {p.name for p in problems}
        if unknown:
            parser.error(f"no file for problem(s) {', '.join(sorted(unknown))}")
        problems = [p for p in problems if p.name in wanted]

    # Optuna's per-trial INFO lines, and the ExperimentalWarning of
    # multivariate TPE, would drown the report.
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)

    results = []
    for p in problems:
        if args.budgets:
            budgets = [int(b) for b in args.budgets.split(",")]
        else:
            budgets = DEFAULT_BUDGETS.get(p.budget, [p.budget])
        if budgets != sorted(set(budgets)) or budgets[0] < 1:
            parser.error("--budgets must be positive and increase")
        if budgets[-1] > p.budget:
            parser.error(f"{p.path}: --budgets goes up to {budgets[-1]}, beyond the file's budget {p.budget}")
        for m in methods:
            start = time.monotonic()
            regrets = [[] for _ in budgets]  # regrets[k][s]: after budgets[k] trials with seed s+1
            for seed in range(1, args.seeds + 1):
                best = run(p, m, seed, budgets[-1])
                for k, b in enumerate(budgets):
                    regrets[k].append(p.regret(best[b - 1]))
            seconds = time.monotonic() - start
            print(f"optuna_study: {p.path} with {m}: {args.seeds} seeds in {seconds:.1f} s", file=sys.stderr)
            summary = [summarise(r) for r in regrets]
            results.append({
                "problem": p.name, "file": p.path, "optimum": p.optimum, "noise_sd": p.noise_sd,
                "method": m, "budgets": budgets,
                # Optuna recommends its best observed trial: the two are the same point.
                "recommendation": summary, "best_observed": summary,
                "seconds": seconds,
            })

    if args.json:
        out = {"seeds": args.seeds, "optuna_version": optuna.__version__, "results": results}
        if len({tuple(r["budgets"]) for r in results}) == 1:
            out["budgets"] = results[0]["budgets"]
        json.dump(out, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        write_markdown(sys.stdout, args.seeds, results)


if __name__ == "__main__":
    main()
