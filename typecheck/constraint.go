package typecheck

import (
	"fmt"
	"math"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ast"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
)

// checkConstraints checks every constraint; names are unique among them.
func (c *checker) checkConstraints() {
	first := map[string]dsl.Span{}
	for _, s := range c.stmts.constraints {
		c.stmtSpan = s.Pos
		if s.Name == nil || isNil(s.LHS) || isNil(s.RHS) {
			c.incomplete("constraint")
			continue
		}
		con := c.constraint(s)
		if prev, dup := first[s.Name.Name]; dup {
			c.errorHint(s.Name.Pos, fmt.Sprintf("the first is at line %d", prev.Start.Line),
				"constraint %s is declared twice", s.Name.Name)
			continue
		}
		first[s.Name.Name] = s.Name.Pos
		if con != nil {
			c.prog.Constraints = append(c.prog.Constraints, con)
		}
	}
}

// constraint classifies and checks one constraint: known when both sides are
// expressions over the domain, an unknown safety constraint when one side is
// measured and the other constant.
func (c *checker) constraint(s *ast.ConstraintStmt) *ir.Constraint {
	opOK := c.constraintOp(s)
	_, lhsExpr := s.LHS.(*ast.ExprBinding)
	_, rhsExpr := s.RHS.(*ast.ExprBinding)
	var con *ir.Constraint
	switch {
	case lhsExpr && rhsExpr && s.Require:
		c.errorHint(s.Pos, "write constraint "+s.Name.Name+": ..., which the search keeps to; require is for values an evaluation measures",
			"require %s compares expressions over the domain: nothing is measured", s.Name.Name)
	case lhsExpr && rhsExpr:
		con = c.knownConstraint(s)
	case lhsExpr || rhsExpr:
		con = c.unknownConstraint(s)
	default:
		c.errorHint(s.RHS.Span(), "compare the measured value with a constant, e.g. go \"...\".Battery >= 0.2",
			"both sides of constraint %s are measured", s.Name.Name)
	}
	if !opOK {
		return nil
	}
	return con
}

// constraintOp accepts >= and <=, with a hint for the other comparisons.
func (c *checker) constraintOp(s *ast.ConstraintStmt) bool {
	hints := map[string]string{
		">":  "use >=: a constraint includes its boundary",
		"<":  "use <=: a constraint includes its boundary",
		"==": "equality constraints are not supported; remove the dimension, or bound it from both sides",
		"!=": "a constraint must bound a value from one side",
	}
	if s.Op == ">=" || s.Op == "<=" {
		return true
	}
	c.errorHint(s.OpPos, hints[s.Op], "a constraint compares with >= or <=, not %s", s.Op)
	return false
}

// knownConstraint checks lhs CMP rhs over the domain, normalised to G >= 0.
func (c *checker) knownConstraint(s *ast.ConstraintStmt) *ir.Constraint {
	l, r := c.constraintSide(s.LHS), c.constraintSide(s.RHS)
	if len(s.Options) > 0 && s.Options[0] != nil {
		c.errorHint(s.Options[0].Pos, "options such as seed, kernel and noise belong to measured constraints",
			"constraint %s is known (both sides are expressions over the domain) and takes no options", s.Name.Name)
		return nil
	}
	if isInvalid(l) || isInvalid(r) {
		return nil
	}
	if s.Op == "<=" {
		l, r = r, l
	}
	sp := dsl.SpanOf(s.LHS.Span().Start, s.RHS.Span().End)
	var g ir.Expr = &ir.BinaryExpr{At: sp, Op: "-", X: toReal(l), Y: toReal(r), Typ: dsl.RealType}
	if lv, ok := constOf(l); ok {
		if rv, ok := constOf(r); ok {
			v, fault := foldBinary("-", lv, rv, dsl.RealType)
			if fault != "" {
				c.errorf(sp, "%s", fault)
				return nil
			}
			g = constant(sp, v)
		}
	}
	if !usesDomain(g) {
		if v, ok := constOf(g); ok && v.Float() < 0 {
			c.errorf(sp, "constraint %s does not depend on the domain and is never satisfied", s.Name.Name)
			return nil
		}
		c.report(dsl.Warningf(sp, "constraint %s does not depend on any domain variable", s.Name.Name))
	} else if lo, hi, ok := valueRange(g); ok && hi < 0 {
		// Interval arithmetic over the domain proves that no point keeps it.
		c.errorHint(sp, "widen the domain or correct the constraint",
			"constraint %s holds nowhere in the domain: by how much it is kept stays within [%s, %s] there, below 0",
			s.Name.Name, fmtNum(lo), fmtNum(hi))
		return nil
	}
	return &ir.Constraint{Name: s.Name.Name, Span: s.Pos, Known: true, G: g}
}

// constraintSide checks one side of a known constraint: a number over the
// domain.
func (c *checker) constraintSide(b ast.Binding) ir.Expr {
	e := b.(*ast.ExprBinding)
	x := c.expr(e.X, exprCtx{domain: true})
	if !isInvalid(x) && !x.Type().IsNumeric() {
		c.errorf(x.Span(), "each side of a constraint must be a number, got %s", x.Type())
		return invalid(x.Span())
	}
	return x
}

