package registry

import (
	"fmt"
	"slices"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/dave/jennifer/jen"
)

// This file is the plan's and the code generator's side of the plugin
// contract: the type a plugin's Emit field holds for each kind, and what each
// hook is given. They find a plugin with ByID and type-assert its Emit to the
// type of its kind; the checker refuses a plugin whose Emit is nil as "not
// available in this version of boc". Models and acquisitions describe a call
// as data (Spec), which the plan decides with, apart from emitting it (Code).
//
//	kind          Emit type
//	kernel        KernelDiffEmit (value and derivatives), or KernelEmit (value only)
//	model         ModelHooks
//	acquisition   AcquisitionHooks
//	init          InitEmit
//	search        SearchEmit
//	function      CallEmit
//	benchmark     CallEmit
//	distribution  DistributionEmit
//
// Every hook generates code for constant arguments: the checker and the plan
// refuse `learn` and domain-dependent arguments elsewhere. The exception are
// kernels with a KernelDiffEmit hook, whose learnable hyperparameters reach
// the hook through KernelGen.Hyper, and a model's own learnable parameters,
// through InputGen.Hyper.

// Args gives a hook the constant arguments of its call. A missing or
// non-constant argument is a bug in the plugin (its signature and its hook
// disagree), not a user error: the accessors then return zero values and
// record the problem, which the code generator reports as an internal error.
type Args struct {
	Call *ir.Call
	err  error
}

// Err returns the first problem an accessor met, or nil.
func (a *Args) Err() error { return a.err }

func (a *Args) failf(format string, args ...any) {
	if a.err == nil {
		a.err = fmt.Errorf("%s: %s", a.Call.Plugin, fmt.Sprintf(format, args...))
	}
}

// Const returns the constant value of argument name.
func (a *Args) Const(name string) (dsl.Value, bool) {
	arg := a.Call.Arg(name)
	if arg == nil {
		a.failf("no argument %q", name)
		return dsl.Value{}, false
	}
	c, ok := arg.Value.(*ir.ConstExpr)
	if !ok {
		a.failf("argument %q is %T, not a constant", name, arg.Value)
		return dsl.Value{}, false
	}
	return c.Value, true
}

// Real returns a real (or int) argument.
func (a *Args) Real(name string) float64 {
	v, ok := a.Const(name)
	if ok && !v.Type.IsNumeric() {
		a.failf("argument %q is a %s, not a number", name, v.Type)
	}
	return v.Float()
}

// Choice returns a string argument that must be one of choices (its
// plugin's Check hook guarantees that); otherwise it records the problem and
// returns "".
func (a *Args) Choice(name string, choices ...string) string {
	v, ok := a.Const(name)
	if !ok {
		return ""
	}
	if v.Type.Kind == dsl.String && slices.Contains(choices, v.Text) {
		return v.Text
	}
	a.failf("argument %q is %s, not one of %q", name, v, choices)
	return ""
}

// Int returns an int argument.
func (a *Args) Int(name string) int { return int(a.Real(name)) }

// PerComponent returns a real-or-vector argument as n values: a real is
// repeated, a vec must have n elements (e.g. ARD lengthscales).
func (a *Args) PerComponent(name string, n int) []float64 {
	v, ok := a.Const(name)
	out := make([]float64, n)
	switch {
	case !ok:
	case v.Type.IsNumeric():
		for i := range out {
			out[i] = v.Float()
		}
	case v.Type.Kind == dsl.Vec && len(v.Numbers) == n:
		copy(out, v.Numbers)
	default:
		a.failf("argument %q is a %s, want a real or vec[%d]", name, v.Type, n)
	}
	return out
}

// Nested returns an argument that is itself a plugin call (a kernel, a
// distribution).
func (a *Args) Nested(name string) *ir.Call {
	arg := a.Call.Arg(name)
	if arg == nil {
		a.failf("no argument %q", name)
		return nil
	}
	c, ok := arg.Value.(*ir.Call)
	if !ok {
		a.failf("argument %q is %T, not a plugin call", name, arg.Value)
	}
	return c
}

