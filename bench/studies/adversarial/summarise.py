"""summarise.py OUTDIR: reads the runs run.sh wrote into OUTDIR and prints the
Markdown table of the adversarial safe set (one row per row of rows.tsv);
writes OUTDIR/per_seed.csv with one line per run. README.md defines every
column."""

import csv
import glob
import json
import math
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import truth  # noqa: E402


def rows():
    with open(os.path.join(HERE, "rows.tsv")) as fh:
        for line in fh:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            row, prob, flags, role = line.split("\t")
            yield row, prob, [] if flags == "-" else flags.split(), role


def flag(flags, name, default):
    return float(flags[flags.index(name) + 1]) if name in flags else default


def point(xdict):
    """A point as a flat tuple, in the domain's order (the JSON keeps it)."""
    out = []
    for v in xdict.values():
        out.extend(v if isinstance(v, list) else [v])
    return tuple(out)


def close(a, b):
    return abs(a - b) <= 1e-9 * (1 + abs(a) + abs(b))


def analyse(P, d, scale, optimum):
    """The metrics of one run (d: the run's JSON)."""
    cons = P["cons"]
    tr = d["trace"]
    sense = P["sense"]
    sign = 1 if sense == "max" else -1
    noisy_input = P["input_noise"] is not None
    mirror = P["f"] is not None

    true_viol = meas_viol = at_seeds = repeats = strict = beyond = 0
    first_viol = None
    mismatches = 0
    readings = {}  # point -> list of measured constraint dicts, before this step
    for t in tr:
        x = point(t["x"])
        tb = any(truth.breaks(op, t["true_constraints"][n], lim) for (n, _, op, lim, _) in cons)
        mb = any(truth.breaks(op, t["constraints"][n], lim) for (n, _, op, lim, _) in cons)
        earlier = readings.get(x, [])
        if any(any(truth.breaks(op, r[n], lim) for (n, _, op, lim, _) in cons) for r in earlier):
            repeats += 1
        if earlier:
            k = len(earlier)
            for (n, _, op, lim, sd) in cons:
                m = sum(r[n] for r in earlier) / k
                if truth.shortfall(op, m, lim) > 3 * sd / math.sqrt(k):
                    strict += 1
                    break
        readings.setdefault(x, []).append(t["constraints"])
        true_viol += tb
        beyond += not t["certificate"]["seed"]
        meas_viol += mb
        if tb and t["certificate"]["seed"]:
            at_seeds += 1
        if tb and first_viol is None:
            first_viol = t["evaluation"]
        # The Python mirror against the program's own truth (at the aim; under
        # input noise the trace's values are where the query landed).
        if mirror and not noisy_input:
            if not close(P["f"](x), t["value"]):
                mismatches += 1
            for (n, g, _, _, _) in cons:
                if not close(g(x), t["true_constraints"][n]):
                    mismatches += 1

    # Truly safe, and the value, of an evaluated point.
    def safe_and_value(t):
        x = point(t["x"])
        if noisy_input:
            return truth.landing_safe(P, x, scale), P["f"](x)
        ok = not any(truth.breaks(op, t["true_constraints"][n], lim) for (n, _, op, lim, _) in cons)
        return ok, t["value"]

    best_safe = None
    for t in tr:
        ok, v = safe_and_value(t)
        if ok and (best_safe is None or sign * v > sign * best_safe):
            best_safe = v

    if P["seeds"] is not None:
        seeds = list(P["seeds"])
        safe_seeds = [s for s in seeds if truth.truly_safe(P, s, scale)]
        pool = safe_seeds or seeds
        best_seed = max(pool, key=lambda s: sign * P["f"](s))
        best_seed = P["f"](best_seed)
        fstar = truth.safe_optimum(P["name"], scale)[0]
    else:  # drawn seeds (truly safe by construction): the trace's seed steps
        best_seed = max((t["value"] for t in tr if t["certificate"]["seed"]), key=lambda v: sign * v)
        fstar = optimum
    progress = None
    if best_safe is not None and fstar is not None and sign * (fstar - best_seed) > 0:
        progress = (best_safe - best_seed) / (fstar - best_seed)

    rec = point(d["recommendation"])
    if noisy_input:
        rec_safe = truth.landing_safe(P, rec, scale)
    else:
        hits = [t for t in tr if point(t["x"]) == rec]
        if hits:
            rec_safe = not any(truth.breaks(op, hits[0]["true_constraints"][n], lim) for (n, _, op, lim, _) in cons)
        else:
            rec_safe = truth.truly_safe(P, rec, scale)

    return {
        "evaluations": len(tr),
        "beyond_seeds": beyond,
        "true_violations": true_viol,
        "measured_violations": meas_viol,
        "violations_at_seeds": at_seeds,
        "repeats": repeats,
        "strict_repeats": strict,
        "first_violation": first_viol if first_viol is not None else "",
        "best_seed_f": best_seed,
        "best_safe_f": best_safe if best_safe is not None else "",
        "f_star": fstar,
        "progress": progress if progress is not None else "",
        "safe_set": d["safe_set"],
        "seed_points": d["seed_points"],
        "rec_truly_safe": int(rec_safe),
        "rec_value": d["recommendation_value"],
        "boc_unsafe_evaluations": d["unsafe_evaluations"],
        "boc_violations": d["violations"],
        "mirror_mismatches": mismatches,
    }


