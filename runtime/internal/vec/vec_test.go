package vec

import (
	"math"
	"testing"
)

func TestDotAxpy(t *testing.T) {
	for n := 0; n <= 9; n++ {
		x, y := make([]float64, n), make([]float64, n+2) // y may be longer
		want := 0.0
		for i := range x {
			x[i] = float64(i + 1)
			y[i] = float64(2*i - 3)
			want += x[i] * y[i]
		}
		if got := Dot(x, y); got != want {
			t.Errorf("n=%d: Dot = %g, want %g", n, got, want)
		}
		Axpy(0.5, x, y)
		for i := range x {
			if w := float64(2*i-3) + 0.5*float64(i+1); y[i] != w {
				t.Errorf("n=%d: Axpy y[%d] = %g, want %g", n, i, y[i], w)
			}
		}
		if y[n] != 0 || y[n+1] != 0 {
			t.Errorf("n=%d: Axpy wrote past len(x)", n)
		}
	}
}

// TestSolveLower multiplies the solutions back by L and Lᵀ.
func TestSolveLower(t *testing.T) {
	const n = 7
	l := make([]float64, PackedRow(n))
	for i := range n {
		for j := range i + 1 {
			l[PackedRow(i)+j] = 0.3 * float64((i*5+j*3)%7-3)
		}
		l[PackedRow(i)+i] = 1 + 0.25*float64(i)
	}
	at := func(i, j int) float64 { return l[PackedRow(i)+j] }
	b := []float64{1, -2, 0.5, 3, -1, 2, 0.25}
	x := append([]float64(nil), b...)
	SolveLower(l, n, x)
	y := append([]float64(nil), b...)
	SolveLowerT(l, n, y)
	for i := range n {
		lx, lty := 0.0, 0.0
		for j := range n {
			if j <= i {
				lx += at(i, j) * x[j]
			}
			if j >= i {
				lty += at(j, i) * y[j]
			}
		}
		if math.Abs(lx-b[i]) > 1e-12 || math.Abs(lty-b[i]) > 1e-12 {
			t.Errorf("row %d: (L·L⁻¹b) = %v, (Lᵀ·L⁻ᵀb) = %v, want %v", i, lx, lty, b[i])
		}
	}
}
