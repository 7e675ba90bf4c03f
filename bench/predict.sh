#!/bin/sh
# Times posterior prediction at 10,000 points (n = 500, d = 4, fixed SE
# kernel) in boc and in scikit-learn on the same data, and prints both
# timings and their ratio. See bench/README.md.
#
# Usage: bench/predict.sh [RUNS]   (from anywhere in the repository)
set -eu

runs=${1:-15}
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bench/debian.sh"
need_python_modules sklearn python3-sklearn libopenblas0-pthread

data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT

cd "$root"
go run ./bench/predict -out "$data" -runs "$runs"
"$python" bench/sklearn_predict.py "$data" "$runs"
