#!/bin/sh
# Runs `boc study` on the four noise variants (bench/studies/noise) and the six
# files of bench/studies, each group judged at its own final budget, and writes
# one JSON per group to OUT.*.json (docs/noise-factors.md).
#
#   BOC=/tmp/boc-noise SEEDS=10 JOBS=1 bench/noise/run_boc.sh OUT ACQ[,ACQ...] [six|variants|all|noisy]
#
# noisy runs the four variants and the three noisy files of bench/studies only.
#
# DIR, if set, is a directory of .bo files used instead of bench/studies/noise
# and bench/studies (for variants of the files with one line changed).
set -e
OUT=$1; ACQ=$2; WHICH=${3:-all}
BOC=${BOC:-/tmp/boc-noise}; SEEDS=${SEEDS:-10}; JOBS=${JOBS:-1}
V=${DIR:-bench/studies/noise}; S=${DIR:-bench/studies}
run() { # name budgets files...
    name=$1; b=$2; shift 2
    "$BOC" study "$@" --seeds "$SEEDS" --budgets "$b" --acquisition "$ACQ" --jobs "$JOBS" --json >"$OUT.$name.json" 2>"$OUT.$name.log"
}
if [ "$WHICH" != six ]; then
    run v40 20,40 "$V/branin_sd10.bo" "$V/branin_sd20.bo" "$V/hartmann3_sd02.bo"
    run v60 30,60 "$V/hartmann3_sd06.bo"
fi
if [ "$WHICH" = noisy ]; then
    run n50 25,50 "$S/branin_noisy.bo" "$S/hartmann3_noisy.bo"
    run n100 50,100 "$S/hartmann6_noisy.bo"
elif [ "$WHICH" != variants ]; then
    run s50 25,50 "$S/branin.bo" "$S/branin_noisy.bo" "$S/hartmann3.bo" "$S/hartmann3_noisy.bo"
    run s100 50,100 "$S/hartmann6.bo" "$S/hartmann6_noisy.bo"
fi
