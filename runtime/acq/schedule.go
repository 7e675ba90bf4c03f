package acq

import "math"

// Exploration schedules for UCB.
//
// The β convention: UCB(mean, sd, w) scores mean + w·sd, the weight w
// multiplying sd directly, as uGP-UCB, AIRBO and IGP-UCB write it. Srinivas et
// al. (GP-UCB) and SGP-UCB instead define β_t through mean + β_t^{1/2}·sd, so
// their schedules are converted with a square root: SrinivasWeight returns
// √β_t. IGP-UCB's β_t (Chowdhury and Gopalan, Thm 2; MATH.md §4) already
// multiplies sd and is used as it is.

// SrinivasBeta is β_t of GP-UCB on a compact domain of dimension d (Srinivas
// et al., Thm 2, in the usual simplified form):
// β_t = 2 log(t^{d/2+2} π² / (3δ)), in the convention mean + β_t^{1/2}·sd.
// t >= 1 is the round, one more than the number of observations.
func SrinivasBeta(t float64, d int, delta float64) float64 {
	return 2 * ((float64(d)/2+2)*math.Log(t) + math.Log(math.Pi*math.Pi/(3*delta)))
}

// SrinivasBetaFinite is β_t of GP-UCB on a finite decision set of size
// points (Srinivas et al., Thm 1): β_t = 2 log(|D| t² π² / (6δ)), in the
// convention mean + β_t^{1/2}·sd.
func SrinivasBetaFinite(t float64, size int, delta float64) float64 {
	return 2 * (math.Log(float64(size)) + 2*math.Log(t) + math.Log(math.Pi*math.Pi/(6*delta)))
}

// SrinivasWeight is the weight UCB gives sd in round t under SrinivasBeta:
// √β_t.
func SrinivasWeight(t float64, d int, delta float64) float64 {
	return math.Sqrt(SrinivasBeta(t, d, delta))
}

// IGPUCBBeta is β_t of IGP-UCB (Chowdhury and Gopalan, Thm 2):
// B + R·sqrt(2(γ_{t−1} + 1 + ln(1/δ))), where gain is the information gain
// γ_{t−1} of the observations so far, noiseSD the noise's sub-Gaussian
// constant R and bound B a bound on the RKHS norm of the objective, both on
// the model's standardised scale. It multiplies sd directly. Without noise it
// is B (R·sqrt(γ) vanishes as the noise does, even though γ grows).
func IGPUCBBeta(gain, noiseSD, bound, delta float64) float64 {
	if noiseSD == 0 {
		return bound
	}
	return bound + noiseSD*math.Sqrt(2*(gain+1+math.Log(1/delta)))
}
