package plot

import (
	"image/color"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// Categorical axes. A chart or map whose x (or y) stands for the levels of a
// choice takes their names: level k is drawn at k, the axis's ticks are the
// names, and its range leaves half a level either side. A chart's lines over
// categories are drawn as strips, one per level (its value as a short
// horizontal bar, its band as a vertical bar), never joined: levels have no
// order to join them in.

// categoryTicks labels the positions 0, 1, ... with names.
type categoryTicks []string

func (c categoryTicks) Ticks(lo, hi float64) []gplot.Tick {
	var ticks []gplot.Tick
	for k, name := range c {
		if x := float64(k); x >= lo && x <= hi {
			ticks = append(ticks, gplot.Tick{Value: x, Label: name})
		}
	}
	return ticks
}

// categoryAxis makes a an axis of the categories names.
func categoryAxis(a *gplot.Axis, names []string) {
	a.Tick.Marker = categoryTicks(names)
	a.Min, a.Max = -0.5, float64(len(names))-0.5
}

// stripHalfWidth is half the width of a strip's bar, in levels.
const stripHalfWidth = 0.2

// addStrips draws line l over categories: per level, its value as a bar
// across the strip and its band, if any, as a pale box; it returns what the
// legend shows of it.
func addStrips(p *gplot.Plot, l Line, colour color.NRGBA, scale func(float64) float64) ([]gplot.Thumbnailer, error) {
	var thumbs []gplot.Thumbnailer
	for k, x := range l.X {
		if len(l.Lower) > 0 {
			lo, hi := scale(l.Lower[k]), scale(l.Upper[k])
			box, err := plotter.NewPolygon(plotter.XYs{{X: x - stripHalfWidth, Y: lo}, {X: x + stripHalfWidth, Y: lo}, {X: x + stripHalfWidth, Y: hi}, {X: x - stripHalfWidth, Y: hi}})
			if err != nil {
				return nil, err
			}
			box.Color = color.NRGBA{colour.R, colour.G, colour.B, bandAlpha}
			box.LineStyle.Width = 0
			p.Add(box)
			if k == 0 {
				thumbs = append(thumbs, box)
			}
		}
		y := scale(l.Y[k])
		bar, err := plotter.NewLine(plotter.XYs{{X: x - stripHalfWidth, Y: y}, {X: x + stripHalfWidth, Y: y}})
		if err != nil {
			return nil, err
		}
		bar.Color, bar.Width = colour, vg.Points(2)
		p.Add(bar)
		if k == 0 {
			thumbs = append(thumbs, bar)
		}
	}
	return thumbs, nil
}
