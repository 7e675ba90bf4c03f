package vec

// GroupRows and GroupPoints shape the register block of Dots4x3: four rows
// against three points, so that each element of a point serves four rows
// and each element of a row serves three points. The twelve accumulators,
// three elements of the points and one of a row take the sixteen vector
// registers amd64 code has.
const (
	GroupRows   = 4
	GroupPoints = 3
)

// Dots4x3 writes the dot products of the first n elements of the four rows
// with p0, p1 and p2 to s, s[3r+k] for row r and point k. The vector kernel,
// where the CPU has one, sums the longest prefix of a multiple of four
// elements in four lanes; plain loops with one accumulator per sum do the
// rest. A sum's order depends only on n, so equal inputs give equal sums.
func Dots4x3(rows *[GroupRows][]float64, n int, p0, p1, p2 []float64, s *[GroupRows * GroupPoints]float64) {
	start := dots4x3Head(rows, n, p0, p1, p2, s)
	a0, a1, a2, a3 := rows[0][start:n], rows[1][start:n], rows[2][start:n], rows[3][start:n]
	p0, p1, p2 = p0[start:n], p1[start:n], p2[start:n]
	s00, s01, s02 := s[0], s[1], s[2]
	s10, s11, s12 := s[3], s[4], s[5]
	s20, s21, s22 := s[6], s[7], s[8]
	s30, s31, s32 := s[9], s[10], s[11]
	for c, v0 := range p0 {
		v1, v2 := p1[c], p2[c]
		u := a0[c]
		s00, s01, s02 = s00+u*v0, s01+u*v1, s02+u*v2
		u = a1[c]
		s10, s11, s12 = s10+u*v0, s11+u*v1, s12+u*v2
		u = a2[c]
		s20, s21, s22 = s20+u*v0, s21+u*v1, s22+u*v2
		u = a3[c]
		s30, s31, s32 = s30+u*v0, s31+u*v1, s32+u*v2
	}
	*s = [...]float64{s00, s01, s02, s10, s11, s12, s20, s21, s22, s30, s31, s32}
}

// Dots4x1 is Dots4x3 for one point, with the same arithmetic.
func Dots4x1(rows *[GroupRows][]float64, n int, p []float64, s *[GroupRows]float64) {
	start := dots4x1Head(rows, n, p, s)
	a0, a1, a2, a3 := rows[0][start:n], rows[1][start:n], rows[2][start:n], rows[3][start:n]
	p = p[start:n]
	s0, s1, s2, s3 := s[0], s[1], s[2], s[3]
	for c, v := range p {
		s0, s1, s2, s3 = s0+a0[c]*v, s1+a1[c]*v, s2+a2[c]*v, s3+a3[c]*v
	}
	*s = [...]float64{s0, s1, s2, s3}
}
