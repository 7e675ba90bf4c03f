package design

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"testing"
)

// publishedSHA256 is the digest of the first 1024 lines (header and rows
// d = 2..1024) of new-joe-kuo-6.21201, i.e. `head -n 1024 new-joe-kuo-6.21201`.
const publishedSHA256 = "52eeb57738dd69f5e1f593f2085c4efb3fb410c3af241d5396d7a2bef60b9257"

// TestJoeKuoTableMatchesPublishedFile re-creates the published text (fields
// left-aligned in columns of 8, m values separated by spaces, a trailing
// space on every line) from the Go table and compares digests, so a single
// wrong digit anywhere in the table fails.
func TestJoeKuoTableMatchesPublishedFile(t *testing.T) {
	var b strings.Builder
	b.WriteString("d       s       a       m_i     \n")
	for i, row := range joeKuo {
		fmt.Fprintf(&b, "%-8d%-8d%-8d", i+2, row.degree, row.poly)
		for _, m := range row.m[:row.degree] {
			fmt.Fprintf(&b, "%d ", m)
		}
		b.WriteString("\n")
	}
	sum := sha256.Sum256([]byte(b.String()))
	if got := hex.EncodeToString(sum[:]); got != publishedSHA256 {
		t.Fatalf("table digest %s, want %s", got, publishedSHA256)
	}
}

// TestJoeKuoRowsAreValid checks the table's structure independently of the
// digest: rows list every primitive polynomial over GF(2) in order of degree
// and coefficient code, and every initial direction number m_k is odd and
// below 2^k.
func TestJoeKuoRowsAreValid(t *testing.T) {
	next := 0
	for degree := 1; next < len(joeKuo); degree++ {
		for poly := range 1 << (degree - 1) {
			if next == len(joeKuo) {
				break
			}
			if !isPrimitive(degree, poly) {
				continue
			}
			row := joeKuo[next]
			if int(row.degree) != degree || int(row.poly) != poly {
				t.Fatalf("dimension %d: (s, a) = (%d, %d), want the next primitive polynomial (%d, %d)",
					next+2, row.degree, row.poly, degree, poly)
			}
			for k, m := range row.m {
				if k < degree && (m%2 != 1 || int(m) >= 1<<(k+1)) {
					t.Errorf("dimension %d: m_%d = %d is not odd and below 2^%d", next+2, k+1, m, k+1)
				}
				if k >= degree && m != 0 {
					t.Errorf("dimension %d: m_%d = %d beyond the degree", next+2, k+1, m)
				}
			}
			next++
		}
	}
}

// isPrimitive reports whether x^s + a_1 x^{s-1} + ... + a_{s-1} x + 1 (a's
// bits, most significant first) is primitive: x has order 2^s - 1 modulo it.
func isPrimitive(s, a int) bool {
	p := 1<<s | a<<1 | 1
	period := 1<<s - 1
	r := 1
	for i := 1; i <= period; i++ {
		r <<= 1
		if r>>s&1 == 1 {
			r ^= p
		}
		if r == 1 {
			return i == period
		}
	}
	return false
}

// TestDirectionNumbersMatchBratleyFox compares the scaled recurrence of
// directionNumbers with the integer form of Bratley & Fox (1988):
// m_k = 2a_1 m_{k-1} ^ 4a_2 m_{k-2} ^ ... ^ 2^s m_{k-s} ^ m_{k-s}, V_k = m_k / 2^k.
func TestDirectionNumbersMatchBratleyFox(t *testing.T) {
	for j := 1; j < MaxSobolDim; j++ {
		row := joeKuo[j-1]
		s := int(row.degree)
		m := make([]uint64, sobolBits+1) // m[k] for k = 1..64
		for k := 1; k <= s; k++ {
			m[k] = uint64(row.m[k-1])
		}
		for k := s + 1; k <= sobolBits; k++ {
			mk := m[k-s]<<s ^ m[k-s]
			for i := 1; i < s; i++ {
				if row.poly>>(s-1-i)&1 == 1 {
					mk ^= m[k-i] << i
				}
			}
			m[k] = mk
		}
		var v [sobolBits]uint64
		directionNumbers(j, &v)
		for k := 1; k <= sobolBits; k++ {
			if want := m[k] << (sobolBits - k); v[k-1] != want {
				t.Fatalf("dimension %d: V_%d = %#x, want %#x", j+1, k, v[k-1], want)
			}
		}
	}
}

