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
// within an ulp of math.Exp) and RQMix's powers without math.Pow, eight at
// a time in an assembly kernel on amd64 with AVX2 and FMA; with AVX-512,
// RQMix's sums add the values as the kernel makes them and, in R^1, the
// kernel computes the distances too. Values agree with Stationary.Eval to
// within a few units in the last place; the AVX2 and AVX-512 kernels give
// the same bits.
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
	// TermInvSquared, for RQMix, holds 1/ℓ_a² for the lengthscale ℓ_a that
	// divides r in the term of shape a: one value per shape of rqMixShapes,
	// in order (AIRBO's per-term lengthscales); nil for none.
	TermInvSquared []float64
	// Levels holds, per component, a categorical component's number of
	// levels and 0 for the others; nil when there are none. The kernel
	// measures a categorical component by LevelDistance.
	Levels []float64
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
// stored row-major in points; a nil w weighs every point 1: PairSum with a
// as the only point of u.
func (k Block) RowSum(a, points, w []float64) float64 {
	return k.PairSum(a, points, len(a), nil, w)
}

// PairSum returns Σ_i Σ_j wu_i·wv_j·k(u_i, v_j) over the points u_i of u and
// v_j of v, d values each, stored row-major; a nil weight slice weighs every
// point 1. It takes the pairs in order, i then j, blockChunk at a time
// whatever the rows' lengths, so that short rows (a Nyström cross term's h
// landmarks) fill whole chunks of the vector kernels; it sums the profile
// g(r²) and multiplies the total by s² once. The sum is a deterministic
// function of the arguments.
func (k Block) PairSum(u, v []float64, d int, wu, wv []float64) float64 {
	s2 := k.Variance
	k.Variance = 1
	return s2 * k.unitPairSum(u, v, d, wu, wv)
}

// unitPairSum is PairSum for a Block of variance 1.
func (k Block) unitPairSum(u, v []float64, d int, wu, wv []float64) float64 {
	nu, nv := len(u)/d, len(v)/d
	weighted := wu != nil || wv != nil
	var sum sum4
	// In R^1, RQMix's fused kernel takes the pairs as the chunks below
	// would, to the same bits, and computes the distances itself; the
	// chunks take the pairs from where it stops.
	start := 0
	if !weighted && d == 1 && k.Family == RQMix && len(k.InvSquared) == 1 && k.Levels == nil {
		c := k.rqMixScales()
		start = rqMixPairSumVector(u, v, k.InvSquared[0], &c, &sum)
	}
	var values, weights [blockChunk]float64
	i, j := start/max(nv, 1), start%max(nv, 1)
	for i < nu {
		// Fill a chunk with the pairs from (i, j) on.
		c := 0
		for c < blockChunk && i < nu {
			take := min(blockChunk-c, nv-j)
			k.squaredDistances(u[i*d:(i+1)*d], v[j*d:(j+take)*d], values[c:c+take])
			if weighted {
				pairWeights(weights[c:c+take], wu, wv, i, j)
			}
			c, j = c+take, j+take
			if j == nv {
				i, j = i+1, 0
			}
		}
		vals := values[:c]
		if !weighted {
			k.profileSum(vals, &sum)
			continue
		}
		k.profile(vals)
		for t, wt := range weights[:c] {
			vals[t] *= wt
		}
		sum.add(vals)
	}
	return sum.total()
}

// profileSum adds the values of k, of variance 1, at the squared distances
// in r2 (at most blockChunk, overwritten) to sum, as profile and sum.add
// would: for RQMix, a prefix through the fused vector kernel where there is
// one.
func (k Block) profileSum(r2 []float64, sum *sum4) {
	if k.Family == RQMix {
		c := k.rqMixScales()
		if r2 = r2[rqMixSumVector(r2, &c, sum):]; len(r2) == 0 {
			return
		}
	}
	k.profile(r2)
	sum.add(r2)
}

// pairWeights writes wu_i·wv_j, wu_i·wv_{j+1}, ... to out, a nil weight
// slice weighing every point 1.
func pairWeights(out, wu, wv []float64, i, j int) {
	wi := 1.0
	if wu != nil {
		wi = wu[i]
	}
	if wv == nil {
		for t := range out {
			out[t] = wi
		}
		return
	}
	for t, wj := range wv[j : j+len(out)] {
		out[t] = wi * wj
	}
}

// sum4 adds values in four running sums: one would make every addition wait
// for the previous one. The order is fixed, so the total is deterministic.
type sum4 struct{ s0, s1, s2, s3 float64 }

func (s *sum4) add(v []float64) {
	// Through the pointer every addition would be a load and a store;
	// in locals the four chains stay in registers.
	s0, s1, s2, s3 := s.s0, s.s1, s.s2, s.s3
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
	s.s0, s.s1, s.s2, s.s3 = s0, s1, s2, s3
}

func (s *sum4) total() float64 { return (s.s0 + s.s1) + (s.s2 + s.s3) }

// chunk writes k(a, p_j) to out[j] for at most blockChunk points.
func (k Block) chunk(a, points, out []float64) {
	k.squaredDistances(a, points, out)
	k.profile(out)
}

