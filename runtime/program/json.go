package program

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/bocdev/boc/runtime/command"
)

// result is the JSON form of a run's result, written by run --json as one
// object on one line:
//
//	problem               the problem's name
//	seed                  the run's seed
//	random_search         whether the run evaluated random points (--random-search)
//	evaluations           the number of evaluations made
//	recommendation        the evaluated point with the best posterior mean
//	recommendation_mean   that mean
//	recommendation_value  the objective there without observation noise
//	recommendation_robust the robust value there, E[f(x + ε)] over the input
//	                      noise ε; only for problems with input noise and an
//	                      expression objective (Problem.Robust), omitted otherwise
//	best_observed         {"x": point, "y": observed value, "value": the value without noise}
//	stopped               why the run ended: "budget", "stop when", "exhausted",
//	                      "contradiction" (--on-contradiction stop) or "no safe
//	                      point" (the evidence left no certified point to play);
//	                      "interrupted" (SIGINT, SIGTERM) or "error" when it did not
//	                      finish, the object then holding what it did so far
//	error                 with "error": what went wrong
//	violations            with unknown safety constraints or requirements: the
//	                      evaluations whose measured constraints broke a limit
//	unsafe_evaluations    with simulated safety constraints: the evaluations whose
//	                      true values broke a limit
//	feasible              with requirements: whether an evaluated point meets them
//	                      with their confidence; when none does, the recommendation
//	                      and its mean and value are null
//	true_violations       with simulated requirements: the evaluations whose true
//	                      values broke a limit
//	truly_feasible        with simulated requirements: whether the recommendation
//	                      meets their true values (false without one)
//	safe_set              with unknown safety constraints: the number of points
//	                      certified safe at the last suggestion (0 in a random
//	                      search), and seed_points the number of seeds
//	contradictions        with unknown safety constraints: the measurements that
//	                      contradicted the constraints' model (docs/safe.md)
//	objectives            with several objectives, which have no recommendation
//	                      (it and best_observed are null): [{"name", "maximize",
//	                      "threshold"}], the threshold null when not given
//	pareto                with several objectives: the Pareto set, [{"x",
//	                      "objectives": name → posterior mean, "observed": name →
//	                      value told, "true_objectives": name → value without
//	                      noise (null unless simulated), "truly_feasible" with
//	                      simulated requirements}]
//	hypervolume           with several objectives: what the Pareto set's posterior
//	                      means dominate above "reference" (name → coordinate),
//	                      and true_hypervolume what its values without noise do
//	                      (null unless simulated)
//	trace                 with --trace, one object per evaluation, in order:
//	                      {"evaluation", "x", "y", "sd", "value", "robust",
//	                       "recommendation", "recommendation_value",
//	                       "recommendation_robust", "best_observed_value"}, the
//	                      last four after that evaluation; "sd", the noise sd
//	                      reported with y, only when the problem's observation
//	                      noise is reported; "robust", the robust value of x
//	                      and "recommendation_robust" that of the
//	                      recommendation, as recommendation_robust above;
//	                      with unknown safety constraints or requirements also
//	                      "constraints" (name → measured value), "true_constraints" (the
//	                      simulated ones' values without noise) and
//	                      "certificate" ({"phase", "seed", "beta", "bounds": name
//	                      → certified bound, null in the first phase, "safe_set":
//	                      its size}; absent in a random search and the studies'
//	                      unsafe baseline; never with requirements alone),
//	                      "violations" and "unsafe_evaluations" (with
//	                      requirements alone "true_violations") so far, and
//	                      "recommendation" is null while no point meets the
//	                      requirements, with simulated requirements
//	                      "truly_feasible" (whether the recommendation meets
//	                      their true values), and "contradicted": how
//	                      the evaluation contradicted the constraints' model,
//	                      one sentence each, when it did; with several
//	                      objectives "objectives" and "true_objectives" (name →
//	                      value) and the Pareto set's "hypervolume",
//	                      "true_hypervolume" and "front_size" after it
//
// A point is an object from dimension names to values (arrays for vector
// dimensions). Values without observation noise are known only for expression
// objectives (the program simulates the declared noise on them) and are null
// otherwise; before the first evaluation the recommendation and the best
// observation are null. Fields appear in this order.
type result struct {
	Problem              string         `json:"problem"`
	Seed                 uint64         `json:"seed"`
	RandomSearch         bool           `json:"random_search"`
	Evaluations          int            `json:"evaluations"`
	Recommendation       *command.Point `json:"recommendation"`
	RecommendationMean   number         `json:"recommendation_mean"`
	RecommendationValue  number         `json:"recommendation_value"`
	RecommendationRobust *number        `json:"recommendation_robust,omitempty"`
	BestObserved         *observed      `json:"best_observed"`
	Stopped              string         `json:"stopped"`
	Error                string         `json:"error,omitempty"`
	Violations           *int           `json:"violations,omitempty"`
	UnsafeEvaluations    *int           `json:"unsafe_evaluations,omitempty"`
	SafeSet              *int           `json:"safe_set,omitempty"`
	SeedPoints           *int           `json:"seed_points,omitempty"`
	Contradictions       *int           `json:"contradictions,omitempty"`
	Feasible             *bool          `json:"feasible,omitempty"`
	Unmet                *int           `json:"unmet,omitempty"`
	TrulyUnmet           *int           `json:"truly_unmet,omitempty"`
	TrulyFeasible        *bool          `json:"truly_feasible,omitempty"`
	paretoJSON
	TrueHypervolume *number `json:"true_hypervolume,omitempty"`
	Trace           []step  `json:"trace,omitempty"`
}

