#!/usr/bin/python3
"""Merges `boc study --json` and `optuna_study.py --json` into side-by-side Markdown tables.

    /usr/bin/python3 bench/library/merge.py --boc BOC.json [--boc ...] --optuna OPTUNA.json [--optuna ...]

For every set of budgets (one per `boc study` command: 10,25,50 for Branin and
Hartmann3, 25,50,100 for Hartmann6) it prints two tables with boc's methods
(named boc-ACQUISITION, and boc-random for `--random`) and Optuna's methods
row by row for each problem:

- the regret of the recommendation: for boc the evaluated point with the best
  posterior mean, for Optuna its best trial (`study.best_trial`, the trial with
  the lowest observed value);
- the regret of the best observed point: for both the evaluated point with the
  lowest observed, possibly noisy, value; for Optuna the same point as its
  recommendation, so its rows repeat.

Cells are median [lower quartile, upper quartile] over the seeds, printed as
`boc study --markdown` prints them. A summary table follows, per problem at the
last budget: the median regret of the recommendation for boc's `ei` (the study
files' own acquisition) and Optuna's default sampler (TPE), and for the best
boc method and the best Optuna method (best by that median, chosen after the
fact for both sides). It checks that every file used the same seeds and that
boc and Optuna agree on each problem's optimum. bench/library.sh runs it.
"""

import argparse
import json
import sys


def format_regret(x):
    """Three significant digits, like Go's strconv.FormatFloat(x, 'g', 3, 64)."""
    return "%.3g" % x


def cell(q):
    return f"{format_regret(q['median'])} [{format_regret(q['q1'])}, {format_regret(q['q3'])}]"


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


def summary(out, budgets, problems, rows):
    last = budgets[-1]
    out.write(
        f"Median regret of the recommendation after {last} evaluations: boc's `ei` (the study files' acquisition) "
        "and Optuna's default sampler (TPE); the best boc method and the best Optuna method by this median, "
        "chosen after the fact for both; and the ratio of the best Optuna median to the best boc median "
        "(above 1: boc is ahead).\n\n"
    )
    out.write("| problem | `boc-ei` | `optuna-tpe` | best boc | best Optuna | Optuna / boc |\n")
    out.write("| --- | ---: | ---: | --- | --- | ---: |\n")

    def median(r):
        return r["recommendation"][-1]["median"]

    for p in problems:
        mine = [r for r in rows if r["problem"] == p]
        by_name = {r["method"]: r for r in mine}
        boc = [r for r in mine if r["library"] == "boc" and r["method"] != "boc-random"]
        lib = [r for r in mine if r["library"] == "optuna" and r["method"] != "optuna-random"]
        if not boc or not lib:
            continue
        best_boc, best_lib = min(boc, key=median), min(lib, key=median)
        ratio = median(best_lib) / median(best_boc) if median(best_boc) > 0 else float("inf")
        fixed = [format_regret(median(by_name[m])) if m in by_name else "–" for m in ("boc-ei", "optuna-tpe")]
        out.write(
            f"| {p} | {fixed[0]} | {fixed[1]} "
            f"| `{best_boc['method']}` {format_regret(median(best_boc))} "
            f"| `{best_lib['method']}` {format_regret(median(best_lib))} | {format_regret(ratio)} |\n"
        )


def main():
    parser = argparse.ArgumentParser(description="Merges boc study --json and optuna_study.py --json.")
    parser.add_argument("--boc", action="append", required=True, metavar="FILE", help="output of boc study --json")
    parser.add_argument("--optuna", action="append", required=True, metavar="FILE",
                        help="output of optuna_study.py --json")
    args = parser.parse_args()

    seeds, rows = set(), []
    for library, paths in (("boc", args.boc), ("optuna", args.optuna)):
        for path in paths:
            n, r = load(path, library)
            seeds.add(n)
            rows += r
    if len(seeds) != 1:
        raise SystemExit(f"the studies ran different numbers of seeds: {sorted(seeds)}")
    seeds = seeds.pop()

    # boc and Optuna must judge each problem against the same optimum.
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
        if i > 0:
            out.write("\n")
        out.write(f"### {', '.join(problems)}\n\n")
        table(out, "Regret of the recommendation (boc: the evaluated point with the best posterior mean; "
                   f"Optuna: its best trial, the trial with the lowest observed value): {measure}.",
              budgets, problems, group, "recommendation")
        out.write("\n")
        table(out, "Regret of the best observed point (the evaluated point with the lowest observed value; "
                   f"for Optuna the same point as its recommendation): {measure}.",
              budgets, problems, group, "best_observed")
        out.write("\n")
        summary(out, budgets, problems, group)
        for r in group:
            for stop in r.get("stopped_early") or []:
                out.write(f"\n{r['problem']} with {r['method']}: seed {stop['seed']} stopped after "
                          f"{stop['evaluations']} evaluations; its last values stand for the larger budgets.\n")


if __name__ == "__main__":
    main()
