package program

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bocdev/boc/runtime/command"
	"github.com/bocdev/boc/runtime/journal"
)

// The commands ask, tell and status: a study driven from a shell, one trial
// at a time, recorded in a journal file.

// studyFlags are the flags every study command takes.
type studyFlags struct {
	journal, study string
	asJSON         bool
}

func (f *studyFlags) register(p Problem, flags *flag.FlagSet) {
	f.registerStudy(p, flags)
	flags.BoolVar(&f.asJSON, "json", false, "")
}

// registerStudy registers the flags that name the study: --journal and
// --study.
func (f *studyFlags) registerStudy(p Problem, flags *flag.FlagSet) {
	flags.StringVar(&f.journal, "journal", p.Name+".journal", "")
	flags.StringVar(&f.study, "study", p.Name, "")
}

// withStudy opens the journal and runs fn on the study, replayed, inside
// one transaction: the events fn returns are recorded before any other
// process sees the journal. A journal's warnings go to stderr.
func withStudy(p Problem, f studyFlags, stderr io.Writer, fn func(s *study) ([]journal.Event, error)) error {
	if p.NewSession == nil {
		return errors.New("this program was built without ask and tell")
	}
	j, err := journal.OpenStore(f.journal, f.study)
	if err != nil {
		return err
	}
	defer j.Close()
	err = j.Transact(func(events []journal.Event) ([]journal.Event, error) {
		s, err := replay(p, f.study, events)
		if err != nil {
			return nil, err
		}
		return fn(s)
	})
	for _, w := range j.Warnings() {
		fmt.Fprintf(stderr, "%s: warning: %s\n", p.Name, w)
	}
	return err
}

// withExistingStudy is withStudy for the commands that read a study or
// answer one of its trials: opening a journal file creates it, and they
// must not leave an empty journal behind a mistyped path.
func withExistingStudy(p Problem, f studyFlags, stderr io.Writer, fn func(s *study) ([]journal.Event, error)) error {
	if !journal.IsPostgres(f.journal) {
		if _, err := os.Stat(f.journal); errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("there is no journal %s; run --journal, or ask and tell, record a study in one", f.journal)
		}
	}
	return withStudy(p, f, stderr, fn)
}

// event is an event of the study stamped with the time.
func (s *study) event(kind string) journal.Event {
	return journal.Event{Kind: kind, Study: s.name, Time: time.Now().UTC().Format(time.RFC3339Nano)}
}

// opening is the event that opens the study for problem p.
func (s *study) opening(p Problem) journal.Event {
	e := s.event(journal.KindStudy)
	e.Identity, e.Problem, e.Program, e.Budget, e.Seed = identity(p.Identity), p.Name, p.Identity, p.Budget, p.Seed
	return e
}

func askCommand(p Problem, args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet(p.Name+" ask", flag.ContinueOnError)
	flags.SetOutput(io.Discard)
	var f studyFlags
	f.register(p, flags)
	n := flags.Int("n", 1, "")
	if code, ok := parseFlags(p, flags, "ask", args, stdout, stderr); !ok {
		return code
	}
	if *n < 1 {
		fmt.Fprintf(stderr, "%s: ask -n %d: ask for at least one trial\n", p.Name, *n)
		return ExitUsage
	}
	var asked []pendingTrial
	err := withStudy(p, f, stderr, func(s *study) ([]journal.Event, error) {
		var add []journal.Event
		if !s.opened {
			add = append(add, s.opening(p))
		}
		more, trials, err := s.ask(p, *n)
		asked = trials
		return append(add, more...), err
	})
	if err != nil {
		printError(stderr, p, err)
		return ExitFailure
	}
	if f.asJSON {
		return writeOut(p, stdout, stderr, struct {
			Trials []pendingTrial `json:"trials"`
		}{asked})
	}
	for _, t := range asked {
		fmt.Fprintf(stdout, "trial %s: %s\n", t.ID, formatPoint(p.Dims, t.X.X))
	}
	return ExitOK
}

