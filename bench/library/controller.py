#!/usr/bin/python3
"""A controller to tune: 24 feedback gains of a chain of four masses (issue 33).

Four unit masses on a line, each joined to the next by a spring (stiffness
1) and the first to a wall, every mass damped (0.1); forces act on masses
1, 2 and 4. The state is the masses' positions and velocities (8 values),
sampled every 0.1 s (zero-order hold). The controller is a static state
feedback u = -K x, K a 3 x 8 matrix of gains in [-5, 5] read row by row
from x[0..23]. Its cost is the natural log of the quadratic cost
sum_t x_t' (Q + K'RK) x_t (Q = I, R = 0.1 I) over 100 steps (10 s), summed
over the 8 unit initial states: a tuner's view of a rig, where most of the
gain box destabilises the chain and the cost grows without bound, which the
log keeps finite. Gains near the infinite-horizon LQR gain are best; the
minimum over the box is found by L-BFGS from that gain (minimum()).

As a program it is an `exec` objective: it reads {"x": {"x": [24 gains]}}
on standard input and writes {"y": cost}.

Needs numpy; minimum() also needs scipy.
"""

import json
import math
import sys

import numpy as np

MASSES, INPUTS, DT, STEPS = 4, (0, 1, 3), 0.1, 100
STATES = 2 * MASSES
GAINS = len(INPUTS) * STATES
LO, HI = -5.0, 5.0


def _system():
    stiffness = np.zeros((MASSES, MASSES))
    for i in range(MASSES):
        stiffness[i, i] += 1  # the spring on its left: the wall's or the previous mass's
        if i + 1 < MASSES:
            stiffness[i, i] += 1
            stiffness[i, i + 1] -= 1
            stiffness[i + 1, i] -= 1
    a = np.zeros((STATES, STATES))
    a[:MASSES, MASSES:] = np.eye(MASSES)
    a[MASSES:, :MASSES] = -stiffness
    a[MASSES:, MASSES:] = -0.1 * np.eye(MASSES)
    b = np.zeros((STATES, len(INPUTS)))
    for j, i in enumerate(INPUTS):
        b[MASSES + i, j] = 1
    # Zero-order hold: the exponential of [[a, b], [0, 0]] holds both matrices.
    aug = np.zeros((STATES + len(INPUTS),) * 2)
    aug[:STATES, :STATES], aug[:STATES, STATES:] = a * DT, b * DT
    e = _expm(aug)
    return e[:STATES, :STATES], e[:STATES, STATES:]


def _expm(m):
    """exp(m) by scaling and squaring a Taylor series (m is small here):
    scipy's expm would make every evaluation, a process of its own, import
    scipy."""
    s = max(0, int(math.ceil(math.log2(max(np.abs(m).sum(axis=1).max(), 1e-300)))) + 1)
    m = m / 2 ** s
    out, term = np.eye(len(m)), np.eye(len(m))
    for k in range(1, 20):
        term = term @ m / k
        out = out + term
    for _ in range(s):
        out = out @ out
    return out


A, B = _system()
Q, R = np.eye(STATES), 0.1 * np.eye(len(INPUTS))


def cost(x):
    k = np.reshape(np.asarray(x, dtype=float), (len(INPUTS), STATES))
    closed, weight = A - B @ k, Q + k.T @ R @ k
    spread, total = np.eye(STATES), 0.0
    for _ in range(STEPS):
        total += float(np.trace(weight @ spread))
        spread = closed @ spread @ closed.T
    return math.log(total)


def minimum():
    """The least cost in the box: L-BFGS-B from the infinite-horizon LQR gain."""
    import scipy.linalg
    import scipy.optimize
    p = scipy.linalg.solve_discrete_are(A, B, Q, R)
    lqr = np.linalg.solve(R + B.T @ p @ B, B.T @ p @ A)
    best = scipy.optimize.minimize(cost, lqr.ravel(), method="L-BFGS-B", bounds=[(LO, HI)] * GAINS)
    return float(best.fun)


if __name__ == "__main__":
    gains = json.load(sys.stdin)["x"]["x"]
    json.dump({"y": cost(gains)}, sys.stdout)
