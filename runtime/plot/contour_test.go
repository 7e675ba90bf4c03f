package plot

import (
	"math"
	"testing"
)

// TestCellSegments: the level line through one cell, straight across, at a
// saddle, and where the level misses the cell.
func TestCellSegments(t *testing.T) {
	m := func(z00, z01, z10, z11 float64) *Map {
		return &Map{X: []float64{0, 1}, Y: []float64{0, 1}, Z: [][]float64{{z00, z01}, {z10, z11}}}
	}
	for _, tc := range []struct {
		name  string
		m     *Map
		level float64
		want  [][2]xy
	}{
		{"across", m(0, 1, 0, 1), 0.5, [][2]xy{{{0.5, 0}, {0.5, 1}}}},
		{"saddle, high centre", m(1, 0, 0, 1), 0.4, [][2]xy{{{0.6, 0}, {1, 0.4}}, {{0.4, 1}, {0, 0.6}}}},
		{"saddle, low centre", m(1, 0, 0, 1), 0.6, [][2]xy{{{0, 0.4}, {0.4, 0}}, {{1, 0.6}, {0.6, 1}}}},
		{"missed", m(0, 1, 0, 1), 2, nil},
	} {
		got := cellSegments(tc.m, 0, 0, tc.level)
		ok := len(got) == len(tc.want)
		for i := 0; ok && i < len(got); i++ {
			for e := range 2 {
				ok = ok && math.Abs(got[i][e].X-tc.want[i][e].X) < 1e-12 && math.Abs(got[i][e].Y-tc.want[i][e].Y) < 1e-12
			}
		}
		if !ok {
			t.Errorf("%s: segments %v, want %v", tc.name, got, tc.want)
		}
	}
}
