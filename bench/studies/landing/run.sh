#!/bin/sh
# run.sh DIR SEEDS compares the landings of examples/safe_landing.bo's
# constraint: plain SGP-UCB (landing aim), the mean (landing mean) and the
# chance constraint (landing chance(alpha = 0.05)), each over SEEDS runs
# with boc study. A run's unsafe evaluations count the moves whose true
# clearance where they landed was negative. Needs boc on PATH or in BOC.
set -eu
dir=$1 seeds=$2
boc=${BOC:-boc}
here=$(dirname "$0")
mkdir -p "$dir"
for mode in aim mean 'chance(alpha = 0.05)'; do
	name=$(echo "$mode" | cut -d'(' -f1)
	sed -e "s/landing chance(alpha = 0.05)/landing $mode/" \
		-e "s/^problem safe_landing/problem landing_$name/" \
		"$here/../../../examples/safe_landing.bo" >"$dir/landing_$name.bo"
done
"$boc" study "$dir/landing_aim.bo" "$dir/landing_mean.bo" "$dir/landing_chance.bo" --seeds "$seeds" --budgets 25,50,100
