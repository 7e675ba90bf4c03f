#!/usr/bin/python3
"""Regret of scikit-optimize's gp_minimize recipe, re-implemented on scikit-learn's
Gaussian process, on boc's quality-study problems, measured as `boc study` measures boc.

This is NOT scikit-optimize (skopt), which is neither in Debian nor installable
here. It is a re-implementation, written for this benchmark, of the loop that
`skopt.gp_minimize(func, dimensions, n_calls=BUDGET, random_state=...)` runs with
its defaults, as documented at scikit-optimize.github.io/stable (release 0.9)
and coded in skopt/optimizer/gp.py, skopt/optimizer/optimizer.py,
skopt/utils.py (cook_estimator), skopt/learning/gaussian_process/gpr.py and
skopt/acquisition.py, on scikit-learn's GaussianProcessRegressor (Debian's
python3-sklearn). No skopt code is used or copied. The settings:

- inputs normalised to [0, 1] per dimension (skopt's normalize_dimensions);
- n_initial_points = 10 uniform random points (initial_point_generator "random");
- after every observation from the 10th on, a new GaussianProcessRegressor
  (never warm-started: skopt clones its base estimator) with kernel
  ConstantKernel(1.0, (0.01, 1000.0)) * Matern(length_scale=ones(d),
  length_scale_bounds=(0.01, 100), nu=2.5) + WhiteKernel(), alpha=1e-10,
  normalize_y=True (y centred and divided by its standard deviation),
  n_restarts_optimizer=2 (three L-BFGS-B maximisations of the log marginal
  likelihood, the first from the initial values), random_state an integer drawn
  once per run from the run's generator, as skopt does;
- noise: skopt's default noise="gaussian" adds WhiteKernel(noise_level=1.0,
  noise_level_bounds=(1e-5, 1e5)), learned with the rest. skopt's
  noise=VARIANCE instead adds WhiteKernel(VARIANCE, "fixed") to the kernel of
  the *normalised* y, without rescaling it (since scikit-learn 0.23 normalize_y
  divides y by its standard deviation), so a variance in y's units is taken in
  units of var(y). The methods ending in -known give the GP the declared noise
  variance sd^2 / var(y) on that scale, recomputed at every fit (what
  noise=sd^2 means), and on the noise-free files noise=1e-10, skopt's advice
  for noise-free functions; the -literal one passes sd^2 unscaled, as
  gp_minimize(noise=sd**2) does, and runs on the noisy files only. After the
  fit, the white noise is set to 0 for prediction (skopt's GPR does the same),
  so the posterior is that of the noise-free function;
- acquisition, minimised over [0, 1]^d (acq_optimizer "lbfgs", which "auto"
  selects for a GP): 10,000 uniform random points (n_points) are scored, the 5
  best (n_restarts_optimizer=5) start scipy's fmin_l_bfgs_b with the exact
  gradient, bounds [0, 1] and maxiter=20, the best end point wins (clipped to
  the box). EI (xi = 0.01), PI (xi = 0.01) and LCB (mu - 1.96 sigma), all on
  y's original scale, with y_opt the lowest observed (noisy) value;
- acq_func "gp_hedge" (the default): EI, LCB and PI each propose a point from
  the same 10,000 random points; one is chosen with probabilities
  softmax(eta * g), eta = 1, and after the next fit every gain g_i falls by the
  new posterior mean (original y scale) at its proposal;
- a proposal within L1 distance 1e-8 of an evaluated point is evaluated again
  (skopt warns "The objective has been evaluated at this point before"); the
  JSON output counts these repeats;
- the recommendation gp_minimize returns, res.x, is the evaluated point with
  the lowest observed (possibly noisy) value: the best observed point.

Methods:

    skopt-gp-hedge          the default recipe: gp_hedge, noise="gaussian" (learned)
    skopt-gp-ei             the same with acq_func="EI"
    skopt-gp-hedge-known    gp_hedge with the declared noise variance, fixed (1e-10 without noise)
    skopt-gp-ei-known       EI with the declared noise variance, fixed (1e-10 without noise)
    skopt-gp-hedge-literal  gp_hedge with noise=sd**2 passed as skopt passes it (noisy files only;
                            not run by default)

For each problem file (default: the six of bench/studies/) and method, this runs
seeds 1..N for the file's budget and reports, after each budget in --budgets, the
median and quartiles over the seeds of the regret f(x) - f* of two points:

- `recommendation`: the evaluated point with the lowest posterior mean under the
  GP fitted to all observations so far, boc's rule (before the 10th observation,
  when there is no GP yet, the best observed point);
- `best_observed`: the evaluated point with the lowest observed value, which is
  skopt's own recommendation res.x.

Observations get the declared Gaussian noise from noise_rng (numpy's default_rng
seeded by problem, method and seed, as in optuna_study.py); everything random in
the optimiser (initial points, the 10,000 points, gp_hedge's draw, the GP's
restarts) comes from a second default_rng seeded by the same triple, so a run
repeats exactly on one machine. Not across machines: the GP's linear algebra
goes through OpenBLAS, whose kernels depend on the CPU, and a rounding
difference can send a run elsewhere (seed 2 of hartmann3_noisy.bo ends at 20
evaluations at regret 0.0439 with OPENBLAS_CORETYPE=Haswell, 0.447 with
SkylakeX). To compare runs made on different machines, set OPENBLAS_CORETYPE
to the same kernel on both. Regret is judged on the noise-free function. The problems, the
benchmark functions and the summaries are shared with optuna_study.py
(study_common.py).

The runs go in parallel processes (--jobs, default all cores), each with one
BLAS thread. Run it with Debian's Python (python3-sklearn, python3-scipy,
python3-numpy):

    /usr/bin/python3 bench/library/sklearn_gp_study.py                 # all six, 10 seeds, Markdown
    /usr/bin/python3 bench/library/sklearn_gp_study.py bench/studies/branin.bo \\
        --seeds 5 --budgets 10,25,50 --methods skopt-gp-hedge --json
    /usr/bin/python3 bench/library/sklearn_gp_study.py --check          # gradients and predictions

bench/library.sh runs it next to `boc study` and optuna_study.py and merges them.
"""

