#!/usr/bin/python3
"""Merges `boc study --json`, `optuna_study.py --json` and `sklearn_gp_study.py --json` into side-by-side Markdown tables.

    /usr/bin/python3 bench/library/merge.py --boc BOC.json [--boc ...] \
        [--optuna OPTUNA.json ...] [--sklearn SKLEARN.json ...]

For every set of budgets (one per `boc study` command: 10,25,50 for Branin and
Hartmann3, 25,50,100 for Hartmann6) it prints two tables with boc's methods
(named boc-ACQUISITION, and boc-random for `--random`), Optuna's methods and the
scikit-learn GP-BO reference's (skopt-..., sklearn_gp_study.py's re-implementation
of scikit-optimize's gp_minimize) row by row for each problem:

- the regret of the recommendation: for boc the evaluated point with the best
  posterior mean, for Optuna its best trial (`study.best_trial`, the trial with
  the lowest observed value), for the reference the evaluated point with the
  lowest posterior mean of its GP (boc's rule, not skopt's res.x);
- the regret of the best observed point: for all the evaluated point with the
  lowest observed, possibly noisy, value; for Optuna the same point as its
  recommendation, so its rows repeat; for the reference skopt's own
  recommendation res.x.

Cells are median [lower quartile, upper quartile] over the seeds, printed as
`boc study --markdown` prints them. Summary tables follow, per problem at the
last budget. Against Optuna: the median regret of the recommendation for boc's
`ei` (the study files' own acquisition) and Optuna's default sampler (TPE), and
for the best boc method and the best Optuna method (best by that median, chosen
after the fact for both sides). Against the reference, the same for its default
recipe (`skopt-gp-hedge`) and its best method, for the recommendation and for
the best observed point. It checks that every file used the same seeds and that
all agree on each problem's optimum. bench/library.sh runs it.
"""

import argparse
import json
import sys

from study_common import cell, format_regret


def load(path, library):
    """Reads one study's JSON and returns its seeds and its result rows, each
    with its budgets and its method named for the library."""
    with open(path) as f:
        study = json.load(f)
    rows = []
    for r in study["results"]:
        if r.get("skipped"):
            raise SystemExit(f"{path}: {r['problem']} with {r['method']} was skipped: {r['skipped']}")
        r = dict(r)
        r["budgets"] = r.get("budgets", study.get("budgets"))
        r["library"] = library
        if library == "boc":
            r["method"] = "boc-" + r["method"]
        rows.append(r)
    return study["seeds"], rows


def table(out, title, budgets, problems, rows, field):
    out.write(f"{title}\n\n")
    out.write("| problem | method |" + "".join(f" {b} |" for b in budgets) + "\n")
    out.write("| --- | --- |" + " ---: |" * len(budgets) + "\n")
    for p in problems:
        for r in rows:
            if r["problem"] == p:
                out.write(f"| {p} | `{r['method']}` | " + " | ".join(cell(q) for q in r[field]) + " |\n")


def median(r, field="recommendation"):
    return r[field][-1]["median"]


def ratio(theirs, ours):
    return theirs / ours if ours > 0 else float("inf")


# The summaries after the tables: for each library, its column headings, its
# default method, what is said of it, and the regrets compared (with a
# "point" column when there are several).
SUMMARIES = {
    "optuna": dict(
        name="Optuna", default="optuna-tpe", skip="optuna-random",
        intro="Median regret of the recommendation after {last} evaluations: boc's `ei` (the study files' "
              "acquisition) and Optuna's default sampler (TPE); the best boc method and the best Optuna method by "
              "this median, chosen after the fact for both; and the ratio of the best Optuna median to the best boc "
              "median (above 1: boc is ahead).\n\n",
        best="best Optuna", ratio="Optuna / boc",
        fields=(("recommendation", None),)),
    "sklearn": dict(
        name="reference", default="skopt-gp-hedge", skip=None,
        intro="Median regret after {last} evaluations, boc against the scikit-learn GP-BO reference, of the "
              "recommendation (on both sides the evaluated point with the best posterior mean) and of the best "
              "observed point (the reference's res.x): boc's `ei` (the study files' acquisition) and the "
              "reference's default recipe (`skopt-gp-hedge`); the best boc method and the best reference method by "
              "this median, chosen after the fact for both; and the ratio of the best reference median to the best "
              "boc median (above 1: boc is ahead).\n\n",
        best="best reference", ratio="reference / boc",
        fields=(("recommendation", "recommendation"), ("best_observed", "best observed"))),
}


