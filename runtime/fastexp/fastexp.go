// Package fastexp computes the exponentials of many arguments at once, to
// within one unit in the last place of math.Exp, several times faster than a
// loop of math.Exp calls. The batch posterior's kernel fill spends most of
// its time in exponentials (one per kernel value), which is why it exists:
// a kernel writes the arguments of a whole row, then calls Exp on the row.
//
// The method is the classic one: x = k·ln2 + r with |r| <= ln2/2 (Cody–Waite
// reduction with a two-part ln2), e^r = 1 + r + r²·Q(r) with Q the degree-11
// Taylor remainder (its truncation error is below 1e-17 relative), and
// 2^k applied by adding k to the exponent field. Arguments outside
// [MinFast, MaxFast] (where the result would be subnormal, zero or
// infinite) and NaNs go to math.Exp, so every input gives math.Exp's
// special values. On amd64 with AVX2 and FMA an assembly kernel does eight
// arguments per step; elsewhere, and under the purego build tag, a portable
// Go loop does the same arithmetic without fused multiply-adds.
package fastexp

import "math"

const (
	// MinFast and MaxFast bound the arguments the polynomial path takes:
	// inside them e^x is a normal number and k·ln2 is exact.
	MinFast = -708.0
	MaxFast = 709.0

	log2e = 1.4426950408889634
	// ln2Hi has zeros in its low bits, so that k·ln2Hi is exact for the k
	// of [MinFast, MaxFast]; ln2Lo is the rest of ln2.
	ln2Hi = 6.93147180369123816490e-01
	ln2Lo = 1.90821492927058770002e-10
	// roundMagic is 1.5·2⁵²: adding it rounds to an integer, which then sits
	// in the low bits of the sum.
	roundMagic = 6755399441055744.0
)

// taylor holds 1/j! for j = 2 … 13, the coefficients of Q.
var taylor = func() (c [12]float64) {
	f := 1.0
	for j := 2; j <= 13; j++ {
		f *= float64(j)
		c[j-2] = 1 / f
	}
	return c
}()

// Exp sets dst[i] = e^src[i] for every i < len(src). dst must be at least
// as long as src; it may be src itself (the call then works in place) but
// must not overlap it otherwise. It allocates nothing.
func Exp(dst, src []float64) {
	dst = dst[:len(src)]
	for i := 0; i < len(src); {
		i += expVector(dst[i:], src[i:])
		// The vector kernel stopped at the end or at a step holding an
		// argument it does not take: finish that step one by one.
		end := min(i+vectorStep, len(src))
		expPortable(dst[i:end], src[i:end])
		i = end
	}
}

// expPortable is Exp without the vector kernel. The loop body is the whole
// computation (no call), so that successive arguments' arithmetic overlaps.
func expPortable(dst, src []float64) {
	dst = dst[:len(src)]
	c := &taylor
	for i, x := range src {
		if !(x >= MinFast && x <= MaxFast) {
			dst[i] = math.Exp(x)
			continue
		}
		kd := x*log2e + roundMagic
		k := kd - roundMagic
		r := x - k*ln2Hi - k*ln2Lo
		r2 := r * r
		r4 := r2 * r2
		// Estrin's scheme: short dependency chains.
		s0 := (c[0] + c[1]*r) + (c[2]+c[3]*r)*r2
		s1 := (c[4] + c[5]*r) + (c[6]+c[7]*r)*r2
		s2 := (c[8] + c[9]*r) + (c[10]+c[11]*r)*r2
		q := s0 + r4*(s1+s2*r4)
		p := 1 + (r + r2*q)
		// kd's low bits hold k in two's complement: shifted into the
		// exponent field, they multiply p (in [0.7, 1.42]) by 2^k exactly.
		dst[i] = math.Float64frombits(math.Float64bits(p) + math.Float64bits(kd)<<52)
	}
}
