// Command scaleplot draws the time per evaluation against n from the CSV
// that bench/library/scale_study.py writes (--csv): one line per problem
// and model form, from its run with the largest budget, each point the
// median time of the evaluations in a bin of n (bins evenly spaced in
// log n), on log-log axes.
//
//	go run ./bench/scaleplot -csv /tmp/scale.csv -o docs/images/scale/per_evaluation.svg
package main

import (
	"encoding/csv"
	"flag"
	"fmt"
	"log"
	"maps"
	"math"
	"os"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// binsPerDecade is the number of bins of n per factor of 10.
const binsPerDecade = 8

func main() {
	in := flag.String("csv", "", "the study's CSV (problem,approx,budget,n,seconds)")
	out := flag.String("o", "per_evaluation.svg", "the SVG to write")
	flag.Parse()
	series, err := read(*in)
	if err != nil {
		log.Fatal(err)
	}
	p := plot.New()
	p.Title.Text = "Time per evaluation as the run grows"
	p.X.Label.Text = "evaluations so far (n)"
	p.Y.Label.Text = "seconds per evaluation"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	p.Legend.Top, p.Legend.Left = true, true
	var args []any
	for _, name := range slices.Sorted(maps.Keys(series)) {
		args = append(args, name, binned(series[name]))
	}
	if err := plotutil.AddLinePoints(p, args...); err != nil {
		log.Fatal(err)
	}
	if err := p.Save(7*vg.Inch, 4.5*vg.Inch, *out); err != nil {
		log.Fatal(err)
	}
}

// read returns, per "problem approx", the times of its run with the
// largest budget, in order of n.
func read(path string) (map[string][]float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, err
	}
	budgets := map[string]int{}
	times := map[string][]float64{}
	for _, r := range rows[1:] {
		if len(r) != 5 {
			return nil, fmt.Errorf("%s: a row of %d fields, want 5", path, len(r))
		}
		name := r[0] + " " + r[1]
		budget, err1 := strconv.Atoi(r[2])
		seconds, err2 := strconv.ParseFloat(r[4], 64)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("%s: bad row %v", path, r)
		}
		if budget > budgets[name] {
			budgets[name], times[name] = budget, nil
		}
		if budget == budgets[name] {
			times[name] = append(times[name], seconds)
		}
	}
	return times, nil
}

// binned is the median time per bin of n.
func binned(times []float64) plotter.XYs {
	var xys plotter.XYs
	for lo := 1; lo <= len(times); {
		hi := max(lo+1, int(math.Round(float64(lo)*math.Pow(10, 1.0/binsPerDecade))))
		bin := slices.Clone(times[lo-1 : min(hi-1, len(times))])
		slices.Sort(bin)
		mid := math.Sqrt(float64(lo) * float64(min(hi-1, len(times))))
		xys = append(xys, plotter.XY{X: mid, Y: bin[len(bin)/2]})
		lo = hi
	}
	return xys
}
