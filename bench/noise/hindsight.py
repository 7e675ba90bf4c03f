#!/usr/bin/python3
"""What a run found against what it recommends (docs/noise-factors.md, "where
the gap is").

    hindsight.py PROG --optimum F --box LO:HI,... [--seeds N] [--budget B] [--sklearn SD]

PROG is a program built by `boc build` from a file with an expression
objective (minimised) and declared observation noise. For seeds 1..N it runs
`PROG run --json --trace` and prints, as median [lower quartile, upper
quartile] over the seeds:

- the regret of the recommendation (the evaluated point with the best
  posterior mean), f(x_rec) − F;
- the regret of the best point evaluated, in hindsight: min over the trace of
  the noise-free value, minus F (an oracle: no optimiser can know it);
- repeated evaluations per run (the same point suggested again), and how
  many of them sit on a corner of the box (--box: the domain's bounds, one
  LO:HI per component in order; every component at a bound);
- with --sklearn SD (the observation noise's sd; needs Debian's
  python3-sklearn, see bench/debian.sh): the regret of the evaluated point
  the reference's GP (bench/library/sklearn_gp_study.py's model: Matérn-5/2
  with ARD lengthscales, a constant, normalised outputs) would recommend from
  the same observations, once with the noise learned (a white-noise term, the
  reference's default) and once with the noise known. Whether it chooses
  better from the same data separates the model from the data.
"""
import argparse
import json
import statistics
import subprocess


def quartiles(v):
    q = statistics.quantiles(v, n=4, method="inclusive")
    return "%.3g [%.3g, %.3g]" % (q[1], q[0], q[2])


def flat(x):
    out = []
    for v in x.values():
        out.extend(v if isinstance(v, list) else [v])
    return out


def sklearn_choices(x, y, seed, sd):
    """The evaluated point's index the reference's GP ranks best (lowest
    posterior mean), with the noise learned and known."""
    import warnings

    import numpy as np
    from sklearn.gaussian_process import GaussianProcessRegressor
    from sklearn.gaussian_process.kernels import ConstantKernel, Matern, WhiteKernel
    warnings.filterwarnings("ignore")
    x, y = np.array(x), np.array(y)
    out = []
    for learned in (True, False):
        k = ConstantKernel(1.0, (0.01, 1000)) * Matern(np.ones(x.shape[1]), (0.01, 100), nu=2.5)
        if learned:
            gp = GaussianProcessRegressor(k + WhiteKernel(), normalize_y=True, n_restarts_optimizer=2,
                                          random_state=seed)
        else:
            gp = GaussianProcessRegressor(k, alpha=(sd / y.std()) ** 2, normalize_y=True,
                                          n_restarts_optimizer=2, random_state=seed)
        gp.fit(x, y)
        out.append(int(np.argmin(gp.predict(x))))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("prog")
    ap.add_argument("--optimum", type=float, required=True)
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--budget", type=int, default=40)
    ap.add_argument("--box", required=True)
    ap.add_argument("--sklearn", type=float, metavar="SD")
    a = ap.parse_args()
    box = [tuple(map(float, b.split(":"))) for b in a.box.split(",")]
    rec, best, repeats, corners = [], [], [], []
    learned, known = [], []
    for seed in range(1, a.seeds + 1):
        out = subprocess.run([a.prog, "run", "--json", "--trace", "--seed", str(seed),
                              "--budget", str(a.budget)], capture_output=True, text=True, check=True)
        d = json.loads(out.stdout)
        rec.append(d["recommendation_value"] - a.optimum)
        values = [e["value"] for e in d["trace"]]
        best.append(min(values) - a.optimum)
        if a.sklearn:
            # Unit coordinates, as both sides model them.
            x = [[(v - lo) / (hi - lo) for v, (lo, hi) in zip(flat(e["x"]), box)] for e in d["trace"]]
            i, j = sklearn_choices(x, [e["y"] for e in d["trace"]], seed, a.sklearn)
            learned.append(values[i] - a.optimum)
            known.append(values[j] - a.optimum)
        seen, rep, corner = set(), 0, 0
        for e in d["trace"]:
            x = tuple(flat(e["x"]))
            if x in seen:
                rep += 1
                if all(v in b for v, b in zip(x, box)):
                    corner += 1
            seen.add(x)
        repeats.append(rep)
        corners.append(corner)
    print("recommendation regret   ", quartiles(rec))
    print("best evaluated, hindsight", quartiles(best))
    print("repeated evaluations per run %.2f (all runs: %d), of which at a corner: %d"
          % (statistics.mean(repeats), sum(repeats), sum(corners)))
    if a.sklearn:
        print("reference GP's choice, noise learned", quartiles(learned))
        print("reference GP's choice, noise known  ", quartiles(known))


if __name__ == "__main__":
    main()
