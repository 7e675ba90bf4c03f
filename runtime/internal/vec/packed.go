package vec

// Triangular solves with a lower-triangular matrix L stored packed by rows:
// row i holds L_i0 … L_ii at offset PackedRow(i).

// PackedRow is the offset of row i in a packed lower triangle.
func PackedRow(i int) int { return i * (i + 1) / 2 }

// SolveLower overwrites x[:n] with L⁻¹x, L the leading n×n block of l.
func SolveLower(l []float64, n int, x []float64) {
	for i := range n {
		start := PackedRow(i)
		x[i] = (x[i] - Dot(l[start:start+i], x[:i])) / l[start+i]
	}
}

// SolveLowerT overwrites x[:n] with L⁻ᵀx: row i of L is column i of Lᵀ, so
// each step subtracts a multiple of a contiguous row.
func SolveLowerT(l []float64, n int, x []float64) {
	for i := n - 1; i >= 0; i-- {
		start := PackedRow(i)
		x[i] /= l[start+i]
		Axpy(-x[i], l[start:start+i], x[:i])
	}
}
