// Package warp is the output warping of boc's models: a monotone transform
// of the observed values that makes their distribution closer to a normal
// one before a Gaussian process models them, as HEBO (Cowen-Rivers et al.
// 2022) and scikit-learn's PowerTransformer do. An objective whose values
// have heavy tails (a few corners a hundred times the depth of the wells
// the optimum lies in) otherwise drives a Gaussian process fitted to the
// values as they are to spend its evaluations on the tails.
//
// The transform is Yeo and Johnson's (2000) power transform of the values
// standardised by their mean and deviation, x = (y − μ)/σ:
//
//	ψ(x) = ((x + 1)^λ − 1)/λ             x ≥ 0, λ ≠ 0   (log(x + 1) at λ = 0)
//	ψ(x) = −((1 − x)^(2−λ) − 1)/(2 − λ)  x < 0,  λ ≠ 2   (−log(1 − x) at λ = 2)
//
// with λ the maximiser of the profile log-likelihood of a normal model of
// ψ(x), −n/2·log var(ψ(x)) + (λ − 1)·Σ sign(x_i)·log(1 + |x_i|), over
// [MinLambda, MaxLambda]. ψ is increasing for every λ, so the order of the
// values, and with it every argmax, is kept; Inverse undoes it.
package warp

import (
	"math"
)

// The range λ is searched over: wide enough for the usual skews (λ = 0 is
// a logarithm, 1 the identity, 2 its mirror), narrow enough that ψ's
// powers stay finite on standardised values.
const (
	MinLambda = -2.0
	MaxLambda = 4.0
)

// Warp is a fitted transform. The zero Warp is not valid: use Fit or
// Identity.
type Warp struct {
	Mean, SD, Lambda float64
	// Lo and Hi are the least and greatest standardised values the
	// transform was fitted to (infinite for the identity); Inverse stays
	// within their range widened by its width on each side.
	Lo, Hi float64
}

// Identity is the transform that standardises only (λ = 1).
func Identity(mean, sd float64) Warp {
	return Warp{Mean: mean, SD: sd, Lambda: 1, Lo: math.Inf(-1), Hi: math.Inf(1)}
}

// Fit fits the transform to the values ys (at least two, finite): their
// mean and deviation, and λ by golden-section search of the profile
// log-likelihood, which is concave in λ (Yeo and Johnson 2000). Values
// that are all equal give the identity. It allocates nothing.
func Fit(ys []float64) Warp { return fit(ys, MinLambda) }

// FitWorseTail is Fit with λ at least 1: ψ then stretches the values above
// the mean and compresses those below it, never the reverse. The models
// see larger values as better, so it tames a tail of bad values (a few
// settings far worse than the rest) without flattening a tail of good
// ones: an objective whose good values are rare, a narrow well in a flat
// box, takes λ < 1 under Fit, and the model then loses the well's depth,
// where the optimum lies. Where the likelihood is greatest at λ = 1 the
// values are only standardised. It allocates nothing.
func FitWorseTail(ys []float64) Warp {
	w := fit(ys, 1)
	if w.logLikelihood(ys, 1) >= w.logLikelihood(ys, w.Lambda) {
		w.Lambda = 1
	}
	return w
}

// fit is Fit with λ searched over [lower, MaxLambda].
func fit(ys []float64, lower float64) Warp {
	n := float64(len(ys))
	mean := 0.0
	for _, y := range ys {
		mean += y
	}
	mean /= n
	ss := 0.0
	for _, y := range ys {
		ss += (y - mean) * (y - mean)
	}
	if !(ss > 0) || len(ys) < 2 {
		return Identity(mean, 1)
	}
	w := Warp{Mean: mean, SD: math.Sqrt(ss / n), Lo: math.Inf(1), Hi: math.Inf(-1)}
	for _, y := range ys {
		x := (y - w.Mean) / w.SD
		w.Lo, w.Hi = min(w.Lo, x), max(w.Hi, x)
	}
	const phi = 0.6180339887498949
	lo, hi := lower, MaxLambda
	a, b := hi-phi*(hi-lo), lo+phi*(hi-lo)
	fa, fb := w.logLikelihood(ys, a), w.logLikelihood(ys, b)
	for hi-lo > 1e-4 {
		if fa >= fb {
			hi, b, fb = b, a, fa
			a = hi - phi*(hi-lo)
			fa = w.logLikelihood(ys, a)
		} else {
			lo, a, fa = a, b, fb
			b = lo + phi*(hi-lo)
			fb = w.logLikelihood(ys, b)
		}
	}
	w.Lambda = (lo + hi) / 2
	return w
}

