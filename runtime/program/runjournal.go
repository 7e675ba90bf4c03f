package program

import (
	"context"
	"fmt"
	"io"
	"math"

	"github.com/bocdev/boc/runtime/journal"
)

// run --journal: the run records each trial in the journal before it is
// evaluated and its result before the next one starts, and a run started
// again on the same journal replays the study and goes on where it stopped,
// evaluating again the one trial a kill cut off.

// Evaluation is what one evaluation of the objective measured.
type Evaluation struct {
	Y, SD       float64   // SD: NaN unless the problem reports it
	Constraints []float64 // the unknown constraints' values, in order
}

// runJournal runs study name of the journal at path to budget trials.
func runJournal(ctx context.Context, p Problem, f studyFlags, budget int, stdout, stderr io.Writer) int {
	if msg := journalRefusal(p); msg != "" {
		fmt.Fprintf(stderr, "%s: run --journal: %s\n", p.Name, msg)
		return ExitUsage
	}
	j, err := journal.Open(f.journal)
	if err != nil {
		printError(stderr, p, err)
		return ExitFailure
	}
	defer j.Close()
	var s *study
	// record appends events of the study, in one transaction, after checking
	// that no other process wrote to the study since this one last did.
	record := func(events ...journal.Event) error {
		return j.Transact(func(all []journal.Event) ([]journal.Event, error) {
			if s != nil {
				n := 0
				for _, e := range all {
					if e.Study == s.name {
						n++
					}
				}
				if n != s.events {
					return nil, fmt.Errorf("study %s changed under this run: another process is writing to it", s.name)
				}
				s.events += len(events)
				return events, nil
			}
			var err error
			if s, err = replay(p, f.study, all); err != nil || s.opened {
				return nil, err
			}
			s.events++
			return []journal.Event{s.opening(p)}, nil
		})
	}
	if err := record(); err != nil {
		printError(stderr, p, err)
		return ExitFailure
	}
	for _, w := range j.Warnings() {
		fmt.Fprintf(stderr, "%s: warning: %s\n", p.Name, w)
	}
	resumed := len(s.told)
	for len(s.told) < budget {
		if err := ctx.Err(); err != nil {
			fmt.Fprintf(stderr, "%s: interrupted after %d of %d trials; run again with the same journal to go on\n", p.Name, len(s.told), budget)
			writeJournalSummary(stdout, p, f, s)
			return ExitFailure
		}
		t, err := nextTrial(s, record)
		if err != nil {
			printError(stderr, p, err)
			return ExitFailure
		}
		t.result = evaluate(ctx, p, s, t)
		if ctx.Err() != nil {
			t.result = nil
			continue // interrupted: the trial stays pending, to be evaluated again
		}
		// Observed before it is recorded, so that the journal holds only what
		// replays: a value the optimiser refuses is recorded as a failure.
		err = s.observe(p, t, false)
		if err != nil && t.result.Kind == journal.KindTell {
			fail := s.event(journal.KindFail)
			fail.Trial, fail.Reason = t.id, "the optimiser refused the value: "+err.Error()
			t.result = &fail
			err = s.observe(p, t, false)
		}
		if err == nil {
			err = record(*t.result)
		}
		if err != nil {
			printError(stderr, p, err)
			return ExitFailure
		}
		writeTrialProgress(stderr, p, s, t, budget)
	}
	if resumed > 0 {
		fmt.Fprintf(stderr, "%s: resumed study %s after %d trials\n", p.Name, s.name, resumed)
	}
	writeJournalSummary(stdout, p, f, s)
	return ExitOK
}

// journalRefusal says why run --journal cannot run p, or "".
func journalRefusal(p Problem) string {
	switch {
	case len(p.Constraints) > 0:
		return "a run with unknown safety constraints is not journalled in this version of boc: drive it with ask and tell"
	case p.Evaluate == nil:
		return "the objective is external or simulated: a study of a simulated objective is reproduced by --seed, and an external one is driven by ask and tell"
	}
	return ""
}

// nextTrial is the trial a killed run left pending, to evaluate again, or
// the optimiser's next point, recorded before it is evaluated.
func nextTrial(s *study, record func(...journal.Event) error) (*trial, error) {
	if pending := s.pending(); len(pending) > 0 {
		return pending[0], nil
	}
	x, err := s.suggest()
	if err != nil {
		return nil, err
	}
	t := &trial{id: s.nextTrialID(), x: x}
	ask := s.event(journal.KindAsk)
	ask.Trial, ask.X = t.id, x
	if err := record(ask); err != nil {
		return nil, err
	}
	s.trials = append(s.trials, t)
	s.byID[t.id] = t
	return t, nil
}

// evaluate evaluates trial t and returns the event that records it: its
// values, or a failure with its reason (an error, a panic, a value that is
// not a finite number).
func evaluate(ctx context.Context, p Problem, s *study, t *trial) *journal.Event {
	ev, err := guarded(ctx, p, t.x)
	e := s.event(journal.KindTell)
	e.Trial = t.id
	switch {
	case err != nil:
		e.Kind, e.Reason = journal.KindFail, err.Error()
	case math.IsNaN(ev.Y) || math.IsInf(ev.Y, 0):
		e.Kind, e.Reason = journal.KindFail, fmt.Sprintf("the value %v is not a finite number", ev.Y)
	default:
		y := ev.Y
		e.Y = &y
		if p.ReportsSD {
			sd := ev.SD
			e.SD = &sd
		}
	}
	return &e
}

// guarded is p.Evaluate, with a panic of the objective turned into an
// error that carries its message.
func guarded(ctx context.Context, p Problem, x []float64) (ev Evaluation, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the objective panicked: %v", r)
		}
	}()
	return p.Evaluate(ctx, x)
}

// writeTrialProgress is a trial's progress line on stderr.
func writeTrialProgress(w io.Writer, p Problem, s *study, t *trial, budget int) {
	outcome := "failed: " + t.result.Reason
	if t.result.Kind == journal.KindTell {
		outcome = "y=" + formatValue(*t.result.Y)
	}
	fmt.Fprintf(w, "[%d/%d] trial %s: %s  %s\n", len(s.told), budget, t.id, formatPoint(p.Dims, t.x), outcome)
}

// writeJournalSummary prints the study's state as status does.
func writeJournalSummary(w io.Writer, p Problem, f studyFlags, s *study) {
	st := newStatus(p, s)
	if f.asJSON {
		writeOut(p, w, io.Discard, st)
		return
	}
	writeStatus(w, p, st)
}
