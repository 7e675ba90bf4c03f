// Package registry is where boc finds its plugins: kernels, models,
// acquisitions, distributions, benchmark functions, built-in functions, initial
// designs, acquisition searches and candidate generators. A plugin is data (its
// name, documentation and parameter signature) plus two hooks: Check, for
// semantic rules beyond the signature, which sees the whole program for rules
// that span statements, and Emit, which describes and generates its Go code.
//
// Plugins register themselves from init functions into Default, as
// database/sql drivers and Caddy modules do, so a custom boc with extra
// plugins is a main package that imports the driver and the plugin package.
// The type checker is given a Registry (typecheck.Config.Plugins); it, the
// plan and the code generator look plugins up by kind and name, and none has
// a switch over them.
package registry

import (
	"fmt"
	"math"
	"sort"
	"sync"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
)

// Kind is the namespace a plugin lives in; it is the first part of its ID.
type Kind string

const (
	Kernel       Kind = "kernel"
	Model        Kind = "model"
	Acquisition  Kind = "acquisition"
	Distribution Kind = "distribution"
	Benchmark    Kind = "benchmark"
	Function     Kind = "function" // built-in functions of the expression language
	Init         Kind = "init"
	Search       Kind = "search"
	Candidates   Kind = "candidates" // generators of a finite decision set
)

// Kinds lists every kind in the order listings use.
var Kinds = []Kind{Model, Kernel, Acquisition, Distribution, Benchmark, Function, Init, Search, Candidates}

// Plugin describes one plugin.
type Plugin struct {
	Kind Kind
	Name string
	Doc  string // one sentence for listings and hover text

	// Params is the signature of call-style plugins (kernel, model, acquisition,
	// distribution, init, search), in positional order.
	Params []Param

	// Result types a call of a function or benchmark plugin from the types (and,
	// where constant, values) of its arguments. It returns the result type, or a
	// message saying what is wrong with the arguments.
	Result func(args []Operand) (dsl.Type, error)

	// Check applies rules the signature cannot express (for example that a
	// covariance matches a mean's length). It is called after every argument was
	// checked against Params, with defaults filled in. May be nil.
	Check func(c *CheckContext)

	// Fold evaluates a call of a function plugin whose arguments are all
	// constant, so constant expressions are computed at compile time. It is
	// called only after Result accepted the arguments and must return a value of
	// the type Result gave, or a message saying why the call has no value (for
	// example the logarithm of a negative number). Nil: calls are never folded.
	Fold func(args []dsl.Value) (dsl.Value, error)

	// UsesInputNoise is set on models and acquisitions that account for input
	// noise; the checker warns when input noise is declared and neither the
	// model nor the acquisition has it.
	UsesInputNoise bool
	// Inflates, if set on a model, reports whether a call of it inflates its
	// observation noise by the input noise (input_noise = "inflate"), which
	// accounts for the input noise too.
	Inflates func(c *ir.Call) bool
	// UsesGradient is set on searches that maximise the acquisition with its
	// gradient (L-BFGS-B); acquisitions that need one check for it.
	UsesGradient bool
	// TrustRegion is set on searches that confine the search to a trust
	// region (SearchCode.Region), which the optimiser tells every
	// observation.
	TrustRegion bool
	// Safe is set on acquisitions that keep to unknown safety constraints
	// (their hooks' spec has Safe set); an unknown constraint needs one.
	Safe bool
	// Pareto is set on acquisitions of several objectives (their hooks'
	// spec has Pareto set): a problem with several needs one, and one
	// objective cannot take one.
	Pareto bool
	// Family, on a kernel, names the runtime/kernel family that evaluates
	// it without specialised code (kernel.Named), for models that do so:
	// the safety constraints' Gaussian processes. "" when there is none.
	Family string
	// Block, on a kernel, emits the call as a runtime/kernel.Block, which
	// evaluates it a row of points at a time: the sample sums of the models
	// over input distributions use it. Nil: they call the emitted kernel
	// pair by pair (compositions, kernels without a Block form).
	Block BlockEmit

	// Runtime lists the runtime packages (import paths) the plugin's emitted
	// code calls, so that the plan can say what a program links.
	Runtime []string

	// Example is a call of the plugin in .bo source, for tests that exercise
	// every registered plugin, when its signature alone does not give one
	// (a mean and a covariance whose shapes agree). "" means a call with
	// every required argument at a value its parameter accepts.
	Example string

	// Emit generates the plugin's Go code (a candidate generator's points).
	// Its type depends on Kind and is defined by the contract in emit.go. A
	// nil Emit means the plugin is specified but not built yet: the checker
	// refuses a call of it as not available in this version of boc.
	Emit any
}

