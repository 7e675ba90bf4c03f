#!/usr/bin/python3
"""Writes airbo_reference.json: MMD estimates and kernel values computed with
the formulas of AIRBO's released code (huawei-noah/HEBO, folder AIRBO,
kernels/mmd_kernel.py and models/mmd_gp.py), ported to numpy for this fixture
(no code of theirs is used or copied), for runtime/uncertain's tests to check
boc's estimators against.

    /usr/bin/python3 runtime/uncertain/testdata/airbo_reference.py

The authors' formulas, as read in their code:

- base kernel: additive_RQ_kernel, a sum over the shapes a in
  (0.2, 0.5, 1, 2, 5) of gpytorch's RQKernel (1 + r²/(2·a·ℓ_a²))^(−a), each
  term with its own scalar lengthscale ℓ_a (their learnable_ls=False sets
  `require_grad`, not `requires_grad`, so the lengthscales are trained);
  boc's rqmix shares one lengthscale per dimension across the terms;
- empirical_mmd: the U-statistic, the self terms without the diagonal,
  (Σ_{i≠j} k(x_i, x_j))/(m(m−1)) + the same for y − 2·(Σ k(x_i, y_j))/m²,
  evaluated on the diagonal of a Gram matrix too (MMD²(P, P) with the same
  samples is then not 0);
- nystrom_mmd: landmarks X_h, Y_h (a random subset of h samples each; here
  the first h, as boc takes them), α_x = K(X_h, X_h)⁺ K(X_h, X) 1/m and the
  same for y, MMD² = α_xᵀK(X_h, X_h)α_x + α_yᵀK(Y_h, Y_h)α_y − 2·α_xᵀK(X_h, Y_h)α_y;
- MMDKernel: exp(−MMD²/(2ℓ²)), inside a ScaleKernel: s²·exp(−MMD²/(2ℓ²)).
  boc writes exp(−α·MMD²), α = 1/(2ℓ²), and the output scale s²;
- fresh draws: every call draws each input's samples anew, so an estimate
  is a random variable; "fresh" holds the mean and standard deviation of
  the samples' offsets and of empirical_mmd over 20,000 calls, which boc's
  draws = "fresh" must reproduce in distribution.

The pseudo-inverse is numpy's pinv (an SVD with a relative cut-off), as
torch.linalg.pinv computes it; the landmark sets below are well conditioned,
so the cut-off does not matter.
"""
import json
import os

import numpy as np

SHAPES = (0.2, 0.5, 1.0, 2.0, 5.0)


def rqmix(x, y, ls):
    """Σ_a (1 + ‖x − y‖²/(2·a·ℓ_a²))^(−a) between the rows of x and y; ls holds
    one lengthscale per term (AIRBO) or, as a (d,) array with shared=True
    semantics, is handled by rqmix_ard."""
    r2 = ((x[:, None, :] - y[None, :, :]) ** 2).sum(-1)
    return sum((1 + r2 / (2 * a * l * l)) ** (-a) for a, l in zip(SHAPES, ls))


def rqmix_ard(x, y, ls):
    """boc's rqmix: one lengthscale per dimension, shared by the terms."""
    r2 = (((x[:, None, :] - y[None, :, :]) / ls) ** 2).sum(-1)
    return sum((1 + r2 / (2 * a)) ** (-a) for a in SHAPES)


def empirical_u(x, y, k):
    m, n = len(x), len(y)
    kxx, kyy = k(x, x), k(y, y)
    xx = (kxx.sum() - np.trace(kxx)) / (m * (m - 1))
    yy = (kyy.sum() - np.trace(kyy)) / (n * (n - 1))
    return xx + yy - 2 * k(x, y).sum() / (m * n)


def empirical_v(x, y, k):
    return k(x, x).mean() + k(y, y).mean() - 2 * k(x, y).mean()


def nystrom(x, y, k, h):
    xh, yh = x[:h], y[:h]
    kx, ky = k(xh, xh), k(yh, yh)
    ax = np.linalg.pinv(kx) @ k(xh, x).sum(1) / len(x)
    ay = np.linalg.pinv(ky) @ k(yh, y).sum(1) / len(y)
    return ax @ kx @ ax + ay @ ky @ ay - 2 * ax @ k(xh, yh) @ ay