def summary(out, budgets, problems, rows, library):
    """Writes the summary table of library against boc after the last budget (SUMMARIES)."""
    s = SUMMARIES[library]
    point = s["fields"][0][1] is not None
    out.write(s["intro"].format(last=budgets[-1]))
    out.write("| problem |" + (" point |" if point else "")
              + f" `boc-ei` | `{s['default']}` | best boc | {s['best']} | {s['ratio']} |\n")
    out.write("| --- |" + (" --- |" if point else "") + " ---: | ---: | --- | --- | ---: |\n")
    for p in problems:
        mine = [r for r in rows if r["problem"] == p]
        by_name = {r["method"]: r for r in mine}
        boc = [r for r in mine if r["library"] == "boc" and r["method"] != "boc-random"]
        lib = [r for r in mine if r["library"] == library and r["method"] != s["skip"]]
        if not boc or not lib:
            continue
        for field, label in s["fields"]:
            def m(r):
                return median(r, field)
            best_boc, best_lib = min(boc, key=m), min(lib, key=m)
            fixed = [format_regret(m(by_name[n])) if n in by_name else "–" for n in ("boc-ei", s["default"])]
            out.write(
                f"| {p} |" + (f" {label} |" if point else "") + f" {fixed[0]} | {fixed[1]} "
                f"| `{best_boc['method']}` {format_regret(m(best_boc))} "
                f"| `{best_lib['method']}` {format_regret(m(best_lib))} "
                f"| {format_regret(ratio(m(best_lib), m(best_boc)))} |\n"
            )


def main():
    parser = argparse.ArgumentParser(
        description="Merges boc study --json, optuna_study.py --json and sklearn_gp_study.py --json.")
    parser.add_argument("--boc", action="append", required=True, metavar="FILE", help="output of boc study --json")
    parser.add_argument("--optuna", action="append", default=[], metavar="FILE",
                        help="output of optuna_study.py --json")
    parser.add_argument("--sklearn", action="append", default=[], metavar="FILE",
                        help="output of sklearn_gp_study.py --json")
    args = parser.parse_args()
    if not args.optuna and not args.sklearn:
        parser.error("give --optuna or --sklearn (or both)")

    seeds, rows = set(), []
    for library, paths in (("boc", args.boc), ("optuna", args.optuna), ("sklearn", args.sklearn)):
        for path in paths:
            n, r = load(path, library)
            seeds.add(n)
            rows += r
    if len(seeds) != 1:
        raise SystemExit(f"the studies ran different numbers of seeds: {sorted(seeds)}")
    seeds = seeds.pop()

    # Every library must judge each problem against the same optimum.
    optimum = {}
    for r in rows:
        o = optimum.setdefault(r["problem"], r["optimum"])
        if abs(o - r["optimum"]) > 1e-12 * max(1, abs(o)):
            raise SystemExit(f"{r['problem']}: optimum {r['optimum']} ({r['method']}) differs from {o}")

    groups = {}  # budgets -> rows, in the order first seen
    for r in rows:
        groups.setdefault(tuple(r["budgets"]), []).append(r)
    out = sys.stdout
    measure = (f"median [lower quartile, upper quartile] over seeds 1..{seeds} of the noise-free objective "
               "minus the optimum, after each number of evaluations")
    for i, (budgets, group) in enumerate(groups.items()):
        problems = list(dict.fromkeys(r["problem"] for r in group))
        libraries = {r["library"] for r in group}
        if i > 0:
            out.write("\n")
        out.write(f"### {', '.join(problems)}\n\n")
        rule = ["boc: the evaluated point with the best posterior mean"]
        if "optuna" in libraries:
            rule.append("Optuna: its best trial, the trial with the lowest observed value")
        if "sklearn" in libraries:
            rule.append("the scikit-learn GP-BO reference (`skopt-...`): the evaluated point with the lowest "
                        "posterior mean of its GP, boc's rule, not skopt's res.x")
        table(out, f"Regret of the recommendation ({'; '.join(rule)}): {measure}.",
              budgets, problems, group, "recommendation")
        out.write("\n")
        rule = ["the evaluated point with the lowest observed value"]
        if "optuna" in libraries:
            rule.append("for Optuna the same point as its recommendation")
        if "sklearn" in libraries:
            rule.append("for the scikit-learn GP-BO reference skopt's own recommendation, res.x")
        table(out, f"Regret of the best observed point ({'; '.join(rule)}): {measure}.",
              budgets, problems, group, "best_observed")
        for library in SUMMARIES:
            if library in libraries:
                out.write("\n")
                summary(out, budgets, problems, group, library)
        for r in group:
            for stop in r.get("stopped_early") or []:
                out.write(f"\n{r['problem']} with {r['method']}: seed {stop['seed']} stopped after "
                          f"{stop['evaluations']} evaluations; its last values stand for the larger budgets.\n")


if __name__ == "__main__":
    main()
