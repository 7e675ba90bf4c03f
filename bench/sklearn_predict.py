#!/usr/bin/env python3
"""Time scikit-learn's GaussianProcessRegressor.predict on bench/predict's data.

Reads train.csv, test.csv, boc.csv and boc.json that `go run ./bench/predict
-out DIR` wrote, fits GaussianProcessRegressor with the same fixed kernel
(ConstantKernel(1) * RBF(0.3) + WhiteKernel(1e-4), optimizer=None,
normalize_y=True), times predict(X, return_std=True) as the best of several
runs, checks that both tools' posteriors agree, and prints both timings and
their ratio. Usage: sklearn_predict.py DIR [RUNS]
"""
import json
import os
import sys
import time

import numpy as np
import sklearn
from sklearn.gaussian_process import GaussianProcessRegressor
from sklearn.gaussian_process.kernels import RBF, ConstantKernel, WhiteKernel

NOISE = 1e-4  # WhiteKernel's variance, on the standardised scale


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    data = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) == 3 else 7
    train = np.loadtxt(os.path.join(data, "train.csv"), delimiter=",")
    test = np.loadtxt(os.path.join(data, "test.csv"), delimiter=",")
    boc = np.loadtxt(os.path.join(data, "boc.csv"), delimiter=",")
    with open(os.path.join(data, "boc.json")) as f:
        boc_time = json.load(f)
    x, y = train[:, :-1], train[:, -1]

    kernel = ConstantKernel(1.0, "fixed") * RBF(0.3, "fixed") + WhiteKernel(NOISE, "fixed")
    model = GaussianProcessRegressor(kernel=kernel, optimizer=None, normalize_y=True)
    model.fit(x, y)

    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        mean, sd = model.predict(test, return_std=True)
        best = min(best, time.perf_counter() - start)
    # The kernel matrix predict computes first, timed alone for the breakdown.
    best_kernel = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        model.kernel_(test, model.X_train_)
        best_kernel = min(best_kernel, time.perf_counter() - start)

    # predict's variance includes the WhiteKernel's noise (it adds k(x, x) of
    # the whole kernel); boc's is the latent function's, so subtract it.
    latent_var = sd**2 - NOISE * np.std(y) ** 2
    spread = np.ptp(y)
    mean_err = np.max(np.abs(mean - boc[:, 0])) / spread
    var_err = np.max(np.abs(latent_var - boc[:, 1] ** 2)) / np.var(y)
    print(f"scikit-learn {sklearn.__version__}, numpy {np.__version__}: "
          f"predict(return_std=True), best of {runs} runs")
    print(f"  kernel matrix (kernel_(X, X_train)): {1e3 * best_kernel:8.2f} ms")
    print(f"  prediction total:                    {1e3 * best:8.2f} ms")
    print(f"agreement: max |mean difference| / range(y) = {mean_err:.2e}, "
          f"max |variance difference| / var(y) = {var_err:.2e}")
    ratio = best / boc_time["total_s"]
    print(f"boc {1e3 * boc_time['total_s']:.2f} ms vs scikit-learn {1e3 * best:.2f} ms: "
          f"boc is {ratio:.2f}x as fast" if ratio >= 1 else
          f"boc {1e3 * boc_time['total_s']:.2f} ms vs scikit-learn {1e3 * best:.2f} ms: "
          f"boc takes {1 / ratio:.2f}x as long")
    if mean_err > 1e-6 or var_err > 1e-6:
        sys.exit("the two tools' posteriors disagree")


if __name__ == "__main__":
    main()
