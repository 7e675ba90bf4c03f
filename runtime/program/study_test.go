package program

import (
	"bytes"
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/bocdev/boc/runtime/journal"
)

// recorder is a Session that records what it observes and suggests the
// number of observations.
type recorder struct {
	observed [][]float64 // x, then y, sd and the constraint values
	pending  []float64   // the points made pending, in order
	released []float64   // the points released, in order
	suggests int
}

func (r *recorder) Suggest() ([]float64, error) {
	r.suggests++
	return []float64{float64(len(r.observed))}, nil
}

func (r *recorder) Observe(x []float64, y, sd float64, constraints []float64) error {
	r.observed = append(r.observed, append([]float64{x[0], y, sd}, constraints...))
	return nil
}

func (r *recorder) Pending(x []float64) error {
	r.pending = append(r.pending, x[0])
	return nil
}

func (r *recorder) Release(x []float64) { r.released = append(r.released, x[0]) }

func (r *recorder) Best() ([]float64, float64, bool)         { return nil, 0, false }
func (r *recorder) BestObserved() ([]float64, float64, bool) { return nil, 0, false }

func value(v float64) *float64 { return &v }

// TestReplay: a study's results are observed in the order they were told;
// a failure counts as a value below the worst told before it by the values'
// spread (after 5 and 7: 3 when maximising, 9 when minimising); before any
// value, and with unknown constraints, whose values a failure lacks, its
// point stays pending until the next value is told; a safe optimiser plays
// a round (Suggest) before each result, as ask did.
func TestReplay(t *testing.T) {
	nan := math.NaN()
	cool := map[string]float64{"heat": 0} // read by the safe case only
	events := []journal.Event{
		{Kind: journal.KindStudy, Study: "s", Identity: identity("p\n"), Program: "p\n"},
		{Kind: journal.KindAsk, Study: "s", Trial: "1", X: []float64{1}},
		{Kind: journal.KindAsk, Study: "s", Trial: "2", X: []float64{2}},
		{Kind: journal.KindAsk, Study: "other", Trial: "1", X: []float64{9}},
		{Kind: journal.KindTell, Study: "s", Trial: "2", Y: value(5), Constraints: cool},
		{Kind: journal.KindAsk, Study: "s", Trial: "3", X: []float64{3}},
		{Kind: journal.KindTell, Study: "s", Trial: "3", Y: value(7), Constraints: cool},
		{Kind: journal.KindFail, Study: "s", Trial: "1", Reason: "jammed"},
		{Kind: journal.KindAsk, Study: "s", Trial: "4", X: []float64{4}},
		{Kind: journal.KindAsk, Study: "s", Trial: "5", X: []float64{5}},
		{Kind: journal.KindFail, Study: "s", Trial: "4"},
		{Kind: journal.KindTell, Study: "s", Trial: "5", Y: value(9), Constraints: cool},
		{Kind: journal.KindAsk, Study: "s", Trial: "6", X: []float64{6}},
	}
	for _, tc := range []struct {
		name     string
		maximize bool
		safe     bool
		want     [][]float64
		pending  []float64
		released []float64
		suggests int
	}{
		{name: "maximise", maximize: true, want: [][]float64{{2, 5, nan}, {3, 7, nan}, {1, 3, 0}, {4, 3, 0}, {5, 9, nan}}},
		{name: "minimise", want: [][]float64{{2, 5, nan}, {3, 7, nan}, {1, 9, 0}, {4, 9, 0}, {5, 9, nan}}},
		{name: "safe", maximize: true, safe: true, want: [][]float64{{2, 5, nan, 0}, {3, 7, nan, 0}, {5, 9, nan, 0}}, pending: []float64{1, 4}, released: []float64{1, 4}, suggests: 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &recorder{}
			p := Problem{Name: "p", Identity: "p\n", Maximize: tc.maximize, Dims: []Dim{{Name: "x", Size: 1}}, NewSession: func(uint64) Session { return r }}
			if tc.safe {
				p.Constraints = []Constraint{{Name: "heat", Limit: 1}}
			}
			s, err := replay(p, "s", events)
			if err != nil {
				t.Fatal(err)
			}
			if len(r.observed) != len(tc.want) || r.suggests != tc.suggests || !slices.Equal(r.pending, tc.pending) || !slices.Equal(r.released, tc.released) {
				t.Fatalf("observed %v after %d suggestions, %v pending, %v released; want %v after %d, %v pending, %v released",
					r.observed, r.suggests, r.pending, r.released, tc.want, tc.suggests, tc.pending, tc.released)
			}
			for i, o := range r.observed {
				for j, v := range o {
					if w := tc.want[i][j]; v != w && !(math.IsNaN(v) && math.IsNaN(w)) {
						t.Fatalf("observation %d: %v, want %v", i, o, tc.want[i])
					}
				}
			}
			if pending := s.pending(); len(pending) != 1 || pending[0].id != "6" || s.evaluations() != 3 || s.nextTrialID() != "7" {
				t.Errorf("pending %v, %d evaluations, next trial %s", trialIDs(pending), s.evaluations(), s.nextTrialID())
			}
		})
	}
}

