"""Ground truth of the adversarial safe-optimisation set, in pure Python.

Every problem of bo/*.bo is mirrored here: its objective f and its simulated
constraints, written as the same expressions, its seeds and its decision set
(the points boc's safe_ucb chooses among). summarise.py checks the mirror
against every evaluation of every run (the trace's noise-free `value` and
`true_constraints`), so a typo here cannot pass silently.

    python3 truth.py          # the true safe optimum of each problem
    python3 truth.py --fine   # also over a fine grid of the continuous domain

Conventions: points are tuples in the domain's order (a vector dimension is
flattened); a constraint is (name, function, op, limit, declared_sd) with op
">=" or "<="; `sense` is "max" or "min".
"""

import math
import random
import sys

# ---------------------------------------------------------------- helpers


def grid(dims, per_axis):
    """boc's grid: per_axis values k/(per_axis-1) per component, bounds included."""
    axis = [k / (per_axis - 1) for k in range(per_axis)]
    if dims == 1:
        return [(a,) for a in axis]
    if dims == 2:
        return [(a, b) for a in axis for b in axis]
    if dims == 3:
        return [(a, b, c) for a in axis for b in axis for c in axis]
    raise ValueError(dims)


# boc's decision set of a continuous domain of 1, 2, 3 components.
BOC_GRID = {1: 4096, 2: 64, 3: 16}


def logistic_step(u):
    """1 - 2 / (1 + exp(u)), guarded against overflow (boc's float64 gives the same)."""
    if u > 700:
        return 1.0
    if u < -700:
        return -1.0
    return 1 - 2 / (1 + math.exp(u))


# ---------------------------------------------------------------- problems

PROBLEMS = {}


def problem(name, **kw):
    kw.setdefault("sense", "max")
    kw.setdefault("input_noise", None)
    kw["name"] = name
    PROBLEMS[name] = kw


problem(
    "cliff",
    dims=1,
    f=lambda p: -(p[0] - 0.68) ** 2,
    cons=[("g", lambda p: 0.15 + 0.85 * (1 - 2 / (1 + math.exp(-(p[0] - 0.6) / 0.004))), ">=", 0.0, 0.02)],
    seeds=[(0.1,), (0.2,)],
    decision="grid",
)

problem(
    "cliff_learned",
    dims=1,
    f=lambda p: -(p[0] - 0.68) ** 2,
    cons=[("g", lambda p: 0.15 + 0.85 * (1 - 2 / (1 + math.exp(-(p[0] - 0.6) / 0.004))), ">=", 0.0, 0.02)],
    seeds=[(0.1,), (0.2,), (0.3,)],
    decision="grid",
)

problem(
    "long_lengthscale",
    dims=2,
    f=lambda p: -(p[0] - 0.73) ** 2 - (p[1] - 0.5) ** 2,
    cons=[("g", lambda p: 0.25 + 0.75 * math.cos((p[0] - 0.1) / 0.04), ">=", 0.0, 0.02)],
    seeds=[(0.1, 0.3), (0.1, 0.6)],
    decision="grid",
)

# The same constraint, certified by its true Lipschitz constant (LoS-GP-UCB
# and LoSBO).
for _name in ("long_lengthscale_lipschitz", "long_lengthscale_losbo"):
    problem(
        _name,
        dims=2,
        f=lambda p: -(p[0] - 0.73) ** 2 - (p[1] - 0.5) ** 2,
        cons=[("g", lambda p: 0.25 + 0.75 * math.cos((p[0] - 0.1) / 0.04), ">=", 0.0, 0.02)],
        seeds=[(0.1, 0.3), (0.1, 0.6)],
        decision="grid",
    )

problem(
    "noise_understated",
    dims=2,
    f=lambda p: p[0] + p[1],
    cons=[("g", lambda p: 1 - 1.6 * (p[0] ** 2 + p[1] ** 2), ">=", 0.0, 0.02)],
    seeds=[(0.45, 0.45), (0.5, 0.4)],
    decision="grid",
)

problem(
    "trench",
    dims=2,
    f=lambda p: -(p[0] - 0.56) ** 2 - (p[1] - 0.5) ** 2,
    cons=[("g", lambda p: 1 - 1.8 * math.exp(-(((p[0] - 0.5) / 0.035) ** 2)), ">=", 0.0, 0.02)],
    seeds=[(0.1, 0.5), (0.2, 0.5)],
    decision="grid",
)

