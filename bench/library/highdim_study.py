#!/usr/bin/python3
"""High-dimensional problems: boc's global search (lbfgs) and its trust
region (turbo, TuRBO-1) against Optuna's CMA-ES and TPE (issue 33).

Problems (every one minimised; regret is the best noise-free value found
less the known minimum, 0 unless said):

    ackleyD      Ackley on [-5, 10]^D (TuRBO's domain)
    levyD        Levy on [-10, 10]^D; minimum at (1, ..., 1)
    rosenbrockD  Rosenbrock on [-5, 10]^D; minimum at (1, ..., 1)
    hartmann6_100  Hartmann6 over the first 6 of 100 components in [0, 1]
                 (94 do nothing); minimum -3.32237
    lqr24        24 feedback gains in [-5, 5] of a chain of four masses, the
                 log of a quadratic cost (controller.py, an exec objective);
                 minimum found by L-BFGS from the LQR gain

for D in 20, 30, 60 and 100.

Methods:

    boc-lbfgs    boc's default model and acquisition with search lbfgs over the
                 whole box: from 20 components (every problem here) the model
                 is the additive recipe's, since 94ee38e (option gp below)
    boc-turbo    the same with search turbo: lbfgs confined to TuRBO-1's
                 trust region (the default search from 20 components for a
                 file that states its model)
    boc-default  neither model nor search stated: what a file that leaves both
                 out gets (from 20 components the additive recipe,
                 docs/language.md, "Additive kernels")
    boc-S-OPT-OPT...  search S with options, each one of
                 localN    a local model of N observations (model gp(approx =
                           "local", local_size = N)): with turbo, TuRBO's model
                           of the region's neighbourhood
                 additive  an additive kernel (matern52(groups = "components"):
                           one Matern-5/2 kernel per component, averaged,
                           against the joint one by a learned interaction;
                           since 2026-11-28 it brings the nugget's residual
                           variance with it, the acquisition staying ei)
                 additive0 the same, additive alone (interaction = 0)
                 additiveloL the same, the interaction learned in [L, 1]
                 sweepsN   N coordinate sweeps after the search (S(sweeps = N))
                 nugget    a learned noise variance (observation noise learn)
                           with acquisition ei (not the noisy default, kg)
                 lsLO_HI   the kernel's lengthscales learned in [LO, HI]
                 warpW     output warping W (model gp(warp = "W"): power, auto)
                 meanM     the prior mean M (model gp(mean = "M"): average,
                           worst)
                 regionsN  N trust regions (turbo(regions = N): TuRBO-m)
                 failureN  a trust region that halves after N failures in a
                           row (turbo(failure = N); by default TuRBO's
                           rule, max(4, D) for one suggestion at a time)
                 nearF     the share F of lbfgs's raw candidates near the best
                           point (lbfgs(near_best = F); near0: every candidate a
                           Sobol point, lbfgs's only kind before 2026-11-29)
                 gp        state the model (model gp) even without other model
                           options: from 20 components a file that leaves
                           the model out gets the additive recipe's
                           (docs/language.md, "Additive kernels"), so
                           boc-lbfgs there is that model with lbfgs's
                           default search, and boc-lbfgs-gp is the exact GP
                           with one kernel over all components
                 plusjoint the kernel plus a Matern-5/2 kernel over all
                           components with lengthscales of its own
                           (kernel = matern52(...) + matern52)
    optuna-cmaes Optuna's CmaEsSampler(seed=s) (python3-cmaes)
    optuna-tpe   Optuna's TPESampler(seed=s)

Each runs seeds 1..N with the budget; the table gives the median and
quartiles of the regret after the budget. boc's values are checked against
this script's functions at every evaluated point, so the two languages
define the same problem.

    BOC=/tmp/boc /usr/bin/python3 bench/library/highdim_study.py --seeds 10 --markdown

BOC names the boc binary (go build -o /tmp/boc ./cmd/boc). Needs Debian's
python3-optuna and python3-cmaes.
"""

import argparse
import concurrent.futures
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time
import warnings

import controller
from study_common import HARTMANN6_A, HARTMANN6_P, ackley, cell, hartmann, levy, print_rows, summarise