// ask reserves n trials at the optimiser's next points, each suggested
// with the pending trials believed (study.believe), and returns the events
// that record them. It refuses, as a conflict, more trials than the budget
// leaves.
func (s *study) ask(p Problem, n int) ([]journal.Event, []pendingTrial, error) {
	pending := s.pending()
	if len(s.told)+len(pending)+n > p.Budget {
		return nil, nil, conflict{fmt.Errorf("study %s: %d trials told and %d pending leave %d of the budget of %d this program was built with; a program built with a larger budget goes on with this journal",
			s.name, len(s.told), len(pending), max(p.Budget-len(s.told)-len(pending), 0), p.Budget)}
	}
	stale, unweighed := s.stale, len(s.unweighed)
	for _, t := range pending {
		if err := s.believe(t); err != nil {
			return nil, nil, err
		}
	}
	var add []journal.Event
	var asked []pendingTrial
	for range n {
		x, err := s.suggest()
		if err != nil {
			err = fmt.Errorf("%w%s", err, pendingNote(s.pending()))
			if errors.Is(err, ErrExhausted) {
				err = conflict{err}
			}
			return nil, nil, err
		}
		t := &trial{id: s.nextTrialID(), x: x}
		s.trials = append(s.trials, t)
		s.byID[t.id] = t
		s.played[t.id] = true
		if err := s.believe(t); err != nil {
			return nil, nil, err
		}
		ask := s.event(journal.KindAsk)
		ask.Trial, ask.X = t.id, x
		add = append(add, ask)
		asked = append(asked, pendingTrial{t.id, command.Point{Dims: p.Dims, X: x}})
	}
	if replayable(p) && len(s.unweighed) == unweighed {
		// The beliefs were only a list of pending points, and a Suggest
		// leaves no trace: without them the session is what a replay of
		// the journal gives, which a long-lived process (serve) goes on
		// with instead of replaying the study for its next request.
		for _, t := range s.pending() {
			s.session.Release(t.x)
		}
		s.stale = stale
	}
	return add, asked, nil
}

// replayable reports whether a session of problem p is left by ask as a
// replay would leave it, once its beliefs are released: its suggestions
// depend on its observations alone (the library loop and ask agree on
// every golden program, codegen's TestAskTellReplay, though ask never
// calls Suggest between observations when it replays), and Pending only
// lists a point. A safe optimiser's or a portfolio's rounds move its
// state, which only a replay plays again.
func replayable(p Problem) bool { return !p.safe() && !p.CarriesState }

// conflict marks an error that the study's state causes (a budget spent, a
// trial told otherwise before), not the request's form nor the journal.
type conflict struct{ error }

func (c conflict) Unwrap() error { return c.error }

// notFound marks an error about a trial the study does not have.
type notFound struct{ error }

func (n notFound) Unwrap() error { return n.error }

// pendingNote names the pending trials, for a message.
func pendingNote(pending []*trial) string {
	if len(pending) == 0 {
		return ""
	}
	if len(pending) == 1 {
		return "; pending: trial " + pending[0].id + " (tell it first)"
	}
	return "; pending: trials " + trialIDs(pending) + " (tell them first)"
}

// pendingTrial is a trial waiting for its values, as JSON shows it.
type pendingTrial struct {
	ID string        `json:"id"`
	X  command.Point `json:"x"`
}

func tellCommand(p Problem, args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet(p.Name+" tell", flag.ContinueOnError)
	flags.SetOutput(io.Discard)
	var f studyFlags
	f.register(p, flags)
	var values []string
	flags.Func("value", "", func(s string) error {
		values = append(values, s)
		return nil
	})
	sd := flags.String("sd", "", "")
	failed := flags.Bool("failed", false, "")
	reason := flags.String("reason", "", "")
	constraints := map[string]string{}
	flags.Func("constraint", "", func(s string) error {
		name, v, ok := strings.Cut(s, "=")
		if !ok {
			return fmt.Errorf("--constraint %s: want NAME=VALUE", s)
		}
		constraints[name] = v
		return nil
	})
	var id string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		id, args = args[0], args[1:]
	}
	if code, ok := parseFlags(p, flags, "tell", args, stdout, stderr); !ok {
		return code
	}
	told, msg := tellEvent(p, tellInput{id, values, *sd, *failed, *reason, constraints}, flagSyntax)
	if msg != "" {
		fmt.Fprintf(stderr, "%s: tell: %s\n", p.Name, msg)
		return ExitUsage
	}
	again := false
	err := withExistingStudy(p, f, stderr, func(s *study) ([]journal.Event, error) {
		var add []journal.Event
		var err error
		add, again, err = s.tell(p, told)
		return add, err
	})
	if err != nil {
		printError(stderr, p, err)
		return ExitFailure
	}
	if again {
		fmt.Fprintf(stdout, "trial %s: already recorded\n", id)
	} else {
		fmt.Fprintf(stdout, "trial %s: recorded\n", id)
	}
	return ExitOK
}

