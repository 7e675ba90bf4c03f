package study

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"

	"github.com/bocdev/boc/runtime/plot"
)

// plotFormats are the files drawn of each chart, by extension.
var plotFormats = []struct {
	ext   string
	write func(plot.Chart, io.Writer) error
}{{".svg", plot.Chart.SVG}, {".png", plot.Chart.PNG}}

// WritePlots draws, for each problem and each table that lists it, the
// median and quartiles over the seeds after every evaluation, one line per
// method, into the directory dir: PROBLEM.svg and PROBLEM.png for the regret
// of the recommendation, PROBLEM_best_observed.svg and so on for the others.
// It returns the paths of the files written, in order.
func WritePlots(dir string, cfg Config, problems []*Problem) ([]string, error) {
	byName := map[string]*Problem{}
	for _, p := range problems {
		if q := byName[p.name]; q != nil {
			return nil, fmt.Errorf("%s and %s have the same name, %s, so their plots would overwrite each other", q.path, p.path, p.name)
		}
		byName[p.name] = p
	}
	var written []string
	for _, p := range problems {
		for _, r := range studyRegrets {
			if !r.lists(p) {
				continue
			}
			chart := p.chart(cfg, r)
			if len(chart.Lines) == 0 {
				continue // every method skipped
			}
			for _, f := range plotFormats {
				var b bytes.Buffer
				if err := f.write(chart, &b); err != nil {
					return written, fmt.Errorf("%s: plotting the %s: %v", p.path, r.axis, err)
				}
				path := filepath.Join(dir, p.name+r.file+f.ext)
				if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
					return written, err
				}
				written = append(written, path)
			}
		}
	}
	return written, nil
}

// chart is a problem's chart of a table: for each method that ran, the
// quartiles after each evaluation at which every seed's value is known.
func (p *Problem) chart(cfg Config, r studyRegret) plot.Chart {
	// A log10 gap is a logarithm already: its axis stays linear.
	c := plot.Chart{Title: p.name, YLabel: r.axis, Linear: r.several,
		XLabel: fmt.Sprintf("evaluations (lines: median over seeds 1..%d; bands: lower to upper quartile)", cfg.Seeds)}
	for _, m := range p.methods {
		if m.skipped != "" {
			continue
		}
		l := plot.Line{Name: m.name}
		for i, values := range r.of(m) {
			if r.count {
				n := total(values)
				l.X, l.Y = append(l.X, float64(i+1)), append(l.Y, n)
				l.Lower, l.Upper = append(l.Lower, n), append(l.Upper, n)
				continue
			}
			if slices.ContainsFunc(values, func(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) }) {
				continue
			}
			q := summarise(values)
			l.X, l.Y = append(l.X, float64(i+1)), append(l.Y, q.Median)
			l.Lower, l.Upper = append(l.Lower, q.Q1), append(l.Upper, q.Q3)
		}
		if len(l.X) > 0 {
			c.Lines = append(c.Lines, l)
		}
	}
	return c
}