// profile replaces the squared distances r² in out (at most blockChunk) by
// the kernel's values s²·g(r²).
func (k Block) profile(out []float64) {
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
// (as long) for the bases of its shape-0.2 term. The vector kernel, where
// there is one, takes the longest prefix it can; rqMixPortable finishes
// the step it stopped at, and so on to the end.
func (k Block) rqMix(r2, arg []float64) {
	c := k.rqMixScales()
	s2 := k.Variance
	for i := 0; i < len(r2); {
		i += rqMixVector(r2[i:], &c, s2)
		end := min(i+rqMixStep, len(r2))
		rqMixPortable(r2[i:end], arg[i:end], &c, s2)
		i = end
	}
}

// rqMixScales returns the scales c_a of RQMix's bases q_a = 1 + c_a·r²:
// 1/(2a), divided by the term's squared lengthscale if it has its own.
func (k Block) rqMixScales() [len(rqMixShapes)]float64 {
	c := rqMixScales
	if k.TermInvSquared != nil {
		for t, inv := range k.TermInvSquared[:len(c)] {
			c[t] *= inv
		}
	}
	return c
}

// rqMixPortable is rqMix without the vector kernel, for the scales c_a and
// the variance s2. The shape-0.2 term, (1+t)^−⅕, comes from
// inverseFifthRoots. The other shapes have closed forms: (1+t)^−½ =
// 1/√(1+t), and the shapes 1, 2 and 5 are one fraction with the product of
// their bases as the denominator, so that a kernel value costs one square
// root and one division besides multiplications and additions.
func rqMixPortable(r2, arg []float64, c *[len(rqMixShapes)]float64, s2 float64) {
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
	inverseFifthRoots(arg)
	for j := range r2 {
		r2[j] += s2 * arg[j]
	}
}

// inverseFifthRoots sets x[j] = x[j]^(−1/5) for x[j] ≥ 1 (or NaN), to
// within a few ulps of math.Pow, in straight-line code without a division,
// logarithm or exponential: x = 2^(5q+r)·m with m in [1, 2) and r < 5, so
// x^(−1/5) = 2^−q·2^(−r/5)·m^(−1/5); a degree-6 polynomial gives y ≈
// m^(−1/5) to within 5.1e-7 (interpolation at the Chebyshev nodes of
// [1, 2]), and one correction by the series (1 − c)^(−1/5) = 1 + 0.2c +
// 0.12c² + … with c = 1 − m·y⁵, which cubes the relative error (times
// 0.088·125), brings that below 1e-17, so that the rounding of the last
// step and of the scaling is what remains.
func inverseFifthRoots(x []float64) {
	for j, v := range x {
		if !(v >= 1 && v <= math.MaxFloat64) {
			x[j] = math.Pow(v, -0.2) // +Inf, NaN
			continue
		}
		bits := math.Float64bits(v)
		e := int(bits>>52) - 1023
		m := math.Float64frombits(bits&(1<<52-1) | 1023<<52)
		t := m - 1.5
		p := &fifthRootPoly
		y := p[0] + t*(p[1]+t*(p[2]+t*(p[3]+t*(p[4]+t*(p[5]+t*p[6])))))
		y2 := y * y
		c := 1 - m*y*(y2*y2)
		y += y * ((0.2 + 0.12*c) * c)
		q, r := e/5, e%5
		x[j] = y * (fifthRootOfHalf[r] * math.Float64frombits(uint64(1023-q)<<52))
	}
}

// fifthRootPoly approximates m^(−1/5) on [1, 2] as Σ_i c_i (m − 1.5)^i.
var fifthRootPoly = [7]float64{0.9221079114817269, -0.12295266438200836, 0.049182065256042025,
	-0.023886752240295146, 0.01272885446546265, -0.008388904579110854, 0.004875719491954962}

// fifthRootOfHalf holds 2^(−r/5) for r = 0..4.
var fifthRootOfHalf = [5]float64{1, 0.8705505632961241, 0.757858283255199, 0.6597539553864471, 0.5743491774985174}

// rqMixScales holds 1/(2a) for RQMix's shapes a.
var rqMixScales = func() (c [len(rqMixShapes)]float64) {
	for t, a := range rqMixShapes {
		c[t] = 1 / (2 * a)
	}
	return c
}()

// rqMixFractionMax bounds the common denominator of RQMix's fraction, so
// that its numerator (at most three times as large) stays finite.
const rqMixFractionMax = 1e300

// squaredDistances writes r² between a and each point to out.
func (k Block) squaredDistances(a, points, out []float64) {
	k.numericDistances(a, points, out)
	if k.Levels != nil {
		k.levelDistances(a, points, out)
	}
}

// levelDistances corrects the squared distances in out for the categorical
// components, which numericDistances measured as numbers.
func (k Block) levelDistances(a, points, out []float64) {
	d := len(a)
	for i, levels := range k.Levels[:d] {
		if levels == 0 {
			continue
		}
		inv := k.InvSquared[min(i, len(k.InvSquared)-1)]
		for j := range out {
			t := a[i] - points[j*d+i]
			out[j] += (LevelDistance(a[i], points[j*d+i], levels) - t*t) * inv
		}
	}
}

// numericDistances writes r² between a and each point to out, every
// component measured as a number.
func (k Block) numericDistances(a, points, out []float64) {
	d := len(a)
	if len(k.InvSquared) == 1 {
		inv := k.InvSquared[0]
		if d == 1 {
			a0 := a[0]
			points = points[:len(out)]
			for j := distances1Vector(a0, inv, points, out); j < len(out); j++ {
				t := a0 - points[j]
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
