#!/bin/sh
# realisations.sh DIR COUNT SEEDS GLENGTH writes COUNT realisations of the
# SGP-UCB paper's experiment (examples/sgp_ucb_paper.bo) into DIR: realisation
# k draws its own reward and constraint (gp_sample's draws 2k+9 and 2k+10)
# and its own 100 actions (the problem's seed k), with SEEDS seed points
# drawn among the truly safe actions and the constraint's lengthscale
# GLENGTH (in the domain's units). A draw with fewer than SEEDS truly safe
# actions cannot give a seed set; it is skipped (and said so), and the next
# draw is tried. Study the files with boc study DIR/*.bo and pool the runs
# with go run ./bench/studies/sgp_ucb/pool (docs/safe.md). Needs boc on PATH
# or in BOC.
set -eu
dir=$1 count=$2 seeds=$3 glength=$4
boc=${BOC:-boc}
here=$(dirname "$0")
mkdir -p "$dir"
half=$(awk "BEGIN { print $glength / 2 }")
made=0 k=0
while [ "$made" -lt "$count" ]; do
	k=$((k + 1))
	file="$dir/sgp_ucb_$k.bo"
	sed -e "s/^problem sgp_ucb_paper/problem sgp_ucb_$k/" \
		-e "s/gp_sample(p, 1, 11)/gp_sample(p, 1, $((2 * k + 9)))/" \
		-e "s/gp_sample(p, 0.5, 12)/gp_sample(p, $glength, $((2 * k + 10)))/" \
		-e "s/seed random(n = 10)/seed random(n = $seeds)/" \
		-e "s/kernel se(lengthscale = 0.25, variance = 1)/kernel se(lengthscale = $half, variance = 1)/" \
		-e "s/^seed 1$/seed $k/" \
		"$here/../../../examples/sgp_ucb_paper.bo" >"$file"
	"$boc" build "$file" -o "$dir/probe" >/dev/null
	if ! "$dir/probe" run --budget 1 >/dev/null 2>"$dir/probe.err"; then
		echo "realisation $k skipped: $(tail -1 "$dir/probe.err")" >&2
		rm "$file"
		continue
	fi
	made=$((made + 1))
done
rm -f "$dir/probe" "$dir/probe.err"