// KernelGen is what a kernel's hook is given. The kernel is emitted as the
// body of a function of two inputs in unit coordinates (every component
// scaled to [0, 1]), each a *[D]float64.
type KernelGen struct {
	Args
	D    int    // number of scalar components of an input
	A, B string // names of the two inputs
	// Levels holds, per component, a categorical component's number of
	// levels (its unit coordinate is (level + ½)/levels) and 0 for the
	// others; nil when there are none. A stationary kernel measures a
	// categorical component by whether the levels differ (runtime/kernel's
	// LevelDistance), and its input gradient there is 0.
	Levels []int
	// Fresh returns a local name not yet used in the function, based on prefix.
	Fresh func(prefix string) string

	// The fields below are set for KernelDiffEmit hooks only.

	// Grad says which derivatives to emit; NumHyper is the number of learned
	// hyperparameter values of the whole kernel (nested kernels included).
	Grad     GradKind
	NumHyper int
	// Hyper returns component i (0 for a real) of the call's hyperparameter
	// name, fixed or learned.
	Hyper func(name string, i int) Hyper
	// Kernel emits a nested kernel (an argument of this call) into the same
	// function, with the same inputs and derivatives.
	Kernel func(c *ir.Call) KernelCode
}

// KernelEmit returns straight-line statements and the kernel value k(A, B),
// an expression over the locals the statements declare. The kernel must be
// on the scale of standardised outputs (signal variance around 1).
//
// A kernel with only a KernelEmit hook has constant hyperparameters and no
// analytic derivatives: the code generator rejects `learn` in it and emits
// its input gradient by central finite differences.
type KernelEmit func(g *KernelGen) (stmts []jen.Code, value jen.Code)

// KernelDiffEmit is the hook of a differentiable kernel: it returns the
// kernel's value and, as g.Grad asks, its derivatives, as straight-line code.
// Its hyperparameters are read with g.Hyper, so that `learn`ed ones become
// variables of the emitted code, and nested kernels (the parts of a sum or
// product) are emitted with g.Kernel.
//
// The code generator emits, for the model's kernel and NumHyper learned
// hyperparameter values h (natural units, in the order of KernelGen.Hyper's
// indices):
//
//	func kernel(h *hyperparameters, a, b *[Dim]float64) float64
//	func kernelGradA(h *hyperparameters, a, b *[Dim]float64, g *[Dim]float64) float64
//	func kernelGradHyper(h *hyperparameters, a, b *[Dim]float64, g *[NumHyper]float64) float64
//
// with type hyperparameters [NumHyper]float64. Each returns k(a, b);
// kernelGradA writes ∂k/∂a_i (the gradient in the FIRST input, for analytic
// acquisition gradients), kernelGradHyper writes ∂k/∂log h_j (for the
// marginal likelihood's gradient). kernelGradHyper exists only when
// NumHyper > 0.
type KernelDiffEmit func(g *KernelGen) KernelCode

// KernelCode is the code of a differentiable kernel.
type KernelCode struct {
	Stmts []jen.Code // straight-line statements declaring the locals below
	Value jen.Code   // k(A, B), a primary float64 expression
	// Grad holds g.GradLen() derivatives, as g.Grad asks; a nil element is
	// zero. Empty when g.Grad is NoGrad.
	Grad []jen.Code
}

// BlockEmit returns a runtime/kernel.Block composite literal for the kernel
// g.Call with g.Hyper's hyperparameters (g.Grad is NoGrad): an expression
// the code generator evaluates where the kernel's rows are summed, with the
// learned hyperparameters in a local h of type *hyperparameters.
type BlockEmit func(g *KernelGen) jen.Code

// GradKind says which derivatives a kernel hook emits besides the value.
type GradKind int

const (
	NoGrad    GradKind = iota // the value only
	GradInput                 // ∂k/∂A_i for i < D
	GradHyper                 // ∂k/∂log h_j for each learned hyperparameter j < NumHyper
)

// Hyper is the value of one hyperparameter component in emitted code.
type Hyper struct {
	Code  jen.Code // a primary float64 expression: a literal, or the learned value
	Fixed bool     // a constant; then Value holds it
	Value float64
	Index int // the learned value's index j in the hyperparameter vector; −1 if fixed
}

