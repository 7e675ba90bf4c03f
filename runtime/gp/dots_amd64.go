//go:build !purego

package gp

// useFMA selects the AVX2/FMA kernels for the batch solve's dot products;
// the portable loops run where the CPU lacks them. Tests switch it off to
// check the portable path.
var useFMA = hasAVX2AndFMA()

// hasAVX2AndFMA reports whether the CPU has AVX2 and FMA and the operating
// system saves the YMM registers. (The runtime may import only the standard
// library and gonum, so it asks CPUID itself rather than through x/sys/cpu.)
func hasAVX2AndFMA() bool {
	const (
		fma     = 1 << 12 // CPUID.1:ECX
		osxsave = 1 << 27 // CPUID.1:ECX
		avx     = 1 << 28 // CPUID.1:ECX
		avx2    = 1 << 5  // CPUID.(7,0):EBX
		ymmSave = 0b110   // XCR0: the OS saves the XMM and YMM state
	)
	if maxLeaf, _, _, _ := cpuid(0, 0); maxLeaf < 7 {
		return false
	}
	_, _, ecx, _ := cpuid(1, 0)
	if ecx&(fma|osxsave|avx) != fma|osxsave|avx {
		return false
	}
	if xcr0, _ := xgetbv0(); xcr0&ymmSave != ymmSave {
		return false
	}
	_, ebx, _, _ := cpuid(7, 0)
	return ebx&avx2 != 0
}

// cpuid executes CPUID for the leaf and subleaf.
func cpuid(leaf, subleaf uint32) (eax, ebx, ecx, edx uint32)

// xgetbv0 reads XCR0. Call it only when CPUID reports OSXSAVE.
func xgetbv0() (eax, edx uint32)

// dots2x3FMA writes the dot products of a0 and a1 with p0, p1 and p2 over
// n elements (n a multiple of 4), in the order of dots2x3's results, to out.
// Each is summed in four lanes, reduced as (l0 + l2) + (l1 + l3).
//
//go:noescape
func dots2x3FMA(a0, a1, p0, p1, p2 *float64, n int, out *[6]float64)

// dots2x1FMA is dots2x3FMA for one point, with the same arithmetic.
//
//go:noescape
func dots2x1FMA(a0, a1, p *float64, n int, out *[2]float64)

// dots2x3Head computes dots2x3's sums over the longest prefix whose length
// is a multiple of four with the vector kernel, if the CPU has one, and
// returns that length (0 without one).
func dots2x3Head(a0, a1, p0, p1, p2 []float64, out *[6]float64) int {
	n := len(a0) &^ 3
	if !useFMA || n == 0 {
		return 0
	}
	_, _, _, _ = a1[n-1], p0[n-1], p1[n-1], p2[n-1]
	dots2x3FMA(&a0[0], &a1[0], &p0[0], &p1[0], &p2[0], n, out)
	return n
}

// dots2x1Head is dots2x3Head for one point.
func dots2x1Head(a0, a1, p []float64, out *[2]float64) int {
	n := len(a0) &^ 3
	if !useFMA || n == 0 {
		return 0
	}
	_, _ = a1[n-1], p[n-1]
	dots2x1FMA(&a0[0], &a1[0], &p[0], n, out)
	return n
}
