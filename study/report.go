package study

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

	"github.com/bocdev/boc/internal/proc"
)

// tracedResult is what boc study reads of a program's run --json --trace.
type tracedResult struct {
	Trace []tracedStep `json:"trace"`
}

// tracedStep is one evaluation of the trace, with the recommendation after it.
type tracedStep struct {
	Value                *float64        `json:"value"`
	UnsafeEvaluations    *int            `json:"unsafe_evaluations"`
	Violations           *int            `json:"violations"`
	Unmet                *int            `json:"unmet"`
	Robust               optionalNumber  `json:"robust"`
	Recommendation       json.RawMessage `json:"recommendation"`
	RecommendationValue  *float64        `json:"recommendation_value"`
	RecommendationRobust optionalNumber  `json:"recommendation_robust"`
	BestObservedValue    *float64        `json:"best_observed_value"`
	TrulyFeasible        *bool           `json:"truly_feasible"`
}

// infeasible reports whether the step has no recommendation (no evaluated
// point meets the requirements) or one that truly breaks one.
func (s tracedStep) infeasible() bool {
	return string(s.Recommendation) == "null" || s.TrulyFeasible != nil && !*s.TrulyFeasible
}

// optionalNumber is a JSON number that may be absent, which is not the same
// as null: programs without input noise omit "recommendation_robust", and
// ones with it write null where the robust value is unknown.
type optionalNumber struct {
	present bool
	value   *float64
}

func (n *optionalNumber) UnmarshalJSON(b []byte) error {
	n.present = true
	return json.Unmarshal(b, &n.value)
}

// run runs the program for one seed, up to the last budget, and records its
// regrets after each evaluation.
func (r trial) run(ctx context.Context, budgets []int) error {
	last := budgets[len(budgets)-1]
	args := []string{"run", "--json", "--trace", "--seed", strconv.Itoa(r.seed), "--budget", strconv.Itoa(last)}
	if r.method.random {
		args = append(args, "--random-search")
	}
	cmd := exec.CommandContext(ctx, r.method.exe, args...)
	proc.EndWithParent(cmd)
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
	if err := r.record(stdout.Bytes(), budgets); err != nil {
		return fmt.Errorf("%s: %v", what, err)
	}
	return nil
}

// record reads the output of a program's run --json --trace and records its
// regrets after each evaluation, and its robust values when it reports them.
// A run that stopped early (stop when, an exhausted domain) keeps its last
// values for the evaluations it did not make.
func (r trial) record(output []byte, budgets []int) error {
	if r.problem.hasSeveral() {
		return r.recordSeveral(output, budgets)
	}
	var res tracedResult
	if err := json.Unmarshal(output, &res); err != nil {
		return fmt.Errorf("reading the program's output: %v", err)
	}
	if len(res.Trace) == 0 {
		return errors.New("the program made no evaluation")
	}
	m, s := r.method, r.seed-1
	m.evaluations[s] = len(res.Trace)
	m.robustReported[s] = res.Trace[0].RecommendationRobust.present
	safety := res.Trace[0].Violations != nil || res.Trace[0].Unmet != nil
	m.safetyReported[s] = safety
	m.unsafeReported[s] = res.Trace[0].UnsafeEvaluations != nil
	m.requiresReported[s] = res.Trace[0].TrulyFeasible != nil
	for k, b := range budgets {
		m.recommended[k][s] = res.Trace[min(b, len(res.Trace))-1].Recommendation
	}
	last := min(len(res.Trace), budgets[len(budgets)-1])
	r.recordEvaluatedRobust(res.Trace[:last])
	if err := r.recordAverageRegret(res.Trace[:last], safety); err != nil {
		return err
	}
	for i, step := range res.Trace[:last] {
		m.infeasible[i][s] = 0
		if step.infeasible() {
			// Left out of the quartiles, and counted.
			m.infeasible[i][s] = 1
			step.RecommendationValue = nil
		}
		if o := r.problem.optimisers; o != nil && !step.infeasible() {
			d, err := o.distance(step.Recommendation)
			if err != nil {
				return fmt.Errorf("after %d evaluations: %v", i+1, err)
			}
			m.distance[i][s] = d
		}
		m.robustValue[i][s] = math.NaN()
		if v := step.RecommendationRobust.value; v != nil {
			m.robustValue[i][s] = *v
		}
		for _, cell := range []struct {
			value *float64
			table [][]float64
		}{{step.RecommendationValue, m.recommendation}, {step.BestObservedValue, m.bestObserved}} {
			if cell.value == nil && step.infeasible() {
				cell.table[i][s] = math.NaN()
				continue
			}
			regret, err := r.problem.regret(cell.value, safety)
			if err != nil {
				return fmt.Errorf("after %d evaluations: %v", i+1, err)
			}
			cell.table[i][s] = regret
		}
	}
	for _, t := range m.perEvaluation() {
		for i := last; i < len(*t); i++ {
			(*t)[i][s] = (*t)[last-1][s]
		}
	}
	return nil
}

