package program

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/bocdev/boc/runtime/command"
	"github.com/bocdev/boc/runtime/journal"
)

// run --journal: the run records each trial in the journal before it is
// evaluated and its result before it takes another, and a run started
// again on the same journal replays the study and goes on where it
// stopped. Every decision is a transaction of the journal, so any number
// of runs, on one host or many (a PostgreSQL journal), share a study: each
// trial a run evaluates is leased to it, the lease is renewed while the
// evaluation lasts, and a trial whose run died (its lease expired, or its
// process is gone from this host) is taken over by another.

// Evaluation is what one evaluation of the objective measured.
type Evaluation struct {
	Y, SD       float64   // SD: NaN unless the problem reports it
	Constraints []float64 // the unknown constraints' values, in order
	// Objectives are several objectives' values, in order (Y is unused);
	// nil for one.
	Objectives []float64
}

// runPolicy is how run --journal evaluates: how many at once, how long
// one may take and how often it is tried, what a failure does, and how
// long a lease lasts unless renewed.
type runPolicy struct {
	workers       int
	evalTimeout   time.Duration // 0: none
	retries       int
	stopOnFailure bool
	lease         time.Duration
	// stopOnContradiction ends the run after a measurement contradicted the
	// constraints' model (--on-contradiction stop).
	stopOnContradiction bool
}

// check validates the policy's flags, onFailure the text of --on-failure,
// and says what is wrong, or "".
func (policy *runPolicy) check(onFailure string) string {
	switch {
	case policy.workers < 1:
		return fmt.Sprintf("--workers %d: want at least 1", policy.workers)
	case policy.evalTimeout < 0:
		return fmt.Sprintf("--eval-timeout %v: want a duration >= 0 (0: none)", policy.evalTimeout)
	case policy.retries < 0:
		return fmt.Sprintf("--retries %d: want 0 or more", policy.retries)
	case policy.lease < time.Second:
		return fmt.Sprintf("--lease %v: want at least 1s", policy.lease)
	case onFailure != "continue" && onFailure != "stop":
		return fmt.Sprintf("--on-failure %s: want continue or stop", onFailure)
	}
	policy.stopOnFailure = onFailure == "stop"
	return ""
}

// Defaults of the policy's flags.
const (
	defaultEvalTimeout = time.Hour
	defaultLease       = time.Minute
)

// Why a journalled run stopped.
const (
	stoppedBudget        = "budget"
	stoppedInterrupted   = "interrupted"
	stoppedFailure       = "failure"
	stoppedContradiction = "contradiction"
	stoppedExhausted     = "exhausted"
)

// runJournal runs study f.study of the journal f.journal to budget trials.
func runJournal(ctx context.Context, p Problem, f studyFlags, policy runPolicy, budget int, stdout, stderr io.Writer) int {
	if msg := journalRefusal(p); msg != "" {
		fmt.Fprintf(stderr, "%s: run --journal: %s\n", p.Name, msg)
		return ExitUsage
	}
	store, err := journal.OpenStore(f.journal, f.study)
	if err != nil {
		printError(stderr, p, err)
		return ExitFailure
	}
	defer store.Close()
	r := &runner{liveStudy: liveStudy{p: p, store: store, name: f.study}, flags: f, policy: policy, budget: budget, worker: newWorkerID(), stderr: stderr}
	stopped, err := r.run(ctx)
	for _, w := range store.Warnings() {
		fmt.Fprintf(stderr, "%s: warning: %s\n", p.Name, w)
	}
	if err != nil {
		printError(stderr, p, err)
		return ExitFailure
	}
	if r.resumed > 0 {
		fmt.Fprintf(stderr, "%s: resumed study %s after %d trials\n", p.Name, r.flags.study, r.resumed)
	}
	st := newStatus(p, r.s)
	st.Stopped = stopped
	if f.asJSON {
		writeOut(p, stdout, io.Discard, st)
	} else {
		writeStatus(stdout, p, st)
	}
	switch stopped {
	case stoppedInterrupted:
		fmt.Fprintf(stderr, "%s: interrupted after %d of %d trials; run again with the same journal to go on\n", p.Name, len(r.s.told), budget)
		return ExitFailure
	case stoppedFailure:
		fmt.Fprintf(stderr, "%s: stopped by a failed evaluation (--on-failure stop)\n", p.Name)
		return ExitFailure
	case stoppedContradiction:
		fmt.Fprintf(stderr, "%s: stopped by a measurement that contradicted the constraints' model (--on-contradiction stop); status lists it\n", p.Name)
	}
	return ExitOK
}