func TestSobolFirstPoints(t *testing.T) {
	tests := []struct {
		dim  int
		want [][]float64
	}{
		{2, [][]float64{{0, 0}, {0.5, 0.5}, {0.75, 0.25}, {0.25, 0.75}, {0.375, 0.375}, {0.875, 0.875}, {0.625, 0.125}, {0.125, 0.625}}},
		{5, [][]float64{
			{0, 0, 0, 0, 0},
			{0.5, 0.5, 0.5, 0.5, 0.5},
			{0.75, 0.25, 0.25, 0.25, 0.75},
			{0.25, 0.75, 0.75, 0.75, 0.25},
			{0.375, 0.375, 0.625, 0.875, 0.375},
			{0.875, 0.875, 0.125, 0.375, 0.875},
			{0.625, 0.125, 0.875, 0.625, 0.625},
			{0.125, 0.625, 0.375, 0.125, 0.125},
		}},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("d=%d", tc.dim), func(t *testing.T) {
			s, err := NewSobol(tc.dim, 0)
			if err != nil {
				t.Fatal(err)
			}
			got := make([]float64, tc.dim)
			for i, want := range tc.want {
				s.Next(got)
				for j := range want {
					if got[j] != want[j] {
						t.Fatalf("point %d = %v, want %v", i, got, want)
					}
				}
			}
		})
	}
}

// TestSobolMatchesGrayCodeFormula checks the streaming generator against the
// closed form: point i is the XOR of the V_k selected by the bits of the Gray
// code i ^ (i >> 1).
func TestSobolMatchesGrayCodeFormula(t *testing.T) {
	const dim, n = 40, 3000
	for _, seed := range []uint64{0, 7} {
		s, err := NewSobol(dim, seed)
		if err != nil {
			t.Fatal(err)
		}
		v := make([][sobolBits]uint64, dim)
		for j := range v {
			directionNumbers(j, &v[j])
		}
		got := make([]float64, dim)
		for i := range uint64(n) {
			s.Next(got)
			gray := i ^ i>>1
			for j := range dim {
				x := s.shift[j]
				for g := gray; g != 0; g &= g - 1 {
					x ^= v[j][bits.TrailingZeros64(g)]
				}
				if want := unitFloat(x); got[j] != want {
					t.Fatalf("seed %d point %d dim %d = %v, want %v", seed, i, j, got[j], want)
				}
			}
		}
	}
}

// sobolPoints returns the first n points of the dim-dimensional sequence.
func sobolPoints(t *testing.T, n, dim int, seed uint64) []float64 {
	t.Helper()
	pts := make([]float64, n*dim)
	if err := SobolDesign(n, dim, seed, pts); err != nil {
		t.Fatal(err)
	}
	return pts
}

// TestSobolOneDimensionalNets: in every dimension the first 2^k points put one
// point in each interval [i/2^k, (i+1)/2^k), with or without the digital shift.
func TestSobolOneDimensionalNets(t *testing.T) {
	const maxK = 10
	for _, seed := range []uint64{0, 12345} {
		pts := sobolPoints(t, 1<<maxK, MaxSobolDim, seed)
		for j := range MaxSobolDim {
			for k := range maxK + 1 {
				seen := make([]bool, 1<<k)
				for i := range 1 << k {
					cell := int(pts[i*MaxSobolDim+j] * float64(int(1)<<k))
					if seen[cell] {
						t.Fatalf("seed %d dim %d: first 2^%d points put two in cell %d", seed, j+1, k, cell)
					}
					seen[cell] = true
				}
			}
		}
	}
}