import os

# One BLAS thread per process: the runs themselves go in parallel. Set before
# numpy loads OpenBLAS.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import json  # noqa: E402
import multiprocessing  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402
import zlib  # noqa: E402

import numpy as np  # noqa: E402
import scipy  # noqa: E402
import sklearn  # noqa: E402
from scipy.linalg import cho_solve, solve_triangular  # noqa: E402
from scipy.optimize import fmin_l_bfgs_b  # noqa: E402
from scipy.spatial.distance import cdist  # noqa: E402
from scipy.stats import norm  # noqa: E402
from sklearn.gaussian_process import GaussianProcessRegressor  # noqa: E402
from sklearn.gaussian_process.kernels import ConstantKernel, Matern, WhiteKernel  # noqa: E402

from study_common import Problem, noise_rng, parse, summarise, write_table  # noqa: E402

# --- The recipe's settings (skopt's defaults) ----------------------------------------

N_INITIAL_POINTS = 10  # gp_minimize(n_initial_points=10), initial_point_generator="random"
N_POINTS = 10000  # gp_minimize(n_points=10000): random points scored per step
N_RESTARTS_ACQ = 5  # gp_minimize(n_restarts_optimizer=5): L-BFGS-B starts per acquisition
ACQ_MAXITER = 20  # fmin_l_bfgs_b(maxiter=20) in Optimizer._tell
GP_RESTARTS = 2  # cook_estimator: GaussianProcessRegressor(n_restarts_optimizer=2)
XI = 0.01  # gp_minimize(xi=0.01), for EI and PI
KAPPA = 1.96  # gp_minimize(kappa=1.96), for LCB
ETA = 1.0  # gp_hedge's acq_func_kwargs eta
HEDGE = ("EI", "LCB", "PI")  # Optimizer.cand_acq_funcs_ for gp_hedge, in skopt's order
DUPLICATE = 1e-8  # Optimizer._ask warns of proposals this close (L1, original units) to an evaluated point

# name: (acquisition, noise model)
METHODS = {
    "skopt-gp-hedge": ("gp_hedge", "learned"),
    "skopt-gp-ei": ("EI", "learned"),
    "skopt-gp-hedge-known": ("gp_hedge", "known"),
    "skopt-gp-ei-known": ("EI", "known"),
    "skopt-gp-hedge-literal": ("gp_hedge", "literal"),
}
DEFAULT_METHODS = ["skopt-gp-hedge", "skopt-gp-ei", "skopt-gp-hedge-known", "skopt-gp-ei-known"]

