#!/bin/sh
# Times posterior prediction at 10,000 points (n = 500, d = 4, fixed SE
# kernel) in boc and in scikit-learn on the same data, and prints both
# timings and their ratio. See bench/README.md.
#
# Usage: bench/predict.sh [RUNS]   (from anywhere in the repository)
set -eu

runs=${1:-15}
root=$(cd "$(dirname "$0")/.." && pwd)
python=/usr/bin/python3 # Debian's, where python3-sklearn installs

if ! "$python" -c 'import sklearn' 2>/dev/null; then
	echo "installing Debian's python3-sklearn (and OpenBLAS) with apt-get" >&2
	sudo=""
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	$sudo apt-get update
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
		python3-sklearn libopenblas0-pthread
fi

data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT

cd "$root"
go run ./bench/predict -out "$data" -runs "$runs"
"$python" bench/sklearn_predict.py "$data" "$runs"
