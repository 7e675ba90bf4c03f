package plot

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// bowlMap is a map such as a report draws: a bowl on a 20 × 15 grid with
// three observations and a recommendation over it, and the cells of a disc
// drawn paler.
func bowlMap() Map {
	m := Map{Title: "posterior mean", XLabel: "a", YLabel: "b", Pale: &Cells{Name: "paler"},
		Points: []Points{{Name: "observations", X: []float64{0.1, 0.5, 0.9}, Y: []float64{0.2, 0.7, 0.4}},
			{Name: "recommendation", X: []float64{0.5}, Y: []float64{0.7}}}}
	for j := range 20 {
		m.X = append(m.X, float64(j)/19)
	}
	for i := range 15 {
		y := float64(i) / 14
		m.Y = append(m.Y, y)
		row, pale := make([]float64, len(m.X)), make([]bool, len(m.X))
		for j, x := range m.X {
			row[j] = (x-0.5)*(x-0.5) + (y-0.7)*(y-0.7)
			pale[j] = (x-0.8)*(x-0.8)+(y-0.2)*(y-0.2) < 0.1
		}
		m.Z, m.Pale.In = append(m.Z, row), append(m.Pale.In, pale)
	}
	return m
}

// TestGoldenMap compares the SVG of a fixed map with testdata/map.svg
// (-update rewrites it) and draws it twice to compare.
func TestGoldenMap(t *testing.T) {
	var got, again bytes.Buffer
	if err := bowlMap().SVG(&got); err != nil {
		t.Fatal(err)
	}
	if err := bowlMap().SVG(&again); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), again.Bytes()) {
		t.Error("the same map drawn twice gives different SVGs")
	}
	path := filepath.Join("testdata", "map.svg")
	if *update {
		if err := os.WriteFile(path, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Errorf("the SVG differs from %s (go test ./runtime/plot -update rewrites it)", path)
	}
}

// TestMapErrors: a map that cannot be drawn is an error, never a panic or
// a broken file.
func TestMapErrors(t *testing.T) {
	ragged := bowlMap()
	ragged.Z[3] = ragged.Z[3][1:]
	nan := bowlMap()
	nan.Z[2][2] = math.NaN()
	decreasing := bowlMap()
	decreasing.X[4] = 0
	single := bowlMap()
	single.X, single.Z = single.X[:1], nil
	paleRagged := bowlMap()
	paleRagged.Pale.In[1] = paleRagged.Pale.In[1][2:]
	for _, tc := range []struct {
		name string
		m    Map
		want string
	}{
		{"ragged", ragged, "row 3 has 19 values for 20 x"},
		{"NaN", nan, "the value NaN is not a finite number"},
		{"decreasing", decreasing, "the grid's coordinates do not increase"},
		{"one column", single, "want at least 2 x and 2 y"},
		{"pale ragged", paleRagged, "row 1 of paler has 18 cells for 20 x"},
	} {
		var b bytes.Buffer
		err := tc.m.SVG(&b)
		if err == nil || !strings.Contains(err.Error(), tc.want) || b.Len() != 0 {
			t.Errorf("%s: error %v after %d bytes, want one containing %q and none", tc.name, err, b.Len(), tc.want)
		}
	}
}

// TestMapBins: a map's colours stand for equal bins of its values, as its
// legend says: a value in the first tenth of the range takes the first
// colour, as the minimum does.
func TestMapBins(t *testing.T) {
	m := Map{Title: "bins", X: []float64{0, 1}, Y: []float64{0, 1}, Z: [][]float64{{0, 0.07}, {0.5, 1}}}
	var b bytes.Buffer
	if err := m.SVG(&b); err != nil {
		t.Fatal(err)
	}
	// The cells come first after the white background, column by column:
	// 0, 0.5, 0.07, 1.
	var cells []string
	for _, f := range regexp.MustCompile(`fill:#[0-9A-F]{6}`).FindAllString(b.String(), -1) {
		if f != "fill:#FFFFFF" {
			cells = append(cells, f)
		}
	}
	if len(cells) < 4 || cells[0] != cells[2] || cells[0] == cells[1] || cells[1] == cells[3] {
		t.Errorf("the cells of 0, 0.5, 0.07 and 1 are filled %v; want the first and third alike, the others apart", cells[:min(4, len(cells))])
	}
}