// Categorical reports whether component i is categorical (Levels).
func (g *KernelGen) Categorical(i int) bool { return g.Levels != nil && g.Levels[i] > 0 }

// GradLen is the length of KernelCode.Grad for g.Grad.
func (g *KernelGen) GradLen() int {
	switch g.Grad {
	case GradInput:
		return g.D
	case GradHyper:
		return g.NumHyper
	}
	return 0
}

// ModelHooks are a model plugin's hooks (its Emit): Spec describes a call,
// as data the plan decides with; Code emits it.
type ModelHooks struct {
	// Spec describes the model call a.Call; gaussianNoise says whether the
	// declared input noise is Gaussian (every distribution's Gaussian hook
	// says so), for models with closed forms for Gaussians.
	Spec func(a *Args, gaussianNoise bool) ModelSpec
	// Code returns how to hold the model g.Spec describes.
	Code func(g *ModelGen) ModelCode
}

// ModelSpec is what a model call is, as the plan needs it.
type ModelSpec struct {
	Kernel *ir.Call // the kernel the optimiser computes kernel vectors with
	// Inputs is set by the models over input distributions (plugins with
	// UsesInputNoise): the kernel vectors are then those of the model's
	// kernel between the input distributions of the points, and Kernel is
	// its base kernel between points.
	Inputs *InputSpec
	// Inflation, if set, makes the declared input noise extra observation
	// noise (IGP-UCB's inflation, Oliveira et al. Prop. 3): each
	// observation's noise variance (on the model's standardised scale) grows
	// by Bound²·ℓ_k²·tr Σ_x, with Σ_x the input noise's covariance at x in
	// unit coordinates and ℓ_k² the kernel's curvature (ModelCode.Curvature).
	Inflation *InflationSpec
	// Warp makes the model learn an output warping (runtime/warp): it
	// models a monotone transform of the observed values, refitted with the
	// hyperparameters; "power" always, "worse_tail" kept to compressing the
	// worse values (warp.FitWorseTail), "auto" where the values' likelihood
	// gains enough by it (warp.FitAuto); "" for none.
	Warp string
	// Mean is the GP's constant prior mean: MeanAverage or MeanWorst, which
	// the plan resolves MeanAuto to; "" for models without the choice,
	// which take the average.
	Mean string
	// Approx is the GP's form at large n, ApproxAuto (the plan decides),
	// ApproxExact or ApproxLocal; "" for models without the choice, which
	// are exact. LocalSize is the local form's number of observations.
	Approx    string
	LocalSize int
}

// EstimatedSearchWorkers is how many goroutines, each with its own memory,
// the memory estimates assume a search runs: it runs min(GOMAXPROCS,
// restarts), and a machine of 16 processors is assumed.
const EstimatedSearchWorkers = 16

// The values of ModelSpec.Approx.
const (
	ApproxAuto  = "auto"
	ApproxExact = "exact"
	ApproxLocal = "local"
)

// The values of ModelSpec.Mean.
const (
	MeanAuto    = "auto"    // the plan chooses
	MeanAverage = "average" // the values' mean
	MeanWorst   = "worst"   // the worst value observed
)

// The values of a stationary kernel's groups parameter: the groups of
// components whose kernels its interaction λ weighs, averaged, against the
// kernel over all of them.
const (
	GroupsKinds      = "kinds"      // the numbers, and the choices
	GroupsComponents = "components" // every component alone: an additive kernel
)

// InputSpec is how a model over input distributions represents them.
type InputSpec struct {
	Rep       InputRep
	Samples   int // SampleRep, EmbeddingRep: draws per point, m
	Landmarks int // EmbeddingRep: shared landmarks; SampleRep: Nyström landmarks per point, or 0 for none
	// Fresh draws each point's samples independently of every other
	// point's (AIRBO's sampling) instead of from common random numbers.
	Fresh bool
}

// InflationSpec is a model's inflation by the input noise.
type InflationSpec struct {
	Bound float64 // B ≥ ‖f‖ in the kernel's RKHS
}

// ModelGen is what a model's Code hook is given.
type ModelGen struct {
	Args
	Spec     ModelSpec // what the model's Spec hook returned
	Capacity jen.Code  // an int expression: how many observations the model must hold
}

