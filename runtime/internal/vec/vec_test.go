package vec

import "testing"

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