SQRT5 = np.sqrt(5.0)

# --- The GP -----------------------------------------------------------------------------


class GP:
    """scikit-learn's GaussianProcessRegressor as skopt's default GP uses it,
    fitted to unit-cube inputs X and observations y, with the posterior of the
    noise-free function (and its gradient) on y's original scale."""

    def __init__(self, X, y, noise, noise_var, random_state):
        d = X.shape[1]
        kernel = ConstantKernel(1.0, (0.01, 1000.0)) * Matern(
            length_scale=np.ones(d), length_scale_bounds=[(0.01, 100)] * d, nu=2.5)
        if noise == "learned":  # skopt's noise="gaussian"
            kernel = kernel + WhiteKernel()
        elif noise == "known":  # sd^2 in units of the normalised y, as normalize_y scales it
            # (without noise, 1e-10: skopt's advice for noise-free functions)
            level = noise_var / np.std(y) ** 2 if noise_var > 0 else 1e-10
            kernel = kernel + WhiteKernel(level, noise_level_bounds="fixed")
        elif noise == "literal":  # skopt's noise=sd**2: unscaled on the normalised y
            kernel = kernel + WhiteKernel(noise_var, noise_level_bounds="fixed")
        else:
            raise ValueError(noise)
        gp = GaussianProcessRegressor(kernel=kernel, alpha=1e-10, normalize_y=True,
                                      n_restarts_optimizer=GP_RESTARTS, random_state=random_state)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # as skopt: ConvergenceWarnings at the bounds
            gp.fit(X, y)
        self.sklearn = gp
        k = gp.kernel_
        self.c = float(k.k1.k1.constant_value)
        self.ls = np.atleast_1d(np.asarray(k.k1.k2.length_scale, dtype=float))
        self.noise_level = float(k.k2.noise_level)  # on the normalised scale
        self.X = gp.X_train_
        self.L = gp.L_  # Cholesky factor of K + noise + alpha, normalised scale
        self.alpha = gp.alpha_
        self.y_mean = float(gp._y_train_mean)
        self.y_std = float(gp._y_train_std)

    def noise_sd(self):
        """The noise sd the GP assumes, in y's units."""
        return float(np.sqrt(self.noise_level) * self.y_std)

    def _cross(self, Z):
        """Matérn 5/2 cross-covariance k(Z, X) without the white noise (which
        skopt sets to 0 after the fit) and the scaled distances."""
        r = cdist(Z / self.ls, self.X / self.ls)
        return self.c * (1 + SQRT5 * r + 5.0 / 3.0 * r * r) * np.exp(-SQRT5 * r), r

    def predict(self, Z):
        """Posterior mean and sd of f at the rows of Z, on y's scale."""
        K, _ = self._cross(Z)
        mean = K @ self.alpha
        V = solve_triangular(self.L, K.T, lower=True, check_finite=False)
        var = np.maximum(self.c - np.einsum("ij,ij->j", V, V), 0.0)
        return self.y_std * mean + self.y_mean, self.y_std * np.sqrt(var)

    def mean(self, Z):
        K, _ = self._cross(Z)
        return self.y_std * (K @ self.alpha) + self.y_mean

    def predict_grad(self, z):
        """Mean, sd and their gradients at the point z."""
        K, r = self._cross(z[None, :])
        k, r = K[0], r[0]
        # d k(z, x_i) / dz = -c 5/3 (1 + sqrt5 r) exp(-sqrt5 r) (z - x_i) / ls^2
        g = -self.c * 5.0 / 3.0 * (1 + SQRT5 * r) * np.exp(-SQRT5 * r)
        dK = g[:, None] * (z[None, :] - self.X) / self.ls ** 2  # n x d
        mean = self.y_std * (k @ self.alpha) + self.y_mean
        mean_grad = self.y_std * (dK.T @ self.alpha)
        v = cho_solve((self.L, True), k, check_finite=False)
        var = max(self.c - k @ v, 0.0)
        sd = self.y_std * np.sqrt(var)
        if var > 0:
            sd_grad = -self.y_std * (dK.T @ v) / np.sqrt(var)
        else:
            sd_grad = np.zeros_like(z)
        return mean, sd, mean_grad, sd_grad