// ModelCode says how the emitted optimiser holds its surrogate. Type must
// have the method set of runtime/gp's *GP (Len, Add, Predict, TrainMean, Y,
// and what acquisitions use: PosteriorCovariance, InformationGain, NoiseSD;
// and for refits of learned hyperparameters: Scale, Noise, SetNoise,
// KernelRow, Refactor):
// the optimiser computes kernel vectors with the spec's kernel and hands
// them to the model.
type ModelCode struct {
	Type jen.Code // the type of the optimiser's model field
	New  jen.Code // an expression of that type holding Capacity observations
	// Inputs is the kernel between input distributions, for a spec with
	// Inputs.
	Inputs *InputModel
	// Curvature, for a spec with Inflation, returns ℓ_k² = sup_i
	// ∂²k(a, b)/∂a_i∂b_i at a = b, a float64 expression over the kernel's
	// hyperparameters, read with hyper.
	Curvature func(hyper func(name string, i int) Hyper, d int) jen.Code
}

// InputRep says how the optimiser represents the input distribution P_x of
// a point x, for a model over input distributions. Every representation is in
// unit coordinates (the input noise is scaled like the domain).
type InputRep int

const (
	// SampleRep: Samples draws of x + ε (common random numbers, so they move
	// smoothly with x), and one statistic of them (Stat), such as the
	// distribution's self-similarity E k(u, u').
	SampleRep InputRep = iota + 1
	// EmbeddingRep: the draws' mean embedding over Landmarks shared
	// landmarks (runtime/uncertain's Embedding), ‖μ_P − μ_Q‖² ≈ MMD².
	EmbeddingRep
	// MomentRep: the mean and covariance of x + ε.
	MomentRep
)

// InputModel is the kernel of a model over input distributions between two
// representations (InputSpec).
type InputModel struct {
	// Stat, for SampleRep, is the statistic cached with each point's samples
	// (g.A's), a float64 expression; nil for none. With Nyström landmarks
	// its evaluation also fills g.A's Weights.
	Stat func(g *InputGen) jen.Code
	// Prelude returns statements at the start of the kernel function, which
	// Self and Pair may use (e.g. the kernel's lengthscales as an array).
	Prelude func(g *InputGen) []jen.Code
	// Self is k̂(P, P) for g.A, and Pair k̂(P, Q) for g.A and g.B: float64
	// expressions.
	Self, Pair func(g *InputGen) jen.Code
}

// InputGen is what an InputModel's hooks are given.
type InputGen struct {
	Args            // the model's call
	D      int      // components of a point
	Kernel *ir.Call // the base kernel
	// Hyper returns component i of parameter name of call c (the base kernel
	// or the model), fixed or learned.
	Hyper func(c *ir.Call, name string, i int) Hyper
	// Base is a runtime/uncertain.Kernel evaluating the base kernel with the
	// hyperparameters in use; Nystrom a *uncertain.Nystrom (SampleRep with
	// Landmarks > 0) and Work a []float64 of uncertain.WorkLen(D) values, both
	// the calling goroutine's own.
	Base, Nystrom, Work jen.Code
	// A and B name two representations.
	A, B RepNames
}

// RepNames names the parts of a representation: Samples ([]float64, m×D
// row-major) and Stat (float64) for SampleRep and EmbeddingRep, Weights
// ([]float64, the Nyström weights over a point's Landmarks) for SampleRep
// with landmarks, Embedding ([]float64) for EmbeddingRep, Mean and Cov
// ([]float64, D and D×D) for MomentRep.
type RepNames struct {
	Samples, Stat, Weights, Embedding, Mean, Cov jen.Code
}

