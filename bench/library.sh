#!/bin/sh
# Compares boc's regret on the six quality-study problems (bench/studies/)
# with Optuna's samplers (TPE, multivariate TPE, CMA-ES, random) and with a
# re-implementation of scikit-optimize's gp_minimize defaults on scikit-learn's
# GP (the scikit-learn GP-BO reference) on the same problems, measured the same
# way, and prints Markdown tables per group of problems with all side by side.
# See bench/README.md and docs/quality.md.
#
# Usage: bench/library.sh [SEEDS [DIR]]   (from anywhere in the repository)
#   SEEDS  seeds 1..SEEDS per method (default 10)
#   DIR    keep the six JSON files there (default: a temporary directory)
set -eu

seeds=${1:-10}
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bench/debian.sh"
need_python_modules 'optuna, cmaes, sklearn, scipy' python3-optuna python3-cmaes python3-sklearn python3-scipy

if [ $# -ge 2 ]; then
	out=$2
	mkdir -p "$out"
else
	out=$(mktemp -d)
	trap 'rm -rf "$out"' EXIT
fi

cd "$root"
s=bench/studies
small="$s/branin.bo $s/branin_noisy.bo $s/hartmann3.bo $s/hartmann3_noisy.bo"
large="$s/hartmann6.bo $s/hartmann6_noisy.bo"

# boc: the commands of docs/quality.md, as JSON.
# shellcheck disable=SC2086 # the file lists are meant to split
go run ./cmd/boc study $small --seeds "$seeds" --budgets 10,25,50 \
	--acquisition ei,ei_noisy,ucb --random --json >"$out/boc_small.json"
# shellcheck disable=SC2086
go run ./cmd/boc study $large --seeds "$seeds" --budgets 25,50,100 \
	--acquisition ei,ei_noisy,ucb --random --json >"$out/boc_large.json"

# Optuna on the same files, seeds and budgets.
# shellcheck disable=SC2086
"$python" bench/library/optuna_study.py $small --seeds "$seeds" --budgets 10,25,50 --json >"$out/optuna_small.json"
# shellcheck disable=SC2086
"$python" bench/library/optuna_study.py $large --seeds "$seeds" --budgets 25,50,100 --json >"$out/optuna_large.json"

# The scikit-learn GP-BO reference on the same files, seeds and budgets (its
# runs go in parallel processes, one per core).
# shellcheck disable=SC2086
"$python" bench/library/sklearn_gp_study.py $small --seeds "$seeds" --budgets 10,25,50 --json >"$out/sklearn_small.json"
# shellcheck disable=SC2086
"$python" bench/library/sklearn_gp_study.py $large --seeds "$seeds" --budgets 25,50,100 --json >"$out/sklearn_large.json"

"$python" bench/library/merge.py --boc "$out/boc_small.json" --boc "$out/boc_large.json" \
	--optuna "$out/optuna_small.json" --optuna "$out/optuna_large.json" \
	--sklearn "$out/sklearn_small.json" --sklearn "$out/sklearn_large.json"