def smallest_relative_eigenvalue(sets, k, h):
    """The smallest eigenvalue of the landmarks' matrices over the largest:
    where it is below boc's cut-off, boc's pseudo-inverse drops directions
    that numpy's keeps."""
    out = 1.0
    for s in sets:
        w = np.linalg.eigvalsh(k(s[:h], s[:h]))
        out = min(out, w[0] / w[-1])
    return float(out)


def matrix(sets, estimator):
    return [[float(estimator(a, b)) for b in sets] for a in sets]


def case(rng, name, d, m, h, shift):
    """Four sample sets of m points in R^d: a Gaussian cloud around each of
    four centres, the last two close together."""
    centres = rng.uniform(0, 1, size=(4, d))
    centres[3] = centres[2] + shift
    sets = [c + 0.1 * rng.standard_normal((m, d)) for c in centres]
    per_term = rng.uniform(0.2, 0.6, size=len(SHAPES))
    ard = rng.uniform(0.2, 0.6, size=d)
    kt = lambda a, b: rqmix(a, b, per_term)  # noqa: E731
    ka = lambda a, b: rqmix_ard(a, b, ard)  # noqa: E731
    mmd_ls, scale = 0.7, 1.9
    u = matrix(sets, lambda a, b: empirical_u(a, b, kt))
    return {
        "name": name, "d": d, "m": m, "h": h,
        "samples": [s.ravel().tolist() for s in sets],
        "per_term_lengthscales": per_term.tolist(),
        "ard_lengthscales": ard.tolist(),
        "mmd_lengthscale": mmd_ls, "output_scale": scale,
        # the base kernels between the first two samples of sets 0 and 1
        "rqmix_per_term": float(kt(sets[0][:1], sets[1][:1])[0, 0]),
        "rqmix_ard": float(ka(sets[0][:1], sets[1][:1])[0, 0]),
        # MMD² between every two sets, the diagonal included
        "empirical_u_per_term": u,
        "empirical_v_ard": matrix(sets, lambda a, b: empirical_v(a, b, ka)),
        "empirical_u_ard": matrix(sets, lambda a, b: empirical_u(a, b, ka)),
        "nystrom_per_term": matrix(sets, lambda a, b: nystrom(a, b, kt, h)),
        "nystrom_ard": matrix(sets, lambda a, b: nystrom(a, b, ka, h)),
        "landmark_eigenvalue_per_term": smallest_relative_eigenvalue(sets, kt, h),
        "landmark_eigenvalue_ard": smallest_relative_eigenvalue(sets, ka, h),
        # AIRBO's Gram matrix from the U-statistic: s²·exp(−MMD²/(2ℓ²))
        "gram_empirical_u_per_term": [[scale * float(np.exp(-v / (2 * mmd_ls ** 2))) for v in row] for row in u],
    }


def fresh(rng, draws=20000):
    """AIRBO's fresh draws: at every call each input's m samples are drawn
    anew, so the estimate is a random variable. Its mean and standard
    deviation over independent calls, for two inputs under the double-peak
    problem's noise x + 0.1·Beta(0.4, 0.2) and AIRBO's per-term rqmix, with
    numpy's own Beta sampler."""
    x, y, m = 0.25, 0.3, 20
    per_term = [0.03, 0.05, 0.08, 0.1, 0.2]
    k = lambda a, b: rqmix(a, b, per_term)  # noqa: E731
    est, offsets = [], []
    for _ in range(draws):
        ex, ey = 0.1 * rng.beta(0.4, 0.2, size=(m, 1)), 0.1 * rng.beta(0.4, 0.2, size=(m, 1))
        est.append(empirical_u(x + ex, y + ey, k))
        offsets.append(ex[:, 0])
    est, offsets = np.array(est), np.concatenate(offsets)
    return {
        "x": x, "y": y, "m": m, "draws": draws, "per_term_lengthscales": per_term,
        "offset_mean": float(offsets.mean()), "offset_sd": float(offsets.std()),
        "empirical_u_mean": float(est.mean()), "empirical_u_sd": float(est.std()),
    }


def main():
    rng = np.random.default_rng(20261125)
    cases = [case(rng, "1-D", 1, 40, 10, 0.02), case(rng, "3-D", 3, 30, 8, 0.05)]
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "airbo_reference.json")
    with open(out, "w") as f:
        json.dump({"generator": "runtime/uncertain/testdata/airbo_reference.py",
                   "numpy": np.__version__, "cases": cases,
                   "fresh": fresh(np.random.default_rng(20261126))}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