// ID is the plugin's namespaced identifier, e.g. "kernel.matern52".
func (p *Plugin) ID() string { return string(p.Kind) + "." + p.Name }

// Param returns the parameter called name, or nil.
func (p *Plugin) Param(name string) *Param {
	for i := range p.Params {
		if p.Params[i].Name == name {
			return &p.Params[i]
		}
	}
	return nil
}

// Built reports whether code generation supports the plugin yet.
func (p *Plugin) Built() bool { return p.Emit != nil }

// Operand is an argument of a function or benchmark call as the checker saw it.
type Operand struct {
	Type  dsl.Type
	Const *dsl.Value // the folded value when the argument is constant
}

// ParamType says what a parameter accepts.
type ParamType int

const (
	RealParam      ParamType = iota // a real number; ints convert
	IntParam                        // an integer
	BoolParam                       // true or false
	StringParam                     // a string literal
	VecParam                        // a vector of any length
	MatParam                        // a matrix of any shape
	RealOrVecParam                  // a real, or a vec[n] with n the input dimension (ARD) or the Param's Len
	KernelParam                     // a kernel: a kernel plugin call or name
	DistParam                       // a distribution: a distribution plugin call
)

var paramTypeNames = [...]string{"real", "int", "bool", "string", "vec", "mat", "real or vec[d]", "kernel", "dist"}

func (t ParamType) String() string { return paramTypeNames[t] }

// TypeString names what the parameter accepts, its vector's length included.
func (p Param) TypeString() string {
	if p.Type == RealOrVecParam && p.Len > 0 {
		return fmt.Sprintf("real or vec[%d]", p.Len)
	}
	return p.Type.String()
}

// VecLen is the length of a RealOrVecParam's vector in a domain of d
// components.
func (p Param) VecLen(d int) int {
	if p.Len > 0 {
		return p.Len
	}
	return d
}

// Range bounds a numeric parameter. An open end excludes its value.
type Range struct {
	Lo, Hi         float64 // use math.Inf for an unbounded end
	LoOpen, HiOpen bool
}

// Contains reports whether x lies in r.
func (r Range) Contains(x float64) bool {
	// Written with >= and <= so that NaN is outside every range.
	if !(x >= r.Lo) || (r.LoOpen && x == r.Lo) {
		return false
	}
	return x <= r.Hi && !(r.HiOpen && x == r.Hi)
}

// String renders r in interval notation, e.g. (0, inf) or [1, 10].
// An infinite end is always shown open and as inf: (0, inf), not (0, +Inf].
func (r Range) String() string {
	lo, hi := "[", "]"
	if r.LoOpen || math.IsInf(r.Lo, -1) {
		lo = "("
	}
	if r.HiOpen || math.IsInf(r.Hi, 1) {
		hi = ")"
	}
	return lo + rangeEnd(r.Lo) + ", " + rangeEnd(r.Hi) + hi
}

