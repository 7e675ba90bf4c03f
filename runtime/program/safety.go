package program

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Constraint describes one measured constraint of a problem: its measured
// value must stay >= Limit (AtLeast) or <= Limit. A safety constraint must
// hold at every evaluation; a Required one (an outcome constraint) only at
// the recommendation. Simulated constraints are computed by the program
// from an expression (and measured with simulated noise), so their true
// values are known.
type Constraint struct {
	Name      string
	Limit     float64
	AtLeast   bool
	Required  bool
	Simulated bool
}

// Safety is what one evaluation of a problem with measured constraints
// (safety constraints, requirements) reports: the values measured, the true
// values where simulated (NaN otherwise), the certificate of the suggestion
// (Phase 0 in a random search or without safety constraints, which has
// none) and the counts so far.
type Safety struct {
	Constraints     []float64
	TrueConstraints []float64
	Phase           int
	SeedPoint       bool
	Beta            float64
	Bounds          []float64
	SafeSize        int
	// Violations counts the evaluations so far whose measured safety
	// constraints broke a limit, UnsafeEvaluations those whose simulated ones
	// truly did; Unmet and TrulyUnmet count the same of the requirements.
	Violations, UnsafeEvaluations int
	Unmet, TrulyUnmet             int
	// Contradicted explains how this evaluation contradicted the
	// constraints' model, a sentence each; nil when it did not.
	Contradicted []string
}

// safe reports whether p has safety constraints, which its optimiser keeps
// at every evaluation.
func (p Problem) safe() bool {
	return slices.ContainsFunc(p.Constraints, func(c Constraint) bool { return !c.Required })
}

// requires reports whether p has requirements (outcome constraints), which
// only its recommendation must meet.
func (p Problem) requires() bool {
	return slices.ContainsFunc(p.Constraints, func(c Constraint) bool { return c.Required })
}

// simulates reports whether any constraint of p is simulated.
func (p Problem) simulates() bool {
	return slices.ContainsFunc(p.Constraints, func(c Constraint) bool { return c.Simulated })
}

// named is a JSON object from names to values, in order (the
// constraints', the objectives'), NaN as null.
type named struct {
	names  []string
	values []float64
}

func (n named) MarshalJSON() ([]byte, error) {
	if len(n.values) != len(n.names) {
		return nil, fmt.Errorf("%d values for %d names", len(n.values), len(n.names))
	}
	b := []byte{'{'}
	for i, name := range n.names {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, name)
		b = append(b, ':')
		b = appendNumber(b, n.values[i])
	}
	return append(b, '}'), nil
}

// constraintValuesJSON names constraint values; with onlySimulated, the
// simulated constraints' only.
func constraintValuesJSON(cs []Constraint, values []float64, onlySimulated bool) *named {
	if len(values) != len(cs) {
		return &named{values: values} // MarshalJSON says what is wrong
	}
	n := &named{}
	for i, c := range cs {
		if !onlySimulated || c.Simulated {
			n.names, n.values = append(n.names, c.Name), append(n.values, values[i])
		}
	}
	return n
}

// certificate is the JSON form of a suggestion's certificate.
type certificate struct {
	Phase    int    `json:"phase"`
	Seed     bool   `json:"seed"`
	Beta     number `json:"beta"`
	Bounds   named  `json:"bounds"`
	SafeSize int    `json:"safe_set"`
}

// safetyStep is a trace step's safety fields; the counts are so far.
type safetyStep struct {
	Constraints       *named       `json:"constraints,omitempty"`
	TrueConstraints   *named       `json:"true_constraints,omitempty"`
	Certificate       *certificate `json:"certificate,omitempty"`
	Violations        *int         `json:"violations,omitempty"`
	UnsafeEvaluations *int         `json:"unsafe_evaluations,omitempty"`
	Unmet             *int         `json:"unmet,omitempty"`
	TrulyUnmet        *int         `json:"truly_unmet,omitempty"`
	Contradicted      []string     `json:"contradicted,omitempty"`
}

func newSafetyStep(p Problem, s Safety) safetyStep {
	if len(p.Constraints) == 0 {
		return safetyStep{}
	}
	out := safetyStep{Constraints: constraintValuesJSON(p.Constraints, s.Constraints, false), Contradicted: s.Contradicted}
	if p.simulates() {
		out.TrueConstraints = constraintValuesJSON(p.Constraints, s.TrueConstraints, true)
	}
	out.Violations, out.UnsafeEvaluations = counts(p, p.safe(), s.Violations, s.UnsafeEvaluations)
	out.Unmet, out.TrulyUnmet = counts(p, p.requires(), s.Unmet, s.TrulyUnmet)
	if s.Phase > 0 {
		out.Certificate = &certificate{Phase: s.Phase, Seed: s.SeedPoint, Beta: number(s.Beta), SafeSize: s.SafeSize,
			Bounds: *constraintValuesJSON(p.Constraints, s.Bounds, false)}
	}
	return out
}

