package typecheck

import (
	"slices"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ast"
	"github.com/bocdev/boc/dsl/ir"
)

// Defaults of a constraint's `landing` option.
const (
	defaultLandingDraws = 32
	maxLandingDraws     = 1024
)

// landingModes are the values of a constraint's `landing` option.
var landingModes = []string{"aim", "mean", "chance"}

const landingHint = "landing aim, landing mean(draws = 32) or landing chance(alpha = 0.05, draws = 32)"

// landing checks a constraint's `landing MODE` option: what the constraint
// must satisfy where the input noise lands a query. Whether input noise is
// declared is checked with the whole program (checkLanding).
func (c *checker) landing(o *ast.Option) *ir.Landing {
	var name *ast.Ident
	var args []*ast.Arg
	switch v := o.Value.(type) {
	case *ast.Ident:
		name = v
	case *ast.CallExpr:
		name, args = v.Fun, v.Args
	}
	if name == nil {
		c.errorHint(o.Value.Span(), landingHint, "landing takes aim, mean or chance")
		return nil
	}
	l := &ir.Landing{Span: o.Pos, Mode: name.Name, Draws: defaultLandingDraws}
	var params []string
	switch name.Name {
	case "aim":
		l.Draws = 0
	case "mean":
		params = []string{"draws"}
	case "chance":
		params = []string{"alpha", "draws"}
	default:
		c.errorHint(name.Pos, dsl.DidYouMean(name.Name, landingModes), "unknown landing %s; the landings are aim, mean and chance", name.Name)
		return nil
	}
	ok := true
	for _, a := range args {
		if a == nil || a.Name == nil || !slices.Contains(params, a.Name.Name) {
			c.errorHint(o.Value.Span(), landingHint, "landing %s takes named arguments: %s", name.Name, orList(params))
			return nil
		}
		v, vok := c.constExpr(a.Value, constCtx("landing arguments must be constant"))
		if !vok {
			ok = false
			continue
		}
		switch a.Name.Name {
		case "alpha":
			if !v.Type.IsNumeric() || !(v.Float() > 0 && v.Float() < 1) {
				c.errorHint(a.Value.Span(), "α is the allowed probability of breaking the limit, e.g. 0.05", "alpha must be a number strictly between 0 and 1, got %s", v)
				ok = false
			}
			l.Alpha = v.Float()
		case "draws":
			if v.Type.Kind != dsl.Int || v.Float() < 1 || v.Float() > maxLandingDraws {
				c.errorf(a.Value.Span(), "draws must be an integer from 1 to %d, got %s", maxLandingDraws, v)
				ok = false
			}
			l.Draws = int(v.Float())
		}
	}
	if name.Name == "chance" && l.Alpha == 0 && ok {
		c.errorHint(o.Value.Span(), "e.g. landing chance(alpha = 0.05)", "landing chance needs alpha, the allowed probability of breaking the limit")
		ok = false
	}
	if !ok {
		return nil
	}
	return l
}

// checkLanding relates the constraints' landing options to the input
// noise: a landing needs input noise to land the queries off their aim, and
// with input noise and a safe acquisition every unknown constraint must say
// what it requires where the queries land, for no choice is safe by default.
func (c *checker) checkLanding() {
	if c.cfg.StatementsOnly {
		return
	}
	safe := false
	if c.prog.Acquisition != nil {
		p, ok := c.plugins.ByID(c.prog.Acquisition.Plugin)
		safe = ok && p.Safe
	}
	for _, con := range c.prog.Constraints {
		switch {
		case !con.Safety():
		case con.Landing != nil && c.stmts.inputNoise == nil:
			c.errorHint(con.Landing.Span, "declare the input noise (input noise x ~ ...), or remove the landing",
				"constraint %s: landing says what holds where the input noise lands a query, but no input noise is declared", con.Name)
		case con.Landing == nil && c.stmts.inputNoise != nil && safe:
			c.errorHint(con.Span, landingHint,
				"constraint %s: the input noise lands queries off their aim; say what the constraint requires there", con.Name)
		}
	}
}
