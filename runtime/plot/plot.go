// Package plot draws charts of lines over a common x axis, each line with a
// filled band around it (a median between its quartiles, say) or without,
// of scattered points and of shaded intervals of x, as SVG or PNG, and heat
// maps with points and paler cells over them, as SVG, with gonum/plot. The fonts are compiled in and nothing depends on the time
// or the machine, so the same chart always gives the same bytes, which
// golden tests compare. The y axis is logarithmic when every value is
// positive, unless the chart asks for a linear one, and its label says so.
// The boc command's study and the emitted programs' report draw with it.
package plot

import (
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"strconv"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// A Chart is what is drawn: a title, the axes' labels, the shaded regions,
// the lines and the points. Linear keeps the y axis linear when every value
// is positive. Categories, when set, name the x axis's levels: x = 0, 1, ...
// (categories.go), and the lines are drawn as a strip per level.
type Chart struct {
	Title, XLabel, YLabel string
	Regions               []Region
	Lines                 []Line
	Points                []Points
	Linear                bool
	Categories            []string
}

// A Line is a named series: Y at X, with a band from Lower to Upper, or
// without one when both are empty. Each has one value per point, every
// value finite. Steps draws it level from each point to the next (a best
// so far, which changes only at its points).
type Line struct {
	Name               string
	X, Y, Lower, Upper []float64
	Steps              bool
}

// Points are a named series of points Y at X, drawn unjoined, one value
// per point, every value finite. Emphasised ones (a recommendation) are
// drawn larger, over every other series.
type Points struct {
	Name     string
	X, Y     []float64
	Emphasis bool
}

// pointRadius is a series' glyph radius.
func pointRadius(ps Points) vg.Length {
	if ps.Emphasis {
		return vg.Points(5)
	}
	return vg.Points(2.5)
}

// drawOrder lists the indices of series, the emphasised ones last, so that
// they are drawn on top.
func drawOrder(series []Points) []int {
	var order, last []int
	for i, ps := range series {
		if ps.Emphasis {
			last = append(last, i)
		} else {
			order = append(order, i)
		}
	}
	return append(order, last...)
}

// The size of a chart, its legend included, and the resolution of PNGs.
const (
	width  = 7 * vg.Inch
	height = 4.5 * vg.Inch
	dpi    = 120
)

// legendGap separates the plot from the legend on its right.
const legendGap = 8 * vg.Millimeter

// colours are Okabe and Ito's palette, which readers with colour-blindness
// tell apart, its light yellow last; lines beyond it are dashed, then dotted.
var colours = []color.NRGBA{
	{0x00, 0x72, 0xb2, 0xff}, // blue
	{0xd5, 0x5e, 0x00, 0xff}, // vermillion
	{0x00, 0x9e, 0x73, 0xff}, // bluish green
	{0xcc, 0x79, 0xa7, 0xff}, // reddish purple
	{0xe6, 0x9f, 0x00, 0xff}, // orange
	{0x56, 0xb4, 0xe9, 0xff}, // sky blue
	{0x00, 0x00, 0x00, 0xff}, // black
	{0xf0, 0xe4, 0x42, 0xff}, // yellow
}
var dashes = [][]vg.Length{nil, {vg.Points(6), vg.Points(3)}, {vg.Points(1.5), vg.Points(2)}}

// bandAlpha is the opacity of a band, low enough to see the bands under it.
const bandAlpha = 0x38

// SVG writes the chart as an SVG document. Its text names the Liberation
// fonts without embedding them (a browser without them uses its own), which
// keeps the file small.
func (c Chart) SVG(w io.Writer) error {
	return c.draw(w, vgsvg.New(width, height))
}

// PNG writes the chart as a PNG image.
func (c Chart) PNG(w io.Writer) error {
	return c.draw(w, vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(width, height), vgimg.UseDPI(dpi))})
}

// draw draws the chart on canvas and writes it to w.
func (c Chart) draw(w io.Writer, canvas vg.CanvasWriterTo) error {
	p, legend, err := c.build()
	if err != nil {
		return err
	}
	return drawBeside(w, canvas, p, legend)
}

