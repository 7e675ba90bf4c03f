#!/usr/bin/python3
"""Optuna on constrained problems from the literature: the reference that boc's
outcome constraints (`require`, issue 31) are to be measured against.

Problems (minimise f subject to c(x) <= 0; each c is an outcome constraint:
evaluations may break it, only the result must keep it):

    gardner      Gardner et al. (2014), section 5.1: f = cos(2x) cos(y) + sin(x),
                 c = cos(x) cos(y) - sin(x) sin(y) - 0.5, on [0, 6]^2; f* found
                 here on a grid of 1201^2 points refined by Nelder-Mead
    branin_disk  Branin on [-5, 10] x [0, 15] with (x1 - 2.5)^2 + (x2 - 7.5)^2 <= 50:
                 two of Branin's three minimisers lie outside, f* = 5/(4 pi)
    hartmann6_l1 Hartmann6 on [0, 1]^6 with sum(x) <= 3 (BoTorch's constrained
                 Hartmann example): its minimiser keeps it, f* = -3.32237
    branin_spot  Branin with (x1 - pi)^2 + (x2 - 2.275)^2 <= 1: a feasible disc of 1.4%
                 of the box around one minimiser, f* = 5/(4 pi); a problem where
                 finding a feasible point at all is the work
    gramacy      Gramacy et al. (2016)'s toy: f = x1 + x2 on [0, 1]^2 with
                 1.5 - x1 - 2 x2 - 0.5 sin(2 pi (x1^2 - 2 x2)) <= 0 and
                 x1^2 + x2^2 - 1.5 <= 0, a small feasible region in pieces;
                 f* found as for gardner (about 0.5998)

Methods:

    optuna-tpe     TPESampler(seed=s, constraints_func=c): Optuna's constrained TPE
    optuna-random  RandomSampler(seed=s): uniform points, a sanity row

For each, seeds 1..N, and after each budget the report gives, over the seeds,
the median and quartiles of the regret of the recommendation, f(x) - f*, where
x is the best trial among those that keep every constraint (Optuna's own
notion of a feasible best trial), the number of runs with no feasible trial
yet (their recommendation is infeasible, and their regret is left out of the
quartiles), and, over the runs that found one, the median number of
evaluations until the first feasible trial. The values are noise-free. It
needs Debian's python3-optuna, python3-numpy and python3-scipy.

    /usr/bin/python3 bench/library/optuna_constrained.py --seeds 20 --markdown
"""

import argparse
import math
import sys
import time
import warnings

import numpy as np
import optuna
from scipy.optimize import minimize

from study_common import branin, cell, hartmann, HARTMANN6_A, HARTMANN6_P, summarise

# --- Problems ----------------------------------------------------------------


def gardner_f(x):
    return math.cos(2 * x[0]) * math.cos(x[1]) + math.sin(x[0])


def gardner_c(x):
    return math.cos(x[0]) * math.cos(x[1]) - math.sin(x[0]) * math.sin(x[1]) - 0.5


def gramacy_c(x):
    return [1.5 - x[0] - 2 * x[1] - 0.5 * math.sin(2 * math.pi * (x[0] ** 2 - 2 * x[1])),
            x[0] ** 2 + x[1] ** 2 - 1.5]


def grid_optimum(f, cons, lo, hi):
    """The best feasible value of a 2-D problem on a 1201^2 grid, refined by
    Nelder-Mead from its 20 best points."""
    g0, g1 = np.linspace(lo[0], hi[0], 1201), np.linspace(lo[1], hi[1], 1201)
    best, starts = math.inf, []
    for a in g0:
        for b in g1:
            if all(c([a, b]) <= 0 for c in cons):
                starts.append((f([a, b]), a, b))
    starts.sort()
    inside = lambda p: all(lo[i] <= p[i] <= hi[i] for i in range(2))
    penalised = lambda p: f(p) + 1e6 * sum(max(0.0, c(p)) for c in cons) if inside(p) else 1e9
    for v, a, b in starts[:20]:
        best = min(best, v)
        r = minimize(penalised, [a, b], method="Nelder-Mead", options={"xatol": 1e-10, "fatol": 1e-12})
        if inside(r.x) and all(c(r.x) <= 1e-12 for c in cons):
            best = min(best, f(r.x))
    return best


