package dsl

import "testing"

func TestTypeAndValueStrings(t *testing.T) {
	tests := []struct {
		got, want string
	}{
		{VecOf(3).String(), "vec[3]"},
		{MatOf(2, 4).String(), "mat[2,4]"},
		{DistOf(1).String(), "dist[1]"},
		{KernelType.String(), "kernel"},
		{RealValue(0.25).String(), "0.25"},
		{IntValue(7).String(), "7"},
		{Value{Type: VecOf(2), Numbers: []float64{1, 2.5}}.String(), "[1, 2.5]"},
		{Value{Type: MatOf(2, 2), Numbers: []float64{1, 0, 0, 1}}.String(), "[[1, 0], [0, 1]]"},
		{Value{Type: StringType, Text: `a"b`}.String(), `"a\"b"`},
		{Value{Type: BoolType, Truth: true}.String(), "true"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
	m := Value{Type: MatOf(2, 3), Numbers: []float64{1, 2, 3, 4, 5, 6}}
	if m.At(1, 2) != 6 || m.At(0, 1) != 2 {
		t.Errorf("At reads the wrong element of a row-major matrix")
	}
}
