package acq

// Derivatives for gradient-based acquisition search. Each ...Grad function
// returns the value of its acquisition and the partial derivatives with
// respect to the posterior mean and standard deviation at the candidate; the
// search chains them with the derivatives of the mean and standard deviation
// with respect to the input. Where sd <= 0 the prediction is certain and the
// derivatives are those of the limit sd → 0 at a fixed mean: the slope of the
// step in mean, and 0 in sd.

// UCBGrad returns UCB(mean, sd, beta) and its derivatives, 1 and beta.
func UCBGrad(mean, sd, beta float64) (v, dMean, dSD float64) {
	return UCB(mean, sd, beta), 1, beta
}

// PIGrad returns PI(mean, sd, best, xi) and its derivatives φ(z)/sd and
// −zφ(z)/sd, z = (mean − best − xi)/sd.
func PIGrad(mean, sd, best, xi float64) (v, dMean, dSD float64) {
	v = PI(mean, sd, best, xi)
	if !(sd > 0) {
		return v, 0, 0
	}
	z := (mean - best - xi) / sd
	slope := NormPDF(z) / sd
	return v, slope, -z * slope
}

// LogPIGrad returns LogPI(mean, sd, best, xi) and its derivatives r/sd and
// −zr/sd, where r = φ(z)/Φ(z) is the inverse Mills ratio, which stays finite
// where φ and Φ both underflow.
func LogPIGrad(mean, sd, best, xi float64) (v, dMean, dSD float64) {
	v = LogPI(mean, sd, best, xi)
	if !(sd > 0) {
		return v, 0, 0
	}
	z := (mean - best - xi) / sd
	r := inverseMills(z)
	return v, r / sd, -z * r / sd
}

// inverseMills is φ(z)/Φ(z); below z = −5 it is q + T with q = −z and T from
// the continued fraction, because Φ(z) = φ(z)/(q + T) there.
func inverseMills(z float64) float64 {
	if z >= tailThreshold {
		return NormPDF(z) / NormCDF(z)
	}
	q := -z
	return q + millsTail(q)
}

// EIGrad returns EI(mean, sd, best, xi) and its derivatives Φ(z) and φ(z),
// z = (mean − best − xi)/sd.
func EIGrad(mean, sd, best, xi float64) (v, dMean, dSD float64) {
	improvement := mean - best - xi
	v = EI(mean, sd, best, xi)
	if !(sd > 0) {
		return v, step(improvement), 0
	}
	z := improvement / sd
	return v, NormCDF(z), NormPDF(z)
}

// LogEIGrad returns LogEI(mean, sd, best, xi) and its derivatives Φ(z)/EI and
// φ(z)/EI. With EI = sd·h(z) they are (Φ/h)/sd and (φ/h)/sd; below z = −5,
// where h = φ·T/(q + T) and Φ = φ/(q + T), the ratios are 1/T and (q + T)/T,
// so the gradient stays finite and accurate where EI underflows.
func LogEIGrad(mean, sd, best, xi float64) (v, dMean, dSD float64) {
	improvement := mean - best - xi
	v = LogEI(mean, sd, best, xi)
	if !(sd > 0) {
		if improvement > 0 {
			return v, 1 / improvement, 0
		}
		return v, 0, 0
	}
	z := improvement / sd
	if z < tailThreshold {
		q := -z
		t := millsTail(q)
		return v, 1 / t / sd, (q + t) / t / sd
	}
	var h float64 // EI/sd, as LogEI computes it
	if z > 0 {
		h = z + lowerImprovement(-z)
	} else {
		h = lowerImprovement(z)
	}
	return v, NormCDF(z) / h / sd, NormPDF(z) / h / sd
}

// step is the derivative of max(x, 0): 1 for x > 0, else 0.
func step(x float64) float64 {
	if x > 0 {
		return 1
	}
	return 0
}
