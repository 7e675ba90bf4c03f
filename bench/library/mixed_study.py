#!/usr/bin/python3
"""Mixed categorical and continuous problems: boc's categorical dimensions
against Optuna's TPE and against boc's own integer-plus-lookup encoding of
the same functions (issue 32).

Problems (every one minimised; regret is the best noise-free value found
less the known minimum):

    func2c   CoCaBO's Func2C (Ru et al. 2020): a choice of 3 and one of 5 pick
             two of Rosenbrock, six-hump camel and Beale (scaled as in the
             paper's code) over two continuous components in [-1, 1];
             minimum -0.2063 (two camels)
    func3c   CoCaBO's Func3C: three binary choices, two continuous
             components; minimum 7 camels, -0.7221
    ackley3c Ackley over 6 components: 3 continuous in [-1, 1] and 3 choices
             of 5 levels each standing for an unordered value in [-1, 1]
             (levels a..e are 0.5, -1, 0, 1, -0.5), all doubled; minimum 0
    reactor  a reactor: catalyst (4), solvent (3) and temperature; the cost
             of the catalyst, a solvent's shift of the best temperature and
             an interaction (Ni in dmso); minimum -0.3
    svm      a conditional SVM-like space: kernel (linear, rbf, poly), C on a
             log scale, gamma only for rbf and degree only for poly, a
             validation error made of per-kernel quadratics in the decades;
             minimum 0.12 (rbf, C = 10, gamma = 10^-1.5). Optuna asks for
             gamma and degree only under their kernel (define-by-run); boc's
             integer encoding has them always, unused where they do not apply

Methods:

    boc-categorical  boc, the choices as categorical dimensions (default
                     model and acquisition: Matérn 5/2 with learned ARD
                     lengthscales, EI, lbfgs; over choices the kernel is
                     CoCaBO's mixture of the product and the sum of a kernel
                     over the continuous components and one over the
                     categorical ones, its weight learned, and the model's
                     default warping is "auto": a power transform of the
                     values where a likelihood-ratio test favours it)
    boc-unwarped     boc-categorical with model gp(warp = "none")
    boc-warped       boc-categorical with model gp(warp = "power"): the values
                     always warped
    boc-product      boc-categorical with the product alone,
                     matern52(interaction = 1)
    boc-sum          boc-categorical with the sum alone (the average of the
                     two kernels), matern52(interaction = 0)
    boc-integer      boc, each choice an integer dimension 0..L-1 and the
                     function's tables indexed by it (the workaround before
                     categorical dimensions)
    optuna-tpe       Optuna's TPESampler(seed=s), suggest_categorical
    optuna-tpe-mv    TPESampler(seed=s, multivariate=True)

Each runs seeds 1..N with the problem's budget; the table gives the median
and quartiles of the regret after the budget. boc's values are checked
against this script's functions at every evaluated point, so the two
languages define the same problem.

    BOC=/tmp/boc /usr/bin/python3 bench/library/mixed_study.py --seeds 20 --markdown

BOC names the boc binary (go build -o /tmp/boc ./cmd/boc). Needs Debian's
python3-optuna.
"""

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
import warnings

from study_common import ackley, cell, print_rows, summarise


def rosenbrock(u, w):
    return (100 * (w - u * u) ** 2 + (u - 1) ** 2) / 300


def camel(u, w):
    return ((4 - 2.1 * u * u + u ** 4 / 3) * u * u + u * w + (-4 + 4 * w * w) * w * w) / 10


def beale(u, w):
    return ((1.5 - u + u * w) ** 2 + (2.25 - u + u * w * w) ** 2 + (2.625 - u + u * w ** 3) ** 2) / 50


PARTS = {"rosenbrock": rosenbrock, "camel": camel, "beale": beale}


def func2c(x):
    u, w = 2 * x["x1"], 2 * x["x2"]
    second = {"a": "rosenbrock", "b": "camel"}.get(x["h2"], "beale")
    return PARTS[x["h1"]](u, w) + PARTS[second](u, w)