// journalRefusal says why run --journal cannot run p, or "".
func journalRefusal(p Problem) string {
	if p.Evaluate == nil {
		return "the objective is external: drive its study with ask and tell"
	}
	return ""
}

// runner is one journalled run.
type runner struct {
	liveStudy
	flags  studyFlags
	policy runPolicy
	budget int
	worker string // this run's name in leases
	stderr io.Writer
	// resumed counts the trials told before this run started.
	resumed int
	// started receives the process groups of the evaluations as they
	// start (exec objectives), for the leases to record.
	started chan startedEvaluation
	// contradicted says a result recorded by this run contradicted the
	// constraints' model.
	contradicted bool
}

// startedEvaluation is a trial whose evaluation started as process group
// pid.
type startedEvaluation struct {
	t   *trial
	pid int
}

// finished is an evaluated trial, with the event that records it.
type finished struct {
	t      *trial
	result *journal.Event // nil: interrupted, the trial stays pending
}

// run claims trials and evaluates up to policy.workers of them at once
// until the study has budget trials told, and says why it stopped.
func (r *runner) run(ctx context.Context) (stopped string, err error) {
	if err := r.transact(func(s *study) ([]journal.Event, error) { r.resumed = len(s.told); return nil, nil }); err != nil {
		return "", err
	}
	// Evaluations still running when the run ends on an error are cancelled:
	// their trials stay pending until their leases expire.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan finished, r.policy.workers)
	r.started = make(chan startedEvaluation, 4*r.policy.workers)
	running := map[string]*trial{} // the trials this run evaluates, by id
	renew := time.NewTicker(r.policy.lease / 3)
	defer renew.Stop()
	var wait <-chan time.Time // set while the others' trials are all there is
	stopped = stoppedBudget
	for {
		if stopped == stoppedBudget && ctx.Err() == nil && len(running) < r.policy.workers && wait == nil {
			c, err := r.claim(r.policy.workers - len(running))
			if err != nil {
				return "", err
			}
			for _, t := range c.trials {
				running[t.id] = t
				go func() { done <- finished{t, r.evaluate(ctx, t)} }()
			}
			switch {
			case len(running) == 0 && c.complete:
				return stopped, nil
			case len(running) == 0 && c.exhausted:
				return stoppedExhausted, nil
			case len(running) == 0 && !c.othersBusy && c.blocked != nil:
				return "", fmt.Errorf("study %s: %w%s", r.flags.study, c.blocked, pendingNote(r.s.pending()))
			case len(running) == 0 && !c.othersBusy:
				return "", fmt.Errorf("study %s: all %d trials of the budget are asked for%s", r.flags.study, r.budget, pendingNote(r.s.pending()))
			case len(c.trials) == 0 && c.othersBusy:
				// Other runs hold the trials left: look again shortly, in
				// case one of them dies.
				wait = time.After(min(r.policy.lease/3, time.Second))
			}
		}
		if len(running) == 0 && wait == nil {
			if ctx.Err() != nil {
				return stoppedInterrupted, nil
			}
			return stopped, nil
		}
		select {
		case d := <-done:
			delete(running, d.t.id)
			if d.result == nil {
				continue
			}
			if err := r.record(d.t, d.result); err != nil {
				return "", err
			}
			switch {
			case d.result.Kind == journal.KindFail && r.policy.stopOnFailure:
				stopped = stoppedFailure
			case r.contradicted && r.policy.stopOnContradiction:
				stopped = stoppedContradiction
			}
		case <-renew.C:
			if err := r.renew(running, nil); err != nil {
				return "", err
			}
		case st := <-r.started:
			if running[st.t.id] != nil {
				if err := r.renew(map[string]*trial{st.t.id: st.t}, map[string]int{st.t.id: st.pid}); err != nil {
					return "", err
				}
			}
		case <-wait:
			wait = nil
		case <-ctx.Done():
			// The evaluations see the same context and end; their trials
			// stay pending, released below so that a resumed run need not
			// wait for the leases to expire.
			wait = nil
			for len(running) > 0 {
				d := <-done
				delete(running, d.t.id)
				if d.result != nil {
					if err := r.record(d.t, d.result); err != nil {
						return "", err
					}
				}
			}
			if err := r.release(); err != nil {
				return "", err
			}
			return stoppedInterrupted, nil
		}
	}
}

