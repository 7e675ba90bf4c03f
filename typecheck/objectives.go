package typecheck

import (
	"fmt"
	"math"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ast"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
)

// Several objectives: `objective [BINDING] { maximize NAME [>= h] ... }`.
// One binding measures them all (an exec command answers each by its name,
// an external one is told each), or, without a binding, every line gives
// its expression (`minimize f1 = EXPR`), as studies do.

// maxObjectives is the most objectives a problem may have: beyond four, a
// Pareto front needs more evaluations than a budget of expensive ones buys.
const maxObjectives = 4

// checkObjectives checks the block of several objectives.
func (c *checker) checkObjectives(s *ast.ObjectiveStmt) {
	if n := len(s.Lines); n < 2 || n > maxObjectives {
		hint := "one objective is written objective minimize BINDING"
		if n > maxObjectives {
			hint = "fold the ones that matter least into the others, or make them requirements (require NAME: reported <= h)"
		}
		c.errorHint(s.Pos, hint, "several objectives need 2 to %d lines, got %d", maxObjectives, n)
		return
	}
	out := ir.Objective{Binding: ir.Binding{Kind: ir.ExprBinding, Span: s.Pos}}
	ok := true
	switch b := s.Binding.(type) {
	case nil:
	case *ast.GoBinding:
		var names []string
		for _, l := range s.Lines {
			if l != nil && l.Name != nil {
				names = append(names, l.Name.Name)
			}
		}
		out.Binding, ok = c.goObjectives(b, names)
	default:
		out.Binding, ok = c.measuredBinding(s.Binding, "external", objectiveValue)
	}
	seen := map[string]dsl.Span{}
	for _, l := range s.Lines {
		o, lineOK := c.objectiveLine(l, s.Binding != nil)
		ok = ok && lineOK
		if !lineOK && o.Name == "" {
			continue
		}
		if prev, dup := seen[o.Name]; dup {
			c.errorHint(l.Name.Pos, fmt.Sprintf("the first is at line %d", prev.Start.Line), "objective %s is declared twice", o.Name)
			ok = false
			continue
		}
		seen[o.Name] = l.Name.Pos
		out.Outputs = append(out.Outputs, o)
	}
	for _, con := range c.stmts.constraints {
		if con.Name == nil {
			continue
		}
		if at, clash := seen[con.Name.Name]; clash {
			keyword := "constraint"
			if con.Require {
				keyword = "require"
			}
			c.errorHint(con.Name.Pos, fmt.Sprintf("objective %s is declared at line %d; every measured value needs a name of its own", con.Name.Name, at.Start.Line),
				"%s %s has an objective's name", keyword, con.Name.Name)
			ok = false
		}
	}
	if ok {
		c.prog.Objective = out
	}
}

// objectiveLine checks one of several objectives; measured says whether the
// block's binding measures it, so that it has no expression of its own.
func (c *checker) objectiveLine(l *ast.ObjectiveLine, measured bool) (ir.Output, bool) {
	if l == nil || l.Name == nil {
		c.incomplete("objective line")
		return ir.Output{}, false
	}
	o := ir.Output{Name: l.Name.Name, Span: l.Pos, Maximize: l.Maximize, Threshold: math.NaN()}
	ok := true
	switch {
	case measured && l.Expr != nil:
		c.errorHint(l.Expr.Span(), "drop the expression, or drop the binding so that every objective is computed",
			"objective %s is measured by the block's binding and cannot also be computed", o.Name)
		ok = false
	case !measured && l.Expr == nil:
		c.errorHint(l.Pos, fmt.Sprintf("compute it (%s %s = EXPR), or measure them all: objective exec \"./rig\" { ... }", l.Sense(), o.Name),
			"objective %s has no expression, and the block no binding to measure it", o.Name)
		ok = false
	case l.Expr != nil:
		b, exprOK := c.objectiveExpr(&ast.ExprBinding{X: l.Expr})
		o.Expr, ok = b.Expr, exprOK
	}
	ok = c.objectiveOptions(l, &o) && ok
	if l.Op == "" {
		return o, ok
	}
	want := "<="
	if l.Maximize {
		want = ">="
	}
	if l.Op != want {
		c.errorHint(l.OpPos, fmt.Sprintf("%s %s %s h: values %s h are of no interest", l.Sense(), o.Name, want, beyond(l.Maximize)),
			"the threshold of objective %s is written with %s, got %s", o.Name, want, l.Op)
		return o, false
	}
	t, tok := c.threshold(l.Threshold, "objective "+o.Name)
	o.Threshold = t
	return o, ok && tok
}

// objectiveOptions checks the options of an objective's line, `kernel
// CALL` and `noise ~ DIST`, each at most once.
func (c *checker) objectiveOptions(l *ast.ObjectiveLine, o *ir.Output) bool {
	ok := true
	first := map[string]dsl.Span{}
	for _, opt := range l.Options {
		if opt == nil || opt.Name == nil {
			c.incomplete("objective option")
			ok = false
			continue
		}
		name := opt.Name.Name
		if prev, dup := first[name]; dup {
			c.errorHint(opt.Pos, fmt.Sprintf("the first is at line %d", prev.Start.Line), "option %s is given twice", name)
			ok = false
			continue
		}
		first[name] = opt.Pos
		switch name {
		case "kernel":
			o.Kernel = c.kernel(opt.Value, constCtx("kernel arguments must be constant"))
			ok = ok && o.Kernel != nil
		case "noise":
			o.Noise = c.measurementNoise(opt.Value, "objective noise")
			ok = ok && o.Noise != nil
		default:
			c.errorHint(opt.Name.Pos, dsl.DidYouMean(name, []string{"kernel", "noise"}),
				"unknown option %s of objective %s; the options are kernel and noise", name, o.Name)
			ok = false
		}
	}
	return ok
}

// beyond says on which side of a threshold an objective's values are of no
// interest.
func beyond(maximize bool) string {
	if maximize {
		return "below"
	}
	return "above"
}

// checkObjectivesAcquisition reports an acquisition that does not fit the
// number of objectives: several need one of several objectives, which one
// cannot take.
func (c *checker) checkObjectivesAcquisition() {
	a := c.prog.Acquisition
	if c.cfg.StatementsOnly || a == nil {
		return
	}
	p, ok := c.plugins.ByID(a.Plugin)
	if !ok {
		return
	}
	s := c.stmts.objective
	if s == nil || (s.Lines != nil) != (c.prog.Objective.Outputs != nil) {
		return // the objective's errors explain the problem
	}
	several := s.Lines != nil
	var fitting []string
	for _, q := range c.plugins.All() {
		if q.Kind == registry.Acquisition && q.Pareto == several && q.Built() {
			fitting = append(fitting, q.Name)
		}
	}
	switch {
	case several && !p.Pareto:
		c.errorHint(a.Span, "use "+orList(fitting)+", or leave the acquisition out",
			"acquisition %s scores one objective; this problem has %d", p.Name, len(c.prog.Objective.Outputs))
	case !several && p.Pareto:
		c.errorHint(a.Span, "use "+orList(fitting)+", or give several objectives: objective exec \"./rig\" { maximize a  minimize b }",
			"acquisition %s needs several objectives; this problem has one", p.Name)
	}
}