// unknownConstraint checks `measured CMP constant` (either way round) and
// its options.
func (c *checker) unknownConstraint(s *ast.ConstraintStmt) *ir.Constraint {
	measured, threshold := s.LHS, s.RHS
	atLeast := s.Op == ">="
	if _, ok := s.LHS.(*ast.ExprBinding); ok {
		measured, threshold = s.RHS, s.LHS
		atLeast = s.Op == "<="
	}
	var b ir.Binding
	var bok bool
	if sim, ok := measured.(*ast.SimulatedBinding); ok {
		b, bok = c.simulatedBinding(sim, s.Name.Name)
	} else {
		b, bok = c.measuredBinding(measured, "reported", valueOnly)
	}
	t, tok := c.threshold(threshold.(*ast.ExprBinding).X, "constraint "+s.Name.Name)
	con := &ir.Constraint{Name: s.Name.Name, Span: s.Pos, Measured: b, AtLeast: atLeast, Threshold: t, Outcome: s.Require}
	if s.Require {
		con.Confidence = defaultConfidence
	}
	if !c.constraintOptions(s, con) || !bok || !tok {
		return nil
	}
	return con
}

// simulatedBinding checks `simulated EXPR`: a number over the domain.
func (c *checker) simulatedBinding(b *ast.SimulatedBinding, name string) (ir.Binding, bool) {
	x := c.expr(b.X, exprCtx{domain: true})
	if isInvalid(x) {
		return ir.Binding{}, false
	}
	if !x.Type().IsNumeric() {
		c.errorf(x.Span(), "the simulated value of constraint %s must be a number, got %s", name, x.Type())
		return ir.Binding{}, false
	}
	return ir.Binding{Kind: ir.ExprBinding, Span: b.Pos, Expr: toReal(x)}, true
}

// randomSeeds checks `seed random(n = K)`: K seed points drawn among the
// truly safe candidates, which only a simulated constraint can tell.
func (c *checker) randomSeeds(call *ast.CallExpr, con *ir.Constraint) (int, bool) {
	if con.Measured.Kind != ir.ExprBinding {
		c.errorHint(call.Pos, "list the seed points: seed [[...], ...]",
			"seed random(n) draws seeds among the truly safe points, which only a simulated constraint knows")
		return 0, false
	}
	if len(call.Args) != 1 || call.Args[0] == nil || (call.Args[0].Name != nil && call.Args[0].Name.Name != "n") {
		c.errorHint(call.Pos, "e.g. seed random(n = 5)", "random takes one argument, n, the number of seed points")
		return 0, false
	}
	v, ok := c.constExpr(call.Args[0].Value, constCtx("the number of random seed points must be constant"))
	if !ok {
		return 0, false
	}
	if v.Type.Kind != dsl.Int || v.Float() < 1 {
		c.errorf(call.Args[0].Pos, "the number of random seed points must be an integer of at least 1, got %s", v)
		return 0, false
	}
	return int(v.Float()), true
}

// checkSafety reports an unknown safety constraint that the acquisition
// does not keep to: only a safe acquisition does.
func (c *checker) checkSafety() {
	if c.cfg.StatementsOnly || c.prog.Acquisition == nil {
		return
	}
	p, ok := c.plugins.ByID(c.prog.Acquisition.Plugin)
	if !ok || p.Safe || p.Pareto {
		return // the plan refuses safety constraints beside several objectives
	}
	var safe []string
	for _, q := range c.plugins.All() {
		if q.Kind == registry.Acquisition && q.Safe {
			safe = append(safe, q.Name)
		}
	}
	for _, con := range c.prog.Constraints {
		if con.Safety() {
			c.errorHint(con.Span, "use a safe acquisition: "+orList(safe),
				"unknown safety constraint %s needs a safe acquisition; %s would not keep to it", con.Name, p.Name)
		}
	}
}

func (c *checker) threshold(x ast.Expr, owner string) (float64, bool) {
	v, ok := c.constExpr(x, constCtx(fmt.Sprintf("the threshold of %s must be constant", owner)))
	if !ok {
		return 0, false
	}
	if !v.Type.IsNumeric() {
		c.errorf(x.Span(), "the threshold of %s must be a number, got %s", owner, v.Type)
		return 0, false
	}
	return v.Float(), true
}