// recordAverageRegret records the mean regret of the evaluated points after
// each evaluation (NaN once a value is unknown) and, with simulated
// constraints, the truly unsafe evaluations among them.
func (r trial) recordAverageRegret(trace []tracedStep, safety bool) error {
	s, sum := r.seed-1, 0.0
	for i, step := range trace {
		regret := math.NaN()
		if step.Value != nil {
			var err error
			if regret, err = r.problem.regret(step.Value, safety); err != nil {
				return fmt.Errorf("evaluation %d: %v", i+1, err)
			}
		}
		sum += regret
		r.method.averageRegret[i][s] = sum / float64(i+1)
		r.method.unsafe[i][s] = math.NaN()
		if u := step.UnsafeEvaluations; u != nil {
			r.method.unsafe[i][s] = float64(*u)
		}
	}
	return nil
}

// recordEvaluatedRobust records the mean robust value of the targets evaluated
// so far after each evaluation, and the best of them; NaN where a robust value
// is unknown.
func (r trial) recordEvaluatedRobust(trace []tracedStep) {
	s := r.seed - 1
	sum, best := 0.0, math.NaN()
	for i, step := range trace {
		v := math.NaN()
		if step.Robust.value != nil {
			v = *step.Robust.value
		}
		sum += v
		if !math.IsNaN(v) && (math.IsNaN(best) || r.problem.better(v, best)) {
			best = v
		}
		r.method.evaluatedRobust[i][s] = sum / float64(i+1)
	}
	r.method.bestEvaluated[s] = best
}

// regret is |f - f*| in the direction of optimisation. f* is known to a few
// digits only (Hartmann's published optima have six), so a value better than
// f* by less than a relative 1e-5 counts as regret 0; a value better by more
// means f* is wrong, except under unknown safety constraints (safety): f* is
// then the best truly safe value, which an unsafe point can beat, and the
// regret is negative.
func (p *Problem) regret(value *float64, safety bool) (float64, error) {
	if p.noOptimum && value != nil && !math.IsNaN(*value) {
		return *value, nil // the value itself: Problem.noOptimum
	}
	if safety && value != nil && !math.IsNaN(*value) {
		regret := *value - p.optimum
		if !p.minimum {
			regret = -regret
		}
		return regret, nil
	}
	return regretTo(value, p.optimum, p.minimum, "noise-free value", "optimum")
}

// robustRegret is the regret of a robust value against the robust optimum,
// clamped as regret is: the robust optimum is a numerical search's result.
func (p *Problem) robustRegret(value *float64) (float64, error) {
	return regretTo(value, p.robustOptimum, p.minimum, "robust value", "robust optimum")
}

// regretTo is the regret of value against optimum; what and optimumName name
// them in errors.
func regretTo(value *float64, optimum float64, minimum bool, what, optimumName string) (float64, error) {
	if value == nil || math.IsNaN(*value) {
		return 0, fmt.Errorf("the program reported no %s", what)
	}
	regret := *value - optimum
	if !minimum {
		regret = -regret
	}
	if regret < -1e-5*max(1, math.Abs(optimum)) {
		return 0, fmt.Errorf("the %s %g is better than the %s %g: is the %s right?", what, *value, optimumName, optimum, optimumName)
	}
	return max(regret, 0), nil
}

