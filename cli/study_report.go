package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
)

// tracedResult is what boc study reads of a program's run --json --trace.
type tracedResult struct {
	Trace []struct {
		RecommendationValue *float64 `json:"recommendation_value"`
		BestObservedValue   *float64 `json:"best_observed_value"`
	} `json:"trace"`
}

// run runs the program for one seed and records its regrets after each
// budget. A run that stopped early (stop when, an exhausted domain) keeps
// its final recommendation for the larger budgets.
func (r studyRun) run(ctx context.Context, budgets []int) error {
	last := budgets[len(budgets)-1]
	args := []string{"run", "--json", "--trace", "--seed", strconv.Itoa(r.seed), "--budget", strconv.Itoa(last)}
	if r.method.random {
		args = append(args, "--random-search")
	}
	cmd := exec.CommandContext(ctx, r.method.exe, args...)
	cmd.Dir = filepath.Dir(r.problem.path)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	what := fmt.Sprintf("%s with %s, seed %d", r.problem.path, r.method.name, r.seed)
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("%s: %v\n%s", what, err, stderr.String())
	}
	var res tracedResult
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		return fmt.Errorf("%s: reading the program's output: %v", what, err)
	}
	if len(res.Trace) == 0 {
		return fmt.Errorf("%s: the program made no evaluation", what)
	}
	r.method.evaluations[r.seed-1] = len(res.Trace)
	for k, b := range budgets {
		step := res.Trace[min(b, len(res.Trace))-1]
		for _, cell := range []struct {
			value *float64
			table [][]float64
		}{{step.RecommendationValue, r.method.recommendation}, {step.BestObservedValue, r.method.bestObserved}} {
			regret, err := r.problem.regret(cell.value)
			if err != nil {
				return fmt.Errorf("%s, after %d evaluations: %v", what, b, err)
			}
			cell.table[k][r.seed-1] = regret
		}
	}
	return nil
}

// regret is |f - f*| in the direction of optimisation. f* is known to a few
// digits only (Hartmann's published optima have six), so a value better than
// f* by less than a relative 1e-5 counts as regret 0; a value better by more
// means f* is wrong.
func (p *studyProblem) regret(value *float64) (float64, error) {
	if value == nil {
		return 0, errors.New("the program reported no noise-free value")
	}
	regret := *value - p.optimum
	if !p.minimum {
		regret = -regret
	}
	if regret < -1e-5*max(1, math.Abs(p.optimum)) {
		return 0, fmt.Errorf("the value %g is better than the optimum %g: is the optimum right?", *value, p.optimum)
	}
	return max(regret, 0), nil
}

// quartiles are the median and the lower and upper quartiles of a sample.
type quartiles struct {
	Q1     float64 `json:"q1"`
	Median float64 `json:"median"`
	Q3     float64 `json:"q3"`
}

// summarise returns the quartiles of xs, interpolating linearly between order
// statistics (the definition of R's default and numpy's percentile).
func summarise(xs []float64) quartiles {
	s := slices.Sorted(slices.Values(xs))
	at := func(q float64) float64 {
		h := q * float64(len(s)-1)
		i := int(h)
		if i+1 >= len(s) {
			return s[len(s)-1]
		}
		return s[i] + (h-float64(i))*(s[i+1]-s[i])
	}
	return quartiles{Q1: at(0.25), Median: at(0.5), Q3: at(0.75)}
}

// studyRegrets names the two regrets of a study.
var studyRegrets = []struct {
	key, title string
	of         func(*studyMethod) [][]float64
}{
	{"recommendation", "Regret of the recommendation (the evaluated point with the best posterior mean)",
		func(m *studyMethod) [][]float64 { return m.recommendation }},
	{"best_observed", "Regret of the best observed point",
		func(m *studyMethod) [][]float64 { return m.bestObserved }},
}

// studyHeader says what the tables show.
func studyHeader(cfg studyConfig) string {
	return fmt.Sprintf("median [lower quartile, upper quartile] over seeds 1..%d of the noise-free objective minus the optimum, after each number of evaluations", cfg.seeds)
}

// cells returns, per budget, the formatted quartiles of a method's regret,
// or the reason it was skipped.
func cells(cfg studyConfig, m *studyMethod, of func(*studyMethod) [][]float64) []string {
	out := make([]string, len(cfg.budgets))
	if m.skipped != "" {
		out[0] = "skipped: " + m.skipped
		return out
	}
	for k, regrets := range of(m) {
		q := summarise(regrets)
		out[k] = fmt.Sprintf("%s [%s, %s]", formatRegret(q.Median), formatRegret(q.Q1), formatRegret(q.Q3))
	}
	return out
}

func formatRegret(x float64) string { return strconv.FormatFloat(x, 'g', 3, 64) }