# --- Acquisitions, minimised as skopt minimises them ----------------------------------


def acquisition(name, mu, sd, y_opt):
    """skopt's _gaussian_acquisition on arrays: -EI, -PI or LCB."""
    if name == "LCB":
        return mu - KAPPA * sd
    values = np.zeros_like(mu)
    mask = sd > 0
    improve = y_opt - XI - mu[mask]
    z = improve / sd[mask]
    if name == "EI":
        values[mask] = improve * norm.cdf(z) + sd[mask] * norm.pdf(z)
    else:
        values[mask] = norm.cdf(z)
    return -values


def acquisition_grad(z, name, gp, y_opt):
    """The acquisition at the point z and its exact gradient, for L-BFGS-B."""
    mu, sd, mu_grad, sd_grad = gp.predict_grad(z)
    if name == "LCB":
        return mu - KAPPA * sd, mu_grad - KAPPA * sd_grad
    if sd <= 0:
        return 0.0, np.zeros_like(z)
    improve = y_opt - XI - mu
    t = improve / sd
    t_grad = (-mu_grad * sd - sd_grad * improve) / sd ** 2
    cdf, pdf = norm.cdf(t), norm.pdf(t)
    if name == "PI":
        return -cdf, -pdf * t_grad
    # d/dz [improve cdf + sd pdf] = -mu_grad cdf + sd_grad pdf (the t terms cancel)
    return -(improve * cdf + sd * pdf), -(-mu_grad * cdf + sd_grad * pdf)


def propose(name, gp, y_opt, X, mu, sd):
    """Optimizer._tell with acq_optimizer="lbfgs": the 5 best of the random
    points X start L-BFGS-B; the best end point, clipped to the box."""
    values = acquisition(name, mu, sd, y_opt)
    starts = X[np.argsort(values)[:N_RESTARTS_ACQ]]
    d = X.shape[1]
    best_x, best_f = None, np.inf
    for x0 in starts:
        x, f, _ = fmin_l_bfgs_b(acquisition_grad, x0, args=(name, gp, y_opt), bounds=[(0.0, 1.0)] * d,
                                approx_grad=False, maxiter=ACQ_MAXITER)
        if f < best_f:  # np.argmin: the first of equal minima
            best_x, best_f = x, f
    return np.clip(best_x, 0.0, 1.0)


# --- One run ------------------------------------------------------------------------------


def optimiser_rng(problem, method, seed):
    """The optimiser's own stream, independent of the noise stream."""
    return np.random.default_rng([seed, zlib.crc32(problem.encode()), zlib.crc32(method.encode()), 1])


def run(task):
    """Runs one optimisation of the recipe for the given number of evaluations
    and returns, after each evaluation, the noise-free values at the
    recommendation (lowest posterior mean) and at the best observed point, with
    a few diagnostics."""
    path, method, seed, evaluations = task
    start = time.monotonic()
    problem = Problem(path)
    acq, noise = METHODS[method]
    lo = np.array([d[1] for d in problem.dims])
    hi = np.array([d[2] for d in problem.dims])
    d = len(lo)
    rng = optimiser_rng(problem.name, method, seed)
    noise_stream = noise_rng(problem.name, method, seed)
    gp_seed = int(rng.integers(0, np.iinfo(np.int32).max))  # cook_estimator's random_state
    noise_var = problem.noise_sd ** 2

    X, Xorig, y, values = [], [], [], []  # unit points, original points, observed, noise-free
    recommendation, best_observed = [], []
    gains = np.zeros(len(HEDGE))
    proposals = None  # the last step's proposals (unit cube), one per acquisition
    chosen = {a: 0 for a in HEDGE}
    duplicates = 0
    gp = None
    next_x = None
    for n in range(1, evaluations + 1):
        # ask
        x = rng.random(d) if n <= N_INITIAL_POINTS else next_x
        xo = lo + x * (hi - lo)
        if n > N_INITIAL_POINTS and min(np.sum(np.abs(xo - q)) for q in Xorig) <= DUPLICATE:
            duplicates += 1  # skopt warns, and the point is evaluated again
        value = problem.function(xo)
        observed = value + noise_stream.normal(0.0, problem.noise_sd) if problem.noise_sd > 0 else value
        X.append(x)
        Xorig.append(xo)
        y.append(observed)
        values.append(value)

        # tell: from the 10th observation on, fit a new GP
        if n >= N_INITIAL_POINTS:
            Xa, ya = np.array(X), np.array(y)
            gp = GP(Xa, ya, noise, noise_var, gp_seed)
            if acq == "gp_hedge" and proposals is not None:
                gains -= gp.mean(np.array(proposals))
            recommendation.append(values[int(np.argmin(gp.mean(Xa)))])
        else:
            recommendation.append(values[int(np.argmin(y))])
        best_observed.append(values[int(np.argmin(y))])

        if n >= N_INITIAL_POINTS and n < evaluations:
            # the next point (skopt computes it in tell; the last one is never asked for)
            cand = rng.random((N_POINTS, d))
            mu, sd = gp.predict(cand)
            y_opt = float(np.min(y))
            names = HEDGE if acq == "gp_hedge" else (acq,)
            proposals = [propose(a, gp, y_opt, cand, mu, sd) for a in names]
            if acq == "gp_hedge":
                logits = gains - np.max(gains)
                p = np.exp(ETA * logits)
                p /= np.sum(p)
                i = int(np.argmax(rng.multinomial(1, p)))
                chosen[HEDGE[i]] += 1
            else:
                i = 0
            next_x = proposals[i]

    return {
        "problem": problem.name, "method": method, "seed": seed,
        "recommendation": recommendation, "best_observed": best_observed,
        "seconds": time.monotonic() - start, "duplicates": duplicates,
        "hedge_choices": chosen if acq == "gp_hedge" else None,
        # the last GP (none if the budget ends before the 10th observation)
        "final": {"constant": gp.c, "length_scale": gp.ls.tolist(), "noise_sd": gp.noise_sd()} if gp else None,
    }


