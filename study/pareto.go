package study

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/runtime/pareto"
)

// A study of several objectives judges a run by the hypervolume its points'
// values without noise dominate above the reference point (every objective's
// threshold), as the log10 gap to the largest one, log10(HVmax − HV), HVmax
// given with --optimum: of the Pareto set the program reports (the
// recommendation's tables) and of every evaluated point that truly meets the
// simulated requirements (the best observed point's), the measure of
// bench/library/optuna_pareto.py.

// severalObjectives describes a problem's objectives for its study.
type severalObjectives struct {
	maximize  []bool
	reference []float64
	names     []string
	// requirements are the simulated requirements a point must truly meet
	// to count in the evaluated points' hypervolume.
	requirements []*ir.Constraint
}

// minGap is the smallest hypervolume gap a study tells apart: its log10 is
// the floor of the tables.
const minGap = 1e-12

// hypervolumeMeasure is what the tables of several objectives show.
const hypervolumeMeasure = "log10(HVmax − HV), HV the hypervolume the noise-free values dominate above the thresholds and HVmax the --optimum"

// prepareSeveral readies the study of a problem with several objectives:
// their thresholds make the reference point, --optimum the largest
// hypervolume.
func (p *Problem) prepareSeveral(prog *ir.Program, cfg Config) error {
	o := &severalObjectives{}
	for _, out := range prog.Objective.Outputs {
		if math.IsNaN(out.Threshold) {
			return fmt.Errorf("%s: objective %s has no threshold; a study of several objectives measures hypervolumes above a fixed reference point, every objective's threshold", p.path, out.Name)
		}
		o.maximize, o.reference, o.names = append(o.maximize, out.Maximize), append(o.reference, out.Threshold), append(o.names, out.Name)
	}
	for _, c := range prog.Constraints {
		if c.Outcome && c.Measured.Kind == ir.ExprBinding {
			o.requirements = append(o.requirements, c)
		}
	}
	if math.IsNaN(cfg.Optimum) {
		return fmt.Errorf("%s: a study of several objectives needs --optimum HVmax, the largest hypervolume the front can dominate above the thresholds", p.path)
	}
	p.optimum, p.several = cfg.Optimum, o
	return nil
}

// severalStep is what a study reads of a trace's step with several
// objectives.
type severalStep struct {
	TrueObjectives  map[string]*float64 `json:"true_objectives"`
	TrueConstraints map[string]*float64 `json:"true_constraints"`
	TrueHypervolume *float64            `json:"true_hypervolume"`
}

// recordSeveral records the log10 hypervolume gaps of a run of several
// objectives after each evaluation: of the Pareto set in the recommendation's
// table, of every evaluated point in the best observed point's.
func (r trial) recordSeveral(output []byte, budgets []int) error {
	var res struct {
		Trace []severalStep `json:"trace"`
	}
	if err := json.Unmarshal(output, &res); err != nil {
		return fmt.Errorf("reading the program's output: %v", err)
	}
	if len(res.Trace) == 0 {
		return errors.New("the program made no evaluation")
	}
	p, m, s := r.problem, r.method, r.seed-1
	o := p.several
	m.evaluations[s] = len(res.Trace)
	last := min(len(res.Trace), budgets[len(budgets)-1])
	var evaluated []float64
	for i, step := range res.Trace[:last] {
		if step.TrueHypervolume == nil {
			return fmt.Errorf("evaluation %d: the program reported no true_hypervolume", i+1)
		}
		values, err := o.values(step)
		if err != nil {
			return fmt.Errorf("evaluation %d: %v", i+1, err)
		}
		if o.trulyMet(step) {
			evaluated = append(evaluated, values...)
		}
		front, err := p.gap(*step.TrueHypervolume)
		if err != nil {
			return fmt.Errorf("evaluation %d: the Pareto set's %v", i+1, err)
		}
		all, err := p.gap(pareto.HypervolumeOf(evaluated, o.maximize, o.reference))
		if err != nil {
			return fmt.Errorf("evaluation %d: the evaluated points' %v", i+1, err)
		}
		m.recommendation[i][s], m.bestObserved[i][s] = front, all
		for _, t := range []*[][]float64{&m.distance, &m.robustValue, &m.evaluatedRobust, &m.averageRegret, &m.unsafe} {
			(*t)[i][s] = math.NaN()
		}
		m.infeasible[i][s] = 0
	}
	for k := range budgets {
		m.recommended[k][s] = json.RawMessage("null") // the result is a set
	}
	for _, t := range m.perEvaluation() {
		for i := last; i < len(*t); i++ {
			(*t)[i][s] = (*t)[last-1][s]
		}
	}
	return nil
}

// values are a step's objectives without noise, in order.
func (o *severalObjectives) values(step severalStep) ([]float64, error) {
	out := make([]float64, len(o.names))
	for j, name := range o.names {
		v := step.TrueObjectives[name]
		if v == nil {
			return nil, fmt.Errorf("the program reported no noise-free value of objective %s", name)
		}
		out[j] = *v
	}
	return out, nil
}

// trulyMet reports whether a step's point truly meets every simulated
// requirement.
func (o *severalObjectives) trulyMet(step severalStep) bool {
	for _, c := range o.requirements {
		v := step.TrueConstraints[c.Name]
		if v == nil || c.AtLeast && !(*v >= c.Threshold) || !c.AtLeast && !(*v <= c.Threshold) {
			return false
		}
	}
	return true
}

// gap is log10 of the hypervolume gap HVmax − hv, at least log10(minGap);
// a hypervolume beyond HVmax means the --optimum is wrong.
func (p *Problem) gap(hv float64) (float64, error) {
	if math.IsNaN(hv) {
		return 0, errors.New("hypervolume is unknown")
	}
	if hv > p.optimum*(1+1e-9)+1e-12 {
		return 0, fmt.Errorf("hypervolume %g is beyond the --optimum %g: is the optimum right?", hv, p.optimum)
	}
	return math.Log10(max(p.optimum-hv, minGap)), nil
}

// hasSeveral reports whether a problem has several objectives.
func (p *Problem) hasSeveral() bool { return p.several != nil }
