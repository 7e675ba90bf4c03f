package plot

import (
	"image/color"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// A map's level lines, by marching squares. gonum/plot's Contour joins its
// segments into paths through Go maps, whose order varies from run to run,
// and so would the SVG; these lines are drawn in the grid's order, each
// level's segments as one path.

// levelLines draws the level lines of a map's values at levels.
type levelLines struct {
	m      *Map
	levels []float64
}

// levelStyle draws level lines: thin, translucent black, which shows on
// every colour of the palette without hiding it.
var levelStyle = draw.LineStyle{Color: color.NRGBA{0, 0, 0, 0x70}, Width: vg.Points(0.5)}

func (l levelLines) Plot(c draw.Canvas, plt *gplot.Plot) {
	trX, trY := plt.Transforms(&c)
	m := l.m
	c.SetLineStyle(levelStyle)
	for _, level := range l.levels {
		var path vg.Path
		for i := 0; i+1 < len(m.Y); i++ {
			for j := 0; j+1 < len(m.X); j++ {
				for _, s := range cellSegments(m, i, j, level) {
					path.Move(vg.Point{X: trX(s[0].X), Y: trY(s[0].Y)})
					path.Line(vg.Point{X: trX(s[1].X), Y: trY(s[1].Y)})
				}
			}
		}
		if len(path) > 0 {
			c.Stroke(path)
		}
	}
}

// xy is a point in the map's coordinates.
type xy struct{ X, Y float64 }

// cellSegments are the segments of the level line through the cell whose
// lower left corner is grid point (X[j], Y[i]): where the line crosses the
// cell's edges, found by linear interpolation along them, paired; at a
// saddle, where it crosses all four, the value at the centre (the corners'
// mean) says which corners the line cuts off.
func cellSegments(m *Map, i, j int, level float64) [][2]xy {
	corners := [4]xy{{m.X[j], m.Y[i]}, {m.X[j+1], m.Y[i]}, {m.X[j+1], m.Y[i+1]}, {m.X[j], m.Y[i+1]}}
	z := [4]float64{m.Z[i][j], m.Z[i][j+1], m.Z[i+1][j+1], m.Z[i+1][j]}
	// The crossings on the edges from corner k to corner k+1: bottom,
	// right, top, left.
	var at [4]xy
	var crosses [4]bool
	n := 0
	for k := range 4 {
		a, b := k, (k+1)%4
		if (z[a] < level) == (z[b] < level) {
			continue
		}
		t := (level - z[a]) / (z[b] - z[a])
		at[k] = xy{corners[a].X + t*(corners[b].X-corners[a].X), corners[a].Y + t*(corners[b].Y-corners[a].Y)}
		crosses[k] = true
		n++
	}
	switch n {
	case 2:
		var ends []xy
		for k := range 4 {
			if crosses[k] {
				ends = append(ends, at[k])
			}
		}
		return [][2]xy{{ends[0], ends[1]}}
	case 4:
		centre := (z[0] + z[1] + z[2] + z[3]) / 4
		if (centre < level) == (z[0] < level) {
			// Corners 0 and 2 join through the centre: the line cuts off
			// corner 1 (between bottom and right) and corner 3.
			return [][2]xy{{at[0], at[1]}, {at[2], at[3]}}
		}
		return [][2]xy{{at[3], at[0]}, {at[1], at[2]}}
	}
	return nil
}