// judgeRobust computes the robust regrets of a problem whose programs
// report robust values: it runs robust-optimum once for the robust optimum.
// When that is only the best a local search found (more than 2 components),
// the best robust value of any recommendation or evaluated target of the
// study stands for it if better, so that robust regrets stay >= 0, and
// robustNote says so.
func (p *Problem) judgeRobust(ctx context.Context, log io.Writer) error {
	exe := ""
	for _, m := range p.methods {
		if m.skipped == "" && slices.Contains(m.robustReported, true) {
			p.robustReported, exe = true, m.exe
		}
	}
	if !p.robustReported {
		return nil
	}
	fmt.Fprintf(log, "boc study: finding the robust optimum of %s\n", p.path)
	cmd := exec.CommandContext(ctx, exe, "robust-optimum", "--json")
	proc.EndWithParent(cmd)
	cmd.Dir = filepath.Dir(p.path)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: robust-optimum: %v\n%s", p.path, err, stderr.String())
	}
	optimum, exhaustive, err := parseRobustOptimum(stdout.Bytes())
	if err != nil {
		return fmt.Errorf("%s: robust-optimum: %v", p.path, err)
	}
	p.robustOptimum = optimum
	if !exhaustive {
		if best, ok := p.bestRobustValue(); ok && p.better(best, optimum) {
			p.robustOptimum = best
		}
		p.robustNote = fmt.Sprintf("with %d components, the best robust value of the domain is the best a multi-start local search "+
			"found or, when better, the best of a recommendation or evaluated target of this study; the robust regrets may be understated", p.components)
		fmt.Fprintf(log, "boc study: %s: note: %s\n", p.path, p.robustNote)
	}
	return p.robustRegrets()
}

// better says whether robust value a is better than b in the direction of
// optimisation.
func (p *Problem) better(a, b float64) bool {
	if p.minimum {
		return a < b
	}
	return a > b
}

// bestRobustValue is the best robust value of a recommendation or an
// evaluated target of any run of the problem; false when none is known.
func (p *Problem) bestRobustValue() (float64, bool) {
	best, found := math.NaN(), false
	for _, m := range p.methods {
		if m.skipped != "" {
			continue
		}
		for _, values := range slices.Concat(m.robustValue, [][]float64{m.bestEvaluated}) {
			for _, v := range values {
				if !math.IsNaN(v) && (!found || p.better(v, best)) {
					best, found = v, true
				}
			}
		}
	}
	return best, found
}

// parseRobustOptimum reads robust-optimum --json's
// {"x": [...], "robust": value, "exhaustive": bool}.
func parseRobustOptimum(output []byte) (robust float64, exhaustive bool, err error) {
	var out struct {
		X          []float64 `json:"x"`
		Robust     *float64  `json:"robust"`
		Exhaustive *bool     `json:"exhaustive"`
	}
	if err := json.Unmarshal(output, &out); err != nil {
		return 0, false, fmt.Errorf("reading the output: %v", err)
	}
	if out.Robust == nil || len(out.X) == 0 || out.Exhaustive == nil {
		return 0, false, fmt.Errorf(`want {"x": [...], "robust": value, "exhaustive": bool}, got %s`, bytes.TrimSpace(output))
	}
	return *out.Robust, *out.Exhaustive, nil
}

// robustRegrets fills in the robust regrets of every method from its robust
// values and the robust optimum: the recommendations' and the evaluated
// targets' mean.
func (p *Problem) robustRegrets() error {
	for _, m := range p.methods {
		if m.skipped != "" {
			continue
		}
		var err error
		if m.robust, err = p.robustRegretsOf(m, m.robustValue); err != nil {
			return err
		}
		if m.evaluated, err = p.robustRegretsOf(m, m.evaluatedRobust); err != nil {
			return err
		}
	}
	return nil
}

