// Package ir is the checked intermediate representation of a .bo problem: what
// the type checker produces and the only thing the code generator reads. Names
// are resolved, `let`s are substituted, constants are folded, plugin calls have
// every parameter filled in (defaults included) and every expression is typed.
package ir

import (
	"slices"
	"strconv"

	"github.com/bocdev/boc/dsl"
)

// Program is one checked optimisation problem.
type Program struct {
	Name   string // the problem name; a valid Go identifier
	Source string // base name of the .bo file, for the generated-code header

	Dims []*Dim
	D    int // number of scalar components: the length of a point

	Objective   Objective
	Candidates  *Candidates   // nil: the continuous box of Dims
	InputNoise  []*InputNoise // in source order
	ObsNoise    ObsNoise
	Constraints []*Constraint // in source order

	Model       *Call // kind model
	Acquisition *Call // kind acquisition
	Search      *Call // kind search; the default search when the file has none

	Budget     int      // objective evaluations, initial design included
	BudgetSpan dsl.Span // the budget's value in the source
	Init       Init
	Seed       uint64
	Stop       Expr // bool expression over the names acquisition, best, evaluations; nil if none
}

// Dim is one domain dimension. A vector dimension p[n] occupies components
// Offset .. Offset+Size-1 of a point; a scalar one has Size 1 and Vector false.
type Dim struct {
	Name    string
	Span    dsl.Span
	Vector  bool
	Size    int
	Offset  int
	Integer bool // integer range lo..hi (both ends included)
	Log     bool // searched on a log scale (lo > 0)
	Lo, Hi  float64
	// Levels are a categorical dimension's level names, in declaration
	// order; nil otherwise. A point holds the index of its level, so Lo is
	// 0 and Hi len(Levels)−1.
	Levels []string
	// When is a conditional dimension's condition, a bool expression over
	// categorical dimensions declared before it, with the conditions of
	// those that are conditional themselves folded in: the dimension exists
	// exactly where When holds. Nil for a dimension that always exists.
	When Expr
}

// Categorical reports whether d's values are level names.
func (d *Dim) Categorical() bool { return d.Levels != nil }

// Type returns real, int, a level of d or vec[Size].
func (d *Dim) Type() dsl.Type {
	switch {
	case d.Categorical():
		return dsl.LevelOf(d.Name)
	case d.Vector:
		return dsl.VecOf(d.Size)
	case d.Integer:
		return dsl.IntType
	}
	return dsl.RealType
}

// ComponentName returns the display name of component i of the dimension:
// "x" for a scalar, "p[2]" for a vector.
func (p *Program) ComponentName(i int) string {
	for _, d := range p.Dims {
		if i >= d.Offset && i < d.Offset+d.Size {
			if !d.Vector {
				return d.Name
			}
			return d.Name + "[" + strconv.Itoa(i-d.Offset) + "]"
		}
	}
	return "?"
}

// Objective is what is optimised.
type Objective struct {
	Maximize bool
	Binding  Binding
	// Outputs are the objectives of a problem with several, 2 to 4 in
	// declaration order; nil for one. Binding measures them all at once,
	// or, of kind ExprBinding, each is its own expression.
	Outputs []Output
}

// Output is one of several objectives.
type Output struct {
	Name     string
	Span     dsl.Span
	Maximize bool
	// Threshold is the reference point's coordinate: values beyond it
	// (below it when maximised) are of no interest; NaN when not given.
	Threshold float64
	Expr      Expr // the objective's expression, for an ExprBinding
	// Kernel and Noise are the objective's own kernel and measurement
	// noise (options kernel CALL, noise ~ DIST); nil for the model's kernel
	// and the observation noise.
	Kernel, Noise *Call
}

// BindingKind says where a measured value comes from.
type BindingKind int

const (
	ExprBinding     BindingKind = iota // an expression over the domain variables
	GoBinding                          // a Go function called directly
	ExecBinding                        // an external command speaking JSON
	ExternalBinding                    // reported by someone else (ask/tell)
)

