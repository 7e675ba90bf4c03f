"""boc on the outcome-constrained problems of optuna_constrained.py, scored as
that script scores Optuna, so that the two tables sit side by side.

Each problem becomes a .bo file whose constraints are requirements
(`require NAME: simulated EXPR <= 0`, noise-free), built once per method with
boc and run for seeds 1..N with `run --json --trace`. After each budget the
recommendation is judged by the true functions here, not by the program: its
regret f(x) - f* counts when it truly keeps every constraint; a run without a
recommendation, or whose recommendation truly breaks a constraint, is counted
instead (the "no feasible recommendation" column), as optuna_constrained.py
counts the runs with no feasible trial. The first feasible evaluation is
judged the same way.

Methods:

    boc-ei       acquisition ei weighted by the probability of feasibility
    boc-nei      acquisition nei (noisy expected improvement), weighted
    boc-random   run --random-search: uniform points, the recommendation the
                 same model's among the feasible ones
    boc-safe     the constraints as safety constraints, never to be broken,
                 from one seed point each problem declares safe (SEEDS), with
                 acquisition safe_ucb: the conservative way the requirements
                 replace
    boc-safe-require
                 safe_ucb with the first constraint a requirement and the
                 others safety constraints (from the seed): where only some
                 limits must hold at every evaluation (gramacy: the disc is
                 the safety constraint, the wiggly boundary the requirement);
                 problems of one constraint have no row for it

The safe methods' column of truly unsafe evaluations sums, over the runs,
the evaluations whose true safety constraints broke a limit.

    BOC=/tmp/boc /usr/bin/python3 bench/library/boc_constrained.py --seeds 20 --markdown

BOC names the boc binary (go build -o /tmp/boc ./cmd/boc). Needs Debian's
python3-optuna (for the problems' module), python3-numpy and python3-scipy.
"""

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time

from optuna_constrained import PROBLEMS, grid_optimum
from study_common import cell, summarise

# The problems in boc's language: domain, objective and requirements (each
# "<= 0", as the constraints of PROBLEMS are), in the same order.
SOURCES = {
    "gardner": (["x0 in [0, 6]", "x1 in [0, 6]"], "cos(2 * x0) * cos(x1) + sin(x0)",
                ["cos(x0) * cos(x1) - sin(x0) * sin(x1) - 0.5"]),
    "gramacy": (["x0 in [0, 1]", "x1 in [0, 1]"], "x0 + x1",
                ["1.5 - x0 - 2 * x1 - 0.5 * sin(2 * pi * (x0^2 - 2 * x1))", "x0^2 + x1^2 - 1.5"]),
    "branin_disk": (["x0 in [-5, 10]", "x1 in [0, 15]"], "branin(x0, x1)",
                    ["(x0 - 2.5)^2 + (x1 - 7.5)^2 - 50"]),
    "branin_spot": (["x0 in [-5, 10]", "x1 in [0, 15]"], "branin(x0, x1)",
                    ["(x0 - pi)^2 + (x1 - 2.275)^2 - 1"]),
    "hartmann6_l1": (["x[6] in [0, 1]"], "hartmann6(x)", ["x[0] + x[1] + x[2] + x[3] + x[4] + x[5] - 3"]),
}

# A feasible point of each problem, away from its optimum, that boc-safe
# starts from.
SEEDS = {"gardner": [1.5, 3], "gramacy": [0.5, 0.5], "branin_disk": [2.5, 7.5], "branin_spot": [math.pi + 0.5, 2.775],
         "hartmann6_l1": [0.25] * 6}

METHODS = {"boc-ei": ("ei", False), "boc-nei": ("nei", False), "boc-kg": ("kg", False), "boc-ucb": ("ucb", False), "boc-random": ("ei", True),
           "boc-safe": ("safe_ucb", False), "boc-safe-require": ("safe_ucb", False)}


