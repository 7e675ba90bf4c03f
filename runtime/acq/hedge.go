package acq

import (
	"math"

	"github.com/bocdev/boc/runtime/internal/splitmix"
)

// A portfolio of acquisitions (GP-Hedge, Hoffman, Brochu and de Freitas,
// 2011): every suggestion maximises each of its arms, EI, PI and UCB, and
// plays one arm's maximiser (its nominee), drawn with probability
// proportional to exp(η·gain). An arm's gain is the posterior mean, under
// the current model, summed over the nominees it has made: the arm whose
// proposals the model now believes best is played most. Judging every past
// nominee with the current model, rather than each once with the model of its
// time, makes the gains a function of the nominees and the model alone, on
// one scale however the model re-standardises its values.

// The portfolio's arms, in the order Hedge numbers them. The first, EI, is the
// one whose maximum a program reports as the portfolio's value.
const (
	HedgeEI = iota
	HedgePI
	HedgeUCB
	HedgeArms // the number of arms
)

// Hedge is arm's score at a candidate: LogEI and LogPI over best with
// required improvement xi, or UCB with weight beta.
func Hedge(arm int, mean, sd, best, xi, beta float64) float64 {
	switch arm {
	case HedgeEI:
		return LogEI(mean, sd, best, xi)
	case HedgePI:
		return LogPI(mean, sd, best, xi)
	}
	return UCB(mean, sd, beta)
}

// HedgeGrad is Hedge and its derivatives with respect to mean and sd.
func HedgeGrad(arm int, mean, sd, best, xi, beta float64) (v, dMean, dSD float64) {
	switch arm {
	case HedgeEI:
		return LogEIGrad(mean, sd, best, xi)
	case HedgePI:
		return LogPIGrad(mean, sd, best, xi)
	}
	return UCBGrad(mean, sd, beta)
}

// HedgeChoose draws an arm with probability proportional to exp(eta·gain),
// with the uniform that seed determines: the same seed and gains draw the
// same arm.
func HedgeChoose(gains *[HedgeArms]float64, eta float64, seed uint64) int {
	return hedgeDraw(gains, eta, float64(splitmix.Mix(seed)>>11)*0x1p-53)
}

// hedgeDraw inverts the cumulative probabilities of the arms at u in [0, 1).
// The largest gain is subtracted first, so that no weight overflows.
func hedgeDraw(gains *[HedgeArms]float64, eta, u float64) int {
	top := math.Inf(-1)
	for _, g := range gains {
		top = max(top, g)
	}
	var weights [HedgeArms]float64
	total := 0.0
	for a, g := range gains {
		weights[a] = math.Exp(eta * (g - top))
		total += weights[a]
	}
	target := u * total
	for a, w := range weights {
		if target < w {
			return a
		}
		target -= w
	}
	return HedgeArms - 1 // u·total rounded up to total
}
