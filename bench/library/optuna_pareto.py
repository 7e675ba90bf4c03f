#!/usr/bin/python3
"""Optuna on multi-objective problems from the literature: the reference that
boc's several objectives (issue 31) are to be measured against.

Problems (every objective minimised; the reference point and the largest
hypervolume are BoTorch's test problems'):

    branincurrin  BraninCurrin on [0, 1]^2, reference (18, 6), largest
                  hypervolume 59.36011874867746; budget 30
    zdt1          ZDT1 with 4 components, reference (11, 11), 120 + 2/3; budget 50
    zdt2          ZDT2 with 4 components, reference (11, 11), 120 + 1/3; budget 50
    zdt3          ZDT3 with 4 components, reference (11, 11), 128.77811613069076; budget 50
    dtlz2         DTLZ2 with 6 components and 2 objectives, reference (1.1, 1.1),
                  1.21 - pi/4; budget 50
    dtlz2_3       DTLZ2 with 6 components and 3 objectives, reference 1.1 each,
                  1.331 - pi/6; budget 60
    vehiclesafety VehicleSafety (Tanabe and Ishibuchi 2020's RE3-5-4, a car's
                  crashworthiness) on [1, 3]^5, 3 objectives, BoTorch's
                  reference (1864.72022, 11.81993945, 0.2903999384) and
                  largest hypervolume 246.81607081187002; budget 60
    branincurrin_inert  BraninCurrin over the first 2 of 6 components (4 do
                  nothing), BraninCurrin's reference and hypervolume; budget 40

Methods:

    optuna-motpe   TPESampler(seed=s): Optuna's TPE, which samples several
                   objectives as MOTPE does (Ozaki et al. 2020)
    optuna-nsga2   NSGAIISampler(seed=s, population_size=10): a population
                   small enough to evolve within these budgets (the default,
                   50, would leave a whole budget to its random first generation)
    optuna-random  RandomSampler(seed=s): uniform points, a sanity row

For each, seeds 1..N, and after the budget the report gives, over the seeds,
the median and quartiles of the log10 hypervolume gap, log10(HVmax - HV), HV
the hypervolume that the evaluated points dominate below the reference point
(noise-free values). It needs Debian's python3-optuna and python3-numpy.

    /usr/bin/python3 bench/library/optuna_pareto.py --seeds 20 --markdown
"""

import argparse
import math
import sys
import time
import warnings

import optuna

from study_common import branin, summarise

# --- Problems ----------------------------------------------------------------


def branincurrin(x):
    b = branin([15 * x[0] - 5, 15 * x[1]])
    y = max(x[1], 1e-9)
    c = (1 - math.exp(-1 / (2 * y))) * (2300 * x[0] ** 3 + 1900 * x[0] ** 2 + 2092 * x[0] + 60) / (
        100 * x[0] ** 3 + 500 * x[0] ** 2 + 4 * x[0] + 20)
    return [b, c]


def zdt(shape):
    def f(x):
        f1 = x[0]
        g = 1 + 9 * sum(x[1:]) / (len(x) - 1)
        return [f1, g * shape(f1 / g)]
    return f


def dtlz2(m):
    def f(x):
        g = sum((v - 0.5) ** 2 for v in x[m - 1:])
        out = []
        for i in range(m):
            v = 1 + g
            for xj in x[:m - 1 - i]:
                v *= math.cos(xj * math.pi / 2)
            if i > 0:
                v *= math.sin(x[m - 1 - i] * math.pi / 2)
            out.append(v)
        return out
    return f


def vehiclesafety(x):
    x1, x2, x3, x4, x5 = x
    f1 = 1640.2823 + 2.3573285 * x1 + 2.3220035 * x2 + 4.5688768 * x3 + 7.7213633 * x4 + 4.4559504 * x5
    f2 = (6.5856 + 1.15 * x1 - 1.0427 * x2 + 0.9738 * x3 + 0.8364 * x4 - 0.3695 * x1 * x4 + 0.0861 * x1 * x5
          + 0.3628 * x2 * x4 - 0.1106 * x1 ** 2 - 0.3437 * x3 ** 2 + 0.1764 * x4 ** 2)
    f3 = (-0.0551 + 0.0181 * x1 + 0.1024 * x2 + 0.0421 * x3 - 0.0073 * x1 * x2 + 0.024 * x2 * x3 - 0.0118 * x2 * x4
          - 0.0204 * x3 * x4 - 0.008 * x3 * x5 - 0.0241 * x2 ** 2 + 0.0109 * x4 ** 2)
    return [f1, f2, f3]