// claim leases up to k trials to this run: first the pending trials whose
// run died, then new trials at the optimiser's next points, the pending
// ones believed (study.believe).
func (r *runner) claim(k int) (c claim, err error) {
	now := time.Now()
	until := now.Add(r.policy.lease).UTC().Format(time.RFC3339Nano)
	err = r.transact(func(s *study) ([]journal.Event, error) {
		c = claim{}
		if len(s.told) >= r.budget {
			c.complete = true
			return nil, nil
		}
		var add []journal.Event
		pending := s.pending()
		for _, t := range pending {
			switch {
			case t.worker == "" || t.worker == r.worker:
				// Asked from a shell, or evaluated by this run.
			case leaseLive(t, now):
				c.othersBusy = true
			case len(c.trials) < k:
				// The dead run's evaluation must not overlap this one's:
				// kill what is left of its process group on this host.
				if t.process > 0 && onThisHost(t.worker) {
					command.KillProcessGroup(t.process)
				}
				lease := s.event(journal.KindLease)
				lease.Trial, lease.Worker, lease.Until = t.id, r.worker, until
				add = append(add, lease)
				t.worker = r.worker
				c.trials = append(c.trials, t)
			}
		}
		room := min(k-len(c.trials), r.budget-len(s.told)-len(pending))
		if room <= 0 {
			return add, nil
		}
		for _, t := range pending {
			if err := s.believe(t); err != nil {
				return nil, err
			}
		}
		for range room {
			x, err := s.suggest()
			if errors.Is(err, ErrExhausted) {
				c.exhausted = true
				break
			}
			if err != nil && len(pending)+len(c.trials) > 0 {
				// Perhaps only for want of the pending trials' points (a
				// safe optimiser's): try again once some are told.
				c.blocked = err
				break
			}
			if err != nil {
				return nil, err
			}
			t := &trial{id: s.nextTrialID(), x: x, worker: r.worker}
			s.trials = append(s.trials, t)
			s.byID[t.id] = t
			s.played[t.id] = true
			// The last one asked need not be believed: the next suggestion
			// comes after the next transaction, which believes it then if
			// it is still pending, and a session left as the journal
			// replays it serves that transaction without a replay.
			if len(c.trials) < room-1 {
				if err := s.believe(t); err != nil {
					return nil, err
				}
			}
			ask := s.event(journal.KindAsk)
			ask.Trial, ask.X, ask.Worker, ask.Until = t.id, x, r.worker, until
			add = append(add, ask)
			c.trials = append(c.trials, t)
		}
		return add, nil
	})
	return c, err
}

// claim is what a run claimed: trials to evaluate, whether the study is
// complete, whether other live runs hold trials, and why no more trials
// could be asked while trials are pending (nil: nothing stood in the way).
type claim struct {
	trials               []*trial
	complete, othersBusy bool
	blocked              error
	// exhausted says the optimiser has no point left to ask for.
	exhausted bool
}