// earlyStop is a run that stopped before the study's last budget.
type earlyStop struct {
	Seed        int `json:"seed"`
	Evaluations int `json:"evaluations"`
}

// earlyStops lists a method's runs that stopped before the last budget.
func earlyStops(cfg studyConfig, m *studyMethod) []earlyStop {
	var out []earlyStop
	for s, n := range m.evaluations {
		if n < cfg.budgets[len(cfg.budgets)-1] {
			out = append(out, earlyStop{Seed: s + 1, Evaluations: n})
		}
	}
	return out
}

// writeEarlyStops says which runs stopped early, so that a reader knows which
// table cells carry a run's last values forward.
func writeEarlyStops(w io.Writer, cfg studyConfig, problems []*studyProblem) {
	for _, p := range problems {
		for _, m := range p.methods {
			stops := earlyStops(cfg, m)
			if len(stops) == 0 {
				continue
			}
			runs := make([]string, len(stops))
			for i, st := range stops {
				runs[i] = fmt.Sprintf("seed %d after %d", st.Seed, st.Evaluations)
			}
			fmt.Fprintf(w, "\n%s with %s stopped early (%s evaluations); its last values stand for the budgets it did not reach.\n",
				p.name, m.name, strings.Join(runs, ", "))
		}
	}
}

func writeStudyText(w io.Writer, cfg studyConfig, problems []*studyProblem) {
	fmt.Fprintln(w, studyHeader(cfg)+".")
	for _, r := range studyRegrets {
		fmt.Fprintf(w, "\n%s:\n", r.title)
		tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
		header := []string{"problem", "method"}
		for _, b := range cfg.budgets {
			header = append(header, strconv.Itoa(b))
		}
		fmt.Fprintln(tw, strings.Join(header, "\t"))
		for _, p := range problems {
			for _, m := range p.methods {
				fmt.Fprintln(tw, strings.Join(append([]string{p.name, m.name}, cells(cfg, m, r.of)...), "\t"))
			}
		}
		tw.Flush()
	}
	writeEarlyStops(w, cfg, problems)
}

func writeStudyMarkdown(w io.Writer, cfg studyConfig, problems []*studyProblem) {
	escape := strings.NewReplacer("|", `\|`).Replace
	for i, r := range studyRegrets {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s: %s.\n\n", r.title, studyHeader(cfg))
		fmt.Fprint(w, "| problem | method |")
		for _, b := range cfg.budgets {
			fmt.Fprintf(w, " %d |", b)
		}
		fmt.Fprint(w, "\n| --- | --- |")
		fmt.Fprint(w, strings.Repeat(" ---: |", len(cfg.budgets)))
		fmt.Fprintln(w)
		for _, p := range problems {
			for _, m := range p.methods {
				row := append([]string{p.name, "`" + m.name + "`"}, cells(cfg, m, r.of)...)
				for j := range row {
					row[j] = escape(row[j])
				}
				fmt.Fprintf(w, "| %s |\n", strings.Join(row, " | "))
			}
		}
	}
	writeEarlyStops(w, cfg, problems)
}

// studyJSON is the output of boc study --json.
type studyJSON struct {
	Seeds   int             `json:"seeds"`
	Budgets []int           `json:"budgets"`
	Results []studyJSONCase `json:"results"`
}

type studyJSONCase struct {
	Problem string  `json:"problem"`
	File    string  `json:"file"`
	Optimum float64 `json:"optimum"`
	Method  string  `json:"method"`
	Skipped string  `json:"skipped,omitempty"`
	// Recommendation and BestObserved hold the quartiles of the regrets,
	// one per budget.
	Recommendation []quartiles `json:"recommendation,omitempty"`
	BestObserved   []quartiles `json:"best_observed,omitempty"`
	// StoppedEarly lists the runs that made fewer evaluations than the last
	// budget; their last values stand for the budgets they did not reach.
	StoppedEarly []earlyStop `json:"stopped_early,omitempty"`
}

func writeStudyJSON(w io.Writer, cfg studyConfig, problems []*studyProblem) error {
	out := studyJSON{Seeds: cfg.seeds, Budgets: cfg.budgets, Results: []studyJSONCase{}}
	for _, p := range problems {
		for _, m := range p.methods {
			c := studyJSONCase{Problem: p.name, File: p.path, Optimum: p.optimum, Method: m.name, Skipped: m.skipped}
			if m.skipped == "" {
				for k := range cfg.budgets {
					c.Recommendation = append(c.Recommendation, summarise(m.recommendation[k]))
					c.BestObserved = append(c.BestObserved, summarise(m.bestObserved[k]))
				}
				c.StoppedEarly = earlyStops(cfg, m)
			}
			out.Results = append(out.Results, c)
		}
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}
