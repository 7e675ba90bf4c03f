package program

import (
	"bytes"
	"cmp"
	"flag"
	"fmt"
	"html/template"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/bocdev/boc/runtime/journal"
	"github.com/bocdev/boc/runtime/plot"
)

// The command report: one self-contained HTML file about a study, which a
// browser opens offline (no script, font or image is fetched: the charts
// are inline SVG) and which prints. The same journal gives the same bytes:
// the file holds no time.

func reportCommand(p Problem, args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet(p.Name+" report", flag.ContinueOnError)
	flags.SetOutput(io.Discard)
	var f studyFlags
	f.registerStudy(p, flags)
	out := flags.String("o", "", "")
	if code, ok := parseFlags(p, flags, "report", args, stdout, stderr); !ok {
		return code
	}
	if *out == "" {
		fmt.Fprintf(stderr, "%s: report: give the file to write: report -o report.html\n", p.Name)
		return ExitUsage
	}
	var s *study
	err := withExistingStudy(p, f, stderr, func(replayed *study) ([]journal.Event, error) {
		s = replayed
		return nil, nil
	})
	if err == nil && len(s.trials) == 0 {
		err = fmt.Errorf("study %s in %s has no trials to report", f.study, f.journal)
	}
	var page bytes.Buffer
	if err == nil {
		err = writeReport(&page, p, f.journal, s)
	}
	if err == nil {
		err = os.WriteFile(*out, page.Bytes(), 0o644)
	}
	if err != nil {
		printError(stderr, p, err)
		return ExitFailure
	}
	fmt.Fprintf(stdout, "report of study %s (%d evaluations) written to %s\n", s.name, s.evaluations(), *out)
	return ExitOK
}

// A Model is a Session whose posterior can be read anywhere in the domain,
// which the report draws. The programs boc emits implement it; a report of
// a session that does not says that the model is not drawn.
type Model interface {
	// Posterior returns the posterior mean of the objective at x, in its
	// units and sign, and the posterior sd there: of the robust value
	// E[f(x + ε)] when the model is over input distributions
	// (Problem.ModelOverInputs).
	Posterior(x []float64) (mean, sd float64, err error)
	// Lengthscales returns the kernel's learned lengthscales, one per
	// component, each in units of its component's range; ok is false when
	// the kernel has no lengthscale per component.
	Lengthscales() (lengthscales []float64, ok bool)
}

// Sizes of the model's charts: points along a slice, and a map's grid
// points per side.
const (
	slicePoints = 60
	mapPoints   = 20
)

// mappedComponents is how many of the most important components the maps
// pair.
const mappedComponents = 3

// reportPage is what the report's template shows.
type reportPage struct {
	Problem, Study, Journal, Source string
	// Text is the problem's .bo source, "" when the program does not know
	// it; Program is the problem's canonical text.
	Text, Program string
	// Settings and Status are rows of a label and its value.
	Settings, Status [][2]string
	// Convergence is the chart of the values told (of the hypervolume they
	// dominate, with several objectives); empty before any.
	Convergence template.HTML
	// Fronts are the charts of several objectives' values told, a pair of
	// objectives each.
	Fronts []template.HTML
	// Safety is set for a problem with unknown constraints: Constraints are
	// the charts of each one's values, Broken says how many broke each
	// limit, SafeNote what the slices and maps show of the safe set or why
	// they do not, Seeds the seed points.
	Safety      bool
	Constraints []template.HTML
	Broken      [][2]string
	SafeNote    string
	Seeds       []string
	// Robust is the robust value of the recommendation, "" without input
	// noise the program simulates.
	Robust string
	// Noise are the densities of the input noise's draws at the
	// recommendation, one per noisy component, and NoiseMoments the mean
	// and sd of each; NoiseNote says why they are not drawn.
	Noise        []template.HTML
	NoiseMoments [][2]string
	NoiseNote    string
	// The model is drawn as Slices through the recommendation for each
	// component, Maps of the posterior mean and sd for pairs of the most
	// important components, and their Importance when the kernel learns a
	// lengthscale per component; or ModelNote says why it is not.
	ModelNote string
	// FailedNote, when failures were given values, says how they are drawn.
	FailedNote string
	// OverInputs says that the model is over input distributions.
	OverInputs bool
	Slices     []template.HTML
	Maps       []template.HTML
	Importance []importance
	// Columns and Trials are the table of every trial, in ask order.
	Columns []string
	Trials  [][]string
}

