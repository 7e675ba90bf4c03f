package program

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"math"
	"strconv"
	"strings"
	"time"

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
	// Suggest returns the next point to evaluate, or ErrExhausted.
	Suggest() ([]float64, error)
	// Observe records a trial's value y at x: with its noise sd when the
	// problem reports it (NaN otherwise), and the unknown constraints'
	// values in declaration order (nil without any).
	Observe(x []float64, y, sd float64, constraints []float64) error
	// Pending records that x is being evaluated: Suggest then accounts for
	// it as the acquisition's rule says (a constant liar, or GP-BUCB's
	// hallucination) and never returns it, until Observe of x. A pending
	// point is never an observation, and never counts towards a safety
	// certificate.
	Pending(x []float64) error
	// Release forgets the pending point x without an observation.
	Release(x []float64)
	// Best is the recommendation and its posterior mean; BestObserved the
	// best value observed and where.
	Best() (x []float64, mean float64, ok bool)
	BestObserved() (x []float64, y float64, ok bool)
}

// ErrExhausted is Session.Suggest's error when every point the optimiser
// can reach has been evaluated (a small finite domain): a run ends there.
var ErrExhausted = errors.New("every point the search can reach has been evaluated")

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
	// imputed is the value a failure was observed with (penalty), nil
	// for a value told or a failure the model never saw.
	imputed *float64
	// worker is the run evaluating it and until when its lease lasts; ""
	// for a trial asked from a shell.
	worker string
	until  time.Time
	// process is the worker's evaluation's process group, 0 when unknown.
	process int
}

// study is a study replayed from its journal's events.
type study struct {
	name   string
	opened bool     // its study event is in the journal
	trials []*trial // in ask order
	byID   map[string]*trial
	told   []*trial // in tell order, failures included
	// worst and best are the worst and best values told so far, NaN
	// before any.
	worst, best float64
	// unweighed are the failures left pending in the session until the
	// next value (observe).
	unweighed []*trial
	events    int // the study's events in the journal
	session   Session
	// stale says the session is no longer what replaying the journal
	// gives: it holds pending trials (believe), or a round a refused value
	// left unobserved.
	stale bool
	// played are the pending trials whose round (the Suggest that asked
	// for them, which moves a safe optimiser's state) this session played;
	// a replay plays the others' when it observes them.
	played map[string]bool
}

// replay rebuilds study name of problem p from the journal's events and
// observes its results in the order they were told (observe). It refuses a
// study made by another problem, saying what differs.
func replay(p Problem, name string, events []journal.Event) (*study, error) {
	s := &study{name: name, byID: map[string]*trial{}, played: map[string]bool{}, worst: math.NaN(), best: math.NaN(), session: p.NewSession(p.Seed)}
	for _, e := range events {
		if e.Study != name {
			continue
		}
		s.events++
		switch e.Kind {
		case journal.KindStudy:
			if e.Identity != identity(p.Identity) {
				return nil, fmt.Errorf("study %s was made by another problem: %s", name, difference(e.Program, p.Identity))
			}
			s.opened = true
		case journal.KindAsk:
			if s.byID[e.Trial] != nil {
				return nil, fmt.Errorf("study %s: trial %s is asked twice", name, e.Trial)
			}
			if err := checkPoint(p, e.X); err != nil {
				return nil, fmt.Errorf("study %s, trial %s: %w", name, e.Trial, err)
			}
			t := &trial{id: e.Trial, x: e.X}
			t.lease(e)
			s.trials = append(s.trials, t)
			s.byID[e.Trial] = t
		case journal.KindLease:
			t := s.byID[e.Trial]
			if t == nil {
				return nil, fmt.Errorf("study %s: a lease of trial %s, which was never asked", name, e.Trial)
			}
			t.lease(e)
		case journal.KindTell, journal.KindFail:
			t := s.byID[e.Trial]
			if t == nil || t.result != nil {
				return nil, fmt.Errorf("study %s: a %s of trial %s, which is not pending", name, e.Kind, e.Trial)
			}
			if err := checkResult(p, e); err != nil {
				return nil, fmt.Errorf("study %s, trial %s: %w", name, e.Trial, err)
			}
			t.result = &e
			if err := s.observe(p, t, true); err != nil {
				return nil, err
			}
		}
	}
	return s, nil
}

// checkPoint says what is wrong with an asked point read from a journal,
// which may have been edited by hand: the same checks whatever reads it.
func checkPoint(p Problem, x []float64) error {
	n := 0
	for _, d := range p.Dims {
		n += d.Size
	}
	if len(x) != n {
		return fmt.Errorf("the point has %d components; the problem has %d", len(x), n)
	}
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("component %d of the point is %v", i+1, v)
		}
	}
	return nil
}

// checkResult says what is wrong with a tell read from a journal: what tell
// itself refuses.
func checkResult(p Problem, e journal.Event) error {
	if e.Kind != journal.KindTell {
		return nil
	}
	if err := checkValue(p, e); err != nil {
		return err
	}
	for _, c := range p.Constraints {
		v, ok := e.Constraints[c.Name]
		if !ok {
			return fmt.Errorf("a tell without constraint %s's value", c.Name)
		}
		if msg := unmodelled(v); msg != "" {
			return fmt.Errorf("constraint %s: %s", c.Name, msg)
		}
	}
	return nil
}

// checkValue says what is wrong with the value, or the objectives, of a
// tell read from a journal.
func checkValue(p Problem, e journal.Event) error {
	if p.several() {
		return checkObjectives(p, e)
	}
	if e.Y == nil {
		return errors.New("a tell without a value")
	}
	if msg := unmodelled(*e.Y); msg != "" {
		return errors.New(msg)
	}
	switch {
	case p.ReportsSD && e.SD == nil:
		return errors.New("a tell without the value's noise sd, which this problem reports")
	case e.SD != nil && !(*e.SD >= 0 && *e.SD <= maxModelled):
		return fmt.Errorf("the noise sd %v is not a number from 0 to %g", *e.SD, maxModelled)
	}
	return nil
}

