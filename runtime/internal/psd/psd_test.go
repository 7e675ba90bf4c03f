package psd

import (
	"math"
	"testing"
)

func TestFactor(t *testing.T) {
	cases := []struct {
		name string
		a    []float64
		ok   bool
	}{
		{"definite", []float64{4, 2, 2, 3}, true},
		{"a direction without variance", []float64{0.01, 0, 0.002, 0, 0, 0, 0.002, 0, 0.02}, true},
		{"zero", []float64{0, 0, 0, 0}, true},
		{"indefinite", []float64{1, 2, 2, 1}, false},
		{"NaN", []float64{math.NaN(), 0, 0, 1}, false},
	}
	for _, c := range cases {
		d := int(math.Sqrt(float64(len(c.a))))
		l := make([]float64, d*d)
		ok := Factor(c.a, 2, l, d)
		if ok != c.ok {
			t.Errorf("%s: ok = %v, want %v", c.name, ok, c.ok)
			continue
		}
		if !ok {
			continue
		}
		for i := range d {
			for j := range d {
				s := 0.0
				for k := range d {
					s += l[i*d+k] * l[j*d+k]
				}
				if math.Abs(s-2*c.a[i*d+j]) > 1e-14 {
					t.Errorf("%s: (L Lᵀ)[%d][%d] = %v, want %v", c.name, i, j, s, 2*c.a[i*d+j])
				}
				if j > i && l[i*d+j] != 0 {
					t.Errorf("%s: L is not lower triangular", c.name)
				}
			}
		}
	}
	l := make([]float64, 4)
	if a := testing.AllocsPerRun(10, func() { Factor([]float64{4, 2, 2, 3}, 1, l, 2) }); a != 0 {
		t.Errorf("%v allocations", a)
	}
}