// constraintOptions checks `seed POINTS`, `kernel CALL`, `noise ~ DIST`,
// `landing MODE` and `lipschitz L`, each at most once.
func (c *checker) constraintOptions(s *ast.ConstraintStmt, con *ir.Constraint) bool {
	ok := true
	first := map[string]dsl.Span{}
	for _, o := range s.Options {
		if o == nil || o.Name == nil {
			c.incomplete("constraint option")
			ok = false
			continue
		}
		name := o.Name.Name
		if prev, dup := first[name]; dup {
			c.errorHint(o.Pos, fmt.Sprintf("the first is at line %d", prev.Start.Line), "option %s is given twice", name)
			ok = false
			continue
		}
		first[name] = o.Pos
		if !c.optionFits(o, con) {
			ok = false
			continue
		}
		switch name {
		case "confidence":
			con.Confidence = c.confidence(o, con.Name)
			ok = ok && con.Confidence > 0
		case "seed":
			if call, isCall := o.Value.(*ast.CallExpr); isCall && call.Fun != nil && call.Fun.Name == "random" {
				n, nok := c.randomSeeds(call, con)
				con.RandomSeeds, ok = n, ok && nok
				continue
			}
			pts, pok := c.points(o.Value, "seed point", "seed points must be constant")
			con.Seeds, ok = pts, ok && pok
		case "kernel":
			if k := c.kernel(o.Value, constCtx("kernel arguments must be constant")); k != nil {
				con.Kernel = k
			} else {
				ok = false
			}
		case "noise":
			con.Noise = c.measurementNoise(o.Value, "constraint noise")
			ok = ok && con.Noise != nil
		case "landing":
			con.Landing = c.landing(o)
			ok = ok && con.Landing != nil
		case "lipschitz":
			con.Lipschitz, con.LipschitzSpan = c.lipschitz(o, con.Name)
			ok = ok && con.Lipschitz > 0
		default:
			c.errorHint(o.Name.Pos, dsl.DidYouMean(name, []string{"confidence", "kernel", "landing", "lipschitz", "noise", "seed"}),
				"unknown constraint option %s; the options are seed, kernel, noise, landing and lipschitz (constraint) and kernel, noise and confidence (require)", name)
			ok = false
		}
	}
	return ok
}

// lipschitz checks `lipschitz L`: a positive constant, in the constraint's
// units per unit of distance in the unit cube of the domain. It returns 0
// after reporting an error.
func (c *checker) lipschitz(o *ast.Option, name string) (float64, dsl.Span) {
	if o.Value == nil {
		c.errorHint(o.Pos, "e.g. lipschitz 2.5: how much the constraint can change per unit of distance in the unit cube of the domain",
			"option lipschitz of constraint %s needs a constant", name)
		return 0, o.Pos
	}
	v, ok := c.constExpr(o.Value, constCtx("the Lipschitz constant must be constant"))
	if !ok {
		return 0, o.Pos
	}
	if !v.Type.IsNumeric() || !(v.Float() > 0) || math.IsInf(v.Float(), 0) {
		c.errorHint(o.Value.Span(), "a bound on |g(x) − g(x′)| / ‖x − x′‖, with x in the unit cube of the domain",
			"the Lipschitz constant of constraint %s must be a positive number, got %s", name, v)
		return 0, o.Pos
	}
	return v.Float(), o.Pos
}

// defaultConfidence is the posterior probability with which a recommended
// point meets an outcome constraint (require) unless its confidence option
// says otherwise.
const defaultConfidence = 0.95

// safetyOptions are the options only a safety constraint takes: an outcome
// constraint's evaluations may break it, so nothing needs to be certified.
var safetyOptions = map[string]string{
	"seed":      "a requirement needs no seed points: evaluations may break it",
	"landing":   "landing says where a safety constraint is certified; a requirement is modelled, not certified",
	"lipschitz": "a Lipschitz bound certifies a safety constraint; a requirement is modelled, not certified",
}

// optionFits reports whether option o suits constraint con, reporting an
// option of the other kind of constraint.
func (c *checker) optionFits(o *ast.Option, con *ir.Constraint) bool {
	name := o.Name.Name
	if hint, safetyOnly := safetyOptions[name]; safetyOnly && con.Outcome {
		c.errorHint(o.Name.Pos, hint, "require %s takes no option %s; its options are kernel, noise and confidence", con.Name, name)
		return false
	}
	if name == "confidence" && !con.Outcome {
		c.errorHint(o.Name.Pos, "a safety constraint is never broken; for a requirement the result must meet with a confidence, write require "+con.Name+": ...",
			"constraint %s takes no option confidence", con.Name)
		return false
	}
	return true
}

// confidence checks `confidence P`: the posterior probability, strictly
// between 0 and 1, with which the recommendation must meet the requirement.
// It returns 0 after reporting an error.
func (c *checker) confidence(o *ast.Option, name string) float64 {
	hint := "e.g. confidence 0.95: the posterior probability with which the recommended point meets it"
	if o.Value == nil {
		c.errorHint(o.Pos, hint, "option confidence of require %s needs a constant", name)
		return 0
	}
	v, ok := c.constExpr(o.Value, constCtx("the confidence must be constant"))
	if !ok {
		return 0
	}
	if !v.Type.IsNumeric() || !(v.Float() > 0 && v.Float() < 1) {
		c.errorHint(o.Value.Span(), hint, "the confidence of require %s must be a probability strictly between 0 and 1, got %s", name, v)
		return 0
	}
	return v.Float()
}