// writeReport writes the HTML report of study s of problem p, read from
// journal.
func writeReport(w io.Writer, p Problem, journalName string, s *study) error {
	page := reportPage{Problem: p.Name, Study: s.name, Journal: journalName, Source: p.Source, Text: p.Text, Program: p.Identity,
		Settings: reportSettings(p)}
	st := newStatus(p, s)
	page.Status = reportStatus(p, st)
	values := toldValues(s)
	if err := drawProgress(&page, p, st, values); err != nil {
		return err
	}
	var safe *safeSet
	if len(p.Constraints) > 0 {
		page.Safety = true
		page.Broken = brokenLimits(p, values)
		if p.safe() {
			safe = estimateSafety(&page, p, s.session, st.Recommendation)
		}
	}
	model, ok := s.session.(Model)
	page.OverInputs = p.ModelOverInputs
	switch {
	case p.several():
		page.ModelNote = "Not drawn for several objectives: the charts of the Pareto front above show what was told, and the set the objectives' models hold best."
	case !ok:
		page.ModelNote = "Not drawn: this program's optimiser does not give its posterior at a point, which slices, maps and the importance of each component (its learned lengthscale) need."
	case st.Recommendation == nil && p.requires() && len(values) > 0:
		page.ModelNote = "Not drawn: no evaluated point meets the requirements yet, so there is no recommendation to draw the model through."
	case st.Recommendation == nil:
		page.ModelNote = "Not drawn: no value has been told yet."
	default:
		failed := imputedFailures(s)
		if err := drawModel(&page, p, model, safe, st.Recommendation.X, values, failed); err != nil {
			return err
		}
		if len(failed) > 0 {
			page.FailedNote = fmt.Sprintf("%d failed trials are drawn as a series of their own: on the slices at the value the model was given for each, "+
				"below the worst value told before it by the values' spread. They shape the model though nothing was measured there.", len(failed))
		}
	}
	if p.Robust != nil && st.Recommendation != nil {
		page.Robust = formatValue(p.Robust(st.Recommendation.X, 1))
	}
	if err := drawNoise(&page, p, st.Recommendation); err != nil {
		return err
	}
	page.Columns, page.Trials = trialTable(p, s)
	return reportTemplate.Execute(w, page)
}

// drawProgress draws the values told: the convergence (or the hypervolume
// and the Pareto fronts) and each constraint's values against its limit.
func drawProgress(page *reportPage, p Problem, st status, values []toldValue) error {
	if err := drawFront(page, p, st, values); err != nil {
		return err
	}
	if len(values) == 0 {
		return nil
	}
	if !p.several() {
		svg, err := chartSVG(convergenceChart(p, values))
		if err != nil {
			return err
		}
		page.Convergence = svg
	}
	for _, c := range p.Constraints {
		svg, err := chartSVG(constraintChart(c, values))
		if err != nil {
			return err
		}
		page.Constraints = append(page.Constraints, svg)
	}
	return nil
}