// observe gives trial t's result, set already, to the session and records
// it: a value as told, a failure as a penalty below the values told before
// it (penalty), which keeps the optimiser away from the point. A failure
// that cannot be weighed so (before any value, and with unknown
// constraints, whose values a failure lacks) leaves its point pending in
// the session until the next value is told: the next suggestions go
// elsewhere, and once the model has learnt more the point may be tried
// again (a safe optimiser may have nowhere else to go). What the session
// refuses is not recorded.
// replaying says the session's rounds are not played yet: a safe
// optimiser's state moves with them (its confidence intervals are
// intersected at each), as a portfolio's does (CarriesState), so a replay
// plays each as ask did.
func (s *study) observe(p Problem, t *trial, replaying bool) error {
	r := t.result
	if replaying && (p.safe() || p.CarriesState) {
		if _, err := s.suggest(); err != nil {
			return fmt.Errorf("study %s, replaying trial %s: %w", s.name, t.id, err)
		}
	}
	if p.several() {
		return s.observeSeveral(p, t)
	}
	y, sd := s.penalty(p), 0.0 // a failure's penalty is certain
	switch {
	case r.Kind == journal.KindTell:
		y, sd = *r.Y, math.NaN()
		if r.SD != nil {
			sd = *r.SD
		}
	case math.IsNaN(s.worst) || len(p.Constraints) > 0:
		return s.leavePending(t)
	}
	if err := s.session.Observe(t.x, y, sd, constraintValues(p, r)); err != nil {
		return fmt.Errorf("study %s, trial %s: %w", s.name, t.id, err)
	}
	if r.Kind == journal.KindFail {
		t.imputed = &y
	}
	s.told = append(s.told, t)
	if r.Kind == journal.KindTell {
		s.releaseUnweighed()
		if math.IsNaN(s.worst) || p.better(s.worst, y) {
			s.worst = y
		}
		if math.IsNaN(s.best) || p.better(y, s.best) {
			s.best = y
		}
	}
	return nil
}

// leavePending leaves failed trial t's point pending in the session until
// the next value is told (observe).
func (s *study) leavePending(t *trial) error {
	if err := s.session.Pending(t.x); err != nil {
		return fmt.Errorf("study %s, failed trial %s: %w", s.name, t.id, err)
	}
	s.told = append(s.told, t)
	s.unweighed = append(s.unweighed, t)
	return nil
}

// penalty is the value a failure counts as: worse than the worst value told
// so far by the spread of the values told (by the worst's magnitude while
// they are all equal), so that a failed point is never the best.
func (s *study) penalty(p Problem) float64 { return beyond(s.worst, s.best, p.Maximize) }

// beyond is a value worse than worst, of values up to best, by their spread
// (by worst's magnitude while they are equal, or 1): larger is better when
// up.
func beyond(worst, best float64, up bool) float64 {
	spread := math.Abs(best - worst)
	if spread == 0 {
		spread = math.Abs(worst)
	}
	if spread == 0 {
		spread = 1
	}
	if up {
		return worst - spread
	}
	return worst + spread
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

// believe tells the session that pending trial t is being evaluated, so
// that the next suggestion accounts for it (Session.Pending: a constant
// liar, or GP-BUCB's hallucination for optimistic acquisitions; only
// excluded from a safe optimiser's choice). Beliefs only steer ask: tell
// and status replay without them.
func (s *study) believe(t *trial) error {
	s.stale = true
	if err := s.session.Pending(t.x); err != nil {
		return fmt.Errorf("study %s, pending trial %s: %w", s.name, t.id, err)
	}
	return nil
}

// suggest is the session's next point. When it has none while failures
// wait unweighed, they are released and it is asked again: a safe
// optimiser may have nowhere else to go than a point that failed.
func (s *study) suggest() ([]float64, error) {
	x, err := s.session.Suggest()
	if err != nil && len(s.unweighed) > 0 {
		s.releaseUnweighed()
		x, err = s.session.Suggest()
	}
	return x, err
}

// releaseUnweighed ends the pending of the failures observe could not weigh.
func (s *study) releaseUnweighed() {
	for _, t := range s.unweighed {
		s.session.Release(t.x)
	}
	s.unweighed = s.unweighed[:0]
}

// lease records who evaluates the trial and until when, as an ask or lease
// event says; an unreadable time counts as expired.
func (t *trial) lease(e journal.Event) {
	if e.Worker != t.worker || e.Process != 0 {
		t.process = e.Process // a renewal keeps the process it does not name
	}
	t.worker = e.Worker
	t.until, _ = time.Parse(time.RFC3339Nano, e.Until)
}

// nextTrialID numbers a study's next trial.
func (s *study) nextTrialID() string { return strconv.Itoa(len(s.trials) + 1) }

// sameTell reports whether a repeated tell records what the first did.
func sameTell(a, b journal.Event) bool {
	equal := func(x, y *float64) bool { return (x == nil) == (y == nil) && (x == nil || *x == *y) }
	return a.Kind == b.Kind && equal(a.Y, b.Y) && equal(a.SD, b.SD) && maps.Equal(a.Constraints, b.Constraints) && maps.Equal(a.Objectives, b.Objectives) &&
		(a.Kind != journal.KindFail || a.Reason == b.Reason)
}

// trialIDs lists trials' ids.
func trialIDs(ts []*trial) string {
	ids := make([]string, len(ts))
	for i, t := range ts {
		ids[i] = t.id
	}
	return strings.Join(ids, ", ")
}