// AutoGain is how much FitAuto's transform must raise the profile
// log-likelihood over the identity's (λ = 1) to be used: half the 99%
// quantile of χ² with one degree of freedom, the likelihood-ratio test of
// λ = 1 at the 1% level.
const AutoGain = 6.635 / 2

// FitAuto is Fit when the fitted transform raises the profile
// log-likelihood by more than AutoGain over the identity, and the identity
// (with Fit's mean and deviation) otherwise: the values are warped only
// where they are clearly far from normal.
func FitAuto(ys []float64) Warp {
	w := Fit(ys)
	if w.logLikelihood(ys, w.Lambda)-w.logLikelihood(ys, 1) > AutoGain {
		return w
	}
	return Identity(w.Mean, w.SD)
}

// logLikelihood is the profile log-likelihood of λ for the values ys.
func (w Warp) logLikelihood(ys []float64, lambda float64) float64 {
	n := float64(len(ys))
	mean, jacobian := 0.0, 0.0
	for _, y := range ys {
		x := (y - w.Mean) / w.SD
		mean += psi(x, lambda)
		jacobian += math.Copysign(math.Log1p(math.Abs(x)), x)
	}
	mean /= n
	ss := 0.0
	for _, y := range ys {
		d := psi((y-w.Mean)/w.SD, lambda) - mean
		ss += d * d
	}
	if !(ss > 0) || math.IsInf(ss, 0) {
		return math.Inf(-1)
	}
	return -n/2*math.Log(ss/n) + (lambda-1)*jacobian
}

// Apply is ψ((y − μ)/σ).
func (w Warp) Apply(y float64) float64 { return psi((y-w.Mean)/w.SD, w.Lambda) }

// Inverse is the value y whose Apply is z, kept within the fitted values'
// range widened by its width on each side: ψ's range is bounded on one
// side for λ < 0 or λ > 2, beyond which a model's mean in the warped values
// (an extrapolation) has no value, and near which it has huge ones.
func (w Warp) Inverse(z float64) float64 {
	span := w.Hi - w.Lo
	x := min(max(psiInverse(z, w.Lambda), w.Lo-span), w.Hi+span)
	return w.Mean + w.SD*x
}

// Slope is dApply/dy at y, for carrying a noise variance across: a
// variance v of y is about Slope(y)²·v in the warped values.
func (w Warp) Slope(y float64) float64 {
	x := (y - w.Mean) / w.SD
	if x >= 0 {
		return math.Pow(x+1, w.Lambda-1) / w.SD
	}
	return math.Pow(1-x, 1-w.Lambda) / w.SD
}

// Variance carries a variance v of a value near y into the warped values:
// Slope(y)²·v, to first order (a declared observation noise).
func (w Warp) Variance(y, v float64) float64 {
	s := w.Slope(y)
	return s * s * v
}

const lambdaTolerance = 1e-9

func psi(x, lambda float64) float64 {
	if x >= 0 {
		if math.Abs(lambda) < lambdaTolerance {
			return math.Log1p(x)
		}
		return (math.Pow(x+1, lambda) - 1) / lambda
	}
	if math.Abs(lambda-2) < lambdaTolerance {
		return -math.Log1p(-x)
	}
	return -(math.Pow(1-x, 2-lambda) - 1) / (2 - lambda)
}

func psiInverse(z, lambda float64) float64 {
	if z >= 0 {
		if math.Abs(lambda) < lambdaTolerance {
			return math.Expm1(z)
		}
		base := lambda*z + 1
		if base <= 0 {
			return math.Inf(1)
		}
		return math.Pow(base, 1/lambda) - 1
	}
	if math.Abs(lambda-2) < lambdaTolerance {
		return -math.Expm1(-z)
	}
	base := 1 - (2-lambda)*z
	if base <= 0 {
		return math.Inf(-1)
	}
	return 1 - math.Pow(base, 1/(2-lambda))
}
