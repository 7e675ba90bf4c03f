package program

import (
	"math"
	"strings"
	"testing"

	"github.com/bocdev/boc/runtime/journal"
)

// recorder is a Session that records what it observes and suggests the
// number of observations.
type recorder struct {
	observed [][]float64 // x, then y, sd and the constraint values
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

func (r *recorder) Best() ([]float64, float64, bool)         { return nil, 0, false }
func (r *recorder) BestObserved() ([]float64, float64, bool) { return nil, 0, false }

func value(v float64) *float64 { return &v }

// TestReplay: a study's results are observed in the order they were told,
// failures at the worst value told (none before a value exists, none with
// unknown constraints, whose values a failure lacks), and a safe optimiser
// plays a round (Suggest) before each observation, as ask did.
func TestReplay(t *testing.T) {
	events := []journal.Event{
		{Kind: journal.KindStudy, Study: "s", Identity: identity("p\n"), Program: "p\n"},
		{Kind: journal.KindAsk, Study: "s", Trial: "1", X: []float64{1}},
		{Kind: journal.KindAsk, Study: "s", Trial: "2", X: []float64{2}},
		{Kind: journal.KindAsk, Study: "other", Trial: "1", X: []float64{9}},
		{Kind: journal.KindTell, Study: "s", Trial: "2", Y: value(5)},
		{Kind: journal.KindFail, Study: "s", Trial: "1", Reason: "jammed"},
		{Kind: journal.KindAsk, Study: "s", Trial: "3", X: []float64{3}},
		{Kind: journal.KindTell, Study: "s", Trial: "3", Y: value(7)},
		{Kind: journal.KindAsk, Study: "s", Trial: "4", X: []float64{4}},
	}
	for _, tc := range []struct {
		name     string
		maximize bool
		safe     bool
		want     [][]float64
		suggests int
	}{
		{name: "maximise", maximize: true, want: [][]float64{{2, 5, math.NaN()}, {1, 5, 0}, {3, 7, math.NaN()}}},
		{name: "minimise", want: [][]float64{{2, 5, math.NaN()}, {1, 7, 0}, {3, 7, math.NaN()}}},
		{name: "safe", maximize: true, safe: true, want: [][]float64{{2, 5, math.NaN(), 0}, {3, 7, math.NaN(), 0}}, suggests: 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &recorder{}
			p := Problem{Name: "p", Identity: "p\n", Maximize: tc.maximize, NewSession: func(uint64) Session { return r }}
			if tc.safe {
				p.Constraints = []Constraint{{Name: "heat", Limit: 1}}
			}
			s, err := replay(p, "s", events)
			if err != nil {
				t.Fatal(err)
			}
			if len(r.observed) != len(tc.want) || r.suggests != tc.suggests {
				t.Fatalf("observed %v after %d suggestions, want %v after %d", r.observed, r.suggests, tc.want, tc.suggests)
			}
			for i, o := range r.observed {
				for j, v := range o {
					if w := tc.want[i][j]; v != w && !(math.IsNaN(v) && math.IsNaN(w)) {
						t.Fatalf("observation %d: %v, want %v", i, o, tc.want[i])
					}
				}
			}
			if pending := s.pending(); len(pending) != 1 || pending[0].id != "4" || s.evaluations() != 2 || s.nextTrialID() != "5" {
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
}
