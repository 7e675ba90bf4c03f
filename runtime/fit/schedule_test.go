package fit

import "testing"

func TestDue(t *testing.T) {
	tests := []struct {
		n, design, fitted int
		want              bool
	}{
		{1, 1, 0, false}, // one point says nothing about a lengthscale
		{2, 1, 0, true},
		{5, 6, 0, false}, // the design is not observed yet
		{6, 6, 0, true},
		{7, 6, 6, false}, // 7 < 1.2 × 6
		{8, 6, 6, true},
		{100, 6, 84, false},
		{101, 6, 84, true},
	}
	for _, tt := range tests {
		if got := Due(tt.n, tt.design, tt.fitted); got != tt.want {
			t.Errorf("Due(%d, %d, %d) = %v, want %v", tt.n, tt.design, tt.fitted, got, tt.want)
		}
	}
}
