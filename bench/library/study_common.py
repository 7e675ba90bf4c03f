"""What optuna_study.py and sklearn_gp_study.py share: the study problems, read
from boc's .bo files, and `boc study`'s way of summarising and printing regret.

- The benchmark functions and optima are ports of runtime/bench (bench.go,
  known.go).
- Problem reads one of boc's simple study files: a box domain,
  `objective minimize` one of BENCHMARKS (branin, hartmann3, hartmann6, levy,
  griewank, powell) of the domain's inputs, an
  optional `observation noise ~ normal(0, SD)` and a `budget`.
- noise_rng seeds the stream of simulated observation noise per (problem,
  method, seed).
- Quartiles interpolate linearly between order statistics and numbers are
  printed with 3 significant digits, as in cli/study_report.go, so that the
  tables can sit beside boc's.
- The command-line helpers give both scripts the same arguments (files,
  --seeds, --budgets, --methods, --problems, --markdown/--json).

Needs numpy only (Debian's python3-numpy).
"""

import math
import os
import re
import zlib

import numpy as np

# --- Benchmark functions: ports of runtime/bench/bench.go ---------------------


def branin(x):
    """Branin-Hoo on [-5, 10] x [0, 15]; minimum 5/(4 pi) at three points."""
    b = 5.1 / (4 * math.pi * math.pi)
    c = 5 / math.pi
    r, s, t = 6.0, 10.0, 1 / (8 * math.pi)
    u = x[1] - b * x[0] * x[0] + c * x[0] - r
    return u * u + s * (1 - t) * math.cos(x[0]) + s


HARTMANN_ALPHA = np.array([1.0, 1.2, 3.0, 3.2])
HARTMANN3_A = np.array([[3, 10, 30], [0.1, 10, 35], [3, 10, 30], [0.1, 10, 35]])
HARTMANN3_P = np.array([
    [0.3689, 0.1170, 0.2673],
    [0.4699, 0.4387, 0.7470],
    [0.1091, 0.8732, 0.5547],
    [0.0381, 0.5743, 0.8828],
])
HARTMANN6_A = np.array([
    [10, 3, 17, 3.5, 1.7, 8],
    [0.05, 10, 17, 0.1, 8, 14],
    [3, 3.5, 1.7, 10, 17, 8],
    [17, 8, 0.05, 10, 0.1, 14],
])
HARTMANN6_P = np.array([
    [0.1312, 0.1696, 0.5569, 0.0124, 0.8283, 0.5886],
    [0.2329, 0.4135, 0.8307, 0.3736, 0.1004, 0.9991],
    [0.2348, 0.1451, 0.3522, 0.2883, 0.3047, 0.6650],
    [0.4047, 0.8828, 0.8732, 0.5743, 0.1091, 0.0381],
])


def hartmann(a, p, x):
    """-sum_i alpha_i exp(-sum_j a_ij (x_j - p_ij)^2), the Hartmann family."""
    x = np.asarray(x, dtype=float)
    return -float(np.sum(HARTMANN_ALPHA * np.exp(-np.sum(a * (x - p) ** 2, axis=1))))


def ackley(x):
    """Ackley with a = 20, b = 0.2, c = 2 pi, any dimension; minimum 0 at the origin."""
    n = len(x)
    s1 = sum(v * v for v in x) / n
    s2 = sum(math.cos(2 * math.pi * v) for v in x) / n
    return -20 * math.exp(-0.2 * math.sqrt(s1)) - math.exp(s2) + 20 + math.e


def levy(x):
    """Levy, any dimension; minimum 0 at (1, ..., 1)."""
    w = [1 + (v - 1) / 4 for v in x]
    total = math.sin(math.pi * w[0]) ** 2
    for wi in w[:-1]:
        total += (wi - 1) ** 2 * (1 + 10 * math.sin(math.pi * wi + 1) ** 2)
    return total + (w[-1] - 1) ** 2 * (1 + math.sin(2 * math.pi * w[-1]) ** 2)


def griewank(x):
    """Griewank, any dimension; minimum 0 at the origin."""
    prod = 1.0
    for i, v in enumerate(x):
        prod *= math.cos(v / math.sqrt(i + 1))
    return sum(v * v for v in x) / 4000 - prod + 1


def powell(x):
    """Powell, d >= 4: a term per whole block of four inputs, the rest unused
    (BoTorch's convention); minimum 0 where the used inputs are 0."""
    total = 0.0
    for i in range(0, len(x) - 3, 4):
        a, b, c, d = x[i:i + 4]
        total += (a + 10 * b) ** 2 + 5 * (c - d) ** 2 + (b - 2 * c) ** 4 + 10 * (a - d) ** 4
    return total