// reportSettings are the problem's settings, as rows.
func reportSettings(p Problem) [][2]string {
	goal := "minimise"
	if p.Maximize {
		goal = "maximise"
	}
	if p.several() {
		goal = p.goals()
	}
	rows := [][2]string{{"goal", goal}, {"budget", strconv.Itoa(p.Budget) + " evaluations"}, {"seed", strconv.FormatUint(p.Seed, 10)}}
	names := componentNames(p.Dims)
	dims := componentDims(p.Dims)
	for i, name := range names {
		switch {
		case dims[i].Levels != nil:
			rows = append(rows, [2]string{name, "one of " + strings.Join(dims[i].Levels, ", ")})
		case i < len(p.Lower) && i < len(p.Upper):
			rows = append(rows, [2]string{name, "[" + formatValue(p.Lower[i]) + ", " + formatValue(p.Upper[i]) + "]"})
		}
	}
	noise := "not reported"
	if p.ReportsSD {
		noise = "reported with each value (its sd)"
	}
	rows = append(rows, [2]string{"observation noise", noise})
	for _, c := range p.Constraints {
		kind := "constraint "
		if c.Required {
			kind = "requirement "
		}
		rows = append(rows, [2]string{kind + c.Name, keptWhile(c)})
	}
	return rows
}

// keptWhile says when a constraint is kept: "safe while ≤ 1" for a safety
// constraint, "met while ≥ 0.5" for a requirement.
func keptWhile(c Constraint) string {
	limit := "≤ " + formatValue(c.Limit)
	if c.AtLeast {
		limit = "≥ " + formatValue(c.Limit)
	}
	if c.Required {
		return "met while " + limit
	}
	return "safe while " + limit
}

// reportStatus is a study's status, as rows.
func reportStatus(p Problem, st status) [][2]string {
	rows := [][2]string{
		{"evaluations", strconv.Itoa(st.Evaluations)},
		{"failed", strconv.Itoa(st.Failed)},
		{"pending", strconv.Itoa(len(st.Pending))},
	}
	if st.Violations != nil {
		rows = append(rows, [2]string{"broke a safety limit", strconv.Itoa(*st.Violations)})
	}
	if st.Unmet != nil {
		rows = append(rows, [2]string{"broke a requirement", strconv.Itoa(*st.Unmet)})
	}
	for _, note := range st.Contradictions {
		rows = append(rows, [2]string{"contradicted the constraints' model", note})
	}
	rows = append(rows, frontStatus(p, st)...)
	if st.Recommendation != nil {
		rows = append(rows, [2]string{"recommendation", formatPoint(p.Dims, st.Recommendation.X) + "  (posterior mean " + formatValue(float64(*st.RecommendationMean)) + ")"})
	}
	if st.BestObserved != nil {
		rows = append(rows, [2]string{"best observed", formatPoint(p.Dims, st.BestObserved.X.X) + "  y = " + formatValue(float64(st.BestObserved.Y))})
	}
	return rows
}

// toldValue is a trial told a value, numbered in tell order.
type toldValue struct {
	evaluation int
	t          *trial
}

// imputedFailures are the failed trials the model was given a value for
// (study.penalty), in tell order: they shape it though nothing was measured.
func imputedFailures(s *study) []*trial {
	var out []*trial
	for _, t := range s.told {
		if t.imputed != nil {
			out = append(out, t)
		}
	}
	return out
}

// toldValues are the trials told a value, in tell order.
func toldValues(s *study) []toldValue {
	var out []toldValue
	for _, t := range s.told {
		if t.result.Kind == journal.KindTell {
			out = append(out, toldValue{len(out) + 1, t})
		}
	}
	return out
}

// convergenceChart draws each value told and the best so far. Minimised
// positive values are drawn on a log axis, where their approach to the
// minimum stays visible over orders of magnitude.
func convergenceChart(p Problem, values []toldValue) plot.Chart {
	observed := plot.Points{Name: "value told"}
	best := plot.Line{Name: "best so far", Steps: true}
	for _, v := range values {
		x, y := float64(v.evaluation), *v.t.result.Y
		observed.X, observed.Y = append(observed.X, x), append(observed.Y, y)
		if n := len(best.Y); n > 0 && !p.better(y, best.Y[n-1]) {
			y = best.Y[n-1]
		}
		best.X, best.Y = append(best.X, x), append(best.Y, y)
	}
	return plot.Chart{Title: "convergence", XLabel: "evaluation (in the order told)", YLabel: "objective", Linear: p.Maximize,
		Lines: []plot.Line{best}, Points: []plot.Points{observed}}
}

