//go:build !purego

package kernel

// distances1AVX2 writes (a − p_j)²·inv to out[j] for j < n, n a multiple
// of 4: Block.squaredDistances' one-dimensional loop, with the same two
// rounded products, four values at a time.
//
//go:noescape
func distances1AVX2(a, inv float64, p *float64, out *float64, n int)

// distances1Vector does distances1AVX2's work on the longest prefix of out
// whose length is a multiple of 4 and returns that length (0 without the
// vector kernels).
func distances1Vector(a, inv float64, points, out []float64) int {
	n := len(out) &^ 3
	if !useVector || n == 0 {
		return 0
	}
	_ = points[n-1]
	distances1AVX2(a, inv, &points[0], &out[0], n)
	return n
}