// Binding is a measured quantity's source.
type Binding struct {
	Kind BindingKind
	Span dsl.Span

	Expr Expr // ExprBinding: real-valued

	// GoBinding: the function and its checked signature.
	GoPackage string // import path
	GoFunc    string
	GoContext bool // takes a leading context.Context
	GoError   bool // returns (float64, error)
	// GoSD: also returns the observation's noise sd after the value,
	// (float64, float64[, error]); only under `observation noise reported`.
	GoSD bool
	// GoValues: also returns a struct of constraint values after the value
	// (and sd); GoFields names its field for each constraint the objective
	// reports, by constraint name.
	GoValues bool
	GoFields map[string]string
	// GoInput is the struct the function takes the point in, a field per
	// dimension; nil when it takes [D]float64.
	GoInput *GoStruct

	Exec []string // ExecBinding: command and arguments
}

// GoStruct is a named Go struct type that carries a point: a field per
// dimension, a level's name for a categorical one, a pointer (nil where it
// does not exist) for a conditional one.
type GoStruct struct {
	Package, Name string // the type's import path and name
	Fields        []GoField
}

// GoField is the field of a GoStruct that holds one dimension.
type GoField struct {
	Dim     *Dim
	Name    string
	Pointer bool // a conditional dimension's *T
	// ElemPackage and ElemName name the field's (element) type when it is a
	// named type, such as a string type with constants; "" for a basic
	// type (float64, int, string, [n]float64).
	ElemPackage, ElemName string
}

// Candidates is a finite decision set.
type Candidates struct {
	Span   dsl.Span
	Call   *Call       // a generator plugin, or nil
	File   string      // a CSV file, or ""
	Points [][]float64 // points read at compile time (from File), or nil
}

// InputNoise perturbs where a query lands: components Target of x are replaced
// by x + ε with ε ~ Dist (len(Target) == Dist's dimension).
type InputNoise struct {
	Span   dsl.Span
	Target []int // component indices
	Dist   *Call // kind distribution
}

// ObsNoiseKind says how the noise on measured values is known.
type ObsNoiseKind int

const (
	ObsNoiseNone     ObsNoiseKind = iota // not declared: treated as (nearly) noise-free
	ObsNoiseDist                         // `observation noise ~ DIST`
	ObsNoiseLearn                        // `observation noise learn`: fitted
	ObsNoiseReported                     // each observation carries its own sd
)

// ObsNoise is the declared observation noise.
type ObsNoise struct {
	Kind  ObsNoiseKind
	Span  dsl.Span
	Dist  *Call  // ObsNoiseDist
	Learn *Learn // ObsNoiseLearn
}

// Constraint is `name: lhs CMP rhs`, normalised to g(x) >= 0 for known
// constraints and to measured >= Threshold (or <=) for unknown ones.
type Constraint struct {
	Name string
	Span dsl.Span

	// Known constraints restrict the search space: G(x) >= 0 must hold, with G
	// the real-valued expression lhs - rhs (for >=) or rhs - lhs (for <=).
	Known bool
	G     Expr

	// Unknown safety constraints: Measured CMP Threshold, where Measured comes
	// from a binding and AtLeast is true for >=.
	Measured  Binding
	AtLeast   bool
	Threshold float64
	Seeds     [][]float64 // known-safe points, one value per component
	// RandomSeeds, for a simulated constraint, draws this many seed points
	// among the candidates that truly satisfy every simulated constraint
	// (`seed random(n = K)`), for studies; Seeds is then nil.
	RandomSeeds int
	Kernel      *Call // nil: the objective model's kernel
	Noise       *Call // nil: the observation noise
	// Landing is what the constraint requires where the input noise lands
	// the queries (`landing ...`); nil when not given.
	Landing *Landing
	// Lipschitz, when positive, makes the constraint's safety rest on the
	// bound |g(x) − g(x′)| ≤ Lipschitz·‖x − x′‖ (unit coordinates) and its
	// noise, not on its Gaussian process (`lipschitz L`, LoSBO).
	Lipschitz     float64
	LipschitzSpan dsl.Span
	// Outcome marks an outcome constraint (`require`): only the result must
	// meet it, with posterior probability at least Confidence; evaluations
	// may break it, so it needs neither seeds nor a safe acquisition.
	Outcome    bool
	Confidence float64
}