// TestSobolFirstTwoDimensionsFormZeroNets: dimensions 1 and 2 form a
// (0, 2)-sequence, so the first 2^k points put one point in every 2^a × 2^b
// box with a + b = k.
func TestSobolFirstTwoDimensionsFormZeroNets(t *testing.T) {
	const maxK = 12
	for _, seed := range []uint64{0, 99} {
		pts := sobolPoints(t, 1<<maxK, 2, seed)
		for k := 1; k <= maxK; k++ {
			for a := 0; a <= k; a++ {
				b := k - a
				seen := make([]bool, 1<<k)
				for i := range 1 << k {
					cell := int(pts[2*i]*float64(int(1)<<a))<<b | int(pts[2*i+1]*float64(int(1)<<b))
					if seen[cell] {
						t.Fatalf("seed %d, 2^%d points, %d×%d grid: two points in one box", seed, k, 1<<a, 1<<b)
					}
					seen[cell] = true
				}
			}
		}
	}
}

// TestSobolPropertyA checks Sobol's Property A, which Joe and Kuo report for
// their table up to dimension 1111: the first 2^d points of the d-dimensional
// sequence put one point in each of the 2^d orthants of the cube halved along
// every axis. Small d is checked on the points themselves; for every d it is
// equivalent to the d×d GF(2) matrix of the leading digits of V_1..V_d being
// non-singular.
func TestSobolPropertyA(t *testing.T) {
	for d := 1; d <= 14; d++ {
		pts := sobolPoints(t, 1<<d, d, 0)
		seen := make([]bool, 1<<d)
		for i := range 1 << d {
			cell := 0
			for j := range d {
				cell = cell<<1 | int(2*pts[i*d+j])
			}
			if seen[cell] {
				t.Fatalf("d=%d: the first 2^%d points put two points in orthant %b", d, d, cell)
			}
			seen[cell] = true
		}
	}
	var v [sobolBits]uint64
	for j := range MaxSobolDim {
		directionNumbers(j, &v)
		for k, digit := range leadingDigits(j, sobolBits) {
			if digit != v[k]>>(sobolBits-1) {
				t.Fatalf("dimension %d: leading digit of V_%d disagrees with the generator", j+1, k+1)
			}
		}
	}
	dims := []int{}
	for d := 1; d <= 64; d++ {
		dims = append(dims, d)
	}
	dims = append(dims, 100, 128, 256, 500, 512, 1000, 1024)
	for _, d := range dims {
		if !leadingDigitsNonSingular(d) {
			t.Errorf("Property A fails in dimension %d", d)
		}
	}
}

// leadingDigitsNonSingular reports whether the d×d matrix over GF(2) whose
// row j holds the first binary digits of V_1..V_d of dimension j is invertible.
func leadingDigitsNonSingular(d int) bool {
	words := (d + 63) / 64
	rows := make([][]uint64, d)
	for j := range d {
		rows[j] = make([]uint64, words)
		for k, digit := range leadingDigits(j, d) {
			rows[j][k/64] |= digit << (k % 64)
		}
	}
	for col := range d {
		pivot := -1
		for r := col; r < d; r++ {
			if rows[r][col/64]>>(col%64)&1 == 1 {
				pivot = r
				break
			}
		}
		if pivot < 0 {
			return false
		}
		rows[col], rows[pivot] = rows[pivot], rows[col]
		for r := range d {
			if r != col && rows[r][col/64]>>(col%64)&1 == 1 {
				for w := range words {
					rows[r][w] ^= rows[col][w]
				}
			}
		}
	}
	return true
}

