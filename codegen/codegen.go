// Package codegen emits the Go optimiser for a checked problem.
//
// The output is a library package specialised to the problem (its dimension,
// bounds, kernel, acquisition and search written out as constants and
// straight-line Go, with New, Suggest, Observe, Best and, when the objective
// can be evaluated, Objective and Run) and a thin main package that hands the
// library to runtime/program for its command line. Plugins contribute their
// code through the Emit hooks of stdlib/registry: codegen knows no plugin by
// name. The output is deterministic and gofmt-clean.
package codegen

import (
	"fmt"
	"go/token"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/plan"
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

// Options controls code generation.
type Options struct {
	// Package is the library package name; "" means the problem name.
	Package string
	// ImportPath is the import path under which the library package will live;
	// the program's main package imports it from there.
	ImportPath string
	// Text is the .bo file's text, which the program keeps for its report;
	// empty when it has none to keep.
	Text string
}

// File is one generated Go file; Name is relative to the output directory.
type File struct {
	Name    string
	Content []byte
}

// Output is what Generate produces: the library package (the optimiser) and
// the program's main package, which imports the library from ImportPath.
type Output struct {
	Library []File
	Main    []File
}

// Generate emits Go code for the planned optimiser o. Every language error
// was raised by the checker and the plan: a diagnostic from Generate is an
// internal error, a bug in boc or a plugin. The main package is emitted only
// when opt.ImportPath is set, since it must import the library.
func Generate(o *plan.Optimizer, opt Options) (*Output, dsl.Diagnostics) {
	g := &generator{o: o, p: o.Program, pkg: opt.Package, text: opt.Text}
	if g.pkg == "" {
		g.pkg = g.p.Name
	}
	if err := CheckPackage(g.pkg); err != nil {
		g.internal(dsl.Span{}, "%v", err)
		return nil, g.diags
	}
	g.plan()
	if g.diags.HasErrors() {
		g.diags.Sort()
		return nil, g.diags
	}
	out := &Output{Library: g.library()}
	if opt.ImportPath != "" {
		out.Main = g.program(opt.ImportPath)
	}
	g.diags.Sort()
	if g.diags.HasErrors() {
		return nil, g.diags
	}
	return out, g.diags
}

// CheckPackage reports whether name can name the optimiser's Go package.
func CheckPackage(name string) error {
	if !token.IsIdentifier(name) || name == "main" {
		return fmt.Errorf("%q cannot name the optimiser's Go package: choose a lower-case name that is a Go identifier other than main", name)
	}
	return nil
}

// generator holds one problem and the plugin code resolved for it.
type generator struct {
	o *plan.Optimizer
	p *ir.Program // o.Program
	// goInputs name the functions that fill bound Go functions' structs,
	// declared already, by the struct's qualified type (goInputDecl).
	goInputs map[string]string
	pkg      string
	text     string // the .bo file's (Options.Text)
	diags    dsl.Diagnostics

	components []component
	known      []*ir.Constraint // known constraints, in source order

	model       registry.ModelCode
	kernel      *ir.Call
	inputs      *inputPlan // a model over input distributions (inputs.go), or nil
	acquisition registry.AcquisitionCode
	search      registry.SearchCode
	initEmit    registry.InitEmit // nil for explicit initial points

	// noiseSample draws the declared noise from the *rand.Rand "rng"; Run
	// adds it to the values of an expression objective. Nil otherwise.
	noiseSample jen.Code
	// constraintNoise is set when Run adds noise to simulated constraints
	// (constraintNoiseDecl), objectiveNoise when it adds noise to several
	// objectives (objectiveNoiseDecl).
	constraintNoise, objectiveNoise bool
}

// observeMethod is the name of the optimiser's method that records an
// observation: ObserveWithSD, which takes the value's noise sd, when the
// noise is reported, and Observe otherwise.
func (g *generator) observeMethod() string {
	if g.o.ReportedNoise() {
		return "ObserveWithSD"
	}
	return "Observe"
}

func (g *generator) report(d dsl.Diagnostic) { g.diags = append(g.diags, d) }

// internal reports a bug in boc or a plugin rather than in the user's file.
func (g *generator) internal(span dsl.Span, format string, args ...any) {
	d := dsl.Errorf(span, "internal error in boc: "+format, args...)
	g.report(d.WithHint("this is a bug in boc or one of its plugins; please report it with the .bo file"))
}

// checkArgs reports an internal error if a hook read arguments its call does
// not have.
func (g *generator) checkArgs(a *registry.Args) {
	if err := a.Err(); err != nil {
		g.internal(a.Call.Span, "%v", err)
	}
}

// plan resolves the plugins' hooks for the planned optimiser; anything that
// cannot be resolved is an internal error.
func (g *generator) plan() {
	p := g.p
	g.components = components(p)
	if p.D < 1 {
		g.internal(dsl.Span{}, "the domain has %d scalar components", p.D)
	}
	g.planCandidates()
	g.planObjective()
	for _, c := range p.Constraints {
		if c.Known {
			g.known = append(g.known, c)
		} else if c.Safety() && g.o.Safety == nil {
			g.internal(c.Span, "unknown safety constraint %s reached code generation without a safe acquisition", c.Name)
		}
	}
	g.planObservationNoise()
	g.planModel()
	switch {
	case g.several():
		g.planSeveral()
	case g.o.Safety == nil: // the explorer replaces the acquisition, its search and the design
		g.planSearch()
	}
	if p.Budget < 1 {
		g.internal(dsl.Span{}, "budget %d is not positive", p.Budget)
	}
}

// planSearch resolves the acquisition's, the search's and the initial
// design's hooks.
func (g *generator) planSearch() {
	p := g.p
	if h, ok := callHook[registry.AcquisitionHooks](g, p.Acquisition); ok {
		g.planAcquisition(h.Code)
	}
	g.planSearchHook()
	g.planUnscented()
	if p.Init.Call != nil {
		if h, ok := callHook[registry.InitEmit](g, p.Init.Call); ok {
			g.initEmit = h
		}
	}
}

// planSearchHook resolves the search's hook.
func (g *generator) planSearchHook() {
	p := g.p
	if h, ok := callHook[registry.SearchEmit](g, p.Search); ok {
		sg := &registry.SearchGen{Args: registry.Args{Call: p.Search}, D: p.D, Levels: g.levelCounts(p.D)}
		g.search = h(sg)
		g.checkArgs(&sg.Args)
	}
}

func (g *generator) planObjective() {
	b := g.p.Objective.Binding
	switch b.Kind {
	case ir.ExprBinding, ir.GoBinding, ir.ExternalBinding:
	case ir.ExecBinding:
		if len(b.Exec) == 0 {
			g.internal(b.Span, "exec binding without a command")
		}
	default:
		g.internal(b.Span, "unknown binding kind %d", b.Kind)
	}
}

func (g *generator) planObservationNoise() {
	n := g.p.ObsNoise
	switch n.Kind {
	case ir.ObsNoiseNone:
	case ir.ObsNoiseDist:
		h, ok := callHook[registry.DistributionEmit](g, n.Dist)
		if !ok {
			return
		}
		if h.Variance == nil {
			g.internal(n.Dist.Span, "distribution %s has no Variance hook for observation noise", n.Dist.Plugin)
			return
		}
		a := &registry.Args{Call: n.Dist}
		if g.p.Objective.Binding.Kind == ir.ExprBinding {
			if h.Sample == nil {
				g.internal(n.Dist.Span, "distribution %s has no Sample hook to simulate observation noise", n.Dist.Plugin)
				return
			}
			g.noiseSample = h.Sample(a, jen.Id("rng"))
		}
		g.checkArgs(a)
	case ir.ObsNoiseLearn:
	case ir.ObsNoiseReported:
		if g.p.Objective.Binding.Kind == ir.ExprBinding {
			g.internal(n.Span, "observation noise reported with an expression objective")
		}
	}
}

func (g *generator) planModel() {
	m := g.p.Model
	h, ok := callHook[registry.ModelHooks](g, m)
	if !ok {
		return
	}
	mg := &registry.ModelGen{Args: registry.Args{Call: m}, Spec: g.o.Model, Capacity: g.modelCapacity()}
	g.model = h.Code(mg)
	g.checkArgs(&mg.Args)
	switch {
	case g.model.Type == nil || g.model.New == nil:
		g.internal(m.Span, "model %s's hook returned incomplete code", m.Plugin)
		return
	case g.o.InputModel() != (g.model.Inputs != nil), g.o.Inflates() != (g.model.Curvature != nil):
		g.internal(m.Span, "model %s's code does not match its spec", m.Plugin)
		return
	}
	if g.o.Model.Mean == registry.MeanWorst {
		g.model.New = jen.Add(g.model.New).Dot("WithMean").Call(g.priorMean())
	}
	g.kernel = g.o.Model.Kernel
	g.planKernel(g.kernel)
	if g.model.Inputs != nil {
		g.inputs = &inputPlan{model: g.model.Inputs}
	}
}