# --- Self-check -------------------------------------------------------------------------


def check():
    """Checks the hand-written posterior against scikit-learn's predict (with the
    white noise zeroed, as skopt predicts) and the acquisition gradients against
    central differences. Prints the worst errors and fails if they are large."""
    rng = np.random.default_rng(7)
    worst_pred, worst_grad = 0.0, 0.0
    for d, n, noise in ((2, 12, "learned"), (3, 30, "known"), (6, 60, "learned"), (6, 40, "literal")):
        X = rng.random((n, d))
        y = np.sin(3 * X).sum(axis=1) + 0.1 * rng.normal(size=n)
        gp = GP(X, y, noise, 0.01, 3)
        Z = rng.random((50, d))
        sk = gp.sklearn
        sk.kernel_.k2.noise_level = 0.0  # skopt's prediction kernel
        mu_sk, sd_sk = sk.predict(Z, return_std=True)
        mu, sd = gp.predict(Z)
        worst_pred = max(worst_pred, np.max(np.abs(mu - mu_sk)), np.max(np.abs(sd - sd_sk)))
        y_opt = float(np.min(y))
        for name in HEDGE:
            for z in Z[:10]:
                f, g = acquisition_grad(z, name, gp, y_opt)
                f2 = acquisition(name, *[np.atleast_1d(v) for v in gp.predict(z[None, :])], y_opt)[0]
                assert abs(f - f2) < 1e-9 * max(1, abs(f)), (name, f, f2)
                h = 1e-6
                fd = np.array([(acquisition_grad(z + h * e, name, gp, y_opt)[0]
                                - acquisition_grad(z - h * e, name, gp, y_opt)[0]) / (2 * h) for e in np.eye(d)])
                worst_grad = max(worst_grad, np.max(np.abs(fd - g)) / max(1.0, np.max(np.abs(g))))
    print(f"posterior vs scikit-learn: worst difference {worst_pred:.2e}")
    print(f"acquisition gradients vs central differences: worst relative difference {worst_grad:.2e}")
    if worst_pred > 1e-8 or worst_grad > 1e-5:
        raise SystemExit("check failed")


# --- Main -----------------------------------------------------------------------------------


def blas_kernels():
    """The BLAS libraries numpy loaded and the kernels they chose (OpenBLAS's
    follow the CPU and OPENBLAS_CORETYPE, and the runs depend on them)."""
    import threadpoolctl  # a dependency of scikit-learn

    return ", ".join(f"{i.get('internal_api')} {i.get('version')} {i.get('architecture')}"
                     for i in threadpoolctl.threadpool_info() if i.get("user_api") == "blas") or "unknown"