// record records trial t's result, observed first: a value the optimiser
// refuses is recorded as a failure, so that the journal holds only what
// replays. A trial another run told meanwhile keeps that run's result.
func (r *runner) record(t *trial, result *journal.Event) error {
	var recorded *study
	err := r.transact(func(s *study) ([]journal.Event, error) {
		st := s.byID[t.id]
		if st == nil {
			return nil, fmt.Errorf("study %s lost trial %s", s.name, t.id)
		}
		if st.result != nil {
			fmt.Fprintf(r.stderr, "%s: trial %s was told by another run meanwhile; this run's result is dropped\n", r.p.Name, t.id)
			return nil, nil
		}
		st.result = result
		// The trial's round was played when it was asked, unless the session
		// was replayed since: it plays it now, as replays do.
		replaying := !s.played[t.id]
		delete(s.played, t.id)
		before := len(contradictions(s))
		err := s.observe(r.p, st, replaying)
		if err != nil && result.Kind == journal.KindTell {
			fail := s.event(journal.KindFail)
			fail.Trial, fail.Reason = t.id, "the optimiser refused the value: "+err.Error()
			st.result = &fail
			err = s.observe(r.p, st, replaying)
			s.stale = true
		}
		if err != nil {
			return nil, err
		}
		for _, note := range contradictions(s)[before:] {
			fmt.Fprintf(r.stderr, "    contradiction: %s\n", note)
			r.contradicted = true
		}
		recorded = s
		return []journal.Event{*st.result}, nil
	})
	if err == nil && recorded != nil {
		writeTrialProgress(r.stderr, r.p, recorded, recorded.byID[t.id], r.budget)
	}
	return err
}

// renew extends the leases of the trials this run evaluates, recording
// the process groups of those in processes.
func (r *runner) renew(running map[string]*trial, processes map[string]int) error {
	if len(running) == 0 {
		return nil
	}
	until := time.Now().Add(r.policy.lease).UTC().Format(time.RFC3339Nano)
	return r.transact(func(s *study) ([]journal.Event, error) {
		var add []journal.Event
		for _, t := range s.pending() {
			if running[t.id] != nil && t.worker == r.worker {
				lease := s.event(journal.KindLease)
				lease.Trial, lease.Worker, lease.Until, lease.Process = t.id, r.worker, until, processes[t.id]
				add = append(add, lease)
			}
		}
		return add, nil
	})
}

// release ends the leases of this run's pending trials now, so that another
// run takes them at once.
func (r *runner) release() error {
	now := time.Now().UTC().Format(time.RFC3339Nano)
	return r.transact(func(s *study) ([]journal.Event, error) {
		var add []journal.Event
		for _, t := range s.pending() {
			if t.worker == r.worker {
				lease := s.event(journal.KindLease)
				lease.Trial, lease.Worker, lease.Until = t.id, r.worker, now
				add = append(add, lease)
			}
		}
		return add, nil
	})
}

// evaluate evaluates trial t under the policy: each attempt within the
// timeout, tried again after a failure up to policy.retries times. It
// returns the event that records the outcome, or nil when ctx was
// cancelled.
func (r *runner) evaluate(ctx context.Context, t *trial) *journal.Event {
	var e *journal.Event
	for attempt := 0; attempt <= r.policy.retries; attempt++ {
		e = r.attempt(ctx, t)
		if ctx.Err() != nil {
			return nil
		}
		if e.Kind == journal.KindTell {
			return e
		}
	}
	if r.policy.retries > 0 {
		e.Reason = fmt.Sprintf("%s (%d attempts)", e.Reason, r.policy.retries+1)
	}
	return e
}

