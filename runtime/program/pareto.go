package program

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/bocdev/boc/runtime/command"
	"github.com/bocdev/boc/runtime/journal"
)

// A problem with several objectives (Problem.Objectives) has no single
// recommendation: its result is the Pareto set of the evaluated points, and
// the hypervolume it dominates. Its trials are told every objective by
// name (tell ID --value NAME=V ...), recorded in the journal as a tell's
// objectives; its session is a ParetoSession. A failed trial counts, as
// with one objective, as worse than every value told in each objective by
// their spread, and as breaking every requirement by the spread of its
// values, so that the optimiser keeps away from it (study.penalties);
// before any value, and with unknown safety constraints, its point stays
// pending until the next value.

// ParetoSession is the Session of a problem with several objectives; its
// Observe is not used.
type ParetoSession interface {
	Session
	// ObserveObjectives records a trial's objectives at x, in declaration
	// order, and the requirements' values in order (nil without any).
	ObserveObjectives(x, values, constraints []float64) error
	// Front is the Pareto set of the observed points (their TrueObjectives
	// NaN), and Hypervolume the hypervolume its posterior means dominate
	// above the reference point, which it returns too.
	Front() []FrontPoint
	Hypervolume() (hv float64, reference []float64, err error)
}

// observeSeveral gives trial t's result, set already, to the session of a
// problem with several objectives and records it: a tell's values, or a
// failure's penalties (study.penalties), or, when there are none yet, the
// failure's point pending until the next value.
func (s *study) observeSeveral(p Problem, t *trial) error {
	ps, ok := s.session.(ParetoSession)
	if !ok {
		return errors.New("this program's optimiser cannot observe several objectives")
	}
	r := t.result
	objectives, constraints := objectiveVector(p, r), constraintValues(p, r)
	if r.Kind == journal.KindFail {
		var ok bool
		if objectives, constraints, ok = s.penalties(p); !ok {
			return s.leavePending(t)
		}
	}
	if err := ps.ObserveObjectives(t.x, objectives, constraints); err != nil {
		return fmt.Errorf("study %s, trial %s: %w", s.name, t.id, err)
	}
	s.told = append(s.told, t)
	if r.Kind == journal.KindTell {
		s.releaseUnweighed()
	}
	return nil
}

// penalties are what a failed trial of several objectives counts as: each
// objective worse than the worst told by the spread of those told, each
// requirement broken by the spread of its values told (beyond); ok is
// false before any value is told, and with unknown safety constraints,
// whose values a failure cannot stand for.
func (s *study) penalties(p Problem) (objectives, constraints []float64, ok bool) {
	if p.safe() {
		return nil, nil, false
	}
	var told []*journal.Event
	for _, t := range s.told {
		if t.result.Kind == journal.KindTell {
			told = append(told, t.result)
		}
	}
	if len(told) == 0 {
		return nil, nil, false
	}
	// extremes are the worst and best of value over the values told, larger
	// being better when up.
	extremes := func(value func(*journal.Event) float64, up bool) (worst, best float64) {
		worst, best = value(told[0]), value(told[0])
		for _, e := range told[1:] {
			v := value(e)
			if up == (v < worst) {
				worst = v
			}
			if up == (v > best) {
				best = v
			}
		}
		return worst, best
	}
	for _, o := range p.Objectives {
		worst, best := extremes(func(e *journal.Event) float64 { return e.Objectives[o.Name] }, o.Maximize)
		objectives = append(objectives, beyond(worst, best, o.Maximize))
	}
	for _, c := range p.Constraints {
		// Broken beyond the limit, or beyond the worst value told when that
		// is worse.
		worst, best := extremes(func(e *journal.Event) float64 { return e.Constraints[c.Name] }, c.AtLeast)
		if c.AtLeast == (c.Limit < worst) {
			worst = c.Limit
		}
		constraints = append(constraints, beyond(worst, best, c.AtLeast))
	}
	return objectives, constraints, true
}

// objectiveNames are the names of the objectives, in order.
func (p Problem) objectiveNames() []string {
	names := make([]string, len(p.Objectives))
	for j, o := range p.Objectives {
		names[j] = o.Name
	}
	return names
}

// objectiveValues reads a tell's NAME=V of every objective, or says in
// syntax's words what is wrong with them.
func objectiveValues(p Problem, values []string, syntax tellSyntax) (map[string]float64, string) {
	names := p.objectiveNames()
	out := map[string]float64{}
	for _, text := range values {
		name, v, ok := strings.Cut(text, "=")
		switch {
		case !ok:
			return nil, fmt.Sprintf("%s %s: this problem has several objectives; give each as %s (%s)", syntax.value, text, syntax.namedForm, strings.Join(names, ", "))
		case !slices.Contains(names, name):
			return nil, fmt.Sprintf("%s %s: the problem has no objective %s; its objectives are %s", syntax.value, text, name, strings.Join(names, ", "))
		}
		if _, twice := out[name]; twice {
			return nil, fmt.Sprintf("%s %s: objective %s is given twice", syntax.value, text, name)
		}
		y, msg := finite(syntax.value+" "+name, v)
		if msg == "" {
			msg = unmodelled(y)
		}
		if msg != "" {
			return nil, msg
		}
		out[name] = y
	}
	for _, name := range names {
		if _, ok := out[name]; !ok {
			return nil, fmt.Sprintf("give objective %s's measured value: "+syntax.namedValue, name, name)
		}
	}
	return out, ""
}