def source(name, method):
    acquisition, _ = METHODS[method]
    dims, objective, cons = SOURCES[name]
    d = PROBLEMS[name]
    n = len(d["lo"])
    lines = [f"problem {name}", "", "domain {"] + [f"    {x}" for x in dims] + ["}", "",
                                                                               f"objective minimize {objective}", ""]
    if acquisition == "safe_ucb":
        seed = ", ".join(repr(v) for v in SEEDS[name])
        for k, c in enumerate(cons):
            if method == "boc-safe-require" and k == 0:
                lines.append(f"require c{k}: simulated {c} <= 0")
            else:
                lines.append(f"constraint c{k}: simulated {c} <= 0 {{ seed [[{seed}]] }}")
        design = []
    else:
        lines += [f"require c{k}: simulated {c} <= 0" for k, c in enumerate(cons)]
        design = [f"init sobol({2 * n + 2})"]
    lines += ["", "model gp", f"acquisition {acquisition}", f"budget {d['budget']}"] + design + ["seed 1", ""]
    return "\n".join(lines)


def build(boc, workdir, name, method):
    path = os.path.join(workdir, f"{name}_{method}.bo")
    with open(path, "w") as f:
        f.write(source(name, method))
    exe = path[:-3]
    subprocess.run([boc, "build", "-o", exe, path], check=True, capture_output=True)
    return exe


def point(p, x):
    """The recommendation's JSON point as a flat list, in the domain's order."""
    out = []
    for v in x.values():
        out.extend(v if isinstance(v, list) else [v])
    return out


def feasible(p, x):
    return all(c(x) <= 0 for c in p["cons"])


def run(exe, name, seed, random):
    """The true regret-to-be (f(x), or nan when the recommendation is missing or
    truly infeasible) after each evaluation, the first truly feasible
    evaluation (None if none) and the truly unsafe evaluations (None without
    safety constraints)."""
    p = PROBLEMS[name]
    args = [exe, "run", "--json", "--trace", "--seed", str(seed)]
    if random:
        args.append("--random-search")
    out = json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)
    trace, first = [], None
    for k, step in enumerate(out["trace"]):
        if first is None and feasible(p, point(p, step["x"])):
            first = k + 1
        rec = step.get("recommendation")
        value = math.nan
        if rec is not None and feasible(p, point(p, rec)):
            value = p["f"](point(p, rec))
        trace.append(value)
    return trace, first, out.get("unsafe_evaluations")


def report(boc, problems, methods, seeds, markdown):
    out = sys.stdout
    with tempfile.TemporaryDirectory() as workdir:
        for name in problems:
            p = PROBLEMS[name]
            if p["optimum"] is None:
                p["optimum"] = grid_optimum(p["f"], p["cons"], p["lo"], p["hi"])
            budgets = [p["budget"] // 5, p["budget"] // 2, p["budget"]]
            head = ["problem", "method"] + [str(b) for b in budgets] + \
                ["runs with no feasible recommendation at the end", "first feasible evaluation (median over the runs that made one)",
                 "truly unsafe evaluations (all runs)"]
            rows = []
            for m in methods:
                if m == "boc-safe-require" and len(SOURCES[name][2]) < 2:
                    continue  # nothing to keep as a safety constraint beside the requirement
                start = time.time()
                exe = build(boc, workdir, name, m)
                runs = [run(exe, name, s, METHODS[m][1]) for s in range(1, seeds + 1)]
                cells = []
                for b in budgets:
                    regrets = [t[b - 1] - p["optimum"] for t, _, _ in runs if not math.isnan(t[b - 1])]
                    cells.append(cell(summarise(regrets)) if regrets else "n/a")
                firsts = sorted(f for _, f, _ in runs if f is not None)
                never = sum(1 for t, _, _ in runs if math.isnan(t[-1]))
                median_first = firsts[len(firsts) // 2] if firsts else "none"
                unsafe = [u for _, _, u in runs if u is not None]
                rows.append([name, m] + cells + [str(never), str(median_first), str(sum(unsafe)) if unsafe else "–"])
                print(f"boc_constrained: {name} with {m}: {seeds} seeds in {time.time() - start:.1f} s", file=sys.stderr)
            print(f"\n{name}: f* = {p['optimum']:.6g}; regret of the recommendation, median [quartiles] over seeds 1..{seeds} "
                  "(runs with a truly feasible one), after each budget\n", file=out)
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
    ap.add_argument("--problems", default=",".join(SOURCES))
    ap.add_argument("--methods", default=",".join(METHODS))
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    boc = os.environ.get("BOC")
    if not boc:
        sys.exit("boc_constrained: set BOC to the boc binary (go build -o /tmp/boc ./cmd/boc)")
    report(os.path.abspath(boc), args.problems.split(","), args.methods.split(","), args.seeds, args.markdown)


if __name__ == "__main__":
    main()
