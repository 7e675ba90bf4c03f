package plot

import (
	"fmt"
	"image/color"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Parts of a chart or a map set apart by shading (where a constraint is
// estimated safe, say): a chart's intervals of x, over its full height, and
// a map's cells, drawn paler.

// A Region is a named set of intervals of a chart's x axis, each [From, To]
// with From ≤ To, shaded over the chart's full height under its lines.
type Region struct {
	Name      string
	Intervals [][2]float64
}

// Cells mark cells of a map, In[i][j] for the cell of Z[i][j]; they are
// drawn paler, and Name says what they are.
type Cells struct {
	Name string
	In   [][]bool
}

// regionColour shades a region: bluish green, light enough for the lines
// over it.
var regionColour = color.NRGBA{0x00, 0x9e, 0x73, 0x30}

// paleColour greys a map's marked cells, over the heat map.
var paleColour = color.NRGBA{0x70, 0x70, 0x70, 0xa0}

// shading draws a Region over a chart's full height.
type shading struct{ r Region }

func newShading(r Region) (shading, error) {
	for _, iv := range r.Intervals {
		if err := finite(fmt.Sprintf("region %q", r.Name), iv[:]); err != nil {
			return shading{}, err
		}
		if iv[0] > iv[1] {
			return shading{}, fmt.Errorf("region %q: the interval [%v, %v] ends before it starts", r.Name, iv[0], iv[1])
		}
	}
	return shading{r}, nil
}

func (s shading) Plot(c draw.Canvas, p *gplot.Plot) {
	trX, _ := p.Transforms(&c)
	for _, iv := range s.r.Intervals {
		from, to := trX(iv[0]), trX(iv[1])
		c.FillPolygon(regionColour, c.ClipPolygonX(rect(from, c.Min.Y, to, c.Max.Y)))
	}
}

func (shading) Thumbnail(c *draw.Canvas) { c.FillPolygon(regionColour, swatch(c)) }

// paleCells draws a map's marked cells paler.
type paleCells struct {
	cells  Cells
	xs, ys []float64 // the cells' edges
}

func newPaleCells(m *Map) (paleCells, error) {
	if len(m.Pale.In) != len(m.Y) {
		return paleCells{}, fmt.Errorf("map %q: %d rows of %s for %d y", m.Title, len(m.Pale.In), m.Pale.Name, len(m.Y))
	}
	for i, row := range m.Pale.In {
		if len(row) != len(m.X) {
			return paleCells{}, fmt.Errorf("map %q: row %d of %s has %d cells for %d x", m.Title, i, m.Pale.Name, len(row), len(m.X))
		}
	}
	return paleCells{*m.Pale, edges(m.X), edges(m.Y)}, nil
}

func (p paleCells) Plot(c draw.Canvas, plt *gplot.Plot) {
	trX, trY := plt.Transforms(&c)
	for i, row := range p.cells.In {
		// A run of marked cells in a row is one rectangle.
		for j := 0; j < len(row); j++ {
			if !row[j] {
				continue
			}
			k := j
			for k+1 < len(row) && row[k+1] {
				k++
			}
			c.FillPolygon(paleColour, rect(trX(p.xs[j]), trY(p.ys[i]), trX(p.xs[k+1]), trY(p.ys[i+1])))
			j = k
		}
	}
}

func (paleCells) Thumbnail(c *draw.Canvas) { c.FillPolygon(paleColour, swatch(c)) }

// swatch is the outline of a legend's thumbnail.
func swatch(c *draw.Canvas) []vg.Point { return rect(c.Min.X, c.Min.Y, c.Max.X, c.Max.Y) }

// rect is the outline of the rectangle with corners (x0, y0) and (x1, y1).
func rect(x0, y0, x1, y1 vg.Length) []vg.Point {
	return []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
}

// edges are the edges of the cells centred on the grid's coordinates, as
// gonum/plot's heat map draws them: halfway between neighbours, and as far
// out at the ends.
func edges(axis []float64) []float64 {
	n := len(axis)
	out := make([]float64, n+1)
	out[0], out[n] = axis[0]-(axis[1]-axis[0])/2, axis[n-1]+(axis[n-1]-axis[n-2])/2
	for i := 1; i < n; i++ {
		out[i] = (axis[i-1] + axis[i]) / 2
	}
	return out
}