// AcquisitionGen is what an acquisition's hook is given: names for the
// posterior at a candidate point and at the incumbent, all in the model's
// convention (larger is better; a minimised objective is negated) and the
// objective's units, and for the per-suggestion Setting, the round and the
// model. Every name is a float64 unless noted.
type AcquisitionGen struct {
	Args
	Mean, SD jen.Code // posterior mean and standard deviation at the candidate
	// Best is the incumbent's posterior mean: the largest posterior mean at an
	// evaluated point.
	Best jen.Code
	// BestSD is the incumbent's posterior standard deviation and Cov the
	// posterior covariance of the candidate and the incumbent. The code
	// generator computes them (an O(n²) solve per suggestion and an O(n) dot
	// product per candidate) only for hooks whose result sets Joint.
	BestSD, Cov jen.Code
	// Means are the posterior means at the evaluated points, Covs their
	// posterior covariances with the candidate (both []float64), Noise the
	// noise variance of an observation at the candidate and Lines the
	// []runtime/acq.Line memory of a one-step lookahead; DCovs, in
	// Gradient only, the []float64 that receives the score's derivatives in
	// Covs. The code generator computes them (an O(n²) solve per candidate)
	// only for hooks whose result sets Lookahead.
	Means, Covs, Noise, Lines, DCovs jen.Code
	// LatentDraws is the *runtime/acq.LatentDraws that a hook whose result
	// sets LatentDraws averages over, drawn for this search, and Scratch the
	// []float64 of its ScratchLen that one candidate's score may use.
	LatentDraws, Scratch jen.Code
	// Setting is the value of the result's Setting expression inside Score.
	Setting jen.Code
	// T is the round, one more than the number of observations; D the input
	// dimension; Model the optimiser's model, of the ModelCode type, which
	// Setting may query (e.g. runtime/gp's InformationGain and NoiseSD).
	T     jen.Code
	D     int
	Model jen.Code
	// Score is the value of the result's Score expression inside Value.
	Score jen.Code
	// Arm is the int number of the arm being scored, for a portfolio (a
	// spec with Arms): Score, Gradient and Value see it.
	Arm jen.Code
}

// AcquisitionCode is the code of an acquisition.
type AcquisitionCode struct {
	// Score is the float64 the search maximises: the acquisition, or a
	// strictly increasing function of it with the same maximiser, such as
	// the logarithm of expected improvement, which keeps ranking candidates
	// where the acquisition itself underflows to 0.
	Score jen.Code
	// Value converts Score (named g.Score) back into the acquisition in its
	// natural units, the value `stop when acquisition < κ` compares; nil when
	// Score is the acquisition itself.
	Value jen.Code
	// Setting, if not nil, is computed once per suggestion, before the
	// search, from T, D and Model (e.g. an exploration weight that follows a
	// schedule); Score sees it as g.Setting.
	Setting jen.Code
	// Gradient is a call, over the same names as Score, returning Score and
	// its partial derivatives with respect to Mean and SD and, when Joint,
	// Cov: (score, dMean, dSD) or (score, dMean, dSD, dCov) float64, for a
	// gradient-based search to chain with the derivatives of the posterior.
	Gradient jen.Code
}

// AcquisitionHooks are an acquisition plugin's hooks (its Emit): Spec
// describes a call, as data the plan decides with; Code emits it.
type AcquisitionHooks struct {
	Spec func(a *Args) AcquisitionSpec
	Code AcquisitionEmit
}