func rangeEnd(x float64) string {
	switch {
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	return fmt.Sprintf("%g", x)
}

// Param is one parameter of a call-style plugin.
type Param struct {
	Name string
	Type ParamType
	// Default is the value used when the argument is left out, checked like
	// user input (Real(1), Call("matern52"), Learn()). The zero Value means
	// the parameter is required.
	Default Value
	// Len is the length of a RealOrVecParam's vector when it is not the
	// input dimension (one value per term of a kernel, say); 0 otherwise.
	Len int
	// Range, if set, bounds numeric values (each element of a vector).
	Range *Range
	// Learnable parameters may be given as `learn` or `learn(init, bounds)`.
	Learnable bool
	// LearnBounds are the default bounds [lo, hi] of a learned value, with
	// 0 < lo < hi (values are fitted on a log scale); its default start is
	// their geometric mean. Zero: use the Range's ends.
	LearnBounds [2]float64
	// DomainDependent parameters may be expressions over the domain variables
	// (input-dependent noise); others must be constant.
	DomainDependent bool
	// Variadic marks a last parameter that takes every remaining positional
	// argument (e.g. concat's distributions).
	Variadic bool
	Doc      string
}

// CheckContext is what a Check hook sees: the call with its checked arguments,
// the input dimension, the program the call is part of, and a way to report
// problems.
type CheckContext struct {
	Call *ir.Call
	Dim  int // number of scalar components of the domain
	// Program is the whole checked program, for rules that span plugins
	// ("mmd needs input noise"). Hooks only read it, and only when Complete.
	Program *ir.Program
	// Complete is true when every statement checked without error, so that
	// Program can be relied on: a rule over other statements is skipped
	// otherwise, since their errors explain the problem.
	Complete bool
	// Report records a diagnostic. Hooks report at an argument's span where they
	// can (Call.Arg(name).Span).
	Report func(dsl.Diagnostic)
}

// Registry is a set of plugins, looked up by kind and name. The type
// checker is given one, as go/types is given an Importer: it knows no plugin
// set of its own.
type Registry struct {
	mu      sync.RWMutex
	plugins map[string]*Plugin
}

// New returns an empty registry.
func New() *Registry { return &Registry{plugins: map[string]*Plugin{}} }

// Default is the registry plugins add themselves to from init functions:
// boc's stdlib and the plugin packages a custom boc imports.
var Default = New()

// Register adds p to the Default registry.
func Register(p *Plugin) { Default.Register(p) }

// Lookup returns the plugin of the given kind and name in the Default registry.
func Lookup(kind Kind, name string) (*Plugin, bool) { return Default.Lookup(kind, name) }

// ByID returns the plugin with the given ID in the Default registry.
func ByID(id string) (*Plugin, bool) { return Default.ByID(id) }

// Names returns the sorted names of the Default registry's plugins of one kind.
func Names(kind Kind) []string { return Default.Names(kind) }

// All returns every plugin of the Default registry, sorted by ID.
func All() []*Plugin { return Default.All() }

// Register adds p to r. It panics on a duplicate ID or a malformed plugin:
// both are programming errors found at start-up, never user errors.
func (r *Registry) Register(p *Plugin) {
	if p.Name == "" || p.Kind == "" {
		panic("registry: plugin without kind or name")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.plugins[p.ID()]; dup {
		panic("registry: duplicate plugin " + p.ID())
	}
	r.plugins[p.ID()] = p
}

// Lookup returns the plugin of the given kind and name.
func (r *Registry) Lookup(kind Kind, name string) (*Plugin, bool) {
	return r.ByID(string(kind) + "." + name)
}

// ByID returns the plugin with the given ID ("kernel.se").
func (r *Registry) ByID(id string) (*Plugin, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	p, ok := r.plugins[id]
	return p, ok
}

// Names returns the sorted names of the plugins of one kind, for listings and
// "did you mean" hints.
func (r *Registry) Names(kind Kind) []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var names []string
	for _, p := range r.plugins {
		if p.Kind == kind {
			names = append(names, p.Name)
		}
	}
	sort.Strings(names)
	return names
}

// All returns every plugin sorted by ID.
func (r *Registry) All() []*Plugin {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]*Plugin, 0, len(r.plugins))
	for _, p := range r.plugins {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID() < out[j].ID() })
	return out
}
