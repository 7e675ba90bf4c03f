// Package vec holds the dense vector kernels the runtime's linear algebra is
// built on, unrolled by four so that independent additions pipeline, and
// blocks of dot products (Dots4x3, Dots8x3) that run on AVX-512 or AVX2/FMA
// where the CPU has them, with the same bits as their portable loops. They
// allocate nothing.
package vec

// Dot returns xᵀy for len(y) >= len(x).
func Dot(x, y []float64) float64 {
	y = y[:len(x)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s0 += x[i] * y[i]
		s1 += x[i+1] * y[i+1]
		s2 += x[i+2] * y[i+2]
		s3 += x[i+3] * y[i+3]
	}
	for ; i < len(x); i++ {
		s0 += x[i] * y[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// Axpy sets y += a·x for len(y) >= len(x).
func Axpy(a float64, x, y []float64) {
	y = y[:len(x)]
	i := 0
	for ; i+4 <= len(x); i += 4 {
		y[i] += a * x[i]
		y[i+1] += a * x[i+1]
		y[i+2] += a * x[i+2]
		y[i+3] += a * x[i+3]
	}
	for ; i < len(x); i++ {
		y[i] += a * x[i]
	}
}