# Each benchmark: its function of a point, its number of inputs (None: any,
# Powell at least 4) and its known minimum (runtime/bench/known.go: Branin's
# closed form, Hartmann's published, 0 for the others).
BENCHMARKS = {
    # 5/(4 pi) rounded once, as Go's exact constant arithmetic gives it
    # (computing it in floats here would be 1 ulp off).
    "branin": (branin, 2, 0.3978873577297383),
    "hartmann3": (lambda x: hartmann(HARTMANN3_A, HARTMANN3_P, x), 3, -3.86278),
    "hartmann6": (lambda x: hartmann(HARTMANN6_A, HARTMANN6_P, x), 6, -3.32237),
    "levy": (levy, None, 0.0),
    "griewank": (griewank, None, 0.0),
    "powell": (powell, None, 0.0),
}

# The quality study's budgets (docs/quality.md), by the file's budget, used
# when --budgets is not given; any other file budget reports that budget only.
DEFAULT_BUDGETS = {50: [10, 25, 50], 100: [25, 50, 100]}

# The six files of bench/studies/, in the order of docs/quality.md.
STUDY_NAMES = ("branin", "branin_noisy", "hartmann3", "hartmann3_noisy", "hartmann6", "hartmann6_noisy")

# --- Reading a study file ---------------------------------------------------------

NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"


class Problem:
    """A study problem read from a .bo file."""

    def __init__(self, path):
        self.path = path
        self.name = os.path.splitext(os.path.basename(path))[0]  # as boc study names it
        with open(path) as f:
            text = re.sub(r"//[^\n]*", "", f.read())  # drop comments

        # Domain: one "NAME in [lo, hi]" or "NAME[n] in [lo, hi]" per line.
        block = re.search(r"\bdomain\s*\{(.*?)\}", text, re.S)
        if not block:
            raise SystemExit(f"{path}: no domain block")
        self.dims = []  # (parameter name, lo, hi), in the domain's order
        for line in block.group(1).strip().splitlines():
            m = re.fullmatch(rf"\s*(\w+)(?:\[(\d+)\])?\s+in\s+\[\s*({NUMBER})\s*,\s*({NUMBER})\s*\]\s*", line)
            if not m:
                raise SystemExit(f"{path}: cannot read domain line {line.strip()!r} (only boxes are supported)")
            name, count, lo, hi = m.group(1), m.group(2), float(m.group(3)), float(m.group(4))
            if count is None:
                self.dims.append((name, lo, hi))
            else:
                self.dims.extend((f"{name}[{i}]", lo, hi) for i in range(int(count)))

        m = re.search(r"\bobjective\s+minimize\s+(\w+)\s*\(", text)
        if not m or m.group(1) not in BENCHMARKS:
            raise SystemExit(f"{path}: the objective must be 'minimize' one of {', '.join(BENCHMARKS)}")
        self.function, dim, self.optimum = BENCHMARKS[m.group(1)]
        if dim is None and m.group(1) == "powell" and len(self.dims) < 4:
            raise SystemExit(f"{path}: powell takes at least 4 inputs, the domain has {len(self.dims)}")
        if dim is not None and dim != len(self.dims):
            raise SystemExit(f"{path}: {m.group(1)} takes {dim} inputs, the domain has {len(self.dims)}")

        m = re.search(rf"\bobservation\s+noise\s*~\s*normal\(\s*0\s*,\s*({NUMBER})\s*\)", text)
        self.noise_sd = float(m.group(1)) if m else 0.0
        if re.search(r"\bobservation\s+noise\b", text) and not m:
            raise SystemExit(f"{path}: only 'observation noise ~ normal(0, SD)' is supported")

        m = re.search(r"\bbudget\s+(\d+)", text)
        if not m:
            raise SystemExit(f"{path}: no budget")
        self.budget = int(m.group(1))

    def regret(self, value):
        """value - f*, clamped at 0 as cli/study_report.go does: f* is known to a
        few digits only, so a value better by less than a relative 1e-5 counts
        as 0, and one better by more means f* is wrong."""
        r = value - self.optimum
        if r < -1e-5 * max(1.0, abs(self.optimum)):
            raise SystemExit(f"{self.path}: noise-free value {value} is better than the optimum {self.optimum}")
        return max(r, 0.0)


def noise_rng(problem, method, seed):
    """The noise stream of one run, seeded by (problem, method, seed); crc32
    rather than hash() so that it is the same in every Python process."""
    return np.random.default_rng([seed, zlib.crc32(problem.encode()), zlib.crc32(method.encode())])


# --- Summaries, as cli/study_report.go computes and prints them ---------------------


