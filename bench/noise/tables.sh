#!/bin/sh
# Prints the tables of docs/noise-factors.md from the JSON files that
# run_boc.sh and sklearn_gp_study.py wrote under R (default /tmp/noise).
R=${R:-/tmp/noise}
cd "$(dirname "$0")/../.."
v() { echo "$R/$1.v40.json,$R/$1.v60.json"; }
a10() { echo "$R/$1.v40.json,$R/$1.v60.json,$R/$1.s50.json,$R/$1.s100.json"; }
a20() { echo "$R/s20-$1.v40.json,$R/s20-$1.v60.json,$R/s20-$1.n50.json,$R/s20-$1.n100.json"; }
echo "## 10 seeds: boc and the reference on the variants"
python3 bench/noise/final.py "boc / reference=$(v base),$R/ref40.json,$R/ref60.json,$R/ref40known.json"
echo; echo "## 20 seeds: boc and the reference on the variants and the noisy six"
python3 bench/noise/final.py "boc / reference=$(a20 base),$R/ref40s20.json,$R/ref60s20.json,$R/refn50s20.json"
echo; echo "## best observed, 20 seeds"
python3 bench/noise/final.py --best-observed "boc / reference=$(a20 base),$R/ref40s20.json,$R/ref60s20.json"
echo; echo "## seed luck: halves of the 20-seed baseline"
python3 bench/noise/halves.py "$(a20 base)"
echo; echo "## factors, 10 seeds, medians"
python3 bench/noise/final.py "base=$(a10 base)" "init10=$(a10 init10)" "search10k=$(a10 search10k)" "refit1=$(a10 refit1)" "noprior=$(a10 noprior)" "learnnoise=$(a10 learnnoise)" "incobs=$(a10 incobs)"
for f in init10 search10k refit1 noprior learnnoise incobs; do
    echo; echo "## paired, 10 seeds: $f"
    python3 bench/noise/paired.py "$(a10 base)" "$(a10 $f)"
done
echo; echo "## factors, 20 seeds, medians"
python3 bench/noise/final.py "base=$(a20 base)" "refit1=$(a20 refit1)" "noprior=$(a20 noprior)" "learnnoise=$(a20 learnnoise)" "init10=$(a20 init10)" "incobs=$(a20 incobs)" "search10k=$(a20 search10k)" "skoptlike=$(a20 skoptlike)"
for f in init10 refit1 noprior learnnoise incobs; do
    echo; echo "## paired, 20 seeds: $f"
    python3 bench/noise/paired.py "$(a20 base)" "$(a20 $f)"
done
echo; echo "## skopt-like, 20 seeds"
python3 bench/noise/final.py "base=$(a20 base),$R/ref40s20.json,$R/ref60s20.json,$R/refn50s20.json" "skoptlike=$(a20 skoptlike)"
python3 bench/noise/paired.py "$(a20 base)" "$(a20 skoptlike)"
echo; echo "## search10k, 20 seeds"
python3 bench/noise/final.py "base=$(a20 base)" "search10k=$(a20 search10k)"
python3 bench/noise/paired.py "$(a20 base)" "$(a20 search10k)"
echo; echo "## pooled summary, 20 seeds (factor, acquisition: geo-mean ratio, CI, better)"
for f in init10 search10k refit1 noprior learnnoise incobs skoptlike; do
    python3 bench/noise/paired.py "$(a20 base)" "$(a20 $f)" 2>/dev/null | grep pooled | sed "s/^| noisy, pooled /| $f /"
done
echo; echo "## the same methods before the search's stream change (5befeed), 20 seeds"
python3 bench/noise/final.py "HEAD=$(a20 base)" "5befeed=$(a20 q)"
python3 bench/noise/paired.py "$(a20 base)" "$(a20 q)" | grep pooled
echo; echo "## 40 seeds: branin_noisy and hartmann3_noisy, and the variants"
python3 bench/noise/final.py "base / reference=$R/s40-base.n50.json,$R/s40-base.v40.json,$R/s40-base.v60.json,$R/refn50s40.json,$R/refv40s40.json" "incobs=$R/s40-incobs.n50.json,$R/s40-incobs.v40.json,$R/s40-incobs.v60.json" "learnnoise=$R/s40-learnnoise.n50.json,$R/s40-learnnoise.v40.json,$R/s40-learnnoise.v60.json" "skoptlike=$R/s40-skoptlike.n50.json"
for f in incobs learnnoise; do
    echo; echo "## paired, 40 seeds: $f"
    python3 bench/noise/paired.py "$R/s40-base.n50.json,$R/s40-base.v40.json,$R/s40-base.v60.json" "$R/s40-$f.n50.json,$R/s40-$f.v40.json,$R/s40-$f.v60.json"
done
echo; echo "## paired, 40 seeds: skoptlike"
python3 bench/noise/paired.py "$R/s40-base.n50.json" "$R/s40-skoptlike.n50.json"
