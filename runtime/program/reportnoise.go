package program

import (
	"fmt"
	"html/template"
	"math"

	"github.com/bocdev/boc/runtime/command"
	"github.com/bocdev/boc/runtime/plot"
)

// The report's drawing of the input noise: the density of each noisy
// component's draws at the recommendation.

// Draws of the input noise that the report's densities count, and the bins
// they are counted in.
const (
	noiseDraws = 2000
	noiseBins  = 30
)

// drawNoise draws the input noise at the recommendation rec into page, or
// says there why it does not.
func drawNoise(page *reportPage, p Problem, rec *command.Point) error {
	switch {
	case p.InputNoise == nil:
		page.NoiseNote = "The input noise is not drawn: the problem has none, or its optimiser never draws it."
	case rec == nil:
		page.NoiseNote = "The input noise is not drawn: no value has been told yet."
	default:
		var err error
		page.Noise, page.NoiseMoments, err = noiseCharts(p, rec.X)
		return err
	}
	return nil
}

// noiseCharts draws, for each component the input noise moves at x, the
// density of its draws (a histogram, drawn through its bins' centres), and
// returns the rows of their mean and sd.
func noiseCharts(p Problem, x []float64) ([]template.HTML, [][2]string, error) {
	eps, err := p.InputNoise(x, noiseDraws)
	if err != nil {
		return nil, nil, fmt.Errorf("drawing the input noise at %s: %w", formatPoint(p.Dims, x), err)
	}
	var charts []template.HTML
	var rows [][2]string
	for i, name := range componentNames(p.Dims) {
		values := make([]float64, 0, len(eps))
		lo, hi, sum := math.Inf(1), math.Inf(-1), 0.0
		for _, e := range eps {
			if i < len(e) {
				values = append(values, e[i])
				lo, hi, sum = min(lo, e[i]), max(hi, e[i]), sum+e[i]
			}
		}
		if len(values) == 0 || lo == 0 && hi == 0 {
			continue // no noise in this component
		}
		mean := sum / float64(len(values))
		ss := 0.0
		for _, v := range values {
			ss += (v - mean) * (v - mean)
		}
		sd := math.Sqrt(ss / float64(len(values)))
		if math.Abs(mean) < 1e-9*sd {
			mean = 0 // rounding's
		}
		rows = append(rows, [2]string{name, "mean " + formatValue(mean) + ", sd " + formatValue(sd)})
		if hi == lo {
			lo, hi = lo-0.5, hi+0.5
		}
		width := (hi - lo) / noiseBins
		counts := make([]float64, noiseBins)
		for _, v := range values {
			counts[min(int((v-lo)/width), noiseBins-1)]++
		}
		density := plot.Line{Name: fmt.Sprintf("density of ε (%d draws, %d bins)", len(values), noiseBins)}
		for b, c := range counts {
			d := c / float64(len(values)) / width
			density.X, density.Y = append(density.X, lo+(float64(b)+0.5)*width), append(density.Y, d)
			density.Lower, density.Upper = append(density.Lower, 0), append(density.Upper, d)
		}
		svg, err := chartSVG(plot.Chart{Title: "input noise of " + name + " at the recommendation", XLabel: "ε of " + name, YLabel: "density", Linear: true,
			Lines: []plot.Line{density}})
		if err != nil {
			return nil, nil, err
		}
		charts = append(charts, svg)
	}
	return charts, rows, nil
}