// TestReplayRefuses: another problem's study, and a result for a trial not
// pending.
func TestReplayRefuses(t *testing.T) {
	p := Problem{Name: "p", Identity: "problem p\nacquisition ei\n", NewSession: func(uint64) Session { return &recorder{} }}
	other := "problem p\nacquisition ucb\n"
	_, err := replay(p, "s", []journal.Event{{Kind: journal.KindStudy, Study: "s", Identity: identity(other), Program: other}})
	if err == nil || !strings.Contains(err.Error(), `at line 2 of the problem's description, the journal has "acquisition ucb" where this program has "acquisition ei"`) {
		t.Errorf("another problem: %v", err)
	}
	_, err = replay(p, "s", []journal.Event{{Kind: journal.KindTell, Study: "s", Trial: "1", Y: value(1)}})
	if err == nil || !strings.Contains(err.Error(), "a tell of trial 1, which is not pending") {
		t.Errorf("a tell without an ask: %v", err)
	}
	// What a hand edit can break, refused on read by every command alike.
	p.Dims = []Dim{{Name: "x", Size: 1}, {Name: "v", Size: 2, Vector: true}}
	p.Constraints = []Constraint{{Name: "heat"}}
	ask := journal.Event{Kind: journal.KindAsk, Study: "s", Trial: "1", X: []float64{0.1, 0.2, 0.3}}
	for _, tc := range []struct {
		events []journal.Event
		want   string
	}{
		{[]journal.Event{{Kind: journal.KindAsk, Study: "s", Trial: "1", X: []float64{0.1, 0.2}}}, "trial 1: the point has 2 components; the problem has 3"},
		{[]journal.Event{ask, ask}, "trial 1 is asked twice"},
		{[]journal.Event{ask, {Kind: journal.KindTell, Study: "s", Trial: "1", Y: value(1e300), Constraints: map[string]float64{"heat": 1}}}, "too large to model"},
		{[]journal.Event{ask, {Kind: journal.KindTell, Study: "s", Trial: "1", Y: value(1)}}, "a tell without constraint heat's value"},
		{[]journal.Event{ask, {Kind: journal.KindTell, Study: "s", Trial: "1", Y: value(1), SD: value(-1), Constraints: map[string]float64{"heat": 1}}}, "the noise sd -1 is not a number"},
	} {
		if _, err := replay(p, "s", tc.events); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want an error containing %q", tc.events, err, tc.want)
		}
	}
}

// TestRunJournalFailures: run --journal records an objective's error, panic,
// non-finite or huge value as the trial's failure, with its reason, and
// goes on.
func TestRunJournalFailures(t *testing.T) {
	path := t.TempDir() + "/j.journal"
	calls := 0
	p := Problem{Name: "p", Identity: "p\n", Maximize: true, Budget: 6, Seed: 1,
		Dims: []Dim{{Name: "x", Size: 1}}, Lower: []float64{0}, Upper: []float64{10},
		NewSession: func(uint64) Session { return &recorder{} },
		Evaluate: func(_ context.Context, _ int, x []float64) (Evaluation, error) {
			calls++
			switch calls {
			case 2:
				return Evaluation{}, errors.New("rig offline")
			case 3:
				panic("index out of range")
			case 4:
				return Evaluation{Y: math.Inf(1)}, nil
			case 5:
				return Evaluation{Y: -1e300}, nil
			}
			return Evaluation{Y: x[0], SD: math.NaN()}, nil
		}}
	var out, errs bytes.Buffer
	if code := Run(context.Background(), p, []string{"run", "--journal", path}, &out, &errs); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	for _, want := range []string{"failed: rig offline", "failed: the objective panicked: index out of range", "failed: the value +Inf is not a finite number",
		"failed: the value -1e+300 is too large to model (beyond ±1e+150): rescale the objective"} {
		if !strings.Contains(errs.String(), want) {
			t.Errorf("progress lacks %q:\n%s", want, errs.String())
		}
	}
	if !strings.Contains(out.String(), "2 evaluations, 4 failed") {
		t.Errorf("summary: %s", out.String())
	}
}
