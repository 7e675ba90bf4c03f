package plot

import (
	"bytes"
	"flag"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
)

var update = flag.Bool("update", false, "rewrite the golden SVG files in testdata")

// regretChart is a small chart such as a study draws: three methods over
// eight evaluations, their regrets' median between their quartiles. zero
// puts a regret of 0 in, which makes the y axis linear.
func regretChart(zero bool) Chart {
	c := Chart{Title: "tiny", XLabel: "evaluations", YLabel: "regret of the recommendation"}
	for m, name := range []string{"ei", "ucb(beta = 2)", "random"} {
		l := Line{Name: name}
		for i := 1; i <= 8; i++ {
			median := 4 / float64(i*(m+1))
			l.X = append(l.X, float64(i))
			l.Y = append(l.Y, median)
			l.Lower = append(l.Lower, median/2)
			l.Upper = append(l.Upper, median*1.5)
		}
		c.Lines = append(c.Lines, l)
	}
	if zero {
		c.Lines[0].Lower[7] = 0
	}
	return c
}

// convergenceChart is a chart such as a report draws: each evaluation's
// value as a point, the best so far as a line without a band, on a linear
// axis although every value is positive; two shaded intervals.
func convergenceChart() Chart {
	c := Chart{Title: "convergence", XLabel: "evaluation", YLabel: "value", Linear: true,
		Regions: []Region{{Name: "shaded", Intervals: [][2]float64{{2.5, 4}, {9, 13}}}},
		Lines:   []Line{{Name: "best so far", Steps: true}},
		Points:  []Points{{Name: "observed"}}}
	best := math.Inf(1)
	for i := 1; i <= 12; i++ {
		y := 3 + math.Sin(float64(i))*2/float64(i)
		best = min(best, y)
		c.Points[0].X, c.Points[0].Y = append(c.Points[0].X, float64(i)), append(c.Points[0].Y, y)
		c.Lines[0].X, c.Lines[0].Y = append(c.Lines[0].X, float64(i)), append(c.Lines[0].Y, best)
	}
	return c
}

// categoriesChart is a report's slice along a categorical component: a
// strip per level, the values told at their levels.
func categoriesChart() Chart {
	return Chart{Title: "slice along catalyst", XLabel: "catalyst", YLabel: "objective", Linear: true,
		Categories: []string{"Pd", "Pt", "Ni", "Cu"},
		Lines: []Line{{Name: "posterior mean ± 2 sd", X: []float64{0, 1, 2, 3}, Y: []float64{1, 1.5, 0.2, 0.16},
			Lower: []float64{0.8, 1.1, 0.1, 0.1}, Upper: []float64{1.2, 1.9, 0.3, 0.22}}},
		Points: []Points{{Name: "told", X: []float64{0, 2, 3, 3}, Y: []float64{1.05, 0.22, 0.15, 0.18}},
			{Name: "recommendation", X: []float64{3}, Y: []float64{0.16}, Emphasis: true}}}
}

// TestGoldenSVG compares the SVG of fixed charts with testdata byte for byte
// (go test ./runtime/plot -update rewrites them): the same chart must always give the
// same file.
func TestGoldenSVG(t *testing.T) {
	for _, tc := range []struct {
		file  string
		chart Chart
		log   bool
	}{{"log.svg", regretChart(false), true}, {"linear.svg", regretChart(true), false}, {"points.svg", convergenceChart(), false},
		{"categories.svg", categoriesChart(), false}} {
		t.Run(tc.file, func(t *testing.T) {
			var got bytes.Buffer
			if err := tc.chart.SVG(&got); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", tc.file)
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
			// The y axis says its scale only when it is logarithmic.
			if logScale := strings.Contains(got.String(), "(log scale)"); logScale != tc.log {
				t.Errorf("log scale %v, want %v", logScale, tc.log)
			}
		})
	}
}