def summarise(xs):
    """Median and quartiles, interpolating linearly between order statistics
    (R's default and numpy's percentile; cli/study_report.go's summarise)."""
    s = sorted(xs)

    def at(q):
        h = q * (len(s) - 1)
        i = int(h)
        if i + 1 >= len(s):
            return s[-1]
        return s[i] + (h - i) * (s[i + 1] - s[i])

    return {"q1": at(0.25), "median": at(0.5), "q3": at(0.75)}


def format_regret(x):
    """Three significant digits, like Go's strconv.FormatFloat(x, 'g', 3, 64)."""
    return "%.3g" % x


def cell(q):
    return f"{format_regret(q['median'])} [{format_regret(q['q1'])}, {format_regret(q['q3'])}]"


def print_rows(title, columns, rows, markdown):
    """Prints rows of cells under the column names: a Markdown table headed
    by title, or plain lines of cells."""
    if markdown:
        print(title + "\n")
        print("| " + " | ".join(columns) + " |")
        print("|---" * len(columns) + "|")
        for row in rows:
            print("| " + " | ".join(row) + " |")
    else:
        for row in rows:
            print("  ".join(row))


def write_table(out, title, rows, field):
    """One Markdown table per set of budgets, as boc study --markdown prints
    them, of the summaries in each row's field; title(seeds) heads each."""
    groups = {}
    for r in rows:
        groups.setdefault(tuple(r["budgets"]), []).append(r)
    for i, (budgets, group) in enumerate(groups.items()):
        if i > 0:
            out.write("\n")
        out.write(title + "\n\n")
        out.write("| problem | method |" + "".join(f" {b} |" for b in budgets) + "\n")
        out.write("| --- | --- |" + " ---: |" * len(budgets) + "\n")
        for r in group:
            out.write(f"| {r['problem']} | `{r['method']}` | " + " | ".join(cell(q) for q in r[field]) + " |\n")


# --- The shared command line --------------------------------------------------------


def add_arguments(parser, methods, default_methods=None):
    """The arguments both study scripts take."""
    parser.add_argument("files", nargs="*", metavar="FILE.bo", help="study files (default: the six of bench/studies/)")
    parser.add_argument("--seeds", type=int, default=10, metavar="N", help="run seeds 1..N (default 10)")
    parser.add_argument("--budgets", metavar="B,...",
                        help="report after these numbers of evaluations (default: 10,25,50 for a file budget "
                             "of 50, 25,50,100 for 100)")
    default_methods = default_methods or list(methods)
    if list(default_methods) == list(methods):
        methods_help = f"methods to run (default: all of {', '.join(methods)})"
    else:
        methods_help = f"methods to run, some of {', '.join(methods)} (default: {', '.join(default_methods)})"
    parser.add_argument("--methods", default=",".join(default_methods), metavar="M,...", help=methods_help)
    parser.add_argument("--problems", metavar="NAME,...",
                        help="only the files with these names (base name without .bo), e.g. branin,hartmann6")
    form = parser.add_mutually_exclusive_group()
    form.add_argument("--markdown", action="store_true", help="print Markdown tables (the default)")
    form.add_argument("--json", action="store_true", help="print one JSON object, like boc study --json")


def parse(parser, methods, default_methods=None):
    """Adds the shared arguments to parser (which may have others), parses and
    checks them; returns (args, chosen methods, problems), with the budgets to
    report for each problem in problem.budgets_reported."""
    add_arguments(parser, methods, default_methods)
    args = parser.parse_args()
    if args.seeds < 1:
        parser.error("--seeds must be at least 1")
    chosen = args.methods.split(",")
    for m in chosen:
        if m not in methods:
            parser.error(f"unknown method {m!r}: want some of {', '.join(methods)}")
    here = os.path.dirname(os.path.abspath(__file__))
    default_files = [os.path.join(here, "..", "studies", name + ".bo") for name in STUDY_NAMES]
    problems = [Problem(os.path.normpath(f) if args.files else os.path.relpath(f)) for f in (args.files or default_files)]
    if args.problems:
        wanted = args.problems.split(",")
        unknown = set(wanted) - {p.name for p in problems}
        if unknown:
            parser.error(f"no file for problem(s) {', '.join(sorted(unknown))}")
        problems = [p for p in problems if p.name in wanted]
    for p in problems:
        if args.budgets:
            budgets = [int(b) for b in args.budgets.split(",")]
        else:
            budgets = DEFAULT_BUDGETS.get(p.budget, [p.budget])
        if budgets != sorted(set(budgets)) or budgets[0] < 1:
            parser.error("--budgets must be positive and increase")
        if budgets[-1] > p.budget:
            parser.error(f"{p.path}: --budgets goes up to {budgets[-1]}, beyond the file's budget {p.budget}")
        p.budgets_reported = budgets
    return args, chosen, problems