PROBLEMS = {
    "gardner": dict(lo=[0, 0], hi=[6, 6], f=gardner_f, cons=[gardner_c], budget=50, optimum=None),
    "gramacy": dict(lo=[0, 0], hi=[1, 1], f=lambda x: x[0] + x[1],
                    cons=[lambda x: gramacy_c(x)[0], lambda x: gramacy_c(x)[1]], budget=50, optimum=None),
    "branin_disk": dict(lo=[-5, 0], hi=[10, 15], f=branin,
                        cons=[lambda x: (x[0] - 2.5) ** 2 + (x[1] - 7.5) ** 2 - 50], budget=50,
                        optimum=5 / (4 * math.pi)),
    "branin_spot": dict(lo=[-5, 0], hi=[10, 15], f=branin,
                        cons=[lambda x: (x[0] - math.pi) ** 2 + (x[1] - 2.275) ** 2 - 1], budget=50,
                        optimum=5 / (4 * math.pi)),
    "hartmann6_l1": dict(lo=[0] * 6, hi=[1] * 6, f=lambda x: hartmann(HARTMANN6_A, HARTMANN6_P, x),
                         cons=[lambda x: sum(x) - 3], budget=100, optimum=-3.32237),
}

METHODS = {
    "optuna-tpe": lambda seed, cf: optuna.samplers.TPESampler(seed=seed, constraints_func=cf),
    "optuna-random": lambda seed, cf: optuna.samplers.RandomSampler(seed=seed),
}

# --- Runs --------------------------------------------------------------------


def run(problem, method, seed):
    """The best feasible value after each evaluation (nan while none), and the
    evaluation of the first feasible trial (None if none)."""
    p = PROBLEMS[problem]
    d = len(p["lo"])

    def constraints(trial):
        return trial.user_attrs["c"]

    sampler = METHODS[method](seed, constraints)
    study = optuna.create_study(direction="minimize", sampler=sampler)
    best, first, trace = math.inf, None, []
    for k in range(p["budget"]):
        trial = study.ask()
        x = [trial.suggest_float(f"x{i}", p["lo"][i], p["hi"][i]) for i in range(d)]
        c = [float(g(x)) for g in p["cons"]]
        trial.set_user_attr("c", c)
        y = float(p["f"](x))
        study.tell(trial, y)
        if all(v <= 0 for v in c):
            best = min(best, y)
            if first is None:
                first = k + 1
        trace.append(best if best < math.inf else math.nan)
    return trace, first


def report(problems, methods, seeds, markdown):
    out = sys.stdout
    for name in problems:
        p = PROBLEMS[name]
        if p["optimum"] is None:
            p["optimum"] = grid_optimum(p["f"], p["cons"], p["lo"], p["hi"])
        budgets = [p["budget"] // 5, p["budget"] // 2, p["budget"]]
        head = ["problem", "method"] + [str(b) for b in budgets] + ["runs with no feasible trial at the end", "first feasible trial (median over the runs that found one)"]
        rows = []
        for m in methods:
            start = time.time()
            runs = [run(name, m, s) for s in range(1, seeds + 1)]
            cells = []
            for b in budgets:
                regrets = [t[b - 1] - p["optimum"] for t, _ in runs if not math.isnan(t[b - 1])]
                cells.append(cell(summarise(regrets)) if regrets else "n/a")
            firsts = sorted(f for _, f in runs if f is not None)
            never = sum(1 for _, f in runs if f is None)
            median_first = firsts[len(firsts) // 2] if firsts else "none"
            rows.append([name, m] + cells + [str(never), str(median_first)])
            print(f"optuna_constrained: {name} with {m}: {seeds} seeds in {time.time() - start:.1f} s", file=sys.stderr)
        print(f"\n{name}: f* = {p['optimum']:.6g}; regret of the best feasible trial, median [quartiles] over seeds 1..{seeds}, after each budget\n", file=out)
        if markdown:
            print("| " + " | ".join(head) + " |", file=out)
            print("| " + " | ".join(["---"] * len(head)) + " |", file=out)
            for r in rows:
                print("| " + " | ".join(r) + " |", file=out)
        else:
            for r in [head] + rows:
                print("  ".join(r), file=out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--problems", default=",".join(PROBLEMS))
    ap.add_argument("--methods", default=",".join(METHODS))
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)
    report(args.problems.split(","), args.methods.split(","), args.seeds, args.markdown)


if __name__ == "__main__":
    main()
