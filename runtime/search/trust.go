package search

import (
	"fmt"
	"math"
)

// TrustRegion is the trust region of TuRBO-1 (Eriksson et al. 2019, "Scalable
// Global Optimization via Local Bayesian Optimization"): the search looks
// only in a box around the best point observed since the region last
// restarted. The box's side along component i is L·w_i, w_i the
// component's lengthscale over the geometric mean of all of them, so the
// box is long where the objective varies slowly. L doubles (up to
// MaxLength) after Success observations in a row that improve on the best
// by more than 10⁻³ of its magnitude and halves after Failure in a row that
// do not; when it falls below MinLength the region restarts: its next box is
// the whole cube, and the first point observed after it is the new centre.
//
// In high dimensions a search over the whole cube spends its evaluations
// on the cube's vast boundary, where a global model is most uncertain; the
// region keeps them where the model has data. Unlike TuRBO, a restart keeps
// the observations in the model: the search after it is one global step.
//
// Its state follows from the observations told, in order, so replaying them
// rebuilds it. It allocates nothing after NewTrustRegion.
type TrustRegion struct {
	initial, minLength, maxLength float64
	success, failure              int

	length              float64
	successes, failures int
	centre              int // the best observation since the restart; -1 for none
	best                float64
	restarts            int
}

// NewTrustRegion returns a region of side length (in units of the cube,
// relative to the lengthscales' geometric mean) within [minLength,
// maxLength], resized after success improvements or failure non-improvements
// in a row. It panics on values a checked program never passes.
func NewTrustRegion(length, minLength, maxLength float64, success, failure int) *TrustRegion {
	if !(0 < minLength && minLength <= length && length <= maxLength) || math.IsInf(maxLength, 0) || success < 1 || failure < 1 {
		panic(fmt.Sprintf("search: trust region length %v in [%v, %v], success %d, failure %d", length, minLength, maxLength, success, failure))
	}
	return &TrustRegion{initial: length, minLength: minLength, maxLength: maxLength, success: success, failure: failure,
		length: length, centre: -1}
}

// improvement is the fraction of the best value's magnitude an observation
// must exceed it by to count as a success (TuRBO's 10⁻³).
const improvement = 1e-3

// Improves reports whether y improves on best by more than TuRBO's 10⁻³ of
// best's magnitude, a region's success.
func Improves(y, best float64) bool { return y > best+improvement*math.Abs(best) }

// Tell updates the region with observation number i of value y (larger is
// better).
func (r *TrustRegion) Tell(i int, y float64) {
	if r.centre < 0 {
		r.centre, r.best = i, y
		return
	}
	if Improves(y, r.best) {
		r.successes, r.failures = r.successes+1, 0
	} else {
		r.successes, r.failures = 0, r.failures+1
	}
	if y > r.best {
		r.centre, r.best = i, y
	}
	switch {
	case r.successes == r.success:
		r.length, r.successes = min(2*r.length, r.maxLength), 0
	case r.failures == r.failure:
		r.length, r.failures = r.length/2, 0
	}
	if r.length < r.minLength {
		r.length, r.successes, r.failures, r.centre = r.initial, 0, 0, -1
		r.restarts++
	}
}

// Centre returns the index of the observation the box is centred on, or
// -1 when the region has just restarted (or nothing was told): then the box
// is the whole cube.
func (r *TrustRegion) Centre() int { return r.centre }

// Length returns the box's side length relative to the lengthscales.
func (r *TrustRegion) Length() float64 { return r.length }

// Restarts returns how many times the region collapsed and restarted.
func (r *TrustRegion) Restarts() int { return r.restarts }

// Box writes to lo and hi the box around centre (unit coordinates): side
// L·w_i along component i, w_i = ℓ_i / (Π ℓ_j)^(1/d) for the lengthscales
// ℓ (nil or a single value: every w_i is 1), clipped to the unit cube.
func (r *TrustRegion) Box(centre, lengthscales, lo, hi []float64) {
	if len(lengthscales) != len(centre) {
		lengthscales = nil
	}
	logMean := logGeometricMean(lengthscales)
	for i, c := range centre {
		half := r.halfSide(lengthscales, logMean, i)
		lo[i], hi[i] = max(0, c-half), min(1, c+half)
	}
}

// halfSide is half the box's side along component i before the cube clips
// it: L/2·w_i, with logMean the lengthscales' logGeometricMean (nil
// lengthscales: every w_i is 1).
func (r *TrustRegion) halfSide(lengthscales []float64, logMean float64, i int) float64 {
	if lengthscales == nil {
		return r.length / 2
	}
	return r.length / 2 * math.Exp(math.Log(lengthscales[i])-logMean)
}

// logGeometricMean is the log of the lengthscales' geometric mean (0 for
// none).
func logGeometricMean(lengthscales []float64) float64 {
	if len(lengthscales) == 0 {
		return 0
	}
	logMean := 0.0
	for _, l := range lengthscales {
		logMean += math.Log(l)
	}
	return logMean / float64(len(lengthscales))
}
