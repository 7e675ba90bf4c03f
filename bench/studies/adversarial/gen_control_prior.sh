#!/bin/sh
# gen_control_prior.sh: writes bo/prior/control_prior_K.bo, ten of them (K counts
# the draws tried; a skipped draw leaves a gap), the
# realisations of the CONTROL problem whose constraint is drawn from the GP
# prior the model assumes (examples/sgp_ucb_paper.bo, as
# bench/studies/sgp_ucb/realisations.sh makes them, with budget 80): the
# reward and the constraint are gp_sample draws 2k+9 and 2k+10, the 100 actions
# the problem's seed k, 5 seeds drawn among the truly safe actions by the
# run's seed, g's lengthscale 0.5 in domain units = the declared kernel's 0.25
# in unit coordinates (the domain is 2 wide), noise sd 0.1 declared and
# simulated. A draw with fewer than 5 truly safe actions is skipped. Needs
# boc in BOC. Already run once: the files are kept, run.sh only builds them.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dir=$here/bo/prior
boc=${BOC:-boc}
mkdir -p "$dir"
made=0 k=0
while [ "$made" -lt 10 ]; do
	k=$((k + 1))
	file="$dir/control_prior_$k.bo"
	cat >"$file" <<EOB
// CONTROL. Realisation $k of the SGP-UCB paper's experiment
// (examples/sgp_ucb_paper.bo): the constraint g is a draw from the very GP
// prior the model assumes (se, lengthscale 0.5 in domain units, unit
// variance), with the declared noise sd 0.1 simulated; 5 seeds drawn among
// the truly safe actions by the run's seed. Budget 80.
problem control_prior_$k

domain {
    p[2] in [-1, 1]
}

objective maximize gp_sample(p, 1, $((2 * k + 9)))
candidates uniform_ball(n = 100, radius = 1)
observation noise ~ normal(0, 0.1)

constraint g: simulated gp_sample(p, 0.5, $((2 * k + 10))) >= 0 {
    seed random(n = 5)
    kernel se(lengthscale = 0.25, variance = 1)
    noise ~ normal(0, 0.1)
}

model gp(kernel = se(lengthscale = 0.5, variance = 1))
acquisition safe_ucb
budget 80
seed $k
EOB
	"$boc" build "$file" -o "$dir/probe" >/dev/null
	if ! "$dir/probe" run --budget 1 >/dev/null 2>"$dir/probe.err"; then
		echo "realisation $k skipped: $(tail -1 "$dir/probe.err")" >&2
		rm "$file"
		continue
	fi
	made=$((made + 1))
done
rm -f "$dir/probe" "$dir/probe.err"
