"""boc on the multi-objective problems of optuna_pareto.py, scored as that
script scores Optuna, so that the two tables sit side by side.

Each problem becomes a .bo file of several objectives computed by
expressions (`objective { minimize f1 = EXPR <= r1 ... }`, the thresholds
the problem's reference point), built once per method and run for seeds
1..N with `run --json --trace`. After the budget the hypervolume that the
evaluated points' noise-free values dominate below the reference point is
computed here (optuna_pareto.hypervolume), not by the program, and reported
as the log10 gap to the largest, log10(HVmax - HV).

Methods:

    boc-ehvi     acquisition ehvi (the default for 2 and 3 objectives)
    boc-parego   acquisition parego
    boc-random   run --random-search: uniform points

The initial design is sobol(2d + 2), as BoTorch's tutorials start; the model
is boc's default (Matérn 5/2, lengthscales and variance learned per
objective, each objective's prior mean its worst value observed); --search
writes a search statement (e.g. --search "turbo(length = 0.4)", a trust
region), the default's lbfgs otherwise, and --model a model statement (e.g.
--model 'gp(kernel = matern52(lengthscale = 3))').

    BOC=/tmp/boc /usr/bin/python3 bench/library/boc_pareto.py --seeds 20 --markdown

BOC names the boc binary (go build -o /tmp/boc ./cmd/boc). Needs Debian's
python3-optuna (for optuna_pareto's module).
"""

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time

from optuna_pareto import PROBLEMS, hypervolume
from study_common import print_rows, summarise


def zdt_objectives(shape):
    g = "(1 + 9 * (x[1] + x[2] + x[3]) / 3)"
    return ["x[0]", shape.replace("G", g).replace("R", f"(x[0] / {g})")]


def dtlz2_objectives(m):
    g = "(1 + " + " + ".join(f"(x[{i}] - 0.5)^2" for i in range(m - 1, 6)) + ")"
    out = []
    for i in range(m):
        terms = [g] + [f"cos(x[{j}] * pi / 2)" for j in range(m - 1 - i)]
        if i > 0:
            terms.append(f"sin(x[{m - 1 - i}] * pi / 2)")
        out.append(" * ".join(terms))
    return out


# The problems in boc's language: the domain and each objective, all
# minimised, as optuna_pareto.PROBLEMS defines them.
SOURCES = {
    "branincurrin": (["x[2] in [0, 1]"], [
        "branin(15 * x[0] - 5, 15 * x[1])",
        "(1 - exp(-1 / (2 * x[1] + 1e-9))) * (2300 * x[0]^3 + 1900 * x[0]^2 + 2092 * x[0] + 60) / (100 * x[0]^3 + 500 * x[0]^2 + 4 * x[0] + 20)"]),
    "zdt1": (["x[4] in [0, 1]"], zdt_objectives("G * (1 - sqrt(R))")),
    "zdt2": (["x[4] in [0, 1]"], zdt_objectives("G * (1 - R^2)")),
    "zdt3": (["x[4] in [0, 1]"], zdt_objectives("G * (1 - sqrt(R) - R * sin(10 * pi * R))")),
    "dtlz2": (["x[6] in [0, 1]"], dtlz2_objectives(2)),
    "dtlz2_3": (["x[6] in [0, 1]"], dtlz2_objectives(3)),
    "vehiclesafety": (["x[5] in [1, 3]"], [
        "1640.2823 + 2.3573285 * x[0] + 2.3220035 * x[1] + 4.5688768 * x[2] + 7.7213633 * x[3] + 4.4559504 * x[4]",
        "6.5856 + 1.15 * x[0] - 1.0427 * x[1] + 0.9738 * x[2] + 0.8364 * x[3] - 0.3695 * x[0] * x[3] + 0.0861 * x[0] * x[4]"
        " + 0.3628 * x[1] * x[3] - 0.1106 * x[0]^2 - 0.3437 * x[2]^2 + 0.1764 * x[3]^2",
        "-0.0551 + 0.0181 * x[0] + 0.1024 * x[1] + 0.0421 * x[2] - 0.0073 * x[0] * x[1] + 0.024 * x[1] * x[2]"
        " - 0.0118 * x[1] * x[3] - 0.0204 * x[2] * x[3] - 0.008 * x[2] * x[4] - 0.0241 * x[1]^2 + 0.0109 * x[3]^2"]),
    "branincurrin_inert": (["x[6] in [0, 1]"], [
        "branin(15 * x[0] - 5, 15 * x[1])",
        "(1 - exp(-1 / (2 * x[1] + 1e-9))) * (2300 * x[0]^3 + 1900 * x[0]^2 + 2092 * x[0] + 60) / (100 * x[0]^3 + 500 * x[0]^2 + 4 * x[0] + 20)"]),
}