def rosenbrock(x):
    return sum(100 * (x[i + 1] - x[i] ** 2) ** 2 + (1 - x[i]) ** 2 for i in range(len(x) - 1))


def problems():
    out = {}
    for d in (20, 30, 60, 100):
        out[f"ackley{d}"] = {"dim": d, "lo": -5, "hi": 10, "bo": "ackley(x)", "f": ackley, "minimum": 0.0}
        out[f"levy{d}"] = {"dim": d, "lo": -10, "hi": 10, "bo": "levy(x)", "f": levy, "minimum": 0.0}
        terms = " + ".join(f"100 * (x[{i + 1}] - x[{i}]^2)^2 + (1 - x[{i}])^2" for i in range(d - 1))
        out[f"rosenbrock{d}"] = {"dim": d, "lo": -5, "hi": 10, "bo": terms, "f": rosenbrock, "minimum": 0.0}
    out["hartmann6_100"] = {"dim": 100, "lo": 0, "hi": 1, "bo": "hartmann6([" + ", ".join(f"x[{j}]" for j in range(6)) + "])",
                            "f": lambda x: hartmann(HARTMANN6_A, HARTMANN6_P, x[:6]), "minimum": -3.32237}
    here = os.path.dirname(os.path.abspath(__file__))
    out["lqr24"] = {"dim": controller.GAINS, "lo": controller.LO, "hi": controller.HI,
                    "bo": f'exec "{sys.executable}" "{os.path.join(here, "controller.py")}"', "f": controller.cost,
                    "minimum": controller.minimum}
    return out


PROBLEMS = problems()


def source(name, method, budget):
    """The .bo file of boc-METHOD: SEARCH followed by options (module docstring)."""
    p = PROBLEMS[name]
    search, *options = method.split("-")
    if search == "default" and options:
        sys.exit(f"highdim_study: boc-default takes no options (boc-{method})")
    model, kernel, search_args, extra = [], [], [], []
    joint = stated = False
    for opt in options:
        if opt == "gp":
            stated = True
        elif opt.startswith("local"):
            model.append(f'approx = "local", local_size = {opt.removeprefix("local")}')
        elif opt.startswith("ls"):
            lo, hi = opt.removeprefix("ls").split("_")
            kernel.append(f"lengthscale = learn(bounds = [{lo}, {hi}])")
        elif opt == "additive":
            kernel.append('groups = "components"')
        elif opt == "additive0":
            kernel.append('groups = "components", interaction = 0')
        elif opt.startswith("additivelo"):
            kernel.append(f'groups = "components", interaction = learn(bounds = [{opt.removeprefix("additivelo")}, 1])')
        elif opt == "nugget":
            extra += ["observation noise learn", "acquisition ei"]
        elif opt.startswith("warp"):
            model.append(f'warp = "{opt.removeprefix("warp")}"')
        elif opt.startswith("mean"):
            model.append(f'mean = "{opt.removeprefix("mean")}"')
        elif opt.startswith("sweeps"):
            search_args.append(f"sweeps = {opt.removeprefix('sweeps')}")
        elif opt == "plusjoint":
            joint = True
        elif opt.startswith("regions"):
            search_args.append(f"regions = {opt.removeprefix('regions')}")
        elif opt.startswith("failure"):
            search_args.append(f"failure = {opt.removeprefix('failure')}")
        elif opt.startswith("near"):
            search_args.append(f"near_best = {opt.removeprefix('near')}")
        else:
            sys.exit(f"highdim_study: unknown option {opt!r} of method boc-{method}")
    if kernel or joint:
        model.append(f"kernel = matern52({', '.join(kernel)})" + (" + matern52" if joint else ""))
    lines = ([f"model gp({', '.join(model)})"] if model or stated else []) + extra
    if search_args:
        search += f"({', '.join(search_args)})"
    if search != "default":
        lines.append(f"search {search}")
    return "\n".join([f"problem {name}", "", "domain {", f"    x[{p['dim']}] in [{p['lo']}, {p['hi']}]", "}", "",
                      f"objective minimize {p['bo']}"] + lines + [f"budget {budget}", "seed 1", ""])