// tell records the result told (tellEvent) for its trial and observes it,
// so that what the optimiser refuses is not recorded; again says the trial
// was told the same before, which records nothing.
func (s *study) tell(p Problem, told journal.Event) (add []journal.Event, again bool, err error) {
	t := s.byID[told.Trial]
	switch {
	case t == nil:
		return nil, false, notFound{fmt.Errorf("study %s has no trial %s", s.name, told.Trial)}
	case t.result != nil && sameTell(*t.result, told):
		return nil, true, nil
	case t.result != nil:
		return nil, false, conflict{fmt.Errorf("study %s: trial %s was already told %s, and this tell says %s; a tell cannot change it",
			s.name, t.id, describeResult(*t.result), describeResult(told))}
	}
	e := s.event(told.Kind)
	e.Trial, e.Y, e.SD, e.Constraints, e.Objectives, e.Reason = t.id, told.Y, told.SD, told.Constraints, told.Objectives, told.Reason
	t.result = &e
	// The trial's round was played when it was asked, unless the session
	// was replayed since: it plays it now, as replays do.
	replaying := !s.played[t.id]
	delete(s.played, t.id)
	if err := s.observe(p, t, replaying); err != nil {
		return nil, false, err
	}
	return []journal.Event{e}, false, nil
}

// tellInput is what a tell gives, as text: the command's flags or the
// API's fields.
type tellInput struct {
	id          string
	values      []string // the value, or NAME=V for each objective
	sd          string
	failed      bool
	reason      string
	constraints map[string]string
}

// tellSyntax names a tell's inputs in the messages about them: the
// command line's flags or the JSON API's fields. The forms with %s take a
// name.
type tellSyntax struct {
	id, failed, reason    string
	value, valueForm      string
	namedForm, namedValue string
	sd, sdForm            string
	constraint, named     string
}

var (
	flagSyntax = tellSyntax{id: "tell ID --value Y", failed: "--failed", reason: "--reason",
		value: "--value", valueForm: "--value Y", namedForm: "--value NAME=V", namedValue: "--value %s=V",
		sd: "--sd", sdForm: "--sd S", constraint: "--constraint", named: "--constraint %s=V"}
	jsonSyntax = tellSyntax{id: `{"id": ID, "value": Y}`, failed: `"failed"`, reason: `"reason"`,
		value: `"value"`, valueForm: `"value": Y`, namedForm: `"value": {"NAME": V, ...}`, namedValue: `"value": {"%s": V}`,
		sd: `"sd"`, sdForm: `"sd": S`, constraint: `"constraints"`, named: `"constraints": {"%s": V}`}
)

// tellEvent checks a tell's inputs and makes the result they record, or
// says what is wrong with them in syntax's words.
func tellEvent(p Problem, in tellInput, syntax tellSyntax) (journal.Event, string) {
	e := journal.Event{Kind: journal.KindTell, Trial: in.id}
	switch {
	case in.id == "":
		return e, "give the trial's id: " + syntax.id
	case in.failed && (len(in.values) > 0 || in.sd != "" || len(in.constraints) > 0):
		return e, fmt.Sprintf("%s records a failure: give no %s, %s or %s with it", syntax.failed, syntax.value, syntax.sd, syntax.constraint)
	case in.failed:
		e.Kind, e.Reason = journal.KindFail, in.reason
		return e, ""
	case in.reason != "":
		return e, fmt.Sprintf("%s goes with %s", syntax.reason, syntax.failed)
	case len(in.values) == 0 && p.several():
		return e, fmt.Sprintf("give each objective's measured value (%s for each) or %s", syntax.namedForm, syntax.failed)
	case len(in.values) == 0:
		return e, fmt.Sprintf("give the measured value (%s) or %s", syntax.valueForm, syntax.failed)
	case p.several():
		objectives, msg := objectiveValues(p, in.values, syntax)
		if msg != "" {
			return e, msg
		}
		e.Objectives = objectives
	case len(in.values) > 1:
		return e, fmt.Sprintf("%s is given %d times; the problem has one objective", syntax.value, len(in.values))
	default:
		y, msg := finite(syntax.value, in.values[0])
		if msg == "" {
			msg = unmodelled(y)
		}
		if msg != "" {
			return e, msg
		}
		e.Y = &y
	}
	switch {
	case p.ReportsSD && in.sd == "":
		return e, fmt.Sprintf("the observation noise is reported: give the value's noise sd (%s)", syntax.sdForm)
	case !p.ReportsSD && in.sd != "":
		return e, fmt.Sprintf("%s is for a problem whose observation noise is reported; this one's is not", syntax.sd)
	case in.sd != "":
		v, msg := finite(syntax.sd, in.sd)
		if msg != "" || v < 0 || v > maxModelled {
			return e, fmt.Sprintf("%s %s: want a plain number from 0 to %g", syntax.sd, in.sd, maxModelled)
		}
		e.SD = &v
	}
	for _, name := range slices.Sorted(maps.Keys(in.constraints)) {
		if !knownConstraint(p, name) {
			return e, fmt.Sprintf("%s %s: the problem has no unknown constraint %s", syntax.constraint, name, name)
		}
	}
	if len(p.Constraints) > 0 {
		e.Constraints = map[string]float64{}
	}
	for _, c := range p.Constraints {
		text, ok := in.constraints[c.Name]
		if !ok {
			return e, fmt.Sprintf("give constraint %s's measured value: "+syntax.named, c.Name, c.Name)
		}
		v, msg := finite(syntax.constraint+" "+c.Name, text)
		if msg == "" {
			msg = unmodelled(v)
		}
		if msg != "" {
			return e, msg
		}
		e.Constraints[c.Name] = v
	}
	return e, ""
}