// constraintChart draws the values told of constraint c against its limit.
func constraintChart(c Constraint, values []toldValue) plot.Chart {
	measured := plot.Points{Name: "value told"}
	for _, v := range values {
		measured.X = append(measured.X, float64(v.evaluation))
		measured.Y = append(measured.Y, v.t.result.Constraints[c.Name])
	}
	first, last := measured.X[0], measured.X[len(measured.X)-1]
	limit := plot.Line{Name: "limit: " + keptWhile(c), X: []float64{first, last}, Y: []float64{c.Limit, c.Limit}}
	title := "constraint " + c.Name
	if c.Required {
		title = "requirement " + c.Name
	}
	return plot.Chart{Title: title, XLabel: "evaluation (in the order told)", YLabel: c.Name, Linear: true,
		Lines: []plot.Line{limit}, Points: []plot.Points{measured}}
}

// importance is a component's share of the inverse lengthscales.
type importance struct {
	Name    string
	Percent float64
}

// drawModel draws the model's slices through the recommendation rec, its
// maps and its components' importance into page, with the estimated safe
// set when safe is not nil.
func drawModel(page *reportPage, p Problem, model Model, safe *safeSet, rec []float64, values []toldValue, failed []*trial) error {
	names := componentNames(p.Dims)
	if len(names) != len(rec) || len(p.Lower) != len(rec) || len(p.Upper) != len(rec) {
		return fmt.Errorf("the recommendation has %d components, the domain %d", len(rec), len(names))
	}
	// Components in order of importance, most important first; in
	// declaration order without lengthscales.
	order := make([]int, len(rec))
	for i := range order {
		order[i] = i
	}
	if ls, ok := model.Lengthscales(); ok && len(ls) == len(rec) && !slices.ContainsFunc(ls, func(l float64) bool { return !(l > 0) || math.IsInf(l, 1) }) {
		total := 0.0
		for _, l := range ls {
			total += 1 / l
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(ls[a], ls[b]) })
		for _, i := range order {
			page.Importance = append(page.Importance, importance{names[i], 100 / ls[i] / total})
		}
	}
	for i, name := range names {
		chart, err := sliceChart(p, model, safe, rec, i, name, values, failed)
		if err != nil {
			return err
		}
		svg, err := chartSVG(chart)
		if err != nil {
			return err
		}
		page.Slices = append(page.Slices, svg)
	}
	mapped := order[:min(len(order), mappedComponents)]
	for a := range mapped {
		for b := a + 1; b < len(mapped); b++ {
			i, j := min(mapped[a], mapped[b]), max(mapped[a], mapped[b])
			maps, err := modelMaps(p, model, safe, rec, i, j, names, values, failed)
			if err != nil {
				return err
			}
			page.Maps = append(page.Maps, maps...)
		}
	}
	return nil
}

// along returns n points from lo to hi, both included.
func along(lo, hi float64, n int) []float64 {
	out := make([]float64, n)
	for k := range out {
		out[k] = lo + (hi-lo)*float64(k)/float64(n-1)
	}
	return out
}

// posteriorName names the model's posterior: a robust one when the model
// is over input distributions.
func posteriorName(p Problem) string {
	if p.ModelOverInputs {
		return "robust posterior"
	}
	return "posterior"
}

