#!/bin/bash
# run.sh OUTDIR: builds every problem of the adversarial safe set with $BOC,
# runs every row of rows.tsv (SEEDS seeds each, default 10; the GP-prior
# control runs each of its 10 realisations once) into OUTDIR, and summarises.
#
#   BOC=/path/to/boc ./run.sh OUTDIR
#
# OUTDIR/bin/       the built programs and their build logs
# OUTDIR/runs/ROW/  seedN.json (run --json --trace), seedN.err; for the prior
#                   control control_prior_K.json and control_prior_K.optimum.json
# OUTDIR/summary.md the table (summarise.py); OUTDIR/per_seed.csv per run
# A problem the binary refuses to build is recorded in its build log and shown
# in the table as refused; the other rows go on. JOBS (default 2) runs in
# parallel. The built programs (~25 MB each) are deleted at the end unless
# KEEP_BIN=1.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 1 ] || { echo "usage: BOC=/path/to/boc $0 OUTDIR" >&2; exit 2; }
boc=${BOC:?set BOC to the boc binary}
boc=$(cd "$(dirname "$boc")" && pwd)/$(basename "$boc")
out=$(mkdir -p "$1" && cd "$1" && pwd)
seeds=${SEEDS:-10}
jobs=${JOBS:-2}
start=$(date +%s)

mkdir -p "$out/bin" "$out/runs"
"$boc" version >"$out/boc-version.txt" 2>&1 || true
echo "$boc" >>"$out/boc-version.txt"
sha256sum "$boc" >>"$out/boc-version.txt" 2>/dev/null || true

# Build every problem (go build already uses both cores).
for f in "$here"/bo/*.bo "$here"/bo/prior/*.bo; do
	n=$(basename "$f" .bo)
	rm -f "$out/bin/$n"
	if "$boc" check "$f" >"$out/bin/$n.build.log" 2>&1 &&
		"$boc" build "$f" -o "$out/bin/$n" >>"$out/bin/$n.build.log" 2>&1; then
		:
	else
		echo "refused: $f (see $out/bin/$n.build.log)" >&2
		rm -f "$out/bin/$n"
	fi
done
echo "built in $(($(date +%s) - start)) s" >&2

# The job list: one line per run, "PROGRAM OUTFILE SEED FLAGS...".
list=$out/jobs.txt
: >"$list"
while IFS=$'\t' read -r row prob flags role; do
	case "$row" in '#'* | '') continue ;; esac
	[ "$flags" = "-" ] && flags=""
	mkdir -p "$out/runs/$row"
	if [ "$prob" = "prior/*" ]; then
		for f in "$here"/bo/prior/control_prior_*.bo; do
			n=$(basename "$f" .bo)
			k=${n##*_}
			[ -x "$out/bin/$n" ] || continue
			echo "$out/bin/$n $out/runs/$row/$n.json $k${flags:+ $flags}" >>"$list"
			"$out/bin/$n" optimum --json >"$out/runs/$row/$n.optimum.json" 2>"$out/runs/$row/$n.optimum.err" || true
		done
	else
		[ -x "$out/bin/$prob" ] || continue
		for s in $(seq 1 "$seeds"); do
			echo "$out/bin/$prob $out/runs/$row/seed$s.json $s${flags:+ $flags}" >>"$list"
		done
	fi
done <"$here/rows.tsv"

# shellcheck disable=SC2016
xargs -P "$jobs" -L 1 sh -c 'prog=$0 file=$1 seed=$2; shift 2
	"$prog" run --json --trace --seed "$seed" "$@" >"$file" 2>"${file%.json}.err" ||
		echo "run failed: $prog --seed $seed $* (${file%.json}.err)" >&2' <"$list"
echo "ran $(wc -l <"$list") runs; $(($(date +%s) - start)) s so far" >&2

python3 "$here/summarise.py" "$out" | tee "$out/summary.md"
if [ "${KEEP_BIN:-0}" != 1 ]; then
	find "$out/bin" -maxdepth 1 -type f ! -name '*.log' -delete
fi
echo "total $(($(date +%s) - start)) s" >&2
