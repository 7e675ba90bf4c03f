package kernel

import (
	"errors"
	"fmt"
	"math"
)

// Family is the shape of a stationary kernel s²·g(r²), where
// r² = Σ_i (a_i − b_i)²/ℓ_i².
type Family int

const (
	// SE is the squared exponential: g = exp(−r²/2).
	SE Family = iota
	// Matern12 is the Matérn kernel with ν = 1/2: g = exp(−r).
	Matern12
	// Matern32 is the Matérn kernel with ν = 3/2: g = (1 + √3r)·exp(−√3r).
	Matern32
	// Matern52 is the Matérn kernel with ν = 5/2:
	// g = (1 + √5r + 5r²/3)·exp(−√5r).
	Matern52
	// RQ is the rational quadratic with shape α: g = (1 + r²/(2α))^(−α).
	RQ
	// RQMix is AIRBO's mixture of rational quadratics (Eq. 32):
	// g = Σ_{α ∈ {0.2, 0.5, 1, 2, 5}} (1 + r²/(2α))^(−α). As in the paper
	// it is a plain sum, so g(0) = 5. The paper's "l_i" is read as the
	// kernel's (possibly ARD) lengthscales, shared by the five terms.
	RQMix
)

var familyNames = [...]string{SE: "se", Matern12: "matern12", Matern32: "matern32", Matern52: "matern52", RQ: "rq", RQMix: "rqmix"}

// String returns the family's name in the .bo language.
func (f Family) String() string {
	if f >= 0 && int(f) < len(familyNames) {
		return familyNames[f]
	}
	return fmt.Sprintf("Family(%d)", int(f))
}

// rqMixShapes are the shapes α of RQMix's terms.
var rqMixShapes = [...]float64{0.2, 0.5, 1, 2, 5}

// Stationary is a kernel s²·g(r²) of the scaled distance between its
// inputs, with one lengthscale shared by every component or one per
// component (ARD; its inputs then have len(lengthscales) components). θ is
// (log s², log ℓ_1, …, log ℓ_L), followed by log α for RQ.
type Stationary struct {
	family       Family
	variance     float64
	lengthscales []float64
	invSquared   []float64 // 1/ℓ_i², kept in step with lengthscales
	alpha        float64   // RQ's shape; unused otherwise
	levels       []float64 // per component, a categorical one's levels (SetLevels); nil for none
}

// SetLevels makes the kernel measure categorical components by
// LevelDistance: levels[i] is component i's number of levels (its unit
// coordinate is (level + ½)/levels), 0 for a component measured as a
// number. Its gradient in a categorical component is 0. Call it before the
// kernel is evaluated; nil measures every component as a number.
func (k *Stationary) SetLevels(levels []int) {
	k.levels = nil
	if levels == nil {
		return
	}
	k.levels = make([]float64, len(levels))
	for i, l := range levels {
		k.levels[i] = float64(l)
	}
}

// diff is the difference between a and b along component i that the
// kernel's distance squares.
func (k *Stationary) diff(a, b []float64, i int) float64 {
	if k.levels != nil && k.levels[i] > 0 {
		return LevelDistance(a[i], b[i], k.levels[i])
	}
	return a[i] - b[i]
}

// NewStationary returns the kernel of family f (not RQ, see NewRQ) with
// signal variance s² = variance and the given lengthscales: one value for an
// isotropic kernel, or one per input component. It panics on non-positive or
// non-finite values, which a checked program never passes.
func NewStationary(f Family, variance float64, lengthscales []float64) *Stationary {
	if f == RQ {
		panic("kernel: NewStationary(RQ): use NewRQ, which takes the shape α")
	}
	return newStationary(f, variance, 1, lengthscales)
}

// NewRQ returns the rational quadratic kernel s²(1 + r²/(2α))^(−α); see
// NewStationary for the arguments.
func NewRQ(variance, alpha float64, lengthscales []float64) *Stationary {
	return newStationary(RQ, variance, alpha, lengthscales)
}