def func3c(x):
    u, w = 2 * x["x1"], 2 * x["x2"]
    third = 5 * camel(u, w) if x["h3"] == "camel5" else 2 * rosenbrock(u, w)
    return PARTS[x["h1"]](u, w) + PARTS[x["h2"]](u, w) + third


ACKLEY_VALUES = {"a": 0.5, "b": -1, "c": 0, "d": 1, "e": -0.5}


def ackley3c(x):
    z = [x["x1"], x["x2"], x["x3"]] + [ACKLEY_VALUES[x[c]] for c in ("c1", "c2", "c3")]
    return ackley([2 * v for v in z])


REACTOR_COST = {"Pd": 5.0, "Pt": 7.5, "Ni": 1.0, "Cu": 0.8}
REACTOR_BOOST = {"water": 0.0, "ethanol": 0.6, "dmso": 1.1}


def svm(x):
    decade = math.log10(x["c"])
    if x["kernel"] == "linear":
        return 0.3 + 0.05 * (decade - 0.5) ** 2
    if x["kernel"] == "rbf":
        return 0.12 + 0.04 * (decade - 1) ** 2 + 0.08 * (math.log10(x["gamma"]) + 1.5) ** 2
    return 0.18 + 0.03 * decade ** 2 + 0.02 * (x["degree"] - 3) ** 2


def svm_conditional(trial, x):
    """Asks Optuna for svm's conditional components where they exist
    (define-by-run)."""
    if x["kernel"] == "rbf":
        x["gamma"] = trial.suggest_float("gamma", 1e-3, 10, log=True)
    if x["kernel"] == "poly":
        x["degree"] = trial.suggest_int("degree", 2, 5)


def reactor(x):
    heat = (x["temperature"] - 20) / 70
    bonus = -0.5 if x["catalyst"] == "Ni" and x["solvent"] == "dmso" else 0
    return (heat - 0.3 * REACTOR_BOOST[x["solvent"]]) ** 2 + REACTOR_COST[x["catalyst"]] / 5 + bonus


# Each problem: continuous components (name, lo, hi), choices (name,
# levels), the objective in boc's language over named levels and over
# integer codes, the Python function, the minimum and the budget.
CAMEL = "((4 - 2.1 * u^2 + u^4 / 3) * u^2 + u * w + (-4 + 4 * w^2) * w^2) / 10"
ROSEN = "(100 * (w - u^2)^2 + (u - 1)^2) / 300"
BEALE = "((1.5 - u + u * w)^2 + (2.25 - u + u * w^2)^2 + (2.625 - u + u * w^3)^2) / 50"
UW = ["let u = 2 * x1", "let w = 2 * x2", f"let rosenbrock = {ROSEN}", f"let camel = {CAMEL}", f"let beale = {BEALE}"]

