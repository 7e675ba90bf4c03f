package kernel

import (
	"math"

	"github.com/bocdev/boc/runtime/fastexp"
)

// blockChunk is the number of points Block evaluates per step: their squared
// distances, arguments and values sit in arrays on the stack.
const blockChunk = 64

// Block is a stationary kernel s²·g(r²) of one family, with its
// hyperparameters as plain values, evaluated on blocks of points: one point
// against many (Row, RowSum). It is the fast path of the sample sums over
// input distributions (runtime/uncertain), whose kernel values come in rows
// of tens to hundreds: the squared distances of a row first, then the
// profile over the row, with the exponentials in one batch (runtime/fastexp,
// within an ulp of math.Exp) and RQMix's powers without math.Pow. Values
// agree with Stationary.Eval to within a few units in the last place.
//
// A Block is a small value that emitted code builds from its
// hyperparameters where it calls it; the methods do not retain or modify
// the slices, and allocate nothing.
type Block struct {
	Family   Family
	Variance float64 // s²
	Alpha    float64 // RQ's shape α; unused by the other families
	// InvSquared holds 1/ℓ_i²: one value shared by every component, or one
	// per component.
	InvSquared []float64
	// TermInvSquared, for RQMix, divides r² by ℓ_a² in the term of shape a:
	// one value per shape of rqMixShapes, in order (AIRBO's per-term
	// lengthscales); nil for none.
	TermInvSquared []float64
}

// Eval returns k(a, b).
func (k Block) Eval(a, b []float64) float64 {
	var out [1]float64
	k.Row(a, b[:len(a)], out[:])
	return out[0]
}

// Row writes k(a, p_j) to out[j] for the len(out) points p_j stored
// row-major in points, len(a) values each.
func (k Block) Row(a, points, out []float64) {
	d := len(a)
	for start := 0; start < len(out); start += blockChunk {
		end := min(start+blockChunk, len(out))
		k.chunk(a, points[start*d:end*d], out[start:end])
	}
}

// RowSum returns Σ_j w_j·k(a, p_j) over the len(points)/len(a) points p_j
// stored row-major in points; a nil w weighs every point 1. The terms are
// added in a fixed order, so the sum is a deterministic function of the
// arguments.
func (k Block) RowSum(a, points, w []float64) float64 {
	d := len(a)
	n := len(points) / d
	var values [blockChunk]float64
	var s0, s1, s2, s3 float64
	for start := 0; start < n; start += blockChunk {
		end := min(start+blockChunk, n)
		v := values[:end-start]
		k.chunk(a, points[start*d:end*d], v)
		if w != nil {
			for j, wj := range w[start:end] {
				v[j] *= wj
			}
		}
		// Four running sums: one would make every addition wait for the
		// previous one.
		j := 0
		for ; j+4 <= len(v); j += 4 {
			s0 += v[j]
			s1 += v[j+1]
			s2 += v[j+2]
			s3 += v[j+3]
		}
		for ; j < len(v); j++ {
			s0 += v[j]
		}
	}
	return (s0 + s1) + (s2 + s3)
}

// chunk writes k(a, p_j) to out[j] for at most blockChunk points.
func (k Block) chunk(a, points, out []float64) {
	k.squaredDistances(a, points, out)
	var scratch [blockChunk]float64
	arg := scratch[:len(out)]
	s2 := k.Variance
	switch k.Family {
	case SE:
		for j, r2 := range out {
			arg[j] = -0.5 * r2
		}
		fastexp.Exp(out, arg)
		for j := range out {
			out[j] *= s2
		}
	case Matern12, Matern32, Matern52:
		scale := [...]float64{Matern12: 1, Matern32: 3, Matern52: 5}[k.Family]
		for j, r2 := range out {
			r := math.Sqrt(scale * r2)
			out[j], arg[j] = r, -r
		}
		fastexp.Exp(arg, arg)
		for j, r := range out {
			switch k.Family {
			case Matern12:
				out[j] = s2 * arg[j]
			case Matern32:
				out[j] = s2 * (1 + r) * arg[j]
			default:
				out[j] = s2 * (1 + r + r*r/3) * arg[j]
			}
		}
	case RQ:
		alpha := k.Alpha
		c := 1 / (2 * alpha)
		for j, r2 := range out {
			arg[j] = -alpha * math.Log1p(c*r2)
		}
		fastexp.Exp(out, arg)
		for j := range out {
			out[j] *= s2
		}
	default: // RQMix
		k.rqMix(out, arg)
	}
}