// Named returns the stationary kernel of the family called name (Family's
// String: "se", "matern52", "rq", ...), with shape alpha for "rq" (ignored
// otherwise); see NewStationary for the other arguments. It is the
// constructor for code that knows the family by its .bo name.
func Named(name string, variance, alpha float64, lengthscales []float64) (*Stationary, error) {
	for f, n := range familyNames {
		if n == name {
			if Family(f) != RQ {
				alpha = 1
			}
			if err := checkHyper(variance, alpha, lengthscales); err != nil {
				return nil, err
			}
			return newStationary(Family(f), variance, alpha, lengthscales), nil
		}
	}
	return nil, fmt.Errorf("kernel: no stationary family %q", name)
}

// checkHyper reports hyperparameters no kernel takes.
func checkHyper(variance, alpha float64, lengthscales []float64) error {
	if len(lengthscales) == 0 {
		return errors.New("kernel: no lengthscale")
	}
	for _, v := range append([]float64{variance, alpha}, lengthscales...) {
		if !(v > 0) || math.IsInf(v, 0) {
			return fmt.Errorf("kernel: hyperparameter %v is not a positive number", v)
		}
	}
	return nil
}

func newStationary(f Family, variance, alpha float64, lengthscales []float64) *Stationary {
	if f < SE || f > RQMix {
		panic(fmt.Sprintf("kernel: unknown family %d", int(f)))
	}
	if err := checkHyper(variance, alpha, lengthscales); err != nil {
		panic(fmt.Sprintf("%v: %v", f, err))
	}
	k := &Stationary{
		family:       f,
		variance:     variance,
		lengthscales: append([]float64(nil), lengthscales...),
		invSquared:   make([]float64, len(lengthscales)),
		alpha:        alpha,
	}
	k.refresh()
	return k
}

// refresh recomputes the cached inverse squared lengthscales.
func (k *Stationary) refresh() {
	for i, l := range k.lengthscales {
		k.invSquared[i] = 1 / (l * l)
	}
}

// Family returns the kernel's family.
func (k *Stationary) Family() Family { return k.family }

// r2 returns the squared scaled distance between a and b.
func (k *Stationary) r2(a, b []float64) float64 {
	b = b[:len(a)]
	s := 0.0
	if k.levels != nil {
		for i := range a {
			d := k.diff(a, b, i)
			s += d * d * k.invSquaredAt(i)
		}
		return s
	}
	if len(k.invSquared) == 1 {
		for i := range a {
			d := a[i] - b[i]
			s += d * d
		}
		return s * k.invSquared[0]
	}
	inv := k.invSquared[:len(a)]
	for i := range a {
		d := a[i] - b[i]
		s += d * d * inv[i]
	}
	return s
}

// profile returns g(r²) and its derivative with respect to r².
func (k *Stationary) profile(r2 float64) (g, dg float64) {
	switch k.family {
	case SE:
		g = math.Exp(-0.5 * r2)
		return g, -0.5 * g
	case Matern12:
		r := math.Sqrt(r2)
		g = math.Exp(-r)
		if r == 0 {
			// The cusp at r = 0 has no derivative; every quantity dg is
			// multiplied by vanishes there, so 0 is the continuous choice.
			return g, 0
		}
		return g, -0.5 * g / r
	case Matern32:
		r := math.Sqrt(3 * r2)
		e := math.Exp(-r)
		return (1 + r) * e, -1.5 * e
	case Matern52:
		r := math.Sqrt(5 * r2)
		e := math.Exp(-r)
		return (1 + r + r*r/3) * e, -(5.0 / 6) * (1 + r) * e
	case RQ:
		base := 1 + r2/(2*k.alpha)
		g = math.Pow(base, -k.alpha)
		return g, -0.5 * g / base
	default: // RQMix
		for _, alpha := range rqMixShapes {
			base := 1 + r2/(2*alpha)
			term := math.Pow(base, -alpha)
			g += term
			dg -= 0.5 * term / base
		}
		return g, dg
	}
}

// Eval returns k(a, b).
func (k *Stationary) Eval(a, b []float64) float64 {
	g, _ := k.profile(k.r2(a, b))
	return k.variance * g
}

