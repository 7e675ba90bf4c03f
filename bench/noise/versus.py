#!/usr/bin/python3
"""boc's methods against a reference method, problem by problem and pooled
(docs/quality.md, issue 13).

    versus.py REF_METHOD FILE.json[,FILE.json...] [--seeds N] [--best-observed]

The JSON files are `boc study --json` and `bench/library/sklearn_gp_study.py
--json` outputs (both give each seed's regrets in "runs"). For every problem
the reference method ran on, it prints, at the last budget both have, the
median [q1, q3] over seeds 1..N of the regret of the recommendation (with
--best-observed, of the best observed point) of every method, and the ratio of
each method's median to the reference's. The runs are not paired (the two
sides use different designs and noise streams), so the pooled line compares
mean log regrets: per problem the difference of the means of log regret,
averaged over the problems, with a normal 95% interval from the per-problem
standard errors; exp of it is a geometric-mean ratio, below 1 when boc's
method is ahead.
"""
import json
import math
import statistics
import sys

from final import fmt  # the same number format as final.py's tables


def quartiles(v):
    v = sorted(v)

    def q(p):
        x = p * (len(v) - 1)
        i = int(x)
        return v[i] if i + 1 >= len(v) else v[i] + (x - i) * (v[i + 1] - v[i])
    return q(0.25), q(0.5), q(0.75)


def load(paths, seeds, key):
    """(problem, method) -> {budget: {seed: regret}}"""
    out = {}
    for path in paths.split(","):
        with open(path) as f:
            d = json.load(f)
        for r in d["results"]:
            budgets = r.get("budgets") or d["budgets"]
            for run in r.get("runs") or []:
                if seeds and run["seed"] > seeds:
                    continue
                for b, v in zip(budgets, run[key]):
                    if v is not None:
                        out.setdefault((r["problem"], r["method"]), {}).setdefault(b, {})[run["seed"]] = v
    return out


def main(argv):
    seeds, key, args = 0, "regret", []
    it = iter(argv)
    for a in it:
        if a == "--seeds":
            seeds = int(next(it))
        elif a == "--best-observed":
            key = "best_observed_regret"
        else:
            args.append(a)
    ref, paths = args[0], ",".join(args[1:])
    data = load(paths, seeds, key)
    problems = [p for p, m in data if m == ref]
    methods = []
    for p, m in data:
        if m != ref and m not in methods and not m.startswith("skopt") and p in problems:
            methods.append(m)
    print("| problem | budget | seeds | `%s` | %s |" % (ref, " | ".join("`%s` (ratio)" % m for m in methods)))
    print("| --- | ---: | ---: | ---: | %s |" % " | ".join("---:" for _ in methods))
    pooled = {m: [] for m in methods}
    for p in problems:
        r = data[(p, ref)]
        budget = max(b for b in r if all(b in data.get((p, m), {}) for m in methods))
        rv = [max(v, 1e-12) for v in r[budget].values()]
        rq = quartiles(rv)
        cells = []
        for m in methods:
            mv = [max(v, 1e-12) for v in data[(p, m)][budget].values()]
            mq = quartiles(mv)
            cells.append("%s [%s, %s] (%.2f)" % (fmt(mq[1]), fmt(mq[0]), fmt(mq[2]), mq[1] / rq[1]))
            lm, lr = [math.log(v) for v in mv], [math.log(v) for v in rv]
            se2 = statistics.variance(lm) / len(lm) + statistics.variance(lr) / len(lr)
            pooled[m].append((statistics.mean(lm) - statistics.mean(lr), se2))
        print("| %s | %d | %d | %s [%s, %s] | %s |" % (p, budget, len(rv), fmt(rq[1]), fmt(rq[0]), fmt(rq[2]), " | ".join(cells)))
    for m in methods:
        diffs = pooled[m]
        mean = sum(d for d, _ in diffs) / len(diffs)
        se = math.sqrt(sum(s for _, s in diffs)) / len(diffs)
        print("\n`%s` / `%s` over %d problems: geometric-mean ratio %.2f (95%% CI %.2f–%.2f); ahead on %d" % (
            m, ref, len(diffs), math.exp(mean), math.exp(mean - 1.96 * se), math.exp(mean + 1.96 * se),
            sum(1 for d, _ in diffs if d < 0)))


if __name__ == "__main__":
    main(sys.argv[1:])