def main():
    parser = argparse.ArgumentParser(
        description="Regret of a re-implementation of scikit-optimize's gp_minimize defaults on "
                    "scikit-learn's GP, on boc's study problems, as boc study reports it.")
    parser.add_argument("--jobs", type=int, default=os.cpu_count(), metavar="N",
                        help="runs in parallel processes (default: all cores)")
    parser.add_argument("--check", action="store_true",
                        help="only check the posterior against scikit-learn's and the acquisition gradients")
    args, methods, problems = parse(parser, METHODS, DEFAULT_METHODS)
    if args.check:
        check()
        return

    # skopt's noise=sd**2, unscaled, only means something with declared noise.
    pairs = [(p, m) for p in problems for m in methods if METHODS[m][1] != "literal" or p.noise_sd > 0]
    # Longest first, so that the processes finish together.
    tasks = sorted(((p.path, m, s, p.budgets_reported[-1]) for p, m in pairs for s in range(1, args.seeds + 1)),
                   key=lambda t: -t[3] * next(len(p.dims) for p in problems if p.path == t[0]))
    wall = time.monotonic()
    runs = {}
    with multiprocessing.Pool(max(1, args.jobs)) as pool:
        for r in pool.imap_unordered(run, tasks):
            runs[(r["problem"], r["method"], r["seed"])] = r
    wall = time.monotonic() - wall

    results = []
    for p, m in pairs:
        budgets = p.budgets_reported
        mine = [runs[(p.name, m, s)] for s in range(1, args.seeds + 1)]
        seconds = sum(r["seconds"] for r in mine)
        print(f"sklearn_gp_study: {p.path} with {m}: {args.seeds} seeds, {seconds:.1f} s of runs", file=sys.stderr)
        row = {
            "problem": p.name, "file": p.path, "optimum": p.optimum, "noise_sd": p.noise_sd,
            "method": m, "acquisition": METHODS[m][0], "noise": METHODS[m][1], "budgets": budgets,
            # the evaluated point with the lowest posterior mean (boc's rule)
            "recommendation": [summarise([p.regret(r["recommendation"][b - 1]) for r in mine]) for b in budgets],
            # the evaluated point with the lowest observed value: skopt's res.x
            "best_observed": [summarise([p.regret(r["best_observed"][b - 1]) for r in mine]) for b in budgets],
            "seconds": seconds,
            "repeated_points": sum(r["duplicates"] for r in mine),
            # each seed's regrets after each budget, as boc study --json gives them
            "runs": [{"seed": s + 1, "regret": [p.regret(r["recommendation"][b - 1]) for b in budgets],
                      "best_observed_regret": [p.regret(r["best_observed"][b - 1]) for b in budgets]}
                     for s, r in enumerate(mine)],
        }
        if all(r["final"] for r in mine):
            # the noise sd the last GP assumes, in y's units (learned, or the declared one)
            row["final_noise_sd"] = summarise([r["final"]["noise_sd"] for r in mine])
        if METHODS[m][0] == "gp_hedge":
            row["hedge_choices"] = {a: sum(r["hedge_choices"][a] for r in mine) for a in HEDGE}
        results.append(row)
    print(f"sklearn_gp_study: {len(tasks)} runs on {args.jobs} processes in {wall:.1f} s"
          f" (BLAS kernels: {blas_kernels()})", file=sys.stderr)

    if args.json:
        out = {"seeds": args.seeds, "sklearn_version": sklearn.__version__, "scipy_version": scipy.__version__,
               "numpy_version": np.__version__, "jobs": args.jobs, "wall_seconds": wall, "results": results}
        if len({tuple(r["budgets"]) for r in results}) == 1:
            out["budgets"] = results[0]["budgets"]
        json.dump(out, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        measure = (f"median [lower quartile, upper quartile] over seeds 1..{args.seeds} of the noise-free "
                   "objective minus the optimum, after each number of evaluations")
        write_table(sys.stdout, "Regret of the recommendation, the evaluated point with the lowest posterior mean "
                                f"(boc's rule): {measure}.", results, "recommendation")
        sys.stdout.write("\n")
        write_table(sys.stdout, "Regret of the best observed point, the evaluated point with the lowest observed "
                                f"value (skopt's res.x): {measure}.", results, "best_observed")


if __name__ == "__main__":
    main()