// rqMix replaces the squared distances in r2 by RQMix's values, using arg
// (as long) for the exponents of its shape-0.2 term. The other shapes have
// closed forms: (1+t)^−½ = 1/√(1+t), and the shapes 1, 2 and 5 are one
// fraction with the product of their bases as the denominator, so that a
// kernel value costs one logarithm, one batched exponential, one square root
// and one division.
func (k Block) rqMix(r2, arg []float64) {
	var c [len(rqMixShapes)]float64 // q_a = 1 + c_a·r²
	for t, a := range rqMixShapes {
		c[t] = 1 / (2 * a)
		if k.TermInvSquared != nil {
			c[t] *= k.TermInvSquared[t]
		}
	}
	s2 := k.Variance
	for j, x := range r2 {
		arg[j] = 1 + c[0]*x
		q1, q2, q3, q4 := 1+c[1]*x, 1+c[2]*x, 1+c[3]*x, 1+c[4]*x
		sq := math.Sqrt(q1)
		q3s := q3 * q3
		q4s := q4 * q4
		q45 := q4s * q4s * q4
		// 1/√q1 + 1/q2 + 1/q3² + 1/q4⁵ over the common denominator √q1·q2·q3²·q4⁵.
		den := q2 * q3s * q45
		if full := den * sq; full < rqMixFractionMax {
			r2[j] = s2 * ((q3s*q45+q2*q45+q2*q3s)*sq + den) / full
			continue
		}
		// Far apart (or not a number): the denominator would overflow.
		r2[j] = s2 * (1/sq + 1/q2 + 1/q3s + 1/q45)
	}
	scaledLogs(arg, -rqMixShapes[0])
	fastexp.Exp(arg, arg)
	for j := range r2 {
		r2[j] += s2 * arg[j]
	}
}

// scaledLogs sets x[j] = c·ln x[j] for x[j] ≥ 1 (or NaN), to within a few
// ulps of math.Log, in straight-line code that overlaps from one value to
// the next, where math.Log is a call: x = 2^e·m with m in [√½, √2), and
// ln m = 2·atanh(s) = 2s·Σ_k s^2k/(2k+1) with s = (m − 1)/(m + 1),
// |s| ≤ 0.172, truncated after s^18 (relative error below 3e-17).
func scaledLogs(x []float64, c float64) {
	for j, v := range x {
		if !(v <= math.MaxFloat64) {
			x[j] = c * math.Log(v) // +Inf, NaN
			continue
		}
		bits := math.Float64bits(v)
		e := float64(int(bits>>52) - 1023)
		m := math.Float64frombits(bits&(1<<52-1) | 1023<<52) // in [1, 2)
		if m > math.Sqrt2 {
			m, e = m/2, e+1
		}
		s := (m - 1) / (m + 1)
		z := s * s
		z2 := z * z
		z4 := z2 * z2
		// Σ_{k=1}^{9} z^k/(2k+1) by Estrin's scheme.
		p := (1.0/3+z/5)*z + (1.0/7+z/9)*z*z2 + ((1.0/11+z/13)+(1.0/15+z/17)*z2)*z*z4 + z4*z4*z/19
		x[j] = c * (e*ln2Hi + (e*ln2Lo + 2*s*(1+p)))
	}
}

// ln2Hi + ln2Lo is ln 2, ln2Hi with enough trailing zeros that e·ln2Hi is
// exact for the exponents e of float64.
const (
	ln2Hi = 6.93147180369123816490e-01
	ln2Lo = 1.90821492927058770002e-10
)

// rqMixFractionMax bounds the common denominator of RQMix's fraction, so
// that its numerator (at most three times as large) stays finite.
const rqMixFractionMax = 1e300

// squaredDistances writes r² between a and each point to out.
func (k Block) squaredDistances(a, points, out []float64) {
	d := len(a)
	if len(k.InvSquared) == 1 {
		inv := k.InvSquared[0]
		if d == 1 {
			a0 := a[0]
			points = points[:len(out)]
			for j, p := range points {
				t := a0 - p
				out[j] = t * t * inv
			}
			return
		}
		for j := range out {
			p := points[j*d : (j+1)*d]
			var s float64
			for i, ai := range a {
				t := ai - p[i]
				s += t * t
			}
			out[j] = s * inv
		}
		return
	}
	inv := k.InvSquared[:d]
	for j := range out {
		p := points[j*d : (j+1)*d]
		var s float64
		for i, ai := range a {
			t := ai - p[i]
			s += t * t * inv[i]
		}
		out[j] = s
	}
}
