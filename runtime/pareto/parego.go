package pareto

import (
	"math"

	"github.com/bocdev/boc/runtime/internal/splitmix"
	"github.com/bocdev/boc/runtime/noise"
)

// ParEGO (Knowles 2006) folds the objectives into one by an augmented
// Chebyshev scalarisation with random weights λ on the simplex, drawn anew
// each round, of the objectives normalised between the reference point and
// the best believed values, so that the region of interest fills [0, 1]:
// s(y) = min_j λ_j ŷ_j + ρ Σ_j λ_j ŷ_j, all maximised. Over the
// rounds the weights sweep the front. A point scores the expected
// improvement of s over the best believed vector's, estimated, as BoTorch's
// qParEGO does, from Monte-Carlo samples of the objectives' independent
// posteriors with common random numbers, so that the score is smooth in
// the point and has a gradient.

const (
	// parEGOSamples is the number of posterior samples a score averages.
	parEGOSamples = 128
	// augmentation is ρ, the weight of the sum that breaks the ties of the
	// minimum (Knowles' 0.05).
	augmentation = 0.05
	// maxObjectives is the most objectives a scalarisation takes.
	maxObjectives = 4
)

// scalarisation is one round's: its weights, normalisation, best value and
// the common random numbers.
type scalarisation struct {
	m        int
	weights  []float64
	lo, span []float64 // ŷ_j = (y_j − lo_j) / span_j
	best     float64
	normals  []float64 // parEGOSamples × m standard normals
}

func newScalarisation(m int) scalarisation {
	return scalarisation{m: m, weights: make([]float64, m), lo: make([]float64, m), span: make([]float64, m),
		normals: make([]float64, parEGOSamples*m)}
}

// uniform is the kth uniform of the stream seed, in (0, 1).
func uniform(seed uint64, k int) float64 {
	return (float64(splitmix.Mix(seed+uint64(k)+1)>>11) + 0.5) * 0x1p-53
}

// draw draws the round's weights (uniform on the simplex: normalised
// exponentials) and normals from seed, and normalises between the
// reference point ref and the best of the believed vectors (maximised,
// row-major).
func (s *scalarisation) draw(believed, ref []float64, seed uint64) {
	m := s.m
	sum := 0.0
	for j := range m {
		s.weights[j] = -math.Log(uniform(seed, j))
		sum += s.weights[j]
	}
	for j := range m {
		s.weights[j] /= sum
	}
	for k := range s.normals {
		s.normals[k] = noise.Normal(uniform(seed, m+k))
	}
	for j := range m {
		hi := math.Inf(-1)
		for i := j; i < len(believed); i += m {
			hi = max(hi, believed[i])
		}
		s.lo[j], s.span[j] = ref[j], hi-ref[j]
		if !(s.span[j] > 0) {
			s.span[j] = max(math.Abs(ref[j]), 1) // nothing believed beyond the reference yet
		}
	}
	s.best = math.Inf(-1)
	for i := 0; i < len(believed); i += m {
		v, _ := s.value(believed[i : i+m])
		s.best = max(s.best, v)
	}
	if math.IsInf(s.best, -1) {
		s.best = 0
	}
}

// value is s(y), y maximised, and the index of the objective that sets the
// minimum.
func (s *scalarisation) value(y []float64) (float64, int) {
	least, arg, sum := math.Inf(1), 0, 0.0
	for j := range s.m {
		v := s.weights[j] * (y[j] - s.lo[j]) / s.span[j]
		if v < least {
			least, arg = v, j
		}
		sum += v
	}
	return least + augmentation*sum, arg
}

// improvement is the Monte-Carlo expected improvement of s at a point whose
// objectives (maximised) have the posterior means and sds given; with grad
// it writes its derivatives with respect to them to dMean and dSD.
func (s *scalarisation) improvement(mean, sd, dMean, dSD []float64, grad bool) float64 {
	var y [maxObjectives]float64
	if grad {
		clear(dMean)
		clear(dSD)
	}
	total := 0.0
	for k := range parEGOSamples {
		z := s.normals[k*s.m : (k+1)*s.m]
		for j := range s.m {
			y[j] = mean[j] + sd[j]*z[j]
		}
		v, arg := s.value(y[:s.m])
		if v <= s.best {
			continue
		}
		total += v - s.best
		if !grad {
			continue
		}
		for j := range s.m {
			slope := augmentation * s.weights[j] / s.span[j]
			if j == arg {
				slope += s.weights[j] / s.span[j]
			}
			dMean[j] += slope / parEGOSamples
			dSD[j] += slope * z[j] / parEGOSamples
		}
	}
	return total / parEGOSamples
}