problem(
    "islands",
    dims=2,
    f=lambda p: -(p[0] - 0.8) ** 2 - (p[1] - 0.8) ** 2,
    cons=[(
        "g",
        lambda p: 0.85 * math.exp(-((p[0] - 0.25) ** 2 + (p[1] - 0.25) ** 2) / 0.02)
        + 0.85 * math.exp(-((p[0] - 0.75) ** 2 + (p[1] - 0.75) ** 2) / 0.02) - 0.25,
        ">=", 0.0, 0.02)],
    seeds=[(0.25, 0.25), (0.3, 0.25)],
    decision="grid",
)

problem(
    "boundary_seeds",
    dims=2,
    f=lambda p: p[0] + 0.5 * p[1],
    cons=[("g", lambda p: 0.5 - p[0] - 0.3 * (p[1] - 0.5) ** 2, ">=", 0.0, 0.02)],
    seeds=[(0.5, 0.5), (0.51, 0.45), (0.3, 0.5)],
    decision="grid",
)

problem(
    "pool5d",
    dims=5,
    f=lambda p: -sum((v - 0.75) ** 2 for v in p),
    cons=[("g", lambda p: 0.35 + 0.65 * math.cos(2 * math.pi * (p[0] + p[1] + p[2]) / 0.3), ">=", 0.0, 0.02)],
    seeds=[(0.1, 0.1, 0.1, 0.5, 0.5)],
    decision="pool",
)

# Input noise: speed lands at speed + eps, eps ~ uniform(-0.08 R, 0.08 R), R the
# run's --input-noise-scale. An aim is truly safe when P(g(aim + eps) >= 0) >=
# 1 - alpha under the REAL noise (the rule the constraint declares).
problem(
    "input_noise",
    dims=1,
    f=lambda p: p[0],
    cons=[("clearance", lambda p: math.sin(6 * p[0]) + 0.2, ">=", 0.0, 0.05)],
    seeds=[(0.05,), (0.1,), (0.15,)],
    decision="candidates",
    candidates=[(k / 200,) for k in range(201)],
    input_noise={"half_width": 0.08, "alpha": 0.05},
)

problem(
    "disc_learned",
    dims=2,
    f=lambda p: p[0] + p[1],
    # No noise is declared (observation noise learn): boc learns it and
    # simulates none, so 0 stands for the declared sd.
    cons=[("g", lambda p: logistic_step((0.25 - math.sqrt((p[0] - 0.4) ** 2 + (p[1] - 0.4) ** 2)) / 0.01), ">=", 0.0, 0.0)],
    seeds=[(0.4, 0.4), (0.45, 0.4), (0.4, 0.45)],
    decision="grid",
)

problem(
    "control_wellspecified",
    dims=2,
    f=lambda p: -(p[0] - 0.7) ** 2 - (p[1] - 0.6) ** 2,
    cons=[("heat", lambda p: 40 + 50 * p[0] * p[1], "<=", 70.0, 0.5)],
    seeds=[(0.1, 0.1), (0.2, 0.1)],
    decision="grid",
)

# The realisations of the GP-prior control use gp_sample, which is not
# mirrored: their truth comes from the traces and from `prog optimum`.
problem("control_prior", dims=2, f=None, cons=[("g", None, ">=", 0.0, 0.1)], seeds=None, decision="optimum")


# ---------------------------------------------------------------- truth


def breaks(op, value, limit):
    """Whether a value breaks its limit (a value on the limit keeps it)."""
    return value < limit if op == ">=" else value > limit


def shortfall(op, value, limit):
    """How far a value is on the unsafe side of its limit (negative: safe side)."""
    return limit - value if op == ">=" else value - limit


def better(sense, a, b):
    return a > b if sense == "max" else a < b


def landing_safe(P, aim, scale, quad=4000):
    """The chance rule under input noise scaled by `scale`: P(all constraints
    hold at aim + eps) >= 1 - alpha, by the midpoint rule over eps."""
    inn = P["input_noise"]
    h = inn["half_width"] * scale
    ok = 0
    for i in range(quad):
        eps = -h + (i + 0.5) * 2 * h / quad
        q = (aim[0] + eps,)
        if all(not breaks(op, g(q), lim) for (_, g, op, lim, _) in P["cons"]):
            ok += 1
    return ok / quad >= 1 - inn["alpha"]