// attempt evaluates trial t once and returns its values, or a failure with
// its reason: an error, a panic, a timeout, a value that is not a finite
// number or too large to model.
func (r *runner) attempt(ctx context.Context, t *trial) *journal.Event {
	e := journal.Event{Kind: journal.KindTell, Study: r.flags.study, Trial: t.id}
	ctx = command.WithStarted(ctx, func(pid int) {
		select {
		case r.started <- startedEvaluation{t, pid}:
		default: // the run is busy or ending: the record is not worth a wait
		}
	})
	ev, err := guarded(ctx, r.p, t, r.policy.evalTimeout)
	e.Time = time.Now().UTC().Format(time.RFC3339Nano)
	switch {
	case err != nil:
		e.Kind, e.Reason = journal.KindFail, err.Error()
	case r.p.several():
		e.Objectives = map[string]float64{}
		for j, name := range r.p.objectiveNames() {
			if msg := unmodelled(ev.Objectives[j]); msg != "" {
				e.Kind, e.Reason, e.Objectives = journal.KindFail, "objective "+name+": "+msg, nil
				return &e
			}
			e.Objectives[name] = ev.Objectives[j]
		}
		if reason := r.constraintValues(&e, ev); reason != "" {
			e.Kind, e.Reason, e.Objectives, e.Constraints = journal.KindFail, reason, nil, nil
		}
	case unmodelled(ev.Y) != "":
		e.Kind, e.Reason = journal.KindFail, unmodelled(ev.Y)
	default:
		y := ev.Y
		e.Y = &y
		if r.p.ReportsSD {
			sd := ev.SD
			e.SD = &sd
		}
		if reason := r.constraintValues(&e, ev); reason != "" {
			e.Kind, e.Reason, e.Y, e.SD, e.Constraints = journal.KindFail, reason, nil, nil, nil
		}
	}
	return &e
}

// constraintValues records the constraints' values of ev in tell e, or
// says why they cannot be.
func (r *runner) constraintValues(e *journal.Event, ev Evaluation) string {
	if len(r.p.Constraints) > 0 {
		e.Constraints = map[string]float64{}
	}
	for k, c := range r.p.Constraints {
		v := ev.Constraints[k]
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Sprintf("constraint %s's value %v is not a finite number", c.Name, v)
		}
		e.Constraints[c.Name] = v
	}
	return ""
}

// guarded is p.Evaluate of trial t within timeout (0: none), with a panic of the
// objective turned into an error that carries its message. When the
// timeout or ctx ends the evaluation, an exec objective's command is killed
// and its error returned; a Go objective that ignores its context is left
// to finish alone after cancelGrace, its result unused.
func guarded(ctx context.Context, p Problem, t *trial, timeout time.Duration) (Evaluation, error) {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, timeout, fmt.Errorf("the evaluation timed out after %v (--eval-timeout)", timeout))
		defer cancel()
	}
	type outcome struct {
		ev  Evaluation
		err error
	}
	out := make(chan outcome, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				out <- outcome{err: fmt.Errorf("the objective panicked: %v", r)}
			}
		}()
		number, _ := strconv.Atoi(t.id)
		ev, err := p.Evaluate(ctx, number, t.x)
		out <- outcome{ev, err}
	}()
	select {
	case o := <-out:
		return o.ev, o.err
	case <-ctx.Done():
	}
	select {
	case o := <-out:
		if o.err == nil {
			o.err = context.Cause(ctx)
		}
		return o.ev, o.err
	case <-time.After(cancelGrace):
		return Evaluation{}, fmt.Errorf("%w; the objective ignored it and was left running", context.Cause(ctx))
	}
}

// cancelGrace is how long an evaluation that was told to end may take to.
const cancelGrace = 2 * time.Second

// writeTrialProgress is a trial's progress line on stderr.
func writeTrialProgress(w io.Writer, p Problem, s *study, t *trial, budget int) {
	outcome := "failed: " + t.result.Reason
	if t.result.Kind == journal.KindTell {
		if p.several() {
			outcome = formatObjectives(p.objectiveNames(), objectiveVector(p, t.result))
		} else {
			outcome = "y=" + formatValue(*t.result.Y)
		}
		for _, c := range p.Constraints {
			outcome += fmt.Sprintf(" %s=%s", c.Name, formatValue(t.result.Constraints[c.Name]))
		}
	}
	fmt.Fprintf(w, "[%d/%d] trial %s: %s  %s\n", len(s.told), budget, t.id, formatPoint(p.Dims, t.x), outcome)
}

// contradictions are the measurements so far that contradicted the study's
// constraints' model (SafeModel), one sentence each.
func contradictions(s *study) []string {
	if model, ok := s.session.(SafeModel); ok {
		return model.Contradictions()
	}
	return nil
}