// AcquisitionSpec is what an acquisition call is, as the plan needs it.
type AcquisitionSpec struct {
	// Joint says Score uses BestSD and Cov.
	Joint bool
	// Lookahead says Score uses Means, Covs, Noise and Lines, and Gradient
	// writes the score's derivatives in Covs to DCovs.
	Lookahead bool
	// LatentDraws, above 0 with Lookahead, says Score also uses LatentDraws
	// and Scratch: that many samples of the evaluated points' latent values
	// under their joint posterior, drawn before each search.
	LatentDraws int
	// Unscented, if set, makes the searched score the weighted mean of the
	// acquisition (its natural value, Value of Score) over the sigma points of
	// the unscented transform of the input noise at the candidate, returned
	// in Score's units (for a logarithmic score, the logarithm of the mean).
	// The model must be over points, and input noise declared.
	Unscented *Unscented
	// Safe, if set, makes the acquisition a safe one: the optimiser chooses
	// among the points certified safe for every unknown constraint with
	// runtime/safe's Explorer, and the hooks' Code is not used.
	Safe *SafeSpec
	// Pareto, if set, makes the acquisition one of several objectives:
	// runtime/multi's optimiser scores points with runtime/pareto's
	// Acquirer, and the hooks' Code is not used.
	Pareto *ParetoSpec
	// Pending is what the model believes of a point being evaluated
	// (Optimizer.Pending) while it chooses the next: the zero value, a
	// constant liar, suits any acquisition; an optimistic one (UCB) may
	// hallucinate instead. Safe acquisitions ignore it: they only exclude a
	// pending point, as a guessed constraint value would count towards a
	// safety certificate.
	Pending PendingBelief
	// Incumbent is the value Score's best is: the best posterior mean at an
	// evaluated point (the zero value), or the best value observed.
	Incumbent IncumbentRule
	// LogScore says Score is the logarithm of a non-negative acquisition,
	// so that adding the log probability of meeting the outcome constraints
	// (require) weights the acquisition by that probability, as constrained
	// expected improvement does (Gardner et al. 2014).
	LogScore bool
	// Arms, above 0, makes the acquisition a portfolio of that many arms
	// (GP-Hedge): each suggestion searches every arm (Score with Arm set),
	// and plays one arm's maximiser, drawn with probability proportional to
	// exp(Eta·gain), the gain of an arm the posterior mean summed over its
	// maximisers so far. The acquisition's value (Value, `stop when
	// acquisition`) is the first arm's maximum, whichever arm is played.
	Arms int
	Eta  float64
}

// IncumbentRule is what an improvement-based acquisition improves on.
type IncumbentRule int

const (
	// BestMean is the largest posterior mean at an evaluated point: under
	// observation noise, what the model believes the best evaluation is.
	BestMean IncumbentRule = iota
	// BestObserved is the largest value observed, noise included, as
	// scikit-optimize's EI and PI take it: under noise a lucky draw, which
	// makes the acquisition explore more.
	BestObserved
)

// String names the rule as plan dumps show it.
func (r IncumbentRule) String() string {
	if r == BestObserved {
		return "the best value observed"
	}
	return "the best posterior mean at an evaluated point"
}

// PendingBelief is how a pending point enters the model while the next
// point is chosen, as a fantasy observation that is never real data.
type PendingBelief int

const (
	// ConstantLiar fantasises the worst value observed so far (0 before
	// any), so that the next suggestion moves away (Ginsbourger et al. 2010).
	ConstantLiar PendingBelief = iota
	// Hallucinate fantasises the posterior mean at the point, which leaves
	// the mean unchanged and shrinks the variance near it (GP-BUCB,
	// Desautels, Krause and Burdick 2014): for acquisitions that are
	// optimistic in the variance, whose confidence bound the shrinking
	// lowers.
	Hallucinate
)

// String names the belief as plan dumps show it.
func (b PendingBelief) String() string {
	switch b {
	case ConstantLiar:
		return "constant liar at the worst value observed"
	case Hallucinate:
		return "hallucinated at the posterior mean (GP-BUCB)"
	}
	return fmt.Sprintf("PendingBelief(%d)", int(b))
}

// SafeSpec configures runtime/safe's Explorer (its Config has the meanings).
type SafeSpec struct {
	// Method and FirstPhase name runtime/safe's constants ("SGPUCB",
	// "RandomSeeds").
	Method, FirstPhase string
	Window, Cap        int
	// Beta is 0 for Theorem 1's β_t; Lipschitz 0 for GP-optimistic
	// expanders.
	Delta, Beta, Lipschitz float64
	// Accuracy is SafeOpt's ε; 0 never switches to its recommendation.
	Accuracy float64
}

// ParetoSpec configures runtime/pareto's Acquirer.
type ParetoSpec struct {
	// Method names runtime/pareto's Method constant ("EHVI", "ParEGO").
	Method string
}

// Unscented holds the settings of an unscented transform.
type Unscented struct {
	Kappa float64 // κ: the centre's weight is κ/(d+κ)
}

// AcquisitionEmit returns the acquisition's code; the optimiser suggests the
// maximiser of its Score.
type AcquisitionEmit func(g *AcquisitionGen) AcquisitionCode

// InitGen is what an initial design's hook is given.
type InitGen struct {
	Args
	N, D int      // number of points, components per point
	Seed jen.Code // a uint64 expression
	Out  jen.Code // a []float64 of N*D elements to fill row-major with points in [0, 1)^D
}