// drawBeside draws p on a white canvas with its legend to the right, and
// writes the canvas to w.
func drawBeside(w io.Writer, canvas vg.CanvasWriterTo, p *gplot.Plot, legend gplot.Legend) error {
	dc := draw.New(canvas)
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	box := legend.Rectangle(dc)
	legendWidth := box.Max.X - box.Min.X
	p.Draw(draw.Crop(dc, 0, -legendWidth-legendGap, 0, 0))
	// The legend starts level with the top of the plot, below the title.
	legend.YOffs = -p.Title.TextStyle.Rectangle(p.Title.Text).Size().Y - p.Title.Padding
	legend.Draw(draw.Crop(dc, dc.Max.X-dc.Min.X-legendWidth, 0, 0, 0))
	_, err := canvas.WriteTo(w)
	return err
}

// build makes the plot of the chart and its legend, kept apart so that the
// legend goes beside the plot rather than over the lines.
func (c Chart) build() (*gplot.Plot, gplot.Legend, error) {
	legend := gplot.NewLegend()
	legend.Top, legend.Left = true, true
	legend.Padding = vg.Points(2) // the bands' swatches would touch
	if len(c.Lines) == 0 && len(c.Points) == 0 {
		return nil, legend, errors.New("the chart has no line and no point")
	}
	logScale := !c.Linear
	for _, l := range c.Lines {
		n := len(l.X)
		banded := len(l.Lower) > 0 || len(l.Upper) > 0
		if n == 0 || len(l.Y) != n || banded && (len(l.Lower) != n || len(l.Upper) != n) {
			return nil, legend, fmt.Errorf("line %q: %d x, %d y, %d lower and %d upper values; want as many (or no lower and upper), at least one", l.Name, n, len(l.Y), len(l.Lower), len(l.Upper))
		}
		if err := finite(fmt.Sprintf("line %q", l.Name), l.X, l.Y, l.Lower, l.Upper); err != nil {
			return nil, legend, err
		}
		logScale = logScale && allPositive(l.Y, l.Lower, l.Upper)
	}
	for _, ps := range c.Points {
		if len(ps.X) == 0 || len(ps.Y) != len(ps.X) {
			return nil, legend, fmt.Errorf("points %q: %d x and %d y values; want as many, at least one", ps.Name, len(ps.X), len(ps.Y))
		}
		if err := finite(fmt.Sprintf("points %q", ps.Name), ps.X, ps.Y); err != nil {
			return nil, legend, err
		}
		logScale = logScale && allPositive(ps.Y)
	}
	// A log axis draws log10 of the values on a linear one, whose ticks say
	// what they stand for: gonum/plot's LogScale centres the axis label's
	// room on the arithmetic midpoint, which squeezes the plot.
	scale := func(v float64) float64 { return v }
	p := gplot.New()
	p.Title.Text = c.Title
	p.X.Label.Text = c.XLabel
	p.Y.Label.Text = c.YLabel
	if logScale {
		scale = math.Log10
		p.Y.Tick.Marker = logTicks{}
		p.Y.Label.Text += " (log scale)"
	}
	for _, r := range c.Regions {
		s, err := newShading(r)
		if err != nil {
			return nil, legend, err
		}
		p.Add(s)
		legend.Add(r.Name, s)
	}
	if c.Categories != nil {
		categoryAxis(&p.X, c.Categories)
	}
	for i, l := range c.Lines {
		colour := colours[i%len(colours)]
		if c.Categories != nil {
			thumbs, err := addStrips(p, l, colour, scale)
			if err != nil {
				return nil, legend, fmt.Errorf("line %q: %v", l.Name, err)
			}
			legend.Add(l.Name, thumbs...)
			continue
		}
		var thumbs []gplot.Thumbnailer
		if len(l.Lower) > 0 {
			band, err := plotter.NewPolygon(bandOutline(l, scale))
			if err != nil {
				return nil, legend, fmt.Errorf("line %q: %v", l.Name, err)
			}
			band.Color = color.NRGBA{colour.R, colour.G, colour.B, bandAlpha}
			band.LineStyle.Width = 0
			p.Add(band)
			thumbs = append(thumbs, band)
		}
		line, err := plotter.NewLine(points(l.X, l.Y, scale))
		if err != nil {
			return nil, legend, fmt.Errorf("line %q: %v", l.Name, err)
		}
		line.Color = colour
		line.Width = vg.Points(1.5)
		line.Dashes = dashes[i/len(colours)%len(dashes)]
		if l.Steps {
			line.StepStyle = plotter.PostStep
		}
		p.Add(line)
		legend.Add(l.Name, append(thumbs, line)...)
	}
	// Points take the colours after the lines', and a shape of their own.
	for _, i := range drawOrder(c.Points) {
		ps := c.Points[i]
		scatter, err := plotter.NewScatter(points(ps.X, ps.Y, scale))
		if err != nil {
			return nil, legend, fmt.Errorf("points %q: %v", ps.Name, err)
		}
		scatter.Color = colours[(len(c.Lines)+i)%len(colours)]
		scatter.Shape = shapes[i%len(shapes)]
		scatter.Radius = pointRadius(ps)
		p.Add(scatter)
		legend.Add(ps.Name, scatter)
	}
	return p, legend, nil
}