type observed struct {
	X     command.Point `json:"x"`
	Y     number        `json:"y"`
	Value number        `json:"value"`
}

// step is one evaluation in the trace.
type step struct {
	Evaluation           int            `json:"evaluation"`
	X                    command.Point  `json:"x"`
	Y                    number         `json:"y"`
	SD                   *number        `json:"sd,omitempty"`
	Value                number         `json:"value"`
	Robust               *number        `json:"robust,omitempty"`
	Recommendation       *command.Point `json:"recommendation"`
	RecommendationValue  number         `json:"recommendation_value"`
	RecommendationRobust *number        `json:"recommendation_robust,omitempty"`
	BestObservedValue    number         `json:"best_observed_value"`
	// TrulyFeasible, with simulated requirements, says whether the
	// recommendation meets their true values.
	TrulyFeasible *bool `json:"truly_feasible,omitempty"`
	safetyStep
	// With several objectives: the values observed, those without noise,
	// and the Pareto set's hypervolume and size after the evaluation.
	Objectives      *named  `json:"objectives,omitempty"`
	TrueObjectives  *named  `json:"true_objectives,omitempty"`
	Hypervolume     *number `json:"hypervolume,omitempty"`
	TrueHypervolume *number `json:"true_hypervolume,omitempty"`
	FrontSize       *int    `json:"front_size,omitempty"`
}

func traceStep(p Problem, pr Progress) step {
	s := step{Evaluation: pr.Evaluation, X: command.Point{Dims: p.Dims, X: slices.Clone(pr.X)}, Y: number(pr.Y), Value: number(pr.Value),
		RecommendationValue: number(pr.RecommendationValue), BestObservedValue: number(pr.BestValue)}
	if p.several() {
		names := p.objectiveNames()
		hv, trueHV, size := number(pr.Hypervolume), number(pr.TrueHypervolume), pr.FrontSize
		s.Objectives, s.TrueObjectives = &named{names, slices.Clone(pr.Objectives)}, &named{names, slices.Clone(pr.TrueObjectives)}
		s.Hypervolume, s.TrueHypervolume, s.FrontSize = &hv, &trueHV, &size
	} else if !pr.Infeasible {
		s.Recommendation = &command.Point{Dims: p.Dims, X: slices.Clone(pr.Recommendation)}
	}
	if p.requires() && p.simulates() && !p.several() {
		trulyFeasible := !pr.TrulyInfeasible
		s.TrulyFeasible = &trulyFeasible
	}
	if p.ReportsSD {
		sd := number(pr.SD)
		s.SD = &sd
	}
	s.Robust = robustNumber(p, pr.Robust)
	s.RecommendationRobust = robustNumber(p, pr.RecommendationRobust)
	s.safetyStep = newSafetyStep(p, pr.Safety)
	return s
}

func newResult(p Problem, seed uint64, randomSearch bool, r Result) result {
	nan := number(math.NaN())
	if r.Evaluations == 0 {
		r.RecommendationRobust = math.NaN()
	}
	out := result{Problem: p.Name, Seed: seed, RandomSearch: randomSearch, Evaluations: r.Evaluations, Stopped: r.Stopped,
		RecommendationMean: nan, RecommendationValue: nan}
	if p.several() {
		out.paretoJSON = newParetoJSON(p, r.Front, r.Hypervolume, r.Reference, true)
		trueHV := number(r.TrueHypervolume)
		out.TrueHypervolume = &trueHV
	} else if r.Evaluations > 0 && !r.Infeasible {
		out.Recommendation = &command.Point{Dims: p.Dims, X: r.Recommendation}
		out.RecommendationMean = number(r.RecommendationMean)
		out.RecommendationValue = number(r.RecommendationValue)
	}
	if r.Evaluations > 0 && !p.several() {
		out.BestObserved = &observed{X: command.Point{Dims: p.Dims, X: r.BestX}, Y: number(r.BestY), Value: number(r.BestValue)}
	}
	out.RecommendationRobust = robustNumber(p, r.RecommendationRobust)
	out.Violations, out.UnsafeEvaluations = counts(p, p.safe(), r.Violations, r.UnsafeEvaluations)
	out.Unmet, out.TrulyUnmet = counts(p, p.requires(), r.Unmet, r.TrulyUnmet)
	if p.safe() {
		out.SafeSet, out.SeedPoints, out.Contradictions = &r.SafeSize, &r.SeedPoints, &r.Contradictions
	}
	if p.requires() && !p.several() {
		feasible := !r.Infeasible
		out.Feasible = &feasible
		if p.simulates() {
			trulyFeasible := !r.TrulyInfeasible
			out.TrulyFeasible = &trulyFeasible
		}
	}
	return out
}

// robustNumber is the JSON form of a robust value: absent (nil) for a problem
// without Robust, otherwise v, null when NaN (before the first evaluation).
func robustNumber(p Problem, v float64) *number {
	if p.Robust == nil {
		return nil
	}
	n := number(v)
	return &n
}

// writeJSON writes out as one JSON object on one line.
func writeJSON(w io.Writer, out result) error {
	b, err := json.Marshal(out)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// number is a float64 whose NaN and infinities, which JSON cannot hold, are
// written as null.
type number float64

func (n number) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(n)) || math.IsInf(float64(n), 0) {
		return []byte("null"), nil
	}
	return json.Marshal(float64(n))
}

// appendNumber appends x as JSON, as number does.
func appendNumber(b []byte, x float64) []byte {
	text, _ := number(x).MarshalJSON() // a float64 always marshals
	return append(b, text...)
}