def measured_setup(boc, path):
    """The model, acquisition and search the checker chose for the file (boc check --dump ir),
    so that a study says what it measured, defaults included."""
    ir = subprocess.run([boc, "check", "--dump", "ir", path], check=True, capture_output=True, text=True).stdout
    keep, out = False, []
    for line in ir.splitlines():
        if not line.startswith(" "):
            keep = line.split(" ")[0] in ("model", "acquisition", "search", "observation")
        if keep:
            out.append(re.sub(r":(string|int|real)\b| \(default\)| @\d+:\d+", "", line.strip()))
    return "; ".join(out)


def boc_regret(boc, workdir, name, method, budget, seeds, jobs):
    path = os.path.join(workdir, f"{name}_{method.replace('-', '_')}.bo")
    with open(path, "w") as f:
        f.write(source(name, method, budget))
    exe = path[:-3]
    print(f"highdim_study: {name} with boc-{method} measures {measured_setup(boc, path)}", file=sys.stderr, flush=True)
    subprocess.run([boc, "build", "-o", exe, path], check=True, capture_output=True)
    p = PROBLEMS[name]

    def run(seed):
        return subprocess.run([exe, "run", "--json", "--trace", "--seed", str(seed)],
                              check=True, capture_output=True, text=True).stdout

    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        outputs = list(pool.map(run, seeds))
    regrets = []
    for text in outputs:
        out = json.loads(text)
        best = math.inf
        for step in out["trace"]:
            x = step["x"]["x"]
            truth = p["f"](x)
            if abs(step["y"] - truth) > 1e-9 * max(1, abs(truth)):
                sys.exit(f"highdim_study: {name} at {x}: boc's value {step['y']} is not the problem's {truth}")
            best = min(best, truth)
        regrets.append(best - minimum(p))
    return regrets


def minimum(p):
    """The problem's known minimum (computed for those that give a function)."""
    return p["minimum"]() if callable(p["minimum"]) else p["minimum"]


def optuna_regret(name, budget, seeds, sampler):
    import optuna
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    warnings.simplefilter("ignore")
    p = PROBLEMS[name]

    def objective(trial):
        return p["f"]([trial.suggest_float(f"x{i}", p["lo"], p["hi"]) for i in range(p["dim"])])

    regrets = []
    for seed in seeds:
        s = optuna.samplers.CmaEsSampler(seed=seed) if sampler == "cmaes" else optuna.samplers.TPESampler(seed=seed)
        study = optuna.create_study(sampler=s)
        study.optimize(objective, n_trials=budget)
        regrets.append(study.best_value - minimum(p))
    return regrets


METHODS = ["boc-lbfgs", "boc-turbo", "optuna-cmaes", "optuna-tpe"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--budget", type=int, default=400)
    ap.add_argument("--problems", default="ackley20,levy20,rosenbrock20,ackley30,levy30,rosenbrock30")
    ap.add_argument("--methods", default=",".join(METHODS))
    ap.add_argument("--jobs", type=int, default=os.cpu_count(), help="boc runs at once")
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    boc = os.environ.get("BOC")
    methods = args.methods.split(",")
    if any(m.startswith("boc") for m in methods) and not boc:
        sys.exit("highdim_study: set BOC to the boc binary (go build -o /tmp/boc ./cmd/boc)")
    seeds = range(1, args.seeds + 1)
    rows = []
    with tempfile.TemporaryDirectory() as workdir:
        for name in args.problems.split(","):
            row = [name, str(args.budget)]
            for m in methods:
                start = time.time()
                if m.startswith("boc"):
                    r = boc_regret(os.path.abspath(boc), workdir, name, m.removeprefix("boc-"), args.budget, seeds, args.jobs)
                else:
                    r = optuna_regret(name, args.budget, seeds, m.removeprefix("optuna-"))
                row.append(cell(summarise(r)))
                print(f"highdim_study: {name} with {m}: {row[-1]} over {args.seeds} seeds in {time.time() - start:.1f} s"
                      f" (by seed: {' '.join(f'{v:.3g}' for v in r)})", file=sys.stderr, flush=True)
            rows.append(row)
    print_rows(f"regret after {args.budget} evaluations, median [quartiles] over {args.seeds} seeds",
               ["problem", "budget"] + methods, rows, args.markdown)


if __name__ == "__main__":
    main()