// InitEmit returns statements that fill Out. They run in a function that
// returns an error, and return one when the design cannot be made.
type InitEmit func(g *InitGen) []jen.Code

// SearchGen is what an acquisition search's hook is given.
type SearchGen struct {
	Args
	D int // dimension of the unit cube searched
	// Levels holds each categorical component's number of levels, 0 for
	// the other components; nil when there are none (KernelGen.Levels).
	Levels []int
}

// SearchCode says how the emitted optimiser holds its acquisition search.
// Type must have the methods of runtime/search's *Pattern:
//
//	Maximize(f func(u []float64) float64, feasible func(u []float64) bool, seed uint64, out []float64) (float64, error)
//	MaximizeFinite(f func(u []float64) float64, feasible func(u []float64) bool, points []float64) (index int, value float64, err error)
//	AddStart(u []float64)
//
// or, when Gradient is set, those of runtime/search's *LBFGS, whose objectives
// also give gradients and are called from Workers() goroutines at once:
//
//	Maximize(fg search.ValueGrad, feasible func(u []float64) bool, seed uint64, out []float64) (float64, error)
//	MaximizeFinite(fg search.ValueGrad, feasible func(u []float64) bool, points []float64) (index int, value float64, err error)
//	AddStart(u []float64)
//	Workers() int
type SearchCode struct {
	Type jen.Code // the type of the optimiser's search field
	New  jen.Code // an expression of that type; a search whose plugin sets
	// UsesGradient takes search.ValueGrad objectives
	// Memory is about how many bytes the search holds, for the plan's
	// estimate (float64: a raw count of 10¹² must not overflow).
	Memory float64
	// Region is a *search.TrustRegion expression for a search whose plugin
	// sets TrustRegion: the box each search is confined to (of several
	// objectives, runtime/multi); nil otherwise.
	Region jen.Code
	// Regions is a *search.Regions expression for such a search of one
	// objective: the boxes searched at every suggestion.
	Regions jen.Code
}

// SearchEmit returns how to hold the search.
type SearchEmit func(g *SearchGen) SearchCode

// ExprValue is an emitted expression of the .bo language: its type and one Go
// expression per element, in row-major order (a real, int or bool has one
// element, a vec[n] n, a mat[r,c] r*c). Reals and ints are float64 in
// emitted code.
//
// Elements handed to a hook are cheap and primary (identifiers, literals,
// index expressions), so a hook may repeat them and use them as operands.
// Elements a hook returns must be primary too: calls, index expressions or
// parenthesised expressions.
type ExprValue struct {
	Type  dsl.Type
	Elems []jen.Code
	// Slice is a []float64 expression over a vec argument's elements, for
	// runtime functions that take a slice; nil for scalars.
	Slice jen.Code
	// Const is the value of a constant argument, nil otherwise.
	Const *dsl.Value
}

// CallEmit emits a call of a function or benchmark whose argument types the
// plugin's Result hook accepted. It returns a value of the type Result gave.
type CallEmit func(args []ExprValue) (ExprValue, error)

// DrawGen is what a distribution's input-noise hooks are given: its
// parameters as emitted values, which may be expressions over the target
// point for domain-dependent parameters, and the base uniforms of one draw.
//
// Input noise is drawn with common random numbers: the optimiser fixes the
// base uniforms of each of its samples once, and a draw is a smooth,
// deterministic function of them and of the parameters (a
// reparameterisation, such as mean + sd·Φ⁻¹(u)), so the samples of the noise
// at x move smoothly with x and the acquisition stays smooth.
type DrawGen struct {
	Args
	// Param returns the emitted value of the call's parameter name (a real,
	// vec or mat; elements are cheap and primary).
	Param func(name string) ExprValue
	// Uniform returns base uniform i of this call, 0 <= i < its BaseLen: a
	// float64 in (0, 1), a primary expression.
	Uniform func(i int) jen.Code
	// Fresh returns a local name not yet used in the function, based on prefix.
	Fresh func(prefix string) string
	// Sub returns the DrawGen of a distribution nested in this call (an
	// argument such as concat's parts), whose base uniforms start at this
	// call's uniform offset. A hook calls the nested plugin's hooks with it.
	Sub func(c *ir.Call, offset int) *DrawGen
}