PROBLEMS = {
    "func2c": {
        "continuous": [("x1", -1, 1), ("x2", -1, 1)],
        "choices": [("h1", ["rosenbrock", "camel", "beale"]), ("h2", ["a", "b", "c", "d", "e"])],
        "lets": UW,
        "named": '(if h1 == "rosenbrock" then rosenbrock else if h1 == "camel" then camel else beale)'
                 ' + (if h2 == "a" then rosenbrock else if h2 == "b" then camel else beale)',
        "coded": "(if h1 == 0 then rosenbrock else if h1 == 1 then camel else beale)"
                 " + (if h2 == 0 then rosenbrock else if h2 == 1 then camel else beale)",
        "f": func2c, "minimum": 2 * camel(-0.0898, 0.7126), "budget": 60,
    },
    "func3c": {
        "continuous": [("x1", -1, 1), ("x2", -1, 1)],
        "choices": [("h1", ["rosenbrock", "camel"]), ("h2", ["rosenbrock", "camel"]), ("h3", ["camel5", "rosen2"])],
        "lets": UW,
        "named": '(if h1 == "rosenbrock" then rosenbrock else camel) + (if h2 == "rosenbrock" then rosenbrock else camel)'
                 ' + (if h3 == "camel5" then 5 * camel else 2 * rosenbrock)',
        "coded": "(if h1 == 0 then rosenbrock else camel) + (if h2 == 0 then rosenbrock else camel)"
                 " + (if h3 == 0 then 5 * camel else 2 * rosenbrock)",
        "f": func3c, "minimum": 7 * camel(-0.0898, 0.7126), "budget": 60,
    },
    "ackley3c": {
        "continuous": [("x1", -1, 1), ("x2", -1, 1), ("x3", -1, 1)],
        "choices": [(c, list(ACKLEY_VALUES)) for c in ("c1", "c2", "c3")],
        "lets": [],
        "named_lets": ['let value = {"a": 0.5, "b": -1, "c": 0, "d": 1, "e": -0.5}'],
        "coded_lets": ["let code = [0.5, -1, 0, 1, -0.5]"],
        "named": "ackley(2 * [x1, x2, x3, value[c1], value[c2], value[c3]])",
        "coded": "ackley(2 * [x1, x2, x3, code[c1], code[c2], code[c3]])",
        "f": ackley3c, "minimum": 0.0, "budget": 80,
    },
    "reactor": {
        "continuous": [("temperature", 20, 90)],
        "choices": [("catalyst", list(REACTOR_COST)), ("solvent", list(REACTOR_BOOST))],
        "lets": ["let heat = (temperature - 20) / 70"],
        "named_lets": ['let cost = {"Pd": 5.0, "Pt": 7.5, "Ni": 1.0, "Cu": 0.8}', 'let boost = {"water": 0.0, "ethanol": 0.6, "dmso": 1.1}'],
        "coded_lets": ["let costs = [5.0, 7.5, 1.0, 0.8]", "let boosts = [0.0, 0.6, 1.1]"],
        "named": '(heat - 0.3 * boost[solvent])^2 + cost[catalyst] / 5 + (if catalyst == "Ni" and solvent == "dmso" then -0.5 else 0)',
        "coded": "(heat - 0.3 * boosts[solvent])^2 + costs[catalyst] / 5 + (if catalyst == 2 and solvent == 2 then -0.5 else 0)",
        "f": reactor, "minimum": -0.3, "budget": 30,
    },
    "svm": {
        "continuous": [("c", 1e-2, 1e2, "log")],
        "choices": [("kernel", ["linear", "rbf", "poly"])],
        "conditional": [("gamma", "[1e-3, 10] log", 'kernel == "rbf"'), ("degree", "2..5", 'kernel == "poly"')],
        "ask_conditional": svm_conditional,
        "lets": ["let decade = log(c) / log(10)",
                 "let linear = 0.3 + 0.05 * (decade - 0.5)^2",
                 "let rbf = 0.12 + 0.04 * (decade - 1)^2 + 0.08 * (log(gamma) / log(10) + 1.5)^2",
                 "let poly = 0.18 + 0.03 * decade^2 + 0.02 * (degree - 3)^2"],
        "named": 'if kernel == "linear" then linear else if kernel == "rbf" then rbf else poly',
        "coded": "if kernel == 0 then linear else if kernel == 1 then rbf else poly",
        "f": svm, "minimum": 0.12, "budget": 30,
    },
}


def source(name, coded, model=None):
    p = PROBLEMS[name]
    dims = [f"    {n} in [{c[1]}, {c[2]}]" + (" log" if len(c) > 3 else "") for c in p["continuous"] for n in [c[0]]]
    for n, levels in p["choices"]:
        if coded:
            dims.append(f"    {n} in 0..{len(levels) - 1}")
        else:
            dims.append(f"    {n} in {{" + ", ".join(f'"{l}"' for l in levels) + "}")
    for n, domain, when in p.get("conditional", []):
        dims.append(f"    {n} in {domain}" + ("" if coded else f" when {when}"))
    lets = p["lets"] + p.get("coded_lets" if coded else "named_lets", [])
    lines = [f"problem {name}", ""] + lets + ["", "domain {"] + dims + ["}", "",
             f"objective minimize {p['coded' if coded else 'named']}"]
    if model:
        lines.append(f"model gp({model})")
    lines += [f"budget {p['budget']}", "seed 1", ""]
    return "\n".join(lines)