// robustRegretsOf returns the robust regrets of a method's robust values,
// values[i][s] after i+1 evaluations with seed s+1.
func (p *Problem) robustRegretsOf(m *method, values [][]float64) ([][]float64, error) {
	regrets := perRun[float64](len(values), len(m.robustReported))
	for k := range values {
		for s, v := range values[k] {
			if !m.robustReported[s] {
				return nil, fmt.Errorf("%s with %s, seed %d: the program reported no robust value", p.path, m.name, s+1)
			}
			regret, err := p.robustRegret(&v)
			if err != nil {
				return nil, fmt.Errorf("%s with %s, seed %d: %v", p.path, m.name, s+1, err)
			}
			regrets[k][s] = regret
		}
	}
	return regrets, nil
}

// quartiles are the median and the lower and upper quartiles of a sample,
// NaN (null in JSON) when it is empty.
type quartiles struct {
	Q1     float64 `json:"q1"`
	Median float64 `json:"median"`
	Q3     float64 `json:"q3"`
}

func (q quartiles) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Q1     number `json:"q1"`
		Median number `json:"median"`
		Q3     number `json:"q3"`
	}{number(q.Q1), number(q.Median), number(q.Q3)})
}

// number is a float64 that JSON writes as null when it is NaN: a run
// without a value there.
type number float64

func (n number) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(n)) {
		return []byte("null"), nil
	}
	return json.Marshal(float64(n))
}