// sliceChart draws the posterior mean ± 2 sd along component i through the
// recommendation, with every value told and every failure's imputed value
// at its component i, over the estimated safe set when safe is not nil.
func sliceChart(p Problem, model Model, safe *safeSet, rec []float64, i int, name string, values []toldValue, failed []*trial) (plot.Chart, error) {
	mean := plot.Line{Name: posteriorName(p) + " mean ± 2 sd"}
	x := slices.Clone(rec)
	vs, levels := axisValues(p, i, slicePoints)
	var regions []plot.Region
	if safe != nil {
		r, err := safe.safeRegion(rec, i, vs)
		if err != nil {
			return plot.Chart{}, err
		}
		regions = append(regions, r)
	}
	for _, v := range vs {
		x[i] = v
		m, sd, err := model.Posterior(x)
		if err != nil {
			return plot.Chart{}, fmt.Errorf("the posterior at %s: %w", formatPoint(p.Dims, x), err)
		}
		mean.X, mean.Y = append(mean.X, v), append(mean.Y, m)
		mean.Lower, mean.Upper = append(mean.Lower, m-2*sd), append(mean.Upper, m+2*sd)
	}
	told := plot.Points{Name: "values told (all, at their " + name + ")"}
	for _, v := range values {
		told.X, told.Y = append(told.X, v.t.x[i]), append(told.Y, *v.t.result.Y)
	}
	m, _, err := model.Posterior(rec)
	if err != nil {
		return plot.Chart{}, err
	}
	recommended := plot.Points{Name: "recommendation", X: []float64{rec[i]}, Y: []float64{m}, Emphasis: true}
	series := []plot.Points{told, recommended}
	if len(failed) > 0 {
		imputed := plot.Points{Name: "failed, at the value imputed"}
		for _, t := range failed {
			imputed.X, imputed.Y = append(imputed.X, t.x[i]), append(imputed.Y, *t.imputed)
		}
		series = append(series, imputed)
	}
	return plot.Chart{Title: "slice along " + name + " through the recommendation", XLabel: name, YLabel: "objective", Linear: true,
		Regions: regions, Lines: []plot.Line{mean}, Points: series, Categories: levels}, nil
}

// axisValues are the values of component i a chart draws the model at: n
// from its lower to its upper bound, or a categorical component's levels,
// with their names.
func axisValues(p Problem, i, n int) ([]float64, []string) {
	if levels := componentDims(p.Dims)[i].Levels; levels != nil {
		return along(0, float64(len(levels)-1), len(levels)), levels
	}
	return along(p.Lower[i], p.Upper[i], n), nil
}

// modelMaps draws the posterior mean and sd over components i and j, the
// others at the recommendation's, with the points evaluated (those that
// failed apart) and the recommendation over them; and, when safe is not
// nil, the cells outside the estimated safe set greyed and the seed points.
func modelMaps(p Problem, model Model, safe *safeSet, rec []float64, i, j int, names []string, values []toldValue, failed []*trial) ([]template.HTML, error) {
	mean := plot.Map{Title: posteriorName(p) + " mean", XLabel: names[i], YLabel: names[j]}
	mean.X, mean.XCategories = axisValues(p, i, mapPoints)
	mean.Y, mean.YCategories = axisValues(p, j, mapPoints)
	mean.Points = append(evaluatedPoints(p, values, i, j), plot.Points{Name: "recommendation", X: []float64{rec[i]}, Y: []float64{rec[j]}, Emphasis: true})
	if len(failed) > 0 {
		at := plot.Points{Name: "failed, a value imputed"}
		for _, t := range failed {
			at.X, at.Y = append(at.X, t.x[i]), append(at.Y, t.x[j])
		}
		mean.Points = append(mean.Points, at)
	}
	if safe != nil {
		pale, err := safe.unsafeCells(rec, i, j, mean.X, mean.Y)
		if err != nil {
			return nil, err
		}
		mean.Pale = pale
		mean.Points = append(mean.Points, safe.seedPoints(i, j)...)
	}
	sd := mean
	sd.Title = posteriorName(p) + " sd"
	sd.Z, mean.Z = nil, nil
	x := slices.Clone(rec)
	for _, y := range mean.Y {
		meanRow, sdRow := make([]float64, len(mean.X)), make([]float64, len(mean.X))
		for k, v := range mean.X {
			x[i], x[j] = v, y
			m, s, err := model.Posterior(x)
			if err != nil {
				return nil, fmt.Errorf("the posterior at %s: %w", formatPoint(p.Dims, x), err)
			}
			meanRow[k], sdRow[k] = m, s
		}
		mean.Z, sd.Z = append(mean.Z, meanRow), append(sd.Z, sdRow)
	}
	maps := []plot.Map{mean, sd}
	if model, ok := model.(RequirementModel); ok && p.requires() {
		feasible, err := feasibilityMap(p, model, mean, rec, i, j)
		if err != nil {
			return nil, err
		}
		maps = append(maps, feasible)
	}
	var out []template.HTML
	for _, m := range maps {
		svg, err := inlineSVG(m.Title+" over "+names[i]+" and "+names[j], m.SVG)
		if err != nil {
			return nil, err
		}
		out = append(out, svg)
	}
	return out, nil
}