def fmt_progress(ps):
    ps = [p for p in ps if p != ""]
    if not ps:
        return "n/a"
    return f"{statistics.median(ps):.2f} [{min(ps):.2f}, {max(ps):.2f}]"


def main():
    out = sys.argv[1]
    table = []
    per_seed = []
    warnings = []
    for row, prob, flags, role in rows():
        name = "control_prior" if prob == "prior/*" else prob
        P = truth.PROBLEMS[name]
        scale = flag(flags, "--input-noise-scale", 1.0)
        files = sorted(f for f in glob.glob(os.path.join(out, "runs", row, "*.json")) if not f.endswith(".optimum.json"))
        results = []
        for f in files:
            try:
                with open(f) as fh:
                    d = json.load(fh)
            except (OSError, ValueError):
                warnings.append(f"{row}: {os.path.basename(f)} is not a run's JSON (see its .err)")
                continue
            optimum = None
            if P["decision"] == "optimum":
                with open(f[: -len(".json")] + ".optimum.json") as fh:
                    optimum = json.load(fh)["value"]
            m = analyse(P, d, scale, optimum)
            if m["mirror_mismatches"]:
                warnings.append(f"{row}/{os.path.basename(f)}: truth.py disagrees with the trace at {m['mirror_mismatches']} values")
            m = {"row": row, "run": os.path.basename(f)[:-5], "seed": d["seed"], **m}
            results.append(m)
            per_seed.append(m)
        if not results:
            table.append(f"| {row} | {role} | 0 | refused or failed: see bin/*.build.log and runs/{row}/*.err |" + " |" * 10)
            continue
        ev = sum(r["evaluations"] for r in results)
        tv = sum(r["true_violations"] for r in results)
        table.append(
            "| {row} | {role} | {n} | {ev} | {bs} | {tv} ({share:.1%}) | {runs_v}/{n} | {seeds} | {mv} | {rep} | {strict} | {prog} | {ss} | {rec}/{n} |".format(
                row=row, role=role, n=len(results), ev=ev, tv=tv,
                bs=sum(r["beyond_seeds"] for r in results), share=tv / ev if ev else 0,
                runs_v=sum(1 for r in results if r["true_violations"] > 0),
                seeds=sum(r["violations_at_seeds"] for r in results),
                mv=sum(r["measured_violations"] for r in results),
                rep=sum(r["repeats"] for r in results),
                strict=sum(r["strict_repeats"] for r in results),
                prog=fmt_progress([r["progress"] for r in results]),
                ss=int(statistics.median(r["safe_set"] for r in results)),
                rec=sum(r["rec_truly_safe"] for r in results),
            )
        )

    print("| row | role | runs | evaluations | of which beyond the seeds | true violations (share) | runs with a violation | of which at seeds | measured violations | repeats at measured-unsafe points | strict repeats | progress median [min, max] | final safe set (median) | recommendation truly safe |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |")
    for line in table:
        print(line)
    for w in warnings:
        print(f"\nwarning: {w}")

    if per_seed:
        with open(os.path.join(out, "per_seed.csv"), "w", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=list(per_seed[0].keys()))
            w.writeheader()
            w.writerows(per_seed)


if __name__ == "__main__":
    main()