// summarise returns the quartiles of xs, interpolating linearly between order
// statistics (the definition of R's default and numpy's percentile). NaNs,
// which stand for runs without a value (an infeasible recommendation), are
// left out.
func summarise(xs []float64) quartiles {
	s := slices.Sorted(slices.Values(slices.DeleteFunc(slices.Clone(xs), math.IsNaN)))
	if len(s) == 0 {
		return quartiles{math.NaN(), math.NaN(), math.NaN()}
	}
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

// studyRegret is one table of a study.
type studyRegret struct {
	title string
	of    func(*method) [][]float64
	// measure says what the table measures when it is not the regret of
	// the noise-free objective, or of the robust value (robust).
	measure string
	// robust marks the robust regret, which only problems with input noise
	// have: the table lists only those, and only when there are any.
	robust bool
	// only, if set, lists only the problems it holds for (problems with
	// unknown safety constraints), and the table only when there are any.
	only func(*Problem) bool
	// needsOptimum lists the problems whose optimum is known; values those
	// whose optimum is not, whose tables hold noise-free values.
	needsOptimum, values bool
	// count marks a table of counts, 0 or 1 per seed: it shows their
	// total over the seeds.
	count bool
	// axis names the measure on a plot's y axis; a problem's plot of it is
	// the file PROBLEM + file + .svg (and .png).
	axis, file string
	// several marks the tables of problems with several objectives, which
	// list no other (pareto.go).
	several bool
}

// studyRegrets are the regrets of a study.
var studyRegrets = []studyRegret{
	{title: "Regret of the recommendation (the evaluated point with the best posterior mean)", needsOptimum: true,
		of: func(m *method) [][]float64 { return m.recommendation }, axis: "regret of the recommendation"},
	{title: "Regret of the best observed point", needsOptimum: true,
		of: func(m *method) [][]float64 { return m.bestObserved }, axis: "regret of the best observed point", file: "_best_observed"},
	{title: "Noise-free value of the recommendation (the optimum is unknown: a regret needs --optimum)", values: true, measure: valueMeasure,
		of: func(m *method) [][]float64 { return m.recommendation }, axis: "noise-free value of the recommendation", file: "_value"},
	{title: "Noise-free value of the best observed point", values: true, measure: valueMeasure,
		of: func(m *method) [][]float64 { return m.bestObserved }, axis: "noise-free value of the best observed point", file: "_best_observed_value"},
	{title: "Distance of the recommendation to the optimiser",
		of: func(m *method) [][]float64 { return m.distance }, measure: distanceMeasure, only: (*Problem).knowsOptimisers,
		axis: "distance of the recommendation to the optimiser", file: "_distance"},
	{title: "Robust regret of the recommendation (E over the input noise)",
		of: func(m *method) [][]float64 { return m.robust }, robust: true, axis: "robust regret of the recommendation", file: "_robust"},
	{title: "Mean robust regret of the evaluated targets (the average over the evaluations so far)",
		of: func(m *method) [][]float64 { return m.evaluated }, robust: true,
		axis: "mean robust regret of the evaluated targets", file: "_robust_evaluated"},
	{title: "Average regret of the evaluated points (cumulative regret over the evaluations so far, divided by their number: the SGP-UCB paper's measure)",
		of: func(m *method) [][]float64 { return m.averageRegret }, only: (*Problem).reportsSafety, needsOptimum: true,
		axis: "average regret of the evaluated points", file: "_average_regret"},
	{title: "Average noise-free value of the evaluated points", values: true, measure: valueMeasure,
		of: func(m *method) [][]float64 { return m.averageRegret }, only: (*Problem).reportsSafety,
		axis: "average noise-free value of the evaluated points", file: "_average_value"},
	{title: "Unsafe evaluations so far (simulated constraints truly broken)",
		of: func(m *method) [][]float64 { return m.unsafe }, only: (*Problem).reportsUnsafe,
		axis: "unsafe evaluations so far", file: "_unsafe"},
	{title: "Hypervolume gap of the Pareto set (the evaluated points the program reports, by their noise-free values)", several: true,
		measure: hypervolumeMeasure, of: func(m *method) [][]float64 { return m.recommendation },
		axis: "log10 hypervolume gap of the Pareto set", file: "_front_gap"},
	{title: "Hypervolume gap of the evaluated points (every one that truly meets the requirements)", several: true,
		measure: hypervolumeMeasure, of: func(m *method) [][]float64 { return m.bestObserved },
		axis: "log10 hypervolume gap of the evaluated points", file: "_evaluated_gap"},
	{title: "Runs without a feasible recommendation (none, or one that truly breaks a simulated requirement; the regrets leave them out)",
		of: func(m *method) [][]float64 { return m.infeasible }, only: (*Problem).reportsRequirements, count: true,
		measure: infeasibleMeasure, axis: "runs without a feasible recommendation", file: "_infeasible"},
}

// Measures of the regret tables, for their headers.
const (
	noiseFreeMeasure  = "the noise-free objective minus the optimum"
	robustMeasure     = "the robust value (the noise-free objective's mean over the input noise) minus the best robust value of the domain"
	distanceMeasure   = "the Euclidean distance, in the domain's units, from the recommendation to the nearest known optimiser"
	valueMeasure      = "the noise-free objective, for problems whose optimum is unknown"
	infeasibleMeasure = "the number of seeds, not quartiles"
)

// measureOf is what a table measures.
func (r studyRegret) measureOf() string {
	switch {
	case r.measure != "":
		return r.measure
	case r.robust:
		return robustMeasure
	}
	return noiseFreeMeasure
}

// knowsOptimisers reports whether a problem's optimisers are known, so
// that distances to them are measured.
func (p *Problem) knowsOptimisers() bool { return p.optimisers != nil }

// studyHeader says what the tables of a measure show.
func studyHeader(cfg Config, measure string) string {
	return fmt.Sprintf("median [lower quartile, upper quartile] over seeds 1..%d of %s, after each number of evaluations", cfg.Seeds, measure)
}

// tableProblems returns the problems a table lists.
func tableProblems(r studyRegret, problems []*Problem) []*Problem {
	var out []*Problem
	for _, p := range problems {
		if r.lists(p) {
			out = append(out, p)
		}
	}
	return out
}

// lists reports whether a table lists a problem: any, or for the robust
// regret one with input noise, or one its only holds for.
func (r studyRegret) lists(p *Problem) bool {
	switch {
	case r.several != p.hasSeveral():
		return false
	case r.needsOptimum && p.noOptimum, r.values && !p.noOptimum:
		return false
	case r.robust:
		return p.robustReported
	case r.only != nil:
		return r.only(p)
	}
	return true
}

// reportsSafety reports whether a problem's runs reported unknown safety
// constraints, and reportsUnsafe whether they counted truly unsafe
// evaluations (the constraints are simulated).
func (p *Problem) reportsSafety() bool {
	return p.anyRun(func(m *method) []bool { return m.safetyReported })
}
func (p *Problem) reportsUnsafe() bool {
	return p.anyRun(func(m *method) []bool { return m.unsafeReported })
}

// reportsRequirements reports whether a problem's runs judged their
// recommendations by simulated requirements.
func (p *Problem) reportsRequirements() bool {
	return p.anyRun(func(m *method) []bool { return m.requiresReported })
}

// anyRun reports whether a flag of some method's run is set.
func (p *Problem) anyRun(flags func(*method) []bool) bool {
	for _, m := range p.methods {
		if slices.Contains(flags(m), true) {
			return true
		}
	}
	return false
}

// cells returns, per budget, the formatted quartiles of a method's regret,
// or the reason it was skipped.
func cells(cfg Config, p *Problem, m *method, r studyRegret) []string {
	out := make([]string, len(cfg.Budgets))
	if m.skipped != "" {
		out[0] = "skipped: " + m.skipped
		return out
	}
	for k, b := range cfg.Budgets {
		values := r.of(m)[b-1]
		switch q := summarise(values); {
		case r.count:
			out[k] = strconv.Itoa(int(total(values)))
		case math.IsNaN(q.Median):
			out[k] = "none"
		default:
			out[k] = fmt.Sprintf("%s [%s, %s]", formatRegret(q.Median), formatRegret(q.Q1), formatRegret(q.Q3))
		}
	}
	return out
}

// total is the sum of xs.
func total(xs []float64) float64 {
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	return sum
}

func formatRegret(x float64) string { return strconv.FormatFloat(x, 'g', 3, 64) }

// earlyStop is a run that stopped before the study's last budget.
type earlyStop struct {
	Seed        int `json:"seed"`
	Evaluations int `json:"evaluations"`
}

// earlyStops lists a method's runs that stopped before the last budget.
func earlyStops(cfg Config, m *method) []earlyStop {
	var out []earlyStop
	for s, n := range m.evaluations {
		if n < cfg.Budgets[len(cfg.Budgets)-1] {
			out = append(out, earlyStop{Seed: s + 1, Evaluations: n})
		}
	}
	return out
}

// writeEarlyStops says which runs stopped early, so that a reader knows which
// table cells carry a run's last values forward.
func writeEarlyStops(w io.Writer, cfg Config, problems []*Problem) {
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

func WriteText(w io.Writer, cfg Config, problems []*Problem) {
	fmt.Fprintln(w, studyHeader(cfg, noiseFreeMeasure)+".")
	for _, r := range studyRegrets {
		listed := tableProblems(r, problems)
		if len(listed) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s:\n", r.title)
		if r.measureOf() != noiseFreeMeasure {
			fmt.Fprintf(w, "(%s)\n", r.measureOf())
		}
		tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
		header := []string{"problem", "method"}
		for _, b := range cfg.Budgets {
			header = append(header, strconv.Itoa(b))
		}
		fmt.Fprintln(tw, strings.Join(header, "\t"))
		for _, p := range listed {
			for _, m := range p.methods {
				fmt.Fprintln(tw, strings.Join(append([]string{p.name, m.name}, cells(cfg, p, m, r)...), "\t"))
			}
		}
		tw.Flush()
		if r.robust {
			writeRobustNotes(w, listed)
		}
	}
	writeEarlyStops(w, cfg, problems)
}

// writeRobustNotes says, after the robust regret table, which problems'
// robust optimum is only the best known.
func writeRobustNotes(w io.Writer, problems []*Problem) {
	for _, p := range problems {
		if p.robustNote != "" {
			fmt.Fprintf(w, "\nNote on %s: %s.\n", p.name, p.robustNote)
		}
	}
}

func WriteMarkdown(w io.Writer, cfg Config, problems []*Problem) {
	escape := strings.NewReplacer("|", `\|`).Replace
	for i, r := range studyRegrets {
		listed := tableProblems(r, problems)
		if len(listed) == 0 {
			continue
		}
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s: %s.\n\n", r.title, studyHeader(cfg, r.measureOf()))
		fmt.Fprint(w, "| problem | method |")
		for _, b := range cfg.Budgets {
			fmt.Fprintf(w, " %d |", b)
		}
		fmt.Fprint(w, "\n| --- | --- |")
		fmt.Fprint(w, strings.Repeat(" ---: |", len(cfg.Budgets)))
		fmt.Fprintln(w)
		for _, p := range listed {
			for _, m := range p.methods {
				row := append([]string{p.name, "`" + m.name + "`"}, cells(cfg, p, m, r)...)
				for j := range row {
					row[j] = escape(row[j])
				}
				fmt.Fprintf(w, "| %s |\n", strings.Join(row, " | "))
			}
		}
		if r.robust {
			writeRobustNotes(w, listed)
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
	Problem string   `json:"problem"`
	File    string   `json:"file"`
	Optimum *float64 `json:"optimum,omitempty"`
	// Measure is "regret", or "value" when the optimum is unknown: the
	// quartiles and runs then hold noise-free values; with several
	// objectives "log10 hypervolume gap", of the Pareto set in
	// Recommendation and of every evaluated point in BestObserved.
	Measure string `json:"measure"`
	Method  string `json:"method"`
	Skipped string `json:"skipped,omitempty"`
	// Recommendation and BestObserved hold the quartiles of the regrets,
	// one per budget.
	Recommendation []quartiles `json:"recommendation,omitempty"`
	BestObserved   []quartiles `json:"best_observed,omitempty"`
	// Distance holds the quartiles of the recommendation's distance to the
	// nearest known optimiser, for a benchmark whose optimisers are known.
	Distance []quartiles `json:"distance,omitempty"`
	// For problems with input noise: RobustOptimum is the best robust value
	// of the domain and RecommendationRobust the quartiles of the robust
	// regrets; RobustOptimumNote, if not empty, says why the robust optimum
	// is only the best known.
	RobustOptimum        *float64    `json:"robust_optimum,omitempty"`
	RecommendationRobust []quartiles `json:"recommendation_robust,omitempty"`
	RobustOptimumNote    string      `json:"robust_optimum_note,omitempty"`
	// EvaluatedRobust holds the quartiles of the mean robust regret of the
	// targets evaluated up to each budget.
	EvaluatedRobust []quartiles `json:"evaluated_robust,omitempty"`
	// For problems with unknown safety constraints: AverageRegret holds the
	// quartiles of the mean regret of the points evaluated up to each budget,
	// and UnsafeEvaluations those of the number of them whose simulated
	// constraints were truly broken.
	AverageRegret     []quartiles `json:"average_regret,omitempty"`
	UnsafeEvaluations []quartiles `json:"unsafe_evaluations,omitempty"`
	// InfeasibleRecommendations counts, for problems with simulated
	// requirements, the runs without a feasible recommendation after each
	// budget, which the quartiles of the regrets leave out.
	InfeasibleRecommendations []int `json:"infeasible_recommendations,omitempty"`
	// StoppedEarly lists the runs that made fewer evaluations than the last
	// budget; their last values stand for the budgets they did not reach.
	StoppedEarly []earlyStop `json:"stopped_early,omitempty"`
	// Runs are the seeds' own results, which the quartiles summarise.
	Runs []studyJSONRun `json:"runs,omitempty"`
}

// studyJSONRun is one seed's run: per budget, the recommended point (as the
// program wrote it) and its regrets.
type studyJSONRun struct {
	Seed           int               `json:"seed"`
	Recommendation []json.RawMessage `json:"recommendation"`
	// Regret and Distance are null where the run had no feasible
	// recommendation (Infeasible).
	Regret             []number  `json:"regret"`
	BestObservedRegret []float64 `json:"best_observed_regret"`
	Distance           []number  `json:"distance,omitempty"`
	// Infeasible says, for a problem with simulated requirements, whether
	// the run had no recommendation or one that truly breaks one.
	Infeasible   []bool    `json:"infeasible,omitempty"`
	RobustRegret []float64 `json:"robust_regret,omitempty"`
	// EvaluatedRobustRegret is the mean robust regret of the targets
	// evaluated up to each budget.
	EvaluatedRobustRegret []float64 `json:"evaluated_robust_regret,omitempty"`
	// AverageRegret and UnsafeEvaluations are, for a safe problem, the mean
	// regret of the evaluated points and their truly unsafe number.
	AverageRegret     []number `json:"average_regret,omitempty"`
	UnsafeEvaluations []number `json:"unsafe_evaluations,omitempty"`
}

// runs lists a method's runs seed by seed.
func runs(cfg Config, p *Problem, m *method) []studyJSONRun {
	out := make([]studyJSONRun, cfg.Seeds)
	for s := range out {
		r := &out[s]
		r.Seed = s + 1
		for k, b := range cfg.Budgets {
			r.Recommendation = append(r.Recommendation, m.recommended[k][s])
			r.Regret = append(r.Regret, number(m.recommendation[b-1][s]))
			r.BestObservedRegret = append(r.BestObservedRegret, m.bestObserved[b-1][s])
			if p.knowsOptimisers() {
				r.Distance = append(r.Distance, number(m.distance[b-1][s]))
			}
			if p.reportsRequirements() {
				r.Infeasible = append(r.Infeasible, m.infeasible[b-1][s] == 1)
			}
			if p.robustReported {
				r.RobustRegret = append(r.RobustRegret, m.robust[b-1][s])
				r.EvaluatedRobustRegret = append(r.EvaluatedRobustRegret, m.evaluated[b-1][s])
			}
			if p.reportsSafety() {
				r.AverageRegret = append(r.AverageRegret, number(m.averageRegret[b-1][s]))
			}
			if p.reportsUnsafe() {
				r.UnsafeEvaluations = append(r.UnsafeEvaluations, number(m.unsafe[b-1][s]))
			}
		}
	}
	return out
}

func WriteJSON(w io.Writer, cfg Config, problems []*Problem) error {
	out := studyJSON{Seeds: cfg.Seeds, Budgets: cfg.Budgets, Results: []studyJSONCase{}}
	for _, p := range problems {
		for _, m := range p.methods {
			c := studyJSONCase{Problem: p.name, File: p.path, Measure: "regret", Method: m.name, Skipped: m.skipped}
			switch {
			case p.hasSeveral():
				c.Measure = "log10 hypervolume gap"
				c.Optimum = &p.optimum
			case p.noOptimum:
				c.Measure = "value"
			default:
				c.Optimum = &p.optimum
			}
			if m.skipped == "" {
				for _, b := range cfg.Budgets {
					c.Recommendation = append(c.Recommendation, summarise(m.recommendation[b-1]))
					c.BestObserved = append(c.BestObserved, summarise(m.bestObserved[b-1]))
					if p.knowsOptimisers() {
						c.Distance = append(c.Distance, summarise(m.distance[b-1]))
					}
				}
				c.StoppedEarly = earlyStops(cfg, m)
				c.Runs = runs(cfg, p, m)
				for _, b := range cfg.Budgets {
					if p.reportsSafety() {
						c.AverageRegret = append(c.AverageRegret, summarise(m.averageRegret[b-1]))
					}
					if p.reportsUnsafe() {
						c.UnsafeEvaluations = append(c.UnsafeEvaluations, summarise(m.unsafe[b-1]))
					}
					if p.reportsRequirements() {
						c.InfeasibleRecommendations = append(c.InfeasibleRecommendations, int(total(m.infeasible[b-1])))
					}
				}
				if p.robustReported {
					c.RobustOptimum, c.RobustOptimumNote = &p.robustOptimum, p.robustNote
					for _, b := range cfg.Budgets {
						c.RecommendationRobust = append(c.RecommendationRobust, summarise(m.robust[b-1]))
						c.EvaluatedRobust = append(c.EvaluatedRobust, summarise(m.evaluated[b-1]))
					}
				}
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
