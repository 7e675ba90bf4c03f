#!/usr/bin/python3
"""Seed luck: the final-budget median regret of the recommendation over seeds
1..N/2 against seeds N/2+1..N of one `boc study --json` run (docs/noise-factors.md).

    halves.py FILE.json[,...]

A change that moves a median by less than these halves differ by is not
distinguishable from the choice of seeds.
"""
import json
import statistics
import sys


def main(argv):
    runs = {}
    for path in argv[0].split(","):
        with open(path) as f:
            d = json.load(f)
        for r in d["results"]:
            for run in r.get("runs") or []:
                regs = [x for x in run["regret"] if x is not None]
                runs.setdefault((r["problem"], r["method"]), []).append((run["seed"], regs[-1]))
    print("| problem | method | seeds 1–N/2 | seeds N/2+1–N | ratio (larger/smaller) |")
    print("| --- | --- | ---: | ---: | ---: |")
    for (p, m), v in runs.items():
        v.sort()
        h = len(v) // 2
        a = statistics.median(x for _, x in v[:h])
        b = statistics.median(x for _, x in v[h:])
        print("| %s | `%s` | %.3g | %.3g | %.2f |" % (p, m, a, b, max(a, b) / min(a, b)))


if __name__ == "__main__":
    main(sys.argv[1:])
