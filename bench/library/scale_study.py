#!/usr/bin/python3
"""Wall time and regret of long runs: how the cost of an evaluation grows with n.

For each problem, model form and budget it writes a .bo file, has boc
generate its optimiser as a Go package, and runs it through a small main
that times every evaluation (Suggest + objective + Observe, through the
package's Run and its Progress callback). It prints, per run, the total wall
time, the mean time per evaluation in windows around n = 200, 1,000, 3,000
and 10,000 (the evaluations whose number is within 5% of n), the peak
resident memory, and the regret of the recommendation (its noise-free value
minus the optimum). --csv writes every evaluation's time, for plotting.

    go build -o /tmp/boc ./cmd/boc
    /usr/bin/python3 bench/library/scale_study.py --boc /tmp/boc \
        --problems levy4,ackley10 --approx exact,local --budgets 200,1000,3000,10000 \
        --seeds 5 --csv /tmp/scale.csv
    go run ./bench/scaleplot -csv /tmp/scale.csv -o per_evaluation.svg

Runs are sequential (a timing study); the budgets of one problem and model
form are separate programs, since the model's memory is sized by the budget.
The CSV holds the first seed's times.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

from study_common import cell, format_regret, summarise

# name: (domain, objective, optimum)
PROBLEMS = {
    "levy4": ("x[4] in [-10, 10]", "levy(x)", 0.0),
    "ackley10": ("x[10] in [-5, 10]", "ackley(x)", 0.0),
    "hartmann6": ("x[6] in [0, 1]", "hartmann6(x)", -3.32237),
    "levy10": ("x[10] in [-10, 10]", "levy(x)", 0.0),
}

DRIVER = """package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	problem "scale/%s"
)

func main() {
	seed, err := strconv.ParseUint(os.Args[1], 10, 64)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	start := time.Now()
	last := start
	var times []float64
	res, err := problem.Run(context.Background(), problem.RunOptions{Seed: seed, Progress: func(p problem.Progress) {
		now := time.Now()
		times = append(times, now.Sub(last).Seconds())
		last = now
	}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	peak := 0.0 // VmHWM, the resident set's peak, in MB
	if status, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, line := range strings.Split(string(status), "\\n") {
			if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
				fmt.Sscanf(strings.TrimSpace(rest), "%%f", &peak)
				peak /= 1024
			}
		}
	}
	json.NewEncoder(os.Stdout).Encode(map[string]any{
		"seconds": time.Since(start).Seconds(), "times": times, "peak_mb": peak,
		"value": res.RecommendationValue, "evaluations": res.Evaluations,
	})
}
"""


def bo_text(name, problem, approx, budget):
    domain, objective, _ = PROBLEMS[problem]
    model = "" if approx == "auto" else 'model gp(approx = "%s")\n' % approx
    return "problem %s\ndomain {\n    %s\n}\nobjective minimize %s\n%sbudget %d\n" % (
        name, domain, objective, model, budget)


def build(boc, root, problem, approx, budget):
    """Generates and builds the run's program; returns its path."""
    name = "%s_%s_%d" % (problem, approx, budget)
    pkg = os.path.join(root, name)
    os.makedirs(pkg, exist_ok=True)
    bo = os.path.join(root, name + ".bo")
    with open(bo, "w") as f:
        f.write(bo_text(name, problem, approx, budget))
    subprocess.run([boc, "gen", bo, "-o", pkg], check=True)
    main = os.path.join(root, "cmd", name)
    os.makedirs(main, exist_ok=True)
    with open(os.path.join(main, "main.go"), "w") as f:
        f.write(DRIVER % name)
    exe = os.path.join(root, "bin", name)
    if not os.path.exists(os.path.join(root, "tidied")):
        subprocess.run(["go", "mod", "tidy"], cwd=root, check=True, capture_output=True)
        open(os.path.join(root, "tidied"), "w").close()
    subprocess.run(["go", "build", "-o", exe, "./cmd/" + name], cwd=root, check=True)
    return exe


def run(exe, problem, seed):
    out = subprocess.run([exe, str(seed)], capture_output=True, text=True, check=True).stdout
    r = json.loads(out)
    r["regret"] = r["value"] - PROBLEMS[problem][2]
    return r


def median(xs):
    return summarise(xs)["median"]


def window(times, n):
    lo, hi = int(n * 0.95), min(len(times), int(n * 1.05))
    if hi <= lo:
        return float("nan")
    return sum(times[lo:hi]) / (hi - lo)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--boc", default="boc")
    ap.add_argument("--problems", default="levy4,ackley10")
    ap.add_argument("--approx", default="exact,local")
    ap.add_argument("--budgets", default="200,1000,3000,10000")
    ap.add_argument("--seeds", type=int, default=1, help="runs per setting, seeds 1..N")
    ap.add_argument("--module", default=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                    help="boc's module, which the generated packages use")
    ap.add_argument("--csv", help="write problem,approx,budget,n,seconds rows here")
    args = ap.parse_args()
    root = tempfile.mkdtemp(prefix="boc-scale-")
    with open(os.path.join(root, "go.mod"), "w") as f:
        f.write("module scale\n\ngo 1.26\n\nrequire github.com/bocdev/boc v0.0.0\n\nreplace github.com/bocdev/boc => %s\n" % args.module)
    subprocess.run(["cp", os.path.join(args.module, "go.sum"), root], check=True)
    csv = open(args.csv, "w") if args.csv else None
    if csv:
        csv.write("problem,approx,budget,n,seconds\n")
    marks = [200, 1000, 3000, 10000]
    print("Medians over %d seed(s); regret quartiles in brackets.\n" % args.seeds)
    print("| problem | model | budget | wall s | " + " | ".join("s/eval at %d" % m for m in marks) + " | peak MB | regret |")
    print("|" + "---|" * (6 + len(marks)))
    for problem in args.problems.split(","):
        for approx in args.approx.split(","):
            for budget in [int(b) for b in args.budgets.split(",")]:
                exe = build(args.boc, root, problem, approx, budget)
                runs = [run(exe, problem, seed) for seed in range(1, args.seeds + 1)]
                per = ["%.4f" % median([window(r["times"], m) for r in runs]) if m <= budget else "" for m in marks]
                regret = summarise([r["regret"] for r in runs])
                print("| %s | %s | %d | %.1f | %s | %.0f | %s |" % (
                    problem, approx, budget, median([r["seconds"] for r in runs]), " | ".join(per),
                    max(r["peak_mb"] for r in runs), cell(regret) if len(runs) > 1 else format_regret(regret["median"])))
                sys.stdout.flush()
                if csv:
                    for i, t in enumerate(runs[0]["times"]):
                        csv.write("%s,%s,%d,%d,%.6f\n" % (problem, approx, budget, i + 1, t))


if __name__ == "__main__":
    main()