// Row writes k(a, b_i) to out[i] for the len(out) points b_i stored
// row-major in points, len(a) values each, by Block: the exponentials in one
// batch (runtime/fastexp, within an ulp of math.Exp). It allocates nothing:
// the kernel vectors of many points, the bulk of a batch prediction, cost a
// fraction of as many Evals.
func (k *Stationary) Row(a, points, out []float64) {
	Block{Family: k.family, Variance: k.variance, Alpha: k.alpha, InvSquared: k.invSquared, Levels: k.levels}.Row(a, points, out)
}

// AddGradX adds w·∂k(a, b)/∂a to grad and returns k(a, b):
// ∂k/∂a_i = s²·g'(r²)·2(a_i − b_i)/ℓ_i².
func (k *Stationary) AddGradX(a, b []float64, w float64, grad []float64) float64 {
	g, dg := k.profile(k.r2(a, b))
	c := 2 * w * k.variance * dg
	b, grad = b[:len(a)], grad[:len(a)]
	for i := range a {
		if k.levels == nil || k.levels[i] == 0 { // flat along a categorical component
			grad[i] += c * (a[i] - b[i]) * k.invSquaredAt(i)
		}
	}
	return k.variance * g
}

// invSquaredAt returns 1/ℓ² for input component i.
func (k *Stationary) invSquaredAt(i int) float64 {
	if len(k.invSquared) == 1 {
		return k.invSquared[0]
	}
	return k.invSquared[i]
}

// NumLengthscales returns the number of lengthscales: θ[1 : 1+L].
func (k *Stationary) NumLengthscales() int { return len(k.lengthscales) }

// NumParams returns 1 + the number of lengthscales, + 1 for RQ.
func (k *Stationary) NumParams() int {
	n := 1 + len(k.lengthscales)
	if k.family == RQ {
		n++
	}
	return n
}

// Params writes (log s², log ℓ…, [log α]) to p.
func (k *Stationary) Params(p []float64) {
	p[0] = math.Log(k.variance)
	for i, l := range k.lengthscales {
		p[1+i] = math.Log(l)
	}
	if k.family == RQ {
		p[1+len(k.lengthscales)] = math.Log(k.alpha)
	}
}

// SetParams sets the hyperparameters from (log s², log ℓ…, [log α]).
func (k *Stationary) SetParams(p []float64) {
	k.variance = math.Exp(p[0])
	for i := range k.lengthscales {
		k.lengthscales[i] = math.Exp(p[1+i])
	}
	if k.family == RQ {
		k.alpha = math.Exp(p[1+len(k.lengthscales)])
	}
	k.refresh()
}

// AddGradParams adds w·∂k(a, b)/∂θ to grad and returns k(a, b):
// ∂k/∂log s² = k, ∂k/∂log ℓ_i = −2s²·g'(r²)·(a_i − b_i)²/ℓ_i² (summed over
// the components for a shared ℓ), and for RQ
// ∂k/∂log α = s²·g·α·(t/(1 + t) − log(1 + t)) with t = r²/(2α).
func (k *Stationary) AddGradParams(a, b []float64, w float64, grad []float64) float64 {
	r2 := k.r2(a, b)
	g, dg := k.profile(r2)
	value := k.variance * g
	grad[0] += w * value
	c := -2 * w * k.variance * dg
	if len(k.lengthscales) == 1 {
		grad[1] += c * r2
	} else {
		b = b[:len(a)]
		for i := range a {
			d := k.diff(a, b, i)
			grad[1+i] += c * d * d * k.invSquared[i]
		}
	}
	if k.family == RQ {
		t := r2 / (2 * k.alpha)
		grad[1+len(k.lengthscales)] += w * value * k.alpha * (t/(1+t) - math.Log1p(t))
	}
	return value
}

// LevelDistance is the distance a stationary kernel sees between two
// categorical components in unit coordinates, (level + ½)/levels: 0 for the
// same level, 1 — as far as the ends of a continuous component — for two
// different ones. With a lengthscale ℓ per component, exp(−δ/(2ℓ²)) is the
// overlap kernel of the levels (a one-hot embedding's distance, so every
// stationary family stays positive definite).
func LevelDistance(a, b, levels float64) float64 {
	if math.Abs(a-b)*levels < 0.5 {
		return 0
	}
	return 1
}