// DistributionHooks returns the hooks of the distribution plugin of call c,
// for hooks of composite distributions (concat, iid) that delegate to the
// distributions they are given; ok is false when it has none.
func DistributionHooks(c *ir.Call) (DistributionEmit, bool) {
	p, found := ByID(c.Plugin)
	if !found {
		return DistributionEmit{}, false
	}
	h, ok := p.Emit.(DistributionEmit)
	return h, ok
}

// DistributionEmit holds a distribution's hooks. Observation noise uses
// Variance and Sample; input noise uses BaseLen, Draw and Moments.
type DistributionEmit struct {
	// Variance returns the variance of a one-dimensional distribution with
	// constant parameters; observation noise uses it.
	Variance func(a *Args) float64
	// Sample, if not nil, returns an expression that draws one value of a
	// one-dimensional distribution with constant parameters from rand, a
	// *rand.Rand of math/rand/v2. Emitted programs use it to simulate the
	// declared observation noise of an expression objective.
	Sample func(a *Args, rand jen.Code) jen.Code

	// BaseLen returns how many base uniforms one draw uses.
	BaseLen func(g *DrawGen) int
	// Draw returns statements and the n components of one draw (n the
	// distribution's dimension), primary float64 expressions over the
	// locals the statements declare, computed from g's base uniforms by a
	// reparameterisation that is smooth in the parameters.
	Draw func(g *DrawGen) (stmts, elems []jen.Code)
	// Moments returns statements, the mean (n elements) and the covariance
	// (n×n, row-major) of the distribution, for models that describe input
	// noise by its first two moments.
	Moments func(g *DrawGen) (stmts, mean, cov []jen.Code)
	// Gaussian reports whether the distribution is Gaussian, so that its
	// moments describe it exactly; models that assume Gaussian input noise
	// warn about the others.
	Gaussian func(g *DrawGen) bool
}

// PlanDraw is the DrawGen of distribution c for what is decided before any
// code is emitted (BaseLen, Gaussian): it reads no parameter and its
// uniforms are placeholders, so only hooks that depend on constant arguments
// may be asked.
func PlanDraw(c *ir.Call) *DrawGen {
	return &DrawGen{Args: Args{Call: c},
		Param:   func(string) ExprValue { return ExprValue{} },
		Uniform: func(int) jen.Code { return jen.Lit(0.5) },
		Fresh:   func(prefix string) string { return prefix },
		Sub:     func(nested *ir.Call, _ int) *DrawGen { return PlanDraw(nested) },
	}
}

// GaussianInputNoise reports whether every declaration of p's input noise is
// Gaussian, so that its mean and covariance describe it exactly.
func GaussianInputNoise(p *ir.Program) bool {
	for _, n := range p.InputNoise {
		if n == nil || n.Dist == nil {
			return false
		}
		h, ok := DistributionHooks(n.Dist)
		if !ok || h.Gaussian == nil || !h.Gaussian(PlanDraw(n.Dist)) {
			return false
		}
	}
	return true
}

// Differentiable reports whether kernel plugin p has analytic derivatives
// (a KernelDiffEmit hook), so that its hyperparameters can be learned.
func Differentiable(p *Plugin) bool {
	h, ok := p.Emit.(KernelDiffEmit)
	return ok && h != nil
}

// CandidateEmit is a candidate generator's hook: it makes the finite
// decision set at compile time, so that the emitted optimiser holds the
// points as constants, as it does a candidates file's. The points must lie
// in the domain (integer components whole); an error says what is wrong
// with the arguments, and is reported at the call.
type CandidateEmit func(g *CandidateGen) ([][]float64, error)

// CandidateGen is what a candidate generator is given: its arguments, the
// domain's components, and the problem's seed, from which random
// generators draw, so that the same file gives the same points.
type CandidateGen struct {
	Args
	Components []Component
	Seed       uint64
}

// Component is one scalar component of the domain.
type Component struct {
	Lo, Hi  float64
	Integer bool // whole numbers from Lo to Hi
	Log     bool // searched on a logarithmic scale
}