// Safety reports whether c is an unknown safety constraint: measured, and
// never to be broken by an evaluation.
func (c *Constraint) Safety() bool { return !c.Known && !c.Outcome }

// Landing is a constraint's `landing` option: what must hold at x + ε for a
// query aimed at x, with ε the input noise.
type Landing struct {
	Span dsl.Span
	// Mode is "aim" (g at the aimed point only), "mean" (E[g(x + ε)]) or
	// "chance" (P(g(x + ε) keeps the limit) ≥ 1 − Alpha).
	Mode  string
	Alpha float64
	// Draws is the number of landing points that represent the input noise
	// at an aim (mean and chance).
	Draws int
}

// OffAim reports whether l judges the constraint where the queries land
// (mean or chance) rather than at the aim; false for a nil l.
func (l *Landing) OffAim() bool { return l != nil && l.Mode != "aim" }

// Seeds returns the points known to be safe: the seed points every unknown
// safety constraint lists, in the first one's order, without repeats. Nil
// without safety constraints.
func (p *Program) Seeds() [][]float64 {
	var unknown []*Constraint
	for _, c := range p.Constraints {
		if c.Safety() {
			unknown = append(unknown, c)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	var out [][]float64
	for _, s := range unknown[0].Seeds {
		everywhere := !slices.ContainsFunc(out, func(q []float64) bool { return slices.Equal(q, s) })
		for _, c := range unknown[1:] {
			everywhere = everywhere && slices.ContainsFunc(c.Seeds, func(q []float64) bool { return slices.Equal(q, s) })
		}
		if everywhere {
			out = append(out, s)
		}
	}
	return out
}

// Init is the initial design: a plugin call (sobol(n) ...) or explicit points.
type Init struct {
	Span   dsl.Span
	Call   *Call
	Points [][]float64
}

// Size returns the number of initial points: explicit points, or the plugin's
// `n` argument.
func (in Init) Size() int {
	if in.Call == nil {
		return len(in.Points)
	}
	if a := in.Call.Arg("n"); a != nil {
		if c, ok := a.Value.(*ConstExpr); ok {
			return int(c.Value.Float())
		}
	}
	return 0
}

// Call is a resolved plugin call with one Arg per plugin parameter, in the
// plugin's parameter order, defaults filled in.
type Call struct {
	Plugin string // the plugin ID, e.g. "kernel.matern52"
	Span   dsl.Span
	Args   []*Arg
}

// Arg returns the argument for parameter name, or nil.
func (c *Call) Arg(name string) *Arg {
	for _, a := range c.Args {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// Arg is one parameter's value in a call.
type Arg struct {
	Name    string
	Span    dsl.Span // of the argument in the source, or of the call when defaulted
	Default bool     // the value came from the parameter's default
	Value   Value
}

// Value is what an argument holds: a constant *ConstExpr, *Learn, *Call (a kernel or a
// distribution), an Expr over domain variables (for domain-dependent
// parameters), or *List (a variadic parameter's values).
type Value interface {
	irValue()
}

// Learn marks a hyperparameter the optimiser fits. Init and bounds are set
// when given in the source; otherwise the plugin chooses.
type Learn struct {
	HasInit   bool
	Init      []float64 // one value, or one per component for vector parameters
	HasBounds bool
	Lo, Hi    float64
}

// List holds the values of a variadic parameter.
type List struct {
	Values []Value
}

func (*Learn) irValue() {}
func (*Call) irValue()  {}
func (*List) irValue()  {}