// maxModelled bounds the magnitude of the values a study models: the
// models' standardisation sums squares of values, which stay finite below
// it for any budget up to 10^8 observations.
const maxModelled = 1e150

// unmodelled says why value y cannot be modelled, or "".
func unmodelled(y float64) string {
	switch {
	case math.IsNaN(y) || math.IsInf(y, 0):
		return fmt.Sprintf("the value %v is not a finite number", y)
	case math.Abs(y) > maxModelled:
		return fmt.Sprintf("the value %v is too large to model (beyond ±%g): rescale the objective", y, maxModelled)
	}
	return ""
}

// plainNumber is the form a told number takes: decimal digits with an
// optional sign, point and exponent (not Go's 1_000 or 0x1p4, which a lab's
// spreadsheet would not write and a typo could produce).
var plainNumber = regexp.MustCompile(`^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$`)

// finite parses an input's number, or says why it is not a finite one.
func finite(input, text string) (float64, string) {
	if !plainNumber.MatchString(text) {
		return 0, fmt.Sprintf("%s %s: not a finite number (write it in decimal, as 1000, -2.5 or 3e-4)", input, text)
	}
	v, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Sprintf("%s %s: not a finite number", input, text)
	}
	return v, ""
}

func knownConstraint(p Problem, name string) bool {
	for _, c := range p.Constraints {
		if c.Name == name {
			return true
		}
	}
	return false
}

// describeResult says what a trial was told, for messages.
func describeResult(e journal.Event) string {
	if e.Kind == journal.KindFail {
		if e.Reason != "" {
			return fmt.Sprintf("failed (%q)", e.Reason)
		}
		return "failed"
	}
	var out string
	if e.Y != nil {
		out = "the value " + formatValue(*e.Y)
	} else {
		out = "the objectives " + describeValues(e.Objectives)
	}
	if e.SD != nil {
		out += " with sd " + formatValue(*e.SD)
	}
	if len(e.Constraints) > 0 {
		out += " and constraints " + describeValues(e.Constraints)
	}
	return out
}

func statusCommand(p Problem, args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet(p.Name+" status", flag.ContinueOnError)
	flags.SetOutput(io.Discard)
	var f studyFlags
	f.register(p, flags)
	if code, ok := parseFlags(p, flags, "status", args, stdout, stderr); !ok {
		return code
	}
	var st status
	err := withExistingStudy(p, f, stderr, func(s *study) ([]journal.Event, error) {
		st = newStatus(p, s)
		return nil, nil
	})
	if err != nil {
		printError(stderr, p, err)
		return ExitFailure
	}
	if f.asJSON {
		return writeOut(p, stdout, stderr, st)
	}
	writeStatus(stdout, p, st)
	return ExitOK
}

// writeStatus prints a study's state for people.
func writeStatus(w io.Writer, p Problem, st status) {
	violations := ""
	if st.Violations != nil {
		violations += fmt.Sprintf(", %d broke a safety limit", *st.Violations)
	}
	if st.Unmet != nil {
		violations += fmt.Sprintf(", %d broke a requirement", *st.Unmet)
	}
	fmt.Fprintf(w, "study %s of problem %s: %d evaluations, %d failed, %d pending (budget %d)%s\n",
		st.Study, p.Name, st.Evaluations, st.Failed, len(st.Pending), p.Budget, violations)
	for _, note := range st.Contradictions {
		fmt.Fprintf(w, "contradiction: %s\n", note)
	}
	for _, t := range st.Pending {
		fmt.Fprintf(w, "pending: trial %s at %s\n", t.ID, formatPoint(p.Dims, t.X.X))
	}
	if p.several() && st.Evaluations > 0 {
		writeFront(w, p, st.front, st.hypervolume, st.reference)
	}
	if st.Recommendation != nil {
		fmt.Fprintf(w, "recommendation: %s  (posterior mean %s)\n", formatPoint(p.Dims, st.Recommendation.X), formatValue(float64(*st.RecommendationMean)))
	} else if st.BestObserved != nil && !p.several() {
		fmt.Fprintf(w, "recommendation: none (no evaluated point meets the requirements)\n")
	}
	if st.BestObserved != nil {
		fmt.Fprintf(w, "best observed:  %s  y=%s\n", formatPoint(p.Dims, st.BestObserved.X.X), formatValue(float64(st.BestObserved.Y)))
	}
}