PROBLEMS = {
    "branincurrin": dict(f=branincurrin, d=2, ref=[18, 6], hv=59.36011874867746, budget=30),
    "zdt1": dict(f=zdt(lambda r: 1 - math.sqrt(r)), d=4, ref=[11, 11], hv=120 + 2 / 3, budget=50),
    "zdt2": dict(f=zdt(lambda r: 1 - r * r), d=4, ref=[11, 11], hv=120 + 1 / 3, budget=50),
    "zdt3": dict(f=zdt(lambda r: 1 - math.sqrt(r) - r * math.sin(10 * math.pi * r)), d=4, ref=[11, 11],
                 hv=128.77811613069076, budget=50),
    "dtlz2": dict(f=dtlz2(2), d=6, ref=[1.1, 1.1], hv=1.21 - math.pi / 4, budget=50),
    "dtlz2_3": dict(f=dtlz2(3), d=6, ref=[1.1, 1.1, 1.1], hv=1.331 - math.pi / 6, budget=60),
    "vehiclesafety": dict(f=vehiclesafety, d=5, lo=1, hi=3, ref=[1864.72022, 11.81993945, 0.2903999384],
                          hv=246.81607081187002, budget=60),
    "branincurrin_inert": dict(f=lambda x: branincurrin(x[:2]), d=6, ref=[18, 6], hv=59.36011874867746, budget=40),
}

# --- Hypervolume ---------------------------------------------------------------


def front(points):
    """The points no other dominates (all objectives minimised)."""
    out = []
    for i, p in enumerate(points):
        dominated = any(all(q[j] <= p[j] for j in range(len(p))) and any(q[j] < p[j] for j in range(len(p)))
                        for k, q in enumerate(points) if k != i)
        if not dominated and p not in out:
            out.append(p)
    return out


def hypervolume2(points, ref):
    pts = sorted(p for p in points if p[0] < ref[0] and p[1] < ref[1])
    hv, best = 0.0, ref[1]
    for p in pts:
        if p[1] < best:
            hv += (ref[0] - p[0]) * (best - p[1])
            best = p[1]
    return hv


def hypervolume(points, ref):
    """Exact hypervolume dominated below ref: 2-D by a sweep, 3-D by slices
    of the third objective, each a 2-D hypervolume."""
    pts = [p for p in front(points) if all(p[j] < ref[j] for j in range(len(ref)))]
    if len(ref) == 2:
        return hypervolume2(pts, ref)
    pts.sort(key=lambda p: p[2])
    hv = 0.0
    for i, p in enumerate(pts):
        top = pts[i + 1][2] if i + 1 < len(pts) else ref[2]
        hv += hypervolume2([q[:2] for q in pts[:i + 1]], ref[:2]) * (top - p[2])
    return hv


# --- Runs ----------------------------------------------------------------------


def sampler_of(method, seed):
    if method == "optuna-motpe":
        return optuna.samplers.TPESampler(seed=seed)
    if method == "optuna-nsga2":
        return optuna.samplers.NSGAIISampler(seed=seed, population_size=10)
    return optuna.samplers.RandomSampler(seed=seed)


def run(problem, method, seed):
    p = PROBLEMS[problem]
    values = []

    def objective(trial):
        x = [trial.suggest_float(f"x{i}", p.get("lo", 0), p.get("hi", 1)) for i in range(p["d"])]
        y = p["f"](x)
        values.append(y)
        return tuple(y)

    study = optuna.create_study(directions=["minimize"] * len(p["ref"]), sampler=sampler_of(method, seed))
    study.optimize(objective, n_trials=p["budget"])
    gap = p["hv"] - hypervolume(values, p["ref"])
    return math.log10(max(gap, 1e-12))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--problems", default=",".join(PROBLEMS))
    parser.add_argument("--methods", default="optuna-motpe,optuna-nsga2,optuna-random")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    warnings.simplefilter("ignore")
    methods = args.methods.split(",")
    start = time.time()
    rows = []
    for problem in args.problems.split(","):
        row = [problem]
        for method in methods:
            q = summarise([run(problem, method, seed) for seed in range(1, args.seeds + 1)])
            row.append(f"{q['median']:.2f} [{q['q1']:.2f}, {q['q3']:.2f}]")
        rows.append(row)
    out = sys.stdout
    if args.markdown:
        print(f"log10 hypervolume gap after the budget, median [quartiles] over {args.seeds} seeds\n", file=out)
        print("| problem | " + " | ".join(methods) + " |", file=out)
        print("|---" * (len(methods) + 1) + "|", file=out)
        for row in rows:
            print("| " + " | ".join(row) + " |", file=out)
    else:
        for row in rows:
            print("  ".join(row), file=out)
    print(f"\n{time.time() - start:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