METHODS = {"boc-ehvi": ("ehvi", False), "boc-parego": ("parego", False), "boc-random": ("ehvi", True)}


def source(name, method, search=None, model=None):
    acquisition, _ = METHODS[method]
    dims, objectives = SOURCES[name]
    p = PROBLEMS[name]
    lines = [f"problem {name}", "", "domain {"] + [f"    {x}" for x in dims] + ["}", "", "objective {"]
    lines += [f"    minimize f{k + 1} = {f} <= {r!r}" for k, (f, r) in enumerate(zip(objectives, p["ref"]))]
    lines += ["}", ""] + ([f"model {model}"] if model else []) + ([f"search {search}"] if search else []) + [f"acquisition {acquisition}", f"budget {p['budget']}", f"init sobol({2 * p['d'] + 2})", "seed 1", ""]
    return "\n".join(lines)


def build(boc, workdir, name, method, search, model):
    path = os.path.join(workdir, f"{name}_{method}.bo")
    with open(path, "w") as f:
        f.write(source(name, method, search, model))
    exe = path[:-3]
    subprocess.run([boc, "build", "-o", exe, path], check=True, capture_output=True)
    return exe


def run(exe, name, seed, random):
    """log10 of the hypervolume gap after the budget, from the noise-free
    values of every evaluated point, checked against the problem's own
    functions at the evaluated points."""
    p = PROBLEMS[name]
    args = [exe, "run", "--json", "--trace", "--seed", str(seed)]
    if random:
        args.append("--random-search")
    out = json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)
    values = []
    for step in out["trace"]:
        x = step["x"]["x"]
        truth = p["f"](x)
        told = [step["true_objectives"][f"f{k + 1}"] for k in range(len(truth))]
        if any(abs(a - b) > 1e-9 * max(1, abs(b)) for a, b in zip(told, truth)):
            sys.exit(f"boc_pareto: {name} at {x}: the program's values {told} are not the problem's {truth}")
        values.append(truth)
    return math.log10(max(p["hv"] - hypervolume(values, p["ref"]), 1e-12))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--problems", default=",".join(SOURCES))
    ap.add_argument("--methods", default=",".join(METHODS))
    ap.add_argument("--search", help="the search statement's call, e.g. turbo(length = 0.4)")
    ap.add_argument("--model", help="the model statement's call, e.g. gp(kernel = matern52(lengthscale = 3))")
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    boc = os.environ.get("BOC")
    if not boc:
        sys.exit("boc_pareto: set BOC to the boc binary (go build -o /tmp/boc ./cmd/boc)")
    methods = args.methods.split(",")
    rows = []
    with tempfile.TemporaryDirectory() as workdir:
        for name in args.problems.split(","):
            row = [name]
            for m in methods:
                start = time.time()
                exe = build(os.path.abspath(boc), workdir, name, m, args.search, args.model)
                q = summarise([run(exe, name, s, METHODS[m][1]) for s in range(1, args.seeds + 1)])
                row.append(f"{q['median']:.2f} [{q['q1']:.2f}, {q['q3']:.2f}]")
                print(f"boc_pareto: {name} with {m}: {args.seeds} seeds in {time.time() - start:.1f} s", file=sys.stderr)
            rows.append(row)
    print_rows(f"log10 hypervolume gap after the budget, median [quartiles] over {args.seeds} seeds",
               ["problem"] + methods, rows, args.markdown)


if __name__ == "__main__":
    main()