// status is what status --json prints.
type status struct {
	Study              string         `json:"study"`
	Problem            string         `json:"problem"`
	Budget             int            `json:"budget"`
	Evaluations        int            `json:"evaluations"`
	Failed             int            `json:"failed"`
	Pending            []pendingTrial `json:"pending"`
	Recommendation     *command.Point `json:"recommendation"`
	RecommendationMean *number        `json:"recommendation_mean"`
	// Feasible says, with requirements, whether a told point meets them
	// with their confidence; Recommendation is null while none does.
	Feasible     *bool     `json:"feasible,omitempty"`
	BestObserved *bestTold `json:"best_observed"`
	// Violations counts, with unknown safety constraints, the trials told a
	// value that broke a safety limit; Unmet, with requirements, those told a
	// value that broke a requirement.
	Violations *int `json:"violations,omitempty"`
	Unmet      *int `json:"unmet,omitempty"`
	// Contradictions explains the measurements that contradicted the
	// unknown constraints' model (docs/safe.md), a sentence each.
	Contradictions []string `json:"contradictions,omitempty"`
	// With several objectives: their Pareto set and hypervolume.
	paretoJSON
	front       []FrontPoint
	hypervolume float64
	reference   []float64
	// Stopped says why run --journal ended: budget, exhausted (no point left to ask for), interrupted or failure.
	Stopped string `json:"stopped,omitempty"`
}

// bestTold is the best value told and where.
type bestTold struct {
	X command.Point `json:"x"`
	Y number        `json:"y"`
}

func newStatus(p Problem, s *study) status {
	st := status{Study: s.name, Problem: p.Name, Budget: p.Budget, Evaluations: s.evaluations(),
		Failed: len(s.told) - s.evaluations(), Pending: []pendingTrial{}}
	for _, t := range s.pending() {
		st.Pending = append(st.Pending, pendingTrial{t.id, command.Point{Dims: p.Dims, X: t.x}})
	}
	x, mean, ok := s.session.Best()
	if ok {
		m := number(mean)
		st.Recommendation, st.RecommendationMean = &command.Point{Dims: p.Dims, X: x}, &m
	}
	if p.requires() && !p.several() {
		st.Feasible = &ok
	}
	if ps, ok := s.session.(ParetoSession); ok && p.several() {
		var err error
		st.front = ps.Front()
		if st.hypervolume, st.reference, err = ps.Hypervolume(); err != nil {
			st.hypervolume = math.NaN()
		}
		st.paretoJSON = newParetoJSON(p, st.front, st.hypervolume, st.reference, false)
	}
	if x, y, ok := s.session.BestObserved(); ok {
		st.BestObserved = &bestTold{X: command.Point{Dims: p.Dims, X: x}, Y: number(y)}
	}
	if p.safe() {
		st.Violations = brokeLimits(p, s, false)
	}
	if p.requires() {
		st.Unmet = brokeLimits(p, s, true)
	}
	if model, ok := s.session.(SafeModel); ok {
		st.Contradictions = model.Contradictions()
	}
	return st
}

// brokeLimits counts the trials of s told a value that broke a limit of a
// requirement (required) or of a safety constraint.
func brokeLimits(p Problem, s *study, required bool) *int {
	n := 0
	for _, t := range s.told {
		if t.result.Kind == journal.KindTell && slices.ContainsFunc(p.Constraints, func(c Constraint) bool {
			return c.Required == required && violated(c, t.result.Constraints[c.Name])
		}) {
			n++
		}
	}
	return &n
}

// writeOut prints v as one JSON object.
func writeOut(p Problem, stdout, stderr io.Writer, v any) int {
	b, err := json.Marshal(v)
	if err != nil {
		printError(stderr, p, err)
		return ExitFailure
	}
	fmt.Fprintf(stdout, "%s\n", b)
	return ExitOK
}
