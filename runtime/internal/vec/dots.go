package vec

import "math"

// GroupRows and GroupPoints shape the register block of Dots4x3: four rows
// against three points, so that each element of a point serves four rows
// and each element of a row serves three points.
const (
	GroupRows   = 4
	GroupPoints = 3
)

// Lanes is how many partial sums each dot product of Dots4x3 and Dots4x1
// keeps: element c of the longest prefix whose length is a multiple of
// Lanes goes to lane c mod Lanes, by a fused multiply-add (one rounding).
// Eight lanes fill an AVX-512 register; the AVX2 kernel runs them as two
// passes of four, and the portable loops one at a time, all with the same
// arithmetic, so every path gives the same bits.
const Lanes = 8

// Dots4x3 writes the dot products of the first n elements of the four rows
// with p0, p1 and p2 to s, s[3r+k] for row r and point k. Each sum runs
// the longest prefix of a multiple of Lanes elements in Lanes lanes
// (math.FMA), reduces them as ((l0+l4) + (l2+l6)) + ((l1+l5) + (l3+l7)),
// then adds the rest one element at a time. The vector kernels, where the
// CPU has them, compute the prefix with exactly that arithmetic, so a sum's
// bits depend only on its inputs: not on the CPU, nor on how points are
// grouped.
func Dots4x3(rows *[GroupRows][]float64, n int, p0, p1, p2 []float64, s *[GroupRows * GroupPoints]float64) {
	head := n &^ (Lanes - 1)
	a0, a1, a2, a3 := rows[0][:n], rows[1][:n], rows[2][:n], rows[3][:n]
	p0, p1, p2 = p0[:n], p1[:n], p2[:n]
	if !dots4x3Vector(a0, a1, a2, a3, p0, p1, p2, head, s) {
		for r, a := range [GroupRows][]float64{a0, a1, a2, a3} {
			s[3*r], s[3*r+1], s[3*r+2] = laneDot(a[:head], p0), laneDot(a[:head], p1), laneDot(a[:head], p2)
		}
	}
	s00, s01, s02 := s[0], s[1], s[2]
	s10, s11, s12 := s[3], s[4], s[5]
	s20, s21, s22 := s[6], s[7], s[8]
	s30, s31, s32 := s[9], s[10], s[11]
	for c := head; c < n; c++ {
		v0, v1, v2 := p0[c], p1[c], p2[c]
		u := a0[c]
		s00, s01, s02 = math.FMA(u, v0, s00), math.FMA(u, v1, s01), math.FMA(u, v2, s02)
		u = a1[c]
		s10, s11, s12 = math.FMA(u, v0, s10), math.FMA(u, v1, s11), math.FMA(u, v2, s12)
		u = a2[c]
		s20, s21, s22 = math.FMA(u, v0, s20), math.FMA(u, v1, s21), math.FMA(u, v2, s22)
		u = a3[c]
		s30, s31, s32 = math.FMA(u, v0, s30), math.FMA(u, v1, s31), math.FMA(u, v2, s32)
	}
	*s = [...]float64{s00, s01, s02, s10, s11, s12, s20, s21, s22, s30, s31, s32}
}

// Dots4x1 is Dots4x3 for one point, with the same arithmetic.
func Dots4x1(rows *[GroupRows][]float64, n int, p []float64, s *[GroupRows]float64) {
	head := n &^ (Lanes - 1)
	a0, a1, a2, a3 := rows[0][:n], rows[1][:n], rows[2][:n], rows[3][:n]
	p = p[:n]
	if !dots4x1Vector(a0, a1, a2, a3, p, head, s) {
		for r, a := range [GroupRows][]float64{a0, a1, a2, a3} {
			s[r] = laneDot(a[:head], p)
		}
	}
	s0, s1, s2, s3 := s[0], s[1], s[2], s[3]
	for c := head; c < n; c++ {
		v := p[c]
		s0, s1, s2, s3 = math.FMA(a0[c], v, s0), math.FMA(a1[c], v, s1), math.FMA(a2[c], v, s2), math.FMA(a3[c], v, s3)
	}
	*s = [...]float64{s0, s1, s2, s3}
}

// laneDot is the vector kernels' sum of a·p (len(a) a multiple of Lanes,
// len(p) >= len(a)), one lane at a time.
func laneDot(a, p []float64) float64 {
	var l0, l1, l2, l3, l4, l5, l6, l7 float64
	for c := 0; c+Lanes <= len(a); c += Lanes {
		a, p := a[c:c+Lanes], p[c:c+Lanes]
		l0, l1, l2, l3 = math.FMA(a[0], p[0], l0), math.FMA(a[1], p[1], l1), math.FMA(a[2], p[2], l2), math.FMA(a[3], p[3], l3)
		l4, l5, l6, l7 = math.FMA(a[4], p[4], l4), math.FMA(a[5], p[5], l5), math.FMA(a[6], p[6], l6), math.FMA(a[7], p[7], l7)
	}
	return ((l0 + l4) + (l2 + l6)) + ((l1 + l5) + (l3 + l7))
}

// WideRows is the row block of Dots8x3: eight rows against three points, so
// that each element of a point, loaded from the L2 cache in a solve of many
// points (gp.PredictBatch), serves eight rows. The 24 sums need AVX-512's
// 32 registers; elsewhere Dots8x3 is two calls of Dots4x3.
const WideRows = 8

// Dots8x3 is Dots4x3 for eight rows, s[3r+k] for row r and point k. Each sum
// has Dots4x3's arithmetic, so its bits are those Dots4x3 gives it.
func Dots8x3(rows *[WideRows][]float64, n int, p0, p1, p2 []float64, s *[WideRows * GroupPoints]float64) {
	if dots8x3Vector(rows, n, p0, p1, p2, s) {
		return
	}
	const half = GroupRows * GroupPoints
	Dots4x3((*[GroupRows][]float64)(rows[:GroupRows]), n, p0, p1, p2, (*[half]float64)(s[:half]))
	Dots4x3((*[GroupRows][]float64)(rows[GroupRows:]), n, p0, p1, p2, (*[half]float64)(s[half:]))
}