// counts are the JSON form of the counts of one kind of constraint, which p
// has when it does: the evaluations that broke a measured limit and, with
// simulated constraints, those that broke a true one.
func counts(p Problem, does bool, measured, truth int) (*int, *int) {
	switch {
	case !does:
		return nil, nil
	case !p.simulates():
		return &measured, nil
	}
	return &measured, &truth
}

// safetyProgress is the end of a progress line: the measured constraints,
// the phase and the safe set's size.
func safetyProgress(p Problem, s Safety) string {
	if len(p.Constraints) == 0 {
		return ""
	}
	var b strings.Builder
	for i, c := range p.Constraints {
		mark := ""
		if violated(c, s.Constraints[i]) {
			mark = "!"
		}
		fmt.Fprintf(&b, "  %s=%s%s", c.Name, formatValue(s.Constraints[i]), mark)
	}
	if s.Phase > 0 {
		fmt.Fprintf(&b, "  phase %d, safe set %d", s.Phase, s.SafeSize)
	}
	for _, note := range s.Contradicted {
		fmt.Fprintf(&b, "\n    contradiction: %s", note)
	}
	return b.String()
}

// violated reports whether v breaks c's limit; NaN does.
func violated(c Constraint, v float64) bool {
	if c.AtLeast {
		return !(v >= c.Limit)
	}
	return !(v <= c.Limit)
}

// safetySummary is the summary's lines about the constraints.
func safetySummary(p Problem, r Result) string {
	return safeSummary(p, r) + requirementSummary(p, r)
}

// safeSummary is the summary's lines about the safety constraints.
func safeSummary(p Problem, r Result) string {
	if !p.safe() {
		return ""
	}
	line := fmt.Sprintf("safety: %d of %d evaluations broke a measured limit", r.Violations, r.Evaluations)
	if p.simulates() {
		line += fmt.Sprintf(", %d a true one", r.UnsafeEvaluations)
	}
	line += fmt.Sprintf("; %d points certified safe\n", r.SafeSize)
	if r.Contradictions > 0 {
		line += fmt.Sprintf("safety: %d measurements contradicted the constraints' model, which is therefore misspecified\n"+
			"  (a kernel smoother, a lengthscale longer, a noise or input noise smaller than the truth, or seeds\n"+
			"  that are not safe): the points measured unsafe were excluded and the model corrected; --json\n"+
			"  --trace says what each contradicted, and --on-contradiction stop ends a run at the first\n", r.Contradictions)
	}
	if r.Stopped == stoppedNoSafePoint {
		line += "safety: the run stopped because the measurements left no certified point to play; look at the\n" +
			"  contradictions: seeds declared safe that were measured unsafe, say\n"
	} else if r.SafeSize > 0 && r.SafeSize <= r.SeedPoints {
		line += fmt.Sprintf("safety: the certified safe set never grew beyond the %d seed points, so nothing is known to be\n"+
			"  better than them; more evaluations, a constraint kernel with a longer lengthscale or a smaller\n"+
			"  prior variance, or more seed points would let it grow\n", r.SeedPoints)
	}
	return line
}

// requirementSummary is the summary's line about the requirements.
func requirementSummary(p Problem, r Result) string {
	if !p.requires() {
		return ""
	}
	line := fmt.Sprintf("requirements: %d of %d evaluations broke a measured limit", r.Unmet, r.Evaluations)
	if p.simulates() {
		line += fmt.Sprintf(", %d a true one", r.TrulyUnmet)
	}
	switch {
	case p.several() && len(r.Front) == 0:
		return line + "; no evaluated point meets them with the confidence required, so the Pareto\n" +
			"  set is empty: more evaluations, or a lower confidence, may find one\n"
	case p.several():
		return line + "; the Pareto set holds only points that meet them with the confidence required\n"
	case r.Infeasible:
		return line + "; no evaluated point meets them with the confidence required, so there is no\n" +
			"  recommendation: more evaluations, or a lower confidence, may find one\n"
	case p.simulates() && r.TrulyInfeasible:
		return line + "; the recommendation meets them by the model, but truly breaks a simulated one\n"
	}
	return line + "; the recommendation meets them with the confidence required\n"
}

// stoppedNoSafePoint is the generated Run's StoppedNoSafePoint: the evidence
// left no certified point to play.
const stoppedNoSafePoint = "no safe point"