// checkObjectives says what is wrong with the objectives of a tell read
// from a journal: what tell itself refuses.
func checkObjectives(p Problem, e journal.Event) error {
	if e.Y != nil {
		return fmt.Errorf("a tell of one value; the problem has %d objectives", len(p.Objectives))
	}
	for _, name := range p.objectiveNames() {
		v, ok := e.Objectives[name]
		if !ok {
			return fmt.Errorf("a tell without objective %s's value", name)
		}
		if msg := unmodelled(v); msg != "" {
			return fmt.Errorf("objective %s: %s", name, msg)
		}
	}
	return nil
}

// objectiveVector is a tell's objectives, in order.
func objectiveVector(p Problem, e *journal.Event) []float64 {
	values := make([]float64, len(p.Objectives))
	for j, name := range p.objectiveNames() {
		values[j] = e.Objectives[name]
	}
	return values
}

// describeValues says what values a tell gave, for messages: "NAME=V, ...".
func describeValues(values map[string]float64) string {
	names := slices.Sorted(maps.Keys(values))
	for i, name := range names {
		names[i] = name + "=" + formatValue(values[name])
	}
	return strings.Join(names, ", ")
}

// objectiveJSON describes an objective in a result.
type objectiveJSON struct {
	Name      string `json:"name"`
	Maximize  bool   `json:"maximize"`
	Threshold number `json:"threshold"`
}

// frontJSON is a point of the Pareto set in a result: where it is, the
// objectives' posterior means there, what was observed, their values
// without noise (null unless simulated) and, with simulated requirements,
// whether it truly meets them.
type frontJSON struct {
	X              command.Point `json:"x"`
	Objectives     named         `json:"objectives"`
	Observed       named         `json:"observed"`
	TrueObjectives *named        `json:"true_objectives,omitempty"`
	TrulyFeasible  *bool         `json:"truly_feasible,omitempty"`
}

// paretoJSON is what a result or a status adds for several objectives.
type paretoJSON struct {
	Objectives  []objectiveJSON `json:"objectives,omitempty"`
	Pareto      []frontJSON     `json:"pareto,omitempty"`
	Hypervolume *number         `json:"hypervolume,omitempty"`
	Reference   *named          `json:"reference,omitempty"`
}

// newParetoJSON describes the front of a problem with several objectives;
// the zero value, which adds nothing, for one. inRun says the front is a
// run's, which knows the values without noise where they are simulated.
func newParetoJSON(p Problem, front []FrontPoint, hv float64, reference []float64, inRun bool) paretoJSON {
	if !p.several() {
		return paretoJSON{}
	}
	names := p.objectiveNames()
	out := paretoJSON{Pareto: []frontJSON{}}
	for _, o := range p.Objectives {
		out.Objectives = append(out.Objectives, objectiveJSON{o.Name, o.Maximize, number(o.Threshold)})
	}
	for _, f := range front {
		fj := frontJSON{X: command.Point{Dims: p.Dims, X: f.X}, Objectives: named{names, f.Means}, Observed: named{names, f.Observed}}
		if inRun {
			fj.TrueObjectives = &named{names, f.TrueObjectives}
			if p.requires() && p.simulates() {
				feasible := f.TrulyFeasible
				fj.TrulyFeasible = &feasible
			}
		}
		out.Pareto = append(out.Pareto, fj)
	}
	h := number(hv)
	out.Hypervolume = &h
	if reference != nil {
		out.Reference = &named{names, reference}
	}
	return out
}

// writeFront prints the Pareto set for people.
func writeFront(w io.Writer, p Problem, front []FrontPoint, hv float64, reference []float64) {
	names := p.objectiveNames()
	if len(front) == 0 {
		fmt.Fprintln(w, "Pareto set: empty (no evaluated point meets the requirements with the confidence required)")
		return
	}
	above := ""
	if len(reference) == len(names) {
		above = " above the reference " + formatObjectives(names, reference)
	}
	fmt.Fprintf(w, "Pareto set: %d points, hypervolume %s%s\n", len(front), formatValue(hv), above)
	for _, f := range front {
		fmt.Fprintf(w, "  %s  %s\n", formatPoint(p.Dims, f.X), formatObjectives(names, f.Observed))
	}
}

// formatObjectives writes objective values as name=value pairs.
func formatObjectives(names []string, values []float64) string {
	parts := make([]string, len(names))
	for j, name := range names {
		parts[j] = name + "=" + formatValue(values[j])
	}
	return strings.Join(parts, " ")
}

// goals describes the objectives of a problem with several: "minimise
// branin, maximise yield".
func (p Problem) goals() string {
	parts := make([]string, len(p.Objectives))
	for j, o := range p.Objectives {
		parts[j] = "minimise " + o.Name
		if o.Maximize {
			parts[j] = "maximise " + o.Name
		}
		if !math.IsNaN(o.Threshold) {
			parts[j] += " (reference " + formatValue(o.Threshold) + ")"
		}
	}
	return strings.Join(parts, ", ")
}