// TestPNG: the PNG decodes, is not blank, has the chart's size, and is the
// same bytes when drawn again.
func TestPNG(t *testing.T) {
	var first, second bytes.Buffer
	for _, b := range []*bytes.Buffer{&first, &second} {
		if err := regretChart(false).PNG(b); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(first.Bytes(), second.Bytes()) {
		t.Error("the same chart drawn twice gives different PNGs")
	}
	img, err := png.Decode(bytes.NewReader(first.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	bounds := img.Bounds()
	if got, want := bounds.Dx(), int(width/vg.Inch*dpi); got != want {
		t.Errorf("width %d pixels, want %d", got, want)
	}
	colours := map[[4]uint32]bool{}
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			r, g, b, a := img.At(x, y).RGBA()
			colours[[4]uint32{r, g, b, a}] = true
		}
	}
	if len(colours) < 4 {
		t.Errorf("the PNG has %d colours: blank", len(colours))
	}
}

// TestChartErrors: a chart that cannot be drawn is an error that names the
// line, never a panic or a broken file.
func TestChartErrors(t *testing.T) {
	short := regretChart(false)
	short.Lines[1].Upper = short.Lines[1].Upper[:3]
	nan := regretChart(false)
	nan.Lines[2].Y[4] = math.NaN()
	inf := regretChart(false)
	inf.Lines[0].X[0] = math.Inf(1)
	empty := regretChart(false)
	empty.Lines[0] = Line{Name: "nothing"}
	unpaired := convergenceChart()
	unpaired.Points[0].Y = unpaired.Points[0].Y[1:]
	nanPoint := convergenceChart()
	nanPoint.Points[0].Y[2] = math.NaN()
	backwards := convergenceChart()
	backwards.Regions[0].Intervals[1] = [2]float64{9, 8}
	for _, tc := range []struct {
		name  string
		chart Chart
		want  string
	}{
		{"no line", Chart{Title: "none"}, "the chart has no line and no point"},
		{"points unpaired", unpaired, `points "observed": 12 x and 11 y values`},
		{"points NaN", nanPoint, `points "observed": the value NaN is not a finite number`},
		{"region backwards", backwards, `region "shaded": the interval [9, 8] ends before it starts`},
		{"lengths differ", short, `line "ucb(beta = 2)": 8 x, 8 y, 8 lower and 3 upper values`},
		{"NaN", nan, `line "random": the value NaN is not a finite number`},
		{"infinity", inf, `line "ei": the value +Inf is not a finite number`},
		{"no point", empty, `line "nothing": 0 x`},
	} {
		for format, write := range map[string]func(Chart, *bytes.Buffer) error{
			"svg": func(c Chart, b *bytes.Buffer) error { return c.SVG(b) },
			"png": func(c Chart, b *bytes.Buffer) error { return c.PNG(b) },
		} {
			var b bytes.Buffer
			err := write(tc.chart, &b)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s, %s: error %v, want one containing %q", tc.name, format, err, tc.want)
			}
			if b.Len() != 0 {
				t.Errorf("%s, %s: wrote %d bytes", tc.name, format, b.Len())
			}
		}
	}
}

// TestLogTicks: every log axis carries numbers: at powers of ten when it
// spans three, at 2 and 5 times them too, or at each mark, when it spans
// fewer, and at the linear ticks when it spans fewer than two marks.
func TestLogTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64 // the values, not their logarithms
		want   []string
	}{
		{1e-7, 15, []string{"1e-07", "1e-06", "1e-05", "0.0001", "0.001", "0.01", "0.1", "1", "10"}},
		{0.05, 3, []string{"0.05", "0.1", "0.2", "0.5", "1", "2"}},
		{2, 9.2, []string{"2", "3", "4", "5", "6", "7", "8", "9"}},
		{0.45, 0.65, []string{"0.5", "0.6"}},
		{0.51, 0.58, []string{"0.51", "0.54", "0.57"}}, // within one mark: the values' linear ticks
	} {
		var labels []string
		for _, tick := range (logTicks{}).Ticks(math.Log10(tc.lo), math.Log10(tc.hi)) {
			if tick.Label != "" {
				labels = append(labels, tick.Label)
			}
		}
		if strings.Join(labels, " ") != strings.Join(tc.want, " ") {
			t.Errorf("ticks of [%v, %v] labelled %q, want %q", tc.lo, tc.hi, labels, tc.want)
		}
	}
}

// BenchmarkStudyChart draws what a study of 10 methods over 200 evaluations
// draws per problem and measure.
func BenchmarkStudyChart(b *testing.B) {
	c := Chart{Title: "problem", XLabel: "evaluations", YLabel: "regret of the recommendation"}
	for m := range 10 {
		l := Line{Name: "method " + string(rune('a'+m))}
		for i := 1; i <= 200; i++ {
			median := 10 * math.Exp(-float64(i*(m+1))/100)
			l.X, l.Y = append(l.X, float64(i)), append(l.Y, median)
			l.Lower, l.Upper = append(l.Lower, median/2), append(l.Upper, median*1.5)
		}
		c.Lines = append(c.Lines, l)
	}
	for _, format := range []struct {
		name  string
		write func(*bytes.Buffer) error
	}{{"svg", func(w *bytes.Buffer) error { return c.SVG(w) }}, {"png", func(w *bytes.Buffer) error { return c.PNG(w) }}} {
		b.Run(format.name, func(b *testing.B) {
			var buf bytes.Buffer
			for b.Loop() {
				buf.Reset()
				if err := format.write(&buf); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
