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
always judged on the noise-free value, as in `boc study`. The problems, the
benchmark functions (ports of runtime/bench) and the summaries (`boc study`'s
quartiles and number format) are in study_common.py, shared with
sklearn_gp_study.py.

Run it with Debian's Python (python3-optuna, python3-cmaes, python3-numpy):

    /usr/bin/python3 bench/library/optuna_study.py                      # all six, 10 seeds, Markdown
    /usr/bin/python3 bench/library/optuna_study.py bench/studies/branin.bo \\
        --seeds 5 --budgets 10,25,50 --methods optuna-tpe,optuna-cmaes --json

bench/library.sh runs it next to `boc study` and merges the two (bench/README.md).
"""

import argparse
import json
import sys
import time
import warnings

import optuna

from study_common import noise_rng, parse, summarise, write_table

# --- Methods ----------------------------------------------------------------------

METHODS = {
    "optuna-tpe": lambda seed: optuna.samplers.TPESampler(seed=seed),
    "optuna-tpe-mv": lambda seed: optuna.samplers.TPESampler(multivariate=True, seed=seed),
    "optuna-cmaes": lambda seed: optuna.samplers.CmaEsSampler(seed=seed),
    "optuna-random": lambda seed: optuna.samplers.RandomSampler(seed=seed),
}

# --- Running ----------------------------------------------------------------------


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


def write_markdown(out, seeds, results):
    """One table per set of budgets, as boc study --markdown prints them."""
    write_table(
        out,
        "Regret of Optuna's recommendation, its best trial (the trial with the lowest observed value, "
        "which is also its best observed point): median [lower quartile, upper quartile] over seeds "
        f"1..{seeds} of the noise-free objective minus the optimum, after each number of evaluations.",
        results, "recommendation")


def main():
    parser = argparse.ArgumentParser(
        description="Regret of Optuna's samplers on boc's study problems, as boc study reports it.")
    args, methods, problems = parse(parser, METHODS)

    # Optuna's per-trial INFO lines, and the ExperimentalWarning of
    # multivariate TPE, would drown the report.
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)

    results = []
    for p in problems:
        budgets = p.budgets_reported
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
