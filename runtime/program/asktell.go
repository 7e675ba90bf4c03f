package program

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
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
		pending := s.pending()
		if len(s.told)+len(pending)+*n > p.Budget {
			return nil, fmt.Errorf("study %s: %d trials told and %d pending leave %d of the budget of %d this program was built with; a program built with a larger budget goes on with this journal",
				s.name, len(s.told), len(pending), max(p.Budget-len(s.told)-len(pending), 0), p.Budget)
		}
		var add []journal.Event
		if !s.opened {
			add = append(add, s.opening(p))
		}
		for _, t := range pending {
			if err := s.believe(t); err != nil {
				return nil, err
			}
		}
		for range *n {
			x, err := s.suggest()
			if err != nil {
				return nil, fmt.Errorf("%w%s", err, pendingNote(s.pending()))
			}
			t := &trial{id: s.nextTrialID(), x: x}
			s.trials = append(s.trials, t)
			if err := s.believe(t); err != nil {
				return nil, err
			}
			ask := s.event(journal.KindAsk)
			ask.Trial, ask.X = t.id, x
			add = append(add, ask)
			asked = append(asked, pendingTrial{t.id, command.Point{Dims: p.Dims, X: x}})
		}
		return add, nil
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
	told, msg := tellEvent(p, id, values, *sd, *failed, *reason, constraints)
	if msg != "" {
		fmt.Fprintf(stderr, "%s: tell: %s\n", p.Name, msg)
		return ExitUsage
	}
	again := false
	err := withExistingStudy(p, f, stderr, func(s *study) ([]journal.Event, error) {
		t := s.byID[id]
		switch {
		case t == nil:
			return nil, fmt.Errorf("study %s has no trial %s", s.name, id)
		case t.result != nil && sameTell(*t.result, told):
			again = true
			return nil, nil
		case t.result != nil:
			return nil, fmt.Errorf("study %s: trial %s was already told %s, and this tell says %s; a tell cannot change it",
				s.name, id, describeResult(*t.result), describeResult(told))
		}
		e := s.event(told.Kind)
		e.Trial, e.Y, e.SD, e.Constraints, e.Objectives, e.Reason = id, told.Y, told.SD, told.Constraints, told.Objectives, told.Reason
		// Observed now, so that what the optimiser refuses is not recorded.
		t.result = &e
		if err := s.observe(p, t, false); err != nil {
			return nil, err
		}
		return []journal.Event{e}, nil
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

// tellEvent checks tell's arguments and makes the result they record, or
// says what is wrong with them.
func tellEvent(p Problem, id string, values []string, sd string, failed bool, reason string, constraints map[string]string) (journal.Event, string) {
	e := journal.Event{Kind: journal.KindTell, Trial: id}
	switch {
	case id == "":
		return e, "give the trial's id: tell ID --value Y"
	case failed && (len(values) > 0 || sd != "" || len(constraints) > 0):
		return e, "--failed records a failure: give no --value, --sd or --constraint with it"
	case failed:
		e.Kind, e.Reason = journal.KindFail, reason
		return e, ""
	case reason != "":
		return e, "--reason goes with --failed"
	case len(values) == 0 && p.several():
		return e, "give each objective's measured value (--value NAME=V for each) or --failed"
	case len(values) == 0:
		return e, "give the measured value (--value Y) or --failed"
	case p.several():
		objectives, msg := objectiveValues(p, values)
		if msg != "" {
			return e, msg
		}
		e.Objectives = objectives
	case len(values) > 1:
		return e, "--value is given twice; the problem has one objective"
	default:
		y, msg := finite("--value", values[0])
		if msg == "" {
			msg = unmodelled(y)
		}
		if msg != "" {
			return e, msg
		}
		e.Y = &y
	}
	switch {
	case p.ReportsSD && sd == "":
		return e, "the observation noise is reported: give the value's noise sd (--sd S)"
	case !p.ReportsSD && sd != "":
		return e, "--sd is for a problem whose observation noise is reported; this one's is not"
	case sd != "":
		v, msg := finite("--sd", sd)
		if msg != "" || v < 0 || v > maxModelled {
			return e, fmt.Sprintf("--sd %s: want a plain number from 0 to %g", sd, maxModelled)
		}
		e.SD = &v
	}
	for name := range constraints {
		if !knownConstraint(p, name) {
			return e, fmt.Sprintf("--constraint %s: the problem has no unknown constraint %s", name, name)
		}
	}
	if len(p.Constraints) > 0 {
		e.Constraints = map[string]float64{}
	}
	for _, c := range p.Constraints {
		text, ok := constraints[c.Name]
		if !ok {
			return e, fmt.Sprintf("give constraint %s's measured value: --constraint %s=V", c.Name, c.Name)
		}
		v, msg := finite("--constraint "+c.Name, text)
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

// finite parses a flag's number, or says why it is not a finite one.
func finite(flagName, text string) (float64, string) {
	if !plainNumber.MatchString(text) {
		return 0, fmt.Sprintf("%s %s: not a finite number (write it in decimal, as 1000, -2.5 or 3e-4)", flagName, text)
	}
	v, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Sprintf("%s %s: not a finite number", flagName, text)
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