// shapes mark the series of points.
var shapes = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.TriangleGlyph{}, draw.SquareGlyph{}, draw.CrossGlyph{}}

// finite returns an error naming the series when a value of it is not a
// finite number.
func finite(series string, values ...[]float64) error {
	for _, vs := range values {
		for _, v := range vs {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%s: the value %v is not a finite number", series, v)
			}
		}
	}
	return nil
}

// allPositive reports whether every value is positive.
func allPositive(values ...[]float64) bool {
	for _, vs := range values {
		for _, v := range vs {
			if v <= 0 {
				return false
			}
		}
	}
	return true
}

// points pairs xs with ys, scaled.
func points(xs, ys []float64, scale func(float64) float64) plotter.XYs {
	out := make(plotter.XYs, len(xs))
	for i := range xs {
		out[i] = plotter.XY{X: xs[i], Y: scale(ys[i])}
	}
	return out
}

// bandOutline is the outline of a line's band, scaled: along its upper
// edge, then back along the lower one.
func bandOutline(l Line, scale func(float64) float64) plotter.XYs {
	out := points(l.X, l.Upper, scale)
	for i := len(l.X) - 1; i >= 0; i-- {
		out = append(out, plotter.XY{X: l.X[i], Y: scale(l.Lower[i])})
	}
	return out
}

// logTicks are the ticks of an axis of log10 values, labelled with the
// values: marks at 1, 2, ..., 9 times the powers of ten, labels at the
// powers; a range that holds fewer than three of them gets labels at 2 and 5
// times them too, then at every mark; one with fewer than two marks gets the
// linear ticks of the values, so that every axis carries numbers.
type logTicks struct{}

func (logTicks) Ticks(lo, hi float64) []gplot.Tick {
	var ticks []gplot.Tick
	labels := 0
	for _, labelled := range [][]int{{1}, {1, 2, 5}, {1, 2, 3, 4, 5, 6, 7, 8, 9}} {
		ticks, labels = ticks[:0], 0
		for e := int(math.Floor(lo)); e <= int(math.Ceil(hi)); e++ {
			for m := 1; m <= 9; m++ {
				// Parsing the decimal gives the float nearest to it, which
				// prints as written: 0.3, not 0.30000000000000004.
				v, _ := strconv.ParseFloat(strconv.Itoa(m)+"e"+strconv.Itoa(e), 64)
				t := gplot.Tick{Value: math.Log10(v)}
				if t.Value < lo || t.Value > hi {
					continue
				}
				if slices.Contains(labelled, m) {
					t.Label = strconv.FormatFloat(v, 'g', -1, 64)
					labels++
				}
				ticks = append(ticks, t)
			}
		}
		if labels >= 3 {
			return ticks
		}
	}
	if labels == 2 {
		return ticks
	}
	ticks = ticks[:0]
	for _, t := range (gplot.DefaultTicks{}).Ticks(math.Pow(10, lo), math.Pow(10, hi)) {
		if t.Value > 0 {
			ticks = append(ticks, gplot.Tick{Value: math.Log10(t.Value), Label: t.Label})
		}
	}
	return ticks
}
