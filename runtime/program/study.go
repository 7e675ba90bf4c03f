package program

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/bocdev/boc/runtime/journal"
)

// A study is a problem's trials recorded in a journal (runtime/journal):
// ask reserves a trial at the optimiser's next point, tell records what it
// measured, status reports. Every command replays the study's journal into a
// fresh optimiser (a Session) under the journal's lock, so that processes
// sharing the file act on the same state and a killed one loses nothing
// that was recorded.

// A Session is the problem's optimiser, as ask and tell drive it.
type Session interface {
	// Suggest returns the next point to evaluate.
	Suggest() ([]float64, error)
	// Observe records a trial's value y at x: with its noise sd when the
	// problem reports it (NaN otherwise), and the unknown constraints'
	// values in declaration order (nil without any).
	Observe(x []float64, y, sd float64, constraints []float64) error
	// Best is the recommendation and its posterior mean; BestObserved the
	// best value observed and where.
	Best() (x []float64, mean float64, ok bool)
	BestObserved() (x []float64, y float64, ok bool)
}

// identity is the hash of a problem's identity text, as journals record it.
func identity(text string) string {
	sum := sha256.Sum256([]byte(text))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// trial is one trial of a study.
type trial struct {
	id     string
	x      []float64
	result *journal.Event // its tell or fail, nil while pending
}

// study is a study replayed from its journal's events.
type study struct {
	name    string
	opened  bool     // its study event is in the journal
	trials  []*trial // in ask order
	byID    map[string]*trial
	told    []*trial // in tell order, failures included
	session Session
}

// replay rebuilds study name of problem p from the journal's events and
// observes its results in the order they were told: the values, and each
// failure at the worst value told in the whole study (a penalty that keeps
// the optimiser from asking for the point again; without a value told yet,
// a failure is only recorded). It refuses a study made by another problem,
// saying what differs.
func replay(p Problem, name string, events []journal.Event) (*study, error) {
	s := &study{name: name, byID: map[string]*trial{}}
	worst := math.NaN()
	for _, e := range events {
		if e.Study != name {
			continue
		}
		switch e.Kind {
		case journal.KindStudy:
			if e.Identity != identity(p.Identity) {
				return nil, fmt.Errorf("study %s was made by another problem: %s", name, difference(e.Program, p.Identity))
			}
			s.opened = true
		case journal.KindAsk:
			t := &trial{id: e.Trial, x: e.X}
			s.trials = append(s.trials, t)
			s.byID[e.Trial] = t
		case journal.KindTell, journal.KindFail:
			t := s.byID[e.Trial]
			if t == nil || t.result != nil {
				return nil, fmt.Errorf("study %s: a %s of trial %s, which is not pending", name, e.Kind, e.Trial)
			}
			t.result = &e
			s.told = append(s.told, t)
			if e.Kind == journal.KindTell && (math.IsNaN(worst) || p.better(worst, *e.Y)) {
				worst = *e.Y
			}
		}
	}
	s.session = p.NewSession(p.Seed)
	for _, t := range s.told {
		r := t.result
		y, sd := worst, 0.0 // a failure's penalty is certain
		switch {
		case r.Kind == journal.KindTell:
			y, sd = *r.Y, math.NaN()
			if r.SD != nil {
				sd = *r.SD
			}
		case math.IsNaN(worst) || len(p.Constraints) > 0:
			continue
		}
		if len(p.Constraints) > 0 {
			// A safe optimiser's state moves with its rounds (its confidence
			// intervals are intersected at each), so the replay plays every
			// round as ask played it.
			if _, err := s.session.Suggest(); err != nil {
				return nil, fmt.Errorf("study %s, replaying trial %s: %w", name, t.id, err)
			}
		}
		if err := s.session.Observe(t.x, y, sd, constraintValues(p, r)); err != nil {
			return nil, fmt.Errorf("study %s, trial %s: %w", name, t.id, err)
		}
	}
	return s, nil
}

// better reports whether a is a better objective value than b.
func (p Problem) better(a, b float64) bool {
	if p.Maximize {
		return a > b
	}
	return a < b
}

// constraintValues are a tell's constraint values in declaration order.
func constraintValues(p Problem, r *journal.Event) []float64 {
	if len(p.Constraints) == 0 || r.Kind != journal.KindTell {
		return nil
	}
	values := make([]float64, len(p.Constraints))
	for i, c := range p.Constraints {
		values[i] = r.Constraints[c.Name]
	}
	return values
}

// pending are the trials without a result.
func (s *study) pending() []*trial {
	var out []*trial
	for _, t := range s.trials {
		if t.result == nil {
			out = append(out, t)
		}
	}
	return out
}

// evaluations counts the trials told a value.
func (s *study) evaluations() int {
	n := 0
	for _, t := range s.told {
		if t.result.Kind == journal.KindTell {
			n++
		}
	}
	return n
}

// difference says where two identity texts first differ.
func difference(journal, program string) string {
	a, b := strings.Split(journal, "\n"), strings.Split(program, "\n")
	for i := range max(len(a), len(b)) {
		la, lb := "", ""
		if i < len(a) {
			la = strings.TrimSpace(a[i])
		}
		if i < len(b) {
			lb = strings.TrimSpace(b[i])
		}
		if la != lb {
			return fmt.Sprintf("at line %d of the problem's description, the journal has %q where this program has %q", i+1, la, lb)
		}
	}
	return "the descriptions match but their hashes do not (the journal was edited)"
}

// nextTrialID numbers a study's next trial.
func (s *study) nextTrialID() string { return strconv.Itoa(len(s.trials) + 1) }

// sameTell reports whether a repeated tell records what the first did.
func sameTell(a, b journal.Event) bool {
	equal := func(x, y *float64) bool { return (x == nil) == (y == nil) && (x == nil || *x == *y) }
	if a.Kind != b.Kind || !equal(a.Y, b.Y) || !equal(a.SD, b.SD) || len(a.Constraints) != len(b.Constraints) {
		return false
	}
	for k, v := range a.Constraints {
		if w, ok := b.Constraints[k]; !ok || w != v {
			return false
		}
	}
	return a.Kind != journal.KindFail || a.Reason == b.Reason
}

// trialIDs lists trials' ids.
func trialIDs(ts []*trial) string {
	ids := make([]string, len(ts))
	for i, t := range ts {
		ids[i] = t.id
	}
	return strings.Join(ids, ", ")
}