// chartSVG draws c as SVG to put inside HTML.
func chartSVG(c plot.Chart) (template.HTML, error) { return inlineSVG(c.Title, c.SVG) }

// inlineSVG draws what with write and returns the SVG document without its
// XML prologue, to put inside HTML.
func inlineSVG(what string, write func(io.Writer) error) (template.HTML, error) {
	var b bytes.Buffer
	if err := write(&b); err != nil {
		return "", fmt.Errorf("drawing the %s: %v", what, err)
	}
	svg := b.Bytes()
	if i := bytes.Index(svg, []byte("<svg")); i >= 0 {
		svg = svg[i:]
	}
	// The SVG is gonum/plot's, made of numbers and the chart's text, which
	// it escapes.
	return template.HTML(svg), nil
}

// trialTable is the table of every trial, in ask order: its columns' heads
// and rows.
func trialTable(p Problem, s *study) ([]string, [][]string) {
	names := componentNames(p.Dims)
	dims := componentDims(p.Dims)
	columns := append([]string{"trial", "state", "evaluation"}, names...)
	if p.several() {
		columns = append(columns, p.objectiveNames()...)
	} else {
		columns = append(columns, "y")
	}
	if p.ReportsSD {
		columns = append(columns, "sd")
	}
	for _, c := range p.Constraints {
		columns = append(columns, c.Name)
	}
	columns = append(columns, "note")
	evaluation := map[*trial]int{}
	for _, v := range toldValues(s) {
		evaluation[v.t] = v.evaluation
	}
	var rows [][]string
	for _, t := range s.trials {
		row := []string{t.id, "pending", ""}
		if n := evaluation[t]; n > 0 {
			row[1], row[2] = "told", strconv.Itoa(n)
		}
		for i := range names {
			row = append(row, "")
			if i < len(t.x) {
				row[len(row)-1] = formatComponent(dims[i], t.x[i])
				if !dims[i].Exists(t.x) {
					row[len(row)-1] = "—"
				}
			}
		}
		r := t.result
		told := r != nil && r.Kind == journal.KindTell
		if p.several() {
			for _, name := range p.objectiveNames() {
				row = append(row, optional(told, func() float64 { return r.Objectives[name] }))
			}
		} else {
			row = append(row, optional(told, func() float64 { return *r.Y }))
		}
		if p.ReportsSD {
			row = append(row, optional(told && r.SD != nil, func() float64 { return *r.SD }))
		}
		note := ""
		for _, c := range p.Constraints {
			row = append(row, optional(told, func() float64 { return r.Constraints[c.Name] }))
			if told && violated(c, r.Constraints[c.Name]) {
				note = "broke a safety limit"
				if c.Required {
					note = "broke a requirement"
				}
			}
		}
		switch {
		case r != nil && r.Kind == journal.KindFail:
			row[1], note = "failed", r.Reason
		case r == nil && t.worker != "":
			note = "evaluated by " + t.worker
		}
		rows = append(rows, append(row, note))
	}
	return columns, rows
}