def truly_safe(P, x, scale=1.0):
    """Whether the point (an aim, under input noise) truly keeps every constraint."""
    if P["input_noise"]:
        return landing_safe(P, x, scale)
    return all(not breaks(op, g(x), lim) for (_, g, op, lim, _) in P["cons"])


def decision_set(P):
    if P["decision"] == "grid":
        return grid(P["dims"], BOC_GRID[P["dims"]]) + list(P["seeds"])
    if P["decision"] == "candidates":
        return list(P["candidates"])
    raise ValueError(P["decision"])


def safe_optimum_points(P, pts, scale=1.0):
    best, arg = None, None
    for x in pts:
        if not truly_safe(P, x, scale):
            continue
        v = P["f"](x)
        if best is None or better(P["sense"], v, best):
            best, arg = v, x
    return best, arg


def compass(P, x, step=0.02, floor=1e-6):
    """Refines a truly safe point by a compass search that stays truly safe."""
    x, v = list(x), P["f"](x)
    while step > floor:
        moved = False
        for i in range(len(x)):
            for s in (step, -step):
                y = list(x)
                y[i] = min(1.0, max(0.0, y[i] + s))
                if truly_safe(P, y):
                    w = P["f"](y)
                    if better(P["sense"], w, v):
                        x, v, moved = y, w, True
        if not moved:
            step /= 2
    return v, tuple(x)


def pool_optimum(P, samples=1_000_000, refine=20, rng_seed=12345):
    """Random sampling of the unit cube (1e6 points), then a compass search
    from the best `refine` truly safe samples."""
    rng = random.Random(rng_seed)
    d = P["dims"]
    top = []  # (value, point), best first, at most `refine`
    sign = 1 if P["sense"] == "max" else -1
    worst = -math.inf
    for _ in range(samples):
        x = tuple(rng.random() for _ in range(d))
        if not truly_safe(P, x):
            continue
        v = sign * P["f"](x)
        if len(top) < refine or v > worst:
            top.append((v, x))
            top.sort(reverse=True)
            del top[refine:]
            worst = top[-1][0]
    sampled = sign * top[0][0]
    best, arg = None, None
    for _, x in top:
        v, y = compass(P, x)
        if best is None or better(P["sense"], v, best):
            best, arg = v, y
    return best, arg, sampled


_CACHE = {}


def safe_optimum(name, scale=1.0):
    """(f*, argmax) of the truly safe points of the problem's decision set (the
    pool problem: of the continuous domain); under input noise judged by the
    chance rule at the given noise scale."""
    key = (name, scale)
    if key not in _CACHE:
        P = PROBLEMS[name]
        if P["decision"] == "pool":
            v, x, _ = pool_optimum(P)
            _CACHE[key] = (v, x)
        else:
            _CACHE[key] = safe_optimum_points(P, decision_set(P), scale)
    return _CACHE[key]


def fine_optimum(name, per_axis=None):
    """The truly safe optimum over a fine grid of the continuous domain
    (100001 points in 1-D, 1001^2 in 2-D), for reference."""
    P = PROBLEMS[name]
    n = per_axis or {1: 100001, 2: 1001}[P["dims"]]
    return safe_optimum_points(P, grid(P["dims"], n) + list(P["seeds"]))


def main():
    fine = "--fine" in sys.argv
    print("| problem | f* (decision set) | argmax | f* (fine grid) | argmax |")
    print("| --- | ---: | --- | ---: | --- |")
    for name, P in PROBLEMS.items():
        if P["decision"] == "optimum":
            print(f"| {name} | from `prog optimum` per realisation | | | |")
            continue
        scales = [1.0, 2.0, 3.0] if P["input_noise"] else [1.0]
        for sc in scales:
            label = name if not P["input_noise"] else f"{name} (noise x{sc:g})"
            v, x = safe_optimum(name, sc)
            row = f"| {label} | {v:.6g} | {tuple(round(c, 4) for c in x) if x else '-'} |"
            if P["decision"] == "pool":
                _, _, sampled = pool_optimum(P)
                row += f" {sampled:.6g} (best of 1e6 random samples, before refinement) | |"
            elif fine and not P["input_noise"]:
                fv, fx = fine_optimum(name)
                row += f" {fv:.6g} | {tuple(round(c, 4) for c in fx)} |"
            else:
                row += " | |"
            print(row)


if __name__ == "__main__":
    main()
