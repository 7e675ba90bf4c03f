package plot

import (
	"fmt"
	"image/color"
	"io"
	"strconv"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// A Map is a function of two variables drawn as a heat map, Z[i][j] at
// (X[j], Y[i]) on a grid of increasing X and Y, with points over it (the
// observations, say) and a legend of its colours; level lines mark the
// colours' bounds. Pale, when not nil, marks cells drawn paler.
// XCategories and YCategories, when set, name an axis's levels at 0, 1, ...
// (categories.go).
type Map struct {
	Title, XLabel, YLabel    string
	X, Y                     []float64
	Z                        [][]float64
	Pale                     *Cells
	Points                   []Points
	XCategories, YCategories []string
}

// mapColours is the number of colours a map's values are binned into, few
// enough for a reader to match a colour with the legend.
const mapColours = 10

// mapSize is the size of a map, its legend included: square-ish, so that
// both variables get the same room.
const mapSize = 4.5 * vg.Inch

// SVG writes the map as an SVG document.
func (m Map) SVG(w io.Writer) error {
	p, legend, err := m.build()
	if err != nil {
		return err
	}
	return drawBeside(w, vgsvg.New(mapSize+legendGap+vg.Inch, mapSize), p, legend)
}

// build makes the plot of the map and its legend: a swatch per colour,
// labelled with the range of values it stands for.
func (m Map) build() (*gplot.Plot, gplot.Legend, error) {
	legend := gplot.NewLegend()
	legend.Top, legend.Left = true, true
	if len(m.X) < 2 || len(m.Y) < 2 || len(m.Z) != len(m.Y) {
		return nil, legend, fmt.Errorf("map %q: %d x, %d y and %d rows of values; want at least 2 x and 2 y, a row per y", m.Title, len(m.X), len(m.Y), len(m.Z))
	}
	for i, row := range m.Z {
		if len(row) != len(m.X) {
			return nil, legend, fmt.Errorf("map %q: row %d has %d values for %d x", m.Title, i, len(row), len(m.X))
		}
		if err := finite(fmt.Sprintf("map %q", m.Title), row); err != nil {
			return nil, legend, err
		}
	}
	if err := finite(fmt.Sprintf("map %q", m.Title), m.X, m.Y); err != nil {
		return nil, legend, err
	}
	for _, axis := range [][]float64{m.X, m.Y} {
		for i := 1; i < len(axis); i++ {
			if !(axis[i] > axis[i-1]) {
				return nil, legend, fmt.Errorf("map %q: the grid's coordinates do not increase", m.Title)
			}
		}
	}
	heat := plotter.NewHeatMap(grid{&m}, mapPalette())
	if heat.Min == heat.Max {
		// A constant function still gets a colour.
		heat.Max = heat.Min + 1
	}
	p := gplot.New()
	p.Title.Text = m.Title
	p.X.Label.Text = m.XLabel
	p.Y.Label.Text = m.YLabel
	if m.XCategories != nil {
		categoryAxis(&p.X, m.XCategories)
	}
	if m.YCategories != nil {
		categoryAxis(&p.Y, m.YCategories)
	}
	colours := heat.Palette.Colors()
	lo, step := heat.Min, (heat.Max-heat.Min)/float64(len(colours))
	equalBins(heat)
	p.Add(heat)
	for i := len(colours) - 1; i >= 0; i-- {
		swatch, err := plotter.NewPolygon(plotter.XYs{{}, {X: 1}, {X: 1, Y: 1}})
		if err != nil {
			return nil, legend, err
		}
		swatch.Color, swatch.LineStyle.Width = colours[i], 0
		legend.Add(formatLevel(lo+float64(i)*step)+" to "+formatLevel(lo+float64(i+1)*step), swatch)
	}
	levels := make([]float64, len(colours)-1)
	for i := range levels {
		levels[i] = lo + float64(i+1)*step
	}
	p.Add(levelLines{&m, levels})
	if m.Pale != nil {
		pale, err := newPaleCells(&m)
		if err != nil {
			return nil, legend, err
		}
		p.Add(pale)
		legend.Add(m.Pale.Name, pale)
	}
	for _, i := range drawOrder(m.Points) {
		ps := m.Points[i]
		if len(ps.X) == 0 || len(ps.Y) != len(ps.X) {
			return nil, legend, fmt.Errorf("points %q: %d x and %d y values; want as many, at least one", ps.Name, len(ps.X), len(ps.Y))
		}
		if err := finite(fmt.Sprintf("points %q", ps.Name), ps.X, ps.Y); err != nil {
			return nil, legend, err
		}
		scatter, err := plotter.NewScatter(points(ps.X, ps.Y, func(v float64) float64 { return v }))
		if err != nil {
			return nil, legend, err
		}
		// Black shows on every colour of the palette; shapes tell the
		// series apart.
		scatter.Color = color.Black
		scatter.Shape = shapes[i%len(shapes)]
		scatter.Radius = pointRadius(ps)
		p.Add(scatter)
		legend.Add(ps.Name, scatter)
	}
	return p, legend, nil
}

// equalBins makes the heat map's n colours stand for n equal bins of its
// values from Min to Max, as the legend says. gonum/plot gives a value v
// the colour of index round((v − Min)·(n − 1)/(Max − Min)), whose first and
// last bins are half as wide as the others; the same rule over the range
// shrunk by a twentieth of it at both ends, with the values beyond it
// (underflow, overflow) in the end colours, gives equal bins.
func equalBins(heat *plotter.HeatMap) {
	colours := heat.Palette.Colors()
	n := float64(len(colours))
	width := heat.Max - heat.Min
	heat.Min, heat.Max = heat.Min+width/(2*n), heat.Max-width/(2*n)
	heat.Underflow, heat.Overflow = colours[0], colours[len(colours)-1]
}

// mapPalette is Moreland's smooth blue to red, in mapColours steps.
func mapPalette() palette.Palette {
	cm := moreland.SmoothBlueRed()
	cm.SetMin(0)
	cm.SetMax(1)
	return cm.Palette(mapColours)
}

// grid is a Map as gonum/plot's grid: column c at X[c], row r at Y[r].
type grid struct{ m *Map }

func (g grid) Dims() (c, r int)   { return len(g.m.X), len(g.m.Y) }
func (g grid) Z(c, r int) float64 { return g.m.Z[r][c] }
func (g grid) X(c int) float64    { return g.m.X[c] }
func (g grid) Y(r int) float64    { return g.m.Y[r] }

// formatLevel formats a colour's bound for the legend: three significant
// digits.
func formatLevel(v float64) string { return strconv.FormatFloat(v, 'g', 3, 64) }
