#!/usr/bin/python3
"""Final-budget regret of the recommendation from `boc study --json` and
`bench/library/sklearn_gp_study.py --json` outputs (docs/noise-factors.md).

    final.py [--best-observed] LABEL=FILE.json[,FILE.json...] ...

prints one Markdown table with a row per (problem, method) and a column per
LABEL: median [q1, q3] over the seeds of the regret of the recommendation (the
evaluated point with the best posterior mean) after the last budget of each
JSON (with --best-observed, of the evaluated point with the best observed,
noisy, value instead). Reference methods (skopt-*) are rows of their own. A cell is "·" when
that label has no run of the row.
"""
import json
import sys


def fmt(v):
    if v == 0:
        return "0"
    if abs(v) >= 100 or abs(v) < 1e-3:
        return "%.2g" % v
    return "%.3g" % v


KEY = "recommendation"


def load(paths):
    out = {}
    for path in paths.split(","):
        with open(path) as f:
            text = f.read()
        if not text.strip():
            print("final.py: %s is empty, skipped" % path, file=sys.stderr)
            continue
        d = json.loads(text)
        budgets = d["budgets"]
        for r in d["results"]:
            rec = r.get(KEY) or []
            i = len(rec) - 1
            while i >= 0 and (rec[i] is None or rec[i].get("median") is None):
                i -= 1
            if i < 0:
                continue
            q = rec[i]
            cell = "%s [%s, %s]" % (fmt(q["median"]), fmt(q["q1"]), fmt(q["q3"]))
            out[(r["problem"], r["method"])] = (cell, budgets[i], d.get("seeds"))
    return out


def main(argv):
    global KEY
    if argv and argv[0] == "--best-observed":
        KEY, argv = "best_observed", argv[1:]
    cols = []
    for a in argv:
        label, _, paths = a.partition("=")
        cols.append((label, load(paths)))
    keys = []
    for _, d in cols:
        for k in d:
            if k not in keys:
                keys.append(k)
    probs = []
    for p, _ in keys:
        if p not in probs:
            probs.append(p)
    first = {k: i for i, k in enumerate(keys)}
    keys.sort(key=lambda k: (probs.index(k[0]), k[1].startswith("skopt"), first[k]))
    print("| problem | method | budget | " + " | ".join(l for l, _ in cols) + " |")
    print("| --- | --- | ---: | " + " | ".join("---:" for _ in cols) + " |")
    for k in keys:
        b = next(d[k][1] for _, d in cols if k in d)
        cells = [d[k][0] if k in d else "·" for _, d in cols]
        print("| %s | `%s` | %s | %s |" % (k[0], k[1], b, " | ".join(cells)))


if __name__ == "__main__":
    main(sys.argv[1:])