// optional formats value() when ok, "" otherwise.
func optional(ok bool, value func() float64) string {
	if !ok {
		return ""
	}
	return formatValue(value())
}

// componentNames name a point's components: a dimension's name, a vector
// dimension's with its index from 1, x[1] say.
// componentDims is the dimension of each component, in order.
func componentDims(dims []Dim) []Dim {
	var out []Dim
	for _, d := range dims {
		for range d.Size {
			out = append(out, d)
		}
	}
	return out
}

// formatComponent renders a component's value: its level's name for a
// categorical dimension, the number otherwise.
func formatComponent(d Dim, v float64) string {
	if level, ok := d.Level(v); ok {
		return level
	}
	return formatValue(v)
}

func componentNames(dims []Dim) []string {
	var names []string
	for _, d := range dims {
		if !d.Vector {
			names = append(names, d.Name)
			continue
		}
		for i := range d.Size {
			names = append(names, d.Name+"["+strconv.Itoa(i+1)+"]")
		}
	}
	return names
}

// reportTemplate lays the report out; its style sheet is inline and uses
// the browser's own fonts, so that nothing is fetched.
var reportTemplate = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Problem}}: study {{.Study}}</title>
<style>
body { font-family: sans-serif; max-width: 60em; margin: 1em auto; padding: 0 1em; color: #222; background: #fff; }
h1 { font-size: 1.6em; } h2 { font-size: 1.3em; border-bottom: 1px solid #ccc; margin-top: 1.6em; }
pre { background: #f6f6f6; padding: 0.6em; overflow-x: auto; }
table { border-collapse: collapse; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: left; }
table.trials th[data-sorted="up"]::after { content: " ▲"; } table.trials th[data-sorted="down"]::after { content: " ▼"; }
svg { max-width: 100%; height: auto; display: block; margin: 0.5em 0; overflow: visible; }
/* The charts are laid out with Liberation Serif's widths; Times New Roman has the same. */
svg text { font-family: "Liberation Serif", "Times New Roman", Tinos, serif !important; }
.note { color: #555; font-style: italic; }
h3 { font-size: 1.1em; }
td .bar { height: 0.8em; width: 0; min-width: 1px; background: #0072b2; print-color-adjust: exact; -webkit-print-color-adjust: exact; }
td.barcell { width: 20em; }
.maps { display: flex; flex-wrap: wrap; gap: 0 1em; } .maps svg { max-width: 48%; }
@media print { body { max-width: none; } h2 { break-after: avoid; } svg, tr { break-inside: avoid; } }
</style>
</head>
<body>
<h1>Problem {{.Problem}}, study {{.Study}}</h1>
<p>From the journal <code>{{.Journal}}</code>; the program was generated by boc from <code>{{.Source}}</code>.</p>

<h2 id="status">Status</h2>
<table>{{range .Status}}
<tr><th>{{index . 0}}</th><td>{{index . 1}}</td></tr>{{end}}
</table>

<h2 id="settings">Settings</h2>
<table>{{range .Settings}}
<tr><th>{{index . 0}}</th><td>{{index . 1}}</td></tr>{{end}}
</table>

{{if .Text}}<h2 id="problem">The problem</h2>
<p>Its source, <code>{{.Source}}</code>:</p>
<pre>{{.Text}}</pre>
<h3>As boc checked it</h3>
<p>Every default spelled out.</p>
{{else}}<h2 id="problem">The problem, as boc checked it</h2>
{{end}}<pre>{{.Program}}</pre>

<h2 id="convergence">Convergence</h2>
{{if .Convergence}}{{.Convergence}}{{else}}<p class="note">No value has been told yet.</p>{{end}}
{{if .Fronts}}<h2 id="front">Pareto front</h2>
<p>The values told, the Pareto set's marked: the points that meet the requirements and whose objectives' posterior means no other's dominate.</p>
{{range .Fronts}}{{.}}
{{end}}{{end}}
<h2 id="model">Model</h2>
{{if .ModelNote}}<p class="note">{{.ModelNote}}</p>{{else}}{{if .OverInputs}}<p>The model is over input distributions: its posterior at x is that of the input noise's distribution centred at x, the robust posterior of E[f(x + ε)], which the slices and maps draw. The values told are f where the queries landed.</p>
{{end}}{{if .Importance}}<h3>Importance</h3>
<p>Each component's share of the inverse learned lengthscales (in units of its range): the shorter a component's lengthscale, the faster the objective changes along it.</p>
<table>{{range .Importance}}
<tr><th>{{.Name}}</th><td>{{printf "%.1f" .Percent}} %</td><td class="barcell"><div class="bar" style="width: {{printf "%.1f" .Percent}}%"></div></td></tr>{{end}}
</table>{{else}}<p class="note">The kernel learns no lengthscale per component: no importance is drawn, and the maps pair the first components.</p>{{end}}
<h3 id="slices">Slices through the recommendation</h3>
{{if .FailedNote}}<p class="note">{{.FailedNote}}</p>
{{end}}{{range .Slices}}{{.}}
{{end}}{{if .Maps}}<h3 id="maps">Maps of the most important pairs</h3>
<p>The other components at the recommendation's values.</p>
<div class="maps">{{range .Maps}}{{.}}
{{end}}</div>{{end}}{{end}}

<h2 id="noise">Input noise</h2>
{{if .Robust}}<p>The recommendation's robust value E[f(x + ε)] over the input noise ε: {{.Robust}}.</p>{{else}}<p class="note">No robust value: the problem has no input noise, or its objective is not an expression this program evaluates.</p>{{end}}
{{if .NoiseNote}}<p class="note">{{.NoiseNote}}</p>{{else}}<p>The input noise ε at the recommendation: a query aimed at x lands at x + ε.</p>
<table>{{range .NoiseMoments}}
<tr><th>{{index . 0}}</th><td>{{index . 1}}</td></tr>{{end}}
</table>
{{range .Noise}}{{.}}
{{end}}{{end}}
{{if .Safety}}
<h2 id="safety">Safety</h2>
<table>{{range .Broken}}
<tr><th>{{index . 0}}</th><td>{{index . 1}}</td></tr>{{end}}
</table>
{{range .Constraints}}{{.}}
{{end}}<p>{{.SafeNote}}</p>
{{if .Seeds}}<h3>Seed points</h3>
<p>The points the safe exploration started from, known safe; the maps mark them.</p>
<ul>{{range .Seeds}}
<li>{{.}}</li>{{end}}
</ul>{{end}}
{{end}}
<h2 id="trials">Trials</h2>
<table class="trials">
<thead><tr>{{range .Columns}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>{{range .Trials}}
<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>{{end}}
</tbody>
</table>
` + sortScript + `
</body>
</html>
`))

// sortScript sorts the trial table by a column when its head is clicked,
// the other way when clicked again: numbers as numbers, other text as text.
// It fetches nothing; without it (scripts off, print) the table is in ask
// order.
const sortScript = `<script>
document.querySelectorAll("table.trials th").forEach(function (th, col) {
  th.title = "sort by " + th.textContent;
  th.style.cursor = "pointer";
  th.addEventListener("click", function () {
    var body = th.closest("table").tBodies[0];
    var dir = th.dataset.sorted === "up" ? -1 : 1;
    th.closest("tr").querySelectorAll("th").forEach(function (h) { delete h.dataset.sorted; });
    th.dataset.sorted = dir === 1 ? "up" : "down";
    Array.from(body.rows).sort(function (a, b) {
      var x = a.cells[col].textContent, y = b.cells[col].textContent;
      var nx = Number(x), ny = Number(y);
      return dir * (x !== "" && y !== "" && !isNaN(nx) && !isNaN(ny) ? nx - ny : x.localeCompare(y));
    }).forEach(function (r) { body.appendChild(r); });
  });
});
</script>`
