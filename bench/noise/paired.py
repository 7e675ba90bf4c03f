#!/usr/bin/python3
"""Paired per-seed comparison of a boc factor run against the baseline
(docs/noise-factors.md).

    paired.py BASE.json[,...] FACTOR.json[,...] [--noisy-only]

Both are `boc study --json` outputs of the same files and seeds. For every
(problem, method) both have, it pairs the seeds' final-budget regrets of the
recommendation and prints the geometric mean of factor/base, how many seeds the
factor improved (lower regret), and the median ratio. A last row pools all
pairs of the noisy problems (names other than branin, hartmann3, hartmann6).
Ratios below 1 mean the factor helps.
"""
import json
import math
import sys

NOISE_FREE = {"branin", "hartmann3", "hartmann6"}


def final(paths):
    out = {}
    for path in paths.split(","):
        with open(path) as f:
            d = json.load(f)
        for r in d["results"]:
            for run in r.get("runs") or []:
                regs = [x for x in run["regret"] if x is not None]
                if regs:
                    out[(r["problem"], r["method"], run["seed"])] = regs[-1]
    return out


def main(argv):
    base, fac = final(argv[0]), final(argv[1])
    rows = {}
    for k, v in base.items():
        if k in fac:
            rows.setdefault(k[:2], []).append((v, fac[k]))
    pooled = {}
    print("| problem | method | seeds | geo-mean ratio | median ratio | factor better |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    for (p, m), pairs in rows.items():
        lr = sorted(math.log(max(f, 1e-12) / max(b, 1e-12)) for b, f in pairs)
        wins = sum(1 for b, f in pairs if f < b)
        med = lr[len(lr) // 2] if len(lr) % 2 else 0.5 * (lr[len(lr) // 2 - 1] + lr[len(lr) // 2])
        print("| %s | `%s` | %d | %.2f | %.2f | %d/%d |" % (p, m, len(pairs), math.exp(sum(lr) / len(lr)), math.exp(med), wins, len(pairs)))
        if p not in NOISE_FREE:
            pooled.setdefault(m, []).extend(lr)
            pooled.setdefault("all", []).extend(lr)
    for m, lr in pooled.items():
        n = len(lr)
        mean = sum(lr) / n
        sd = math.sqrt(sum((x - mean) ** 2 for x in lr) / (n - 1)) if n > 1 else 0
        se = sd / math.sqrt(n)
        print("| noisy, pooled | `%s` | %d | %.2f (95%% CI %.2f–%.2f) | | %d/%d |" % (
            m, n, math.exp(mean), math.exp(mean - 1.96 * se), math.exp(mean + 1.96 * se),
            sum(1 for x in lr if x < 0), n))


if __name__ == "__main__":
    main(sys.argv[1:])