// leadingDigits returns the first binary digits of V_1..V_n of dimension j
// (0-based), for any n (the 64-bit generator only holds V_1..V_64). V_k =
// m_k / 2^k has first digit bit k-1 of m_k; beyond the degree the direction
// recurrence is linear and V_{k-s} >> s has a zero first digit, so the first
// digits obey f_k = a_1 f_{k-1} ^ ... ^ a_{s-1} f_{k-s+1} ^ f_{k-s}.
func leadingDigits(j, n int) []uint64 {
	f := make([]uint64, n)
	if j == 0 {
		f[0] = 1 // van der Corput: V_k = 2^-k
		return f
	}
	row := joeKuo[j-1]
	s := int(row.degree)
	for k := range min(s, n) {
		f[k] = uint64(row.m[k]) >> k & 1
	}
	for k := s; k < n; k++ {
		digit := f[k-s]
		for i := 1; i < s; i++ {
			if row.poly>>(s-1-i)&1 == 1 {
				digit ^= f[k-i]
			}
		}
		f[k] = digit
	}
	return f
}

func TestSobolSeeds(t *testing.T) {
	const n, dim = 64, 6
	plain := sobolPoints(t, n, dim, 0)
	a := sobolPoints(t, n, dim, 42)
	b := sobolPoints(t, n, dim, 42)
	c := sobolPoints(t, n, dim, 43)
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("seed 42 not deterministic at %d: %v vs %v", i, a[i], b[i])
		}
		if a[i] < 0 || a[i] >= 1 {
			t.Fatalf("value %v outside [0, 1)", a[i])
		}
	}
	if same(a, plain) || same(a, c) {
		t.Fatal("different seeds gave the same points")
	}
	// Seed 0 shifts the design too: it does not start at the origin.
	if origin := plain[:dim]; slices.Equal(origin, make([]float64, dim)) {
		t.Fatal("seed 0 gave the unshifted design, starting at the origin")
	}
	// Reset replays the same shifted sequence.
	s, err := NewSobol(dim, 42)
	if err != nil {
		t.Fatal(err)
	}
	got := make([]float64, dim)
	for range 10 {
		s.Next(got)
	}
	s.Reset(42)
	s.Next(got)
	if !same(got, a[:dim]) {
		t.Fatalf("after Reset: %v, want %v", got, a[:dim])
	}
}

func same(a, b []float64) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestSobolErrors(t *testing.T) {
	for _, dim := range []int{0, -1, MaxSobolDim + 1} {
		if _, err := NewSobol(dim, 0); err == nil {
			t.Errorf("NewSobol(%d) succeeded", dim)
		}
	}
	tests := []struct {
		n, dim, len int
	}{
		{-1, 2, 10}, {3, 0, 10}, {3, 2, 5}, {2, MaxSobolDim + 1, 4000},
	}
	for _, tc := range tests {
		if err := SobolDesign(tc.n, tc.dim, 0, make([]float64, tc.len)); err == nil {
			t.Errorf("SobolDesign(%d, %d, out[%d]) succeeded", tc.n, tc.dim, tc.len)
		}
	}
}

func TestSobolNextDoesNotAllocate(t *testing.T) {
	s, err := NewSobol(8, 3)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float64, 8)
	if n := testing.AllocsPerRun(1000, func() { s.Next(out) }); n != 0 {
		t.Errorf("Next: %v allocations", n)
	}
	if n := testing.AllocsPerRun(100, func() { s.Reset(11) }); n != 0 {
		t.Errorf("Reset: %v allocations", n)
	}
}

func BenchmarkSobolNext(b *testing.B) {
	for _, dim := range []int{4, 64} {
		b.Run(fmt.Sprintf("d=%d", dim), func(b *testing.B) {
			s, err := NewSobol(dim, 1)
			if err != nil {
				b.Fatal(err)
			}
			out := make([]float64, dim)
			b.ReportAllocs()
			for b.Loop() {
				s.Next(out)
			}
		})
	}
}