def named_point(name, x, coded):
    """The point of a run's trace with levels by name."""
    out = dict(x)
    if coded:
        for n, levels in PROBLEMS[name]["choices"]:
            out[n] = levels[int(x[n])]
    return out


def boc_regret(boc, workdir, name, method, seeds):
    coded = method == "boc-integer"
    path = os.path.join(workdir, f"{name}_{method}.bo")
    with open(path, "w") as f:
        f.write(source(name, coded, MODELS.get(method)))
    exe = path[:-3]
    subprocess.run([boc, "build", "-o", exe, path], check=True, capture_output=True)
    p = PROBLEMS[name]
    regrets = []
    for seed in seeds:
        out = json.loads(subprocess.run([exe, "run", "--json", "--trace", "--seed", str(seed)],
                                        check=True, capture_output=True, text=True).stdout)
        best = math.inf
        for step in out["trace"]:
            x = named_point(name, step["x"], coded)
            truth = p["f"](x)
            if abs(step["y"] - truth) > 1e-9 * max(1, abs(truth)):
                sys.exit(f"mixed_study: {name} at {x}: boc's value {step['y']} is not the problem's {truth}")
            best = min(best, truth)
        regrets.append(best - p["minimum"])
    return regrets


def optuna_regret(name, seeds, multivariate):
    import optuna
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    warnings.simplefilter("ignore")
    p = PROBLEMS[name]

    def objective(trial):
        x = {c[0]: trial.suggest_float(c[0], c[1], c[2], log=len(c) > 3) for c in p["continuous"]}
        for n, levels in p["choices"]:
            x[n] = trial.suggest_categorical(n, levels)
        if "ask_conditional" in p:
            p["ask_conditional"](trial, x)
        return p["f"](x)

    regrets = []
    for seed in seeds:
        study = optuna.create_study(sampler=optuna.samplers.TPESampler(seed=seed, multivariate=multivariate))
        study.optimize(objective, n_trials=p["budget"])
        regrets.append(study.best_value - p["minimum"])
    return regrets


METHODS = ["boc-categorical", "boc-product", "boc-sum", "boc-unwarped", "boc-warped", "boc-integer", "optuna-tpe", "optuna-tpe-mv"]
# MODELS are the arguments of the gp of the boc methods that change boc's default.
MODELS = {"boc-unwarped": 'warp = "none"', "boc-warped": 'warp = "power"',
          "boc-product": "kernel = matern52(interaction = 1)", "boc-sum": "kernel = matern52(interaction = 0)"}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--problems", default=",".join(PROBLEMS))
    ap.add_argument("--methods", default=",".join(METHODS))
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--source", help="print the .bo file of PROBLEM (add :integer for the integer encoding) and exit")
    args = ap.parse_args()
    if args.source:
        name, _, enc = args.source.partition(":")
        print(source(name, enc == "integer"))
        return
    boc = os.environ.get("BOC")
    methods = args.methods.split(",")
    if any(m.startswith("boc") for m in methods) and not boc:
        sys.exit("mixed_study: set BOC to the boc binary (go build -o /tmp/boc ./cmd/boc)")
    seeds = range(1, args.seeds + 1)
    rows = []
    with tempfile.TemporaryDirectory() as workdir:
        for name in args.problems.split(","):
            row = [name, str(PROBLEMS[name]["budget"])]
            for m in methods:
                start = time.time()
                if m.startswith("boc"):
                    r = boc_regret(os.path.abspath(boc), workdir, name, m, seeds)
                else:
                    r = optuna_regret(name, seeds, m == "optuna-tpe-mv")
                row.append(cell(summarise(r)))
                print(f"mixed_study: {name} with {m}: {args.seeds} seeds in {time.time() - start:.1f} s", file=sys.stderr)
            rows.append(row)
    print_rows(f"regret after the budget, median [quartiles] over {args.seeds} seeds",
               ["problem", "budget"] + methods, rows, args.markdown)


if __name__ == "__main__":
    main()
