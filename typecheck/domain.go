package typecheck

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ast"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/runtime/design"
)

// maxComponents bounds D: the search and the initial design draw points
// from a Sobol sequence of D dimensions, which runtime/design has direction
// numbers for up to design.MaxSobolDim. It also keeps a typo such as
// p[1000000] from becoming a build that never ends.
const maxComponents = design.MaxSobolDim

// minRelativeWidth is the narrowest range, relative to its ends, that the
// optimiser can resolve: it maps each range onto [0, 1] in float64.
const minRelativeWidth = 1e-12

// checkDomain checks the dimensions and lays out the components of a point in
// declaration order.
func (c *checker) checkDomain() {
	s := c.stmts.domain
	if s == nil {
		return
	}
	c.stmtSpan = s.Pos
	if len(s.Dims) == 0 {
		c.errorHint(s.Pos, "e.g. domain { x in [0, 1] }", "the domain has no dimensions")
		return
	}
	ok := true
	for _, d := range s.Dims {
		dim := c.dim(d)
		sym := c.declared(dimName(d))
		if dim == nil || sym == nil { // the name was rejected, or the dimension had errors
			ok = false
			continue
		}
		if c.prog.D+dim.Size > maxComponents {
			c.errorf(d.Pos, "the domain has more than %d scalar components", maxComponents)
			ok = false
			break
		}
		dim.Offset = c.prog.D
		c.prog.D += dim.Size
		c.prog.Dims = append(c.prog.Dims, dim)
		sym.dim = dim
	}
	c.domainOK = ok
}

// checkConditions checks the conditions of the conditional dimensions, once
// the domain and the lets derived from it are known.
func (c *checker) checkConditions() {
	s := c.stmts.domain
	if s == nil {
		return
	}
	for _, d := range s.Dims {
		if d != nil && !isNil(d.When) {
			c.stmtSpan = d.Pos
			if sym := c.declared(dimName(d)); sym != nil && sym.dim != nil {
				c.condition(d, sym.dim)
			} else {
				c.expr(d.When, exprCtx{domain: true}) // report its own errors
			}
		}
	}
}

// condition checks the condition of a conditional dimension: a bool over
// categorical dimensions declared above it (levels compared, combined with
// and, or, not). The IR's condition also requires the conditions of those
// dimensions, so that a choice that does not exist never enables another.
func (c *checker) condition(d *ast.Dim, dim *ir.Dim) {
	x := c.expr(d.When, exprCtx{domain: true})
	if isInvalid(x) {
		c.domainOK = false
		return
	}
	if x.Type().Kind != dsl.Bool {
		c.errorHint(d.When.Span(), `e.g. gamma in [1e-3, 10] log when kernel == "rbf"`, "a condition must be a bool, got %s", x.Type())
		c.domainOK = false
		return
	}
	if v, isConst := constOf(x); isConst {
		hint := "remove `when`: the dimension always exists"
		if !v.Truth {
			hint = "remove the dimension: it never exists"
		}
		c.errorHint(d.When.Span(), hint, "the condition of %s is always %t", dim.Name, v.Truth)
		c.domainOK = false
		return
	}
	when := x
	ok := true
	ir.Inspect(x, func(e ir.Expr) {
		v, isVar := e.(*ir.VarExpr)
		switch {
		case !isVar || !ok:
		case !v.Dim.Categorical():
			c.errorHint(v.At, "a condition chooses by level, e.g. when kernel == \"rbf\"",
				"the condition of %s may use only categorical dimensions; %s is not one", dim.Name, v.Dim.Name)
			ok = false
		case v.Dim.Offset >= dim.Offset:
			c.errorHint(v.At, fmt.Sprintf("declare %s above %s", v.Dim.Name, dim.Name),
				"the condition of %s uses %s, declared below it", dim.Name, v.Dim.Name)
			ok = false
		case v.Dim.When != nil:
			when = &ir.BinaryExpr{At: x.Span(), Op: "and", X: when, Y: v.Dim.When, Typ: dsl.BoolType}
		}
	})
	if !ok {
		c.domainOK = false
		return
	}
	dim.When = when
}

func dimName(d *ast.Dim) *ast.Ident {
	if d == nil {
		return nil
	}
	return d.Name
}

// dim checks one dimension. Integer ranges may be log-scaled too (batch sizes
// 1..1024 are searched that way); their lower bound is then at least 1.
func (c *checker) dim(d *ast.Dim) *ir.Dim {
	if d == nil || d.Name == nil {
		c.incomplete("dimension")
		return nil
	}
	dim := &ir.Dim{Name: d.Name.Name, Span: d.Pos, Size: 1, Integer: d.Integer, Log: d.Log}
	if d.Levels != nil {
		return c.categorical(d, dim)
	}
	ok := true
	if !isNil(d.Size) {
		n, nok := c.constInt(d.Size, "a vector size", exprCtx{})
		switch {
		case !nok:
			ok = false
		case n < 1 || n > maxComponents:
			c.errorf(d.Size.Span(), "vector size must be between 1 and %d, got %d", maxComponents, n)
			ok = false
		default:
			dim.Vector, dim.Size = true, n
		}
	}
	lo, lok := c.bound(d.Lo, d.Integer)
	hi, hok := c.bound(d.Hi, d.Integer)
	if !ok || !lok || !hok {
		return nil
	}
	switch {
	case !(lo < hi):
		c.errorHint(d.Lo.Span(), "write the lower bound first; to fix a value, use a let instead of a dimension",
			"empty range: the lower bound %s is not below the upper bound %s", fmtNum(lo), fmtNum(hi))
	case math.IsInf(hi-lo, 0):
		c.errorHint(d.Lo.Span(), "rescale the variable, e.g. x in [-1, 1] and use 1e300 * x in the objective",
			"the range [%s, %s] is wider than a float64 can hold", fmtNum(lo), fmtNum(hi))
	case hi-lo <= minRelativeWidth*max(math.Abs(lo), math.Abs(hi)):
		c.errorHint(d.Lo.Span(), "to fix a value, use a let instead of a dimension; or shift the variable, e.g. x in [0, 1e-9] and use 1 + x",
			"the range [%s, %s] is too narrow to search in float64", fmtNum(lo), fmtNum(hi))
	case d.Log && lo <= 0:
		c.errorHint(d.Lo.Span(), "e.g. lr in [1e-4, 1e-1] log",
			"a log-scaled dimension needs a positive lower bound, got %s", fmtNum(lo))
	default:
		dim.Lo, dim.Hi = lo, hi
		return dim
	}
	return nil
}

// categorical checks a dimension of level names: at least two, distinct,
// each a name ask and status can print as NAME=LEVEL.
func (c *checker) categorical(d *ast.Dim, dim *ir.Dim) *ir.Dim {
	ok := true
	switch {
	case !isNil(d.Size):
		c.errorHint(d.Size.Span(), "declare one categorical dimension per choice", "a categorical dimension cannot be a vector")
		ok = false
	case d.Log:
		c.errorf(d.Pos, "a categorical dimension cannot be log-scaled: its levels have no order")
		ok = false
	case len(d.Levels) < 2:
		c.errorHint(d.Pos, `e.g. catalyst in {"Pd", "Ni"}; to fix a choice, use a let`, "a categorical dimension needs at least two levels")
		ok = false
	}
	seen := map[string]bool{}
	for _, l := range d.Levels {
		name := l.Value
		switch {
		case name == "" || strings.TrimSpace(name) != name || strings.ContainsFunc(name, func(r rune) bool { return r == '=' || r == '"' || unicode.IsControl(r) }):
			c.errorHint(l.Pos, "a level name is printed as NAME=LEVEL: use letters, digits, spaces inside, - _ . + and the like",
				"level name %q is not allowed: it is empty, starts or ends with a space, or holds = \" or a control character", name)
			ok = false
		case seen[name]:
			c.errorf(l.Pos, "level %q is listed twice", name)
			ok = false
		}
		seen[name] = true
		dim.Levels = append(dim.Levels, name)
	}
	if !ok {
		return nil
	}
	dim.Lo, dim.Hi = 0, float64(len(dim.Levels)-1)
	return dim
}

// bound checks one end of a range.
func (c *checker) bound(e ast.Expr, integer bool) (float64, bool) {
	v, ok := c.constExpr(e, constCtx("bounds must be constant"))
	if !ok {
		return 0, false
	}
	switch {
	case integer && v.Type.Kind != dsl.Int:
		c.errorHint(e.Span(), "use [a, b] for a real interval", "integer range bounds must be ints, got %s %s", v.Type, v)
	case !v.Type.IsNumeric():
		c.errorf(e.Span(), "a bound must be a number, got %s", v.Type)
	case math.IsInf(v.Float(), 0) || math.IsNaN(v.Float()):
		c.errorf(e.Span(), "a bound must be finite, got %s", v)
	default:
		return v.Float(), true
	}
	return 0, false
}

// points checks a constant list of points [[...], ...] with D values each,
// every one inside the domain; what names one point in messages ("initial
// point"). ok is false after any error.
func (c *checker) points(e ast.Expr, what, why string) ([][]float64, bool) {
	if lit, isLit := e.(*ast.VecLit); isLit && c.declaresCategorical() {
		if !c.domainOK {
			return nil, false // the domain's errors say enough
		}
		return c.namedPoints(lit, what, why)
	}
	v, ok := c.constExpr(e, constCtx(why))
	if !ok {
		return nil, false
	}
	if v.Type.Kind != dsl.Mat {
		hint := ""
		if v.Type.Kind == dsl.Vec {
			hint = "a list of points is a matrix; write one point as [[...]]"
		}
		c.errorHint(e.Span(), hint, "expected a list of points [[...], ...], got %s", v.Type)
		return nil, false
	}
	if !c.domainOK {
		return nil, false
	}
	rows, cols := v.Type.Rows, v.Type.Cols
	if cols != c.prog.D {
		c.errorf(e.Span(), "each %s needs %d values (%s), got %d", what, c.prog.D, c.componentList(), cols)
		return nil, false
	}
	lit, _ := e.(*ast.VecLit)
	pts := make([][]float64, rows)
	for i := range pts {
		pts[i] = v.Numbers[i*cols : (i+1)*cols]
		if msg := c.outside(pts[i]); msg != "" {
			sp := e.Span()
			if lit != nil && len(lit.Elems) == rows && !isNil(lit.Elems[i]) {
				sp = lit.Elems[i].Span()
			}
			c.errorf(sp, "%s %d is outside the domain: %s", what, i, msg)
			ok = false
		}
	}
	return pts, ok
}

// declaresCategorical reports whether the domain declares a categorical
// dimension, checked cleanly or not.
func (c *checker) declaresCategorical() bool {
	return c.stmts.domain != nil && slices.ContainsFunc(c.stmts.domain.Dims, func(d *ast.Dim) bool { return d != nil && d.Levels != nil })
}

// namedPoints checks a literal list of points over a domain with
// categorical dimensions, whose values are written as level names:
// [[25, "Pd"], ...]. Each point is checked value by value.
func (c *checker) namedPoints(lit *ast.VecLit, what, why string) ([][]float64, bool) {
	ok := true
	pts := make([][]float64, 0, len(lit.Elems))
	for i, e := range lit.Elems {
		row, isRow := e.(*ast.VecLit)
		if !isRow {
			c.errorHint(e.Span(), "a list of points is [[...], ...]", "expected a point [...], got %s", describeNode(e))
			ok = false
			continue
		}
		if len(row.Elems) != c.prog.D {
			c.errorf(row.Pos, "each %s needs %d values (%s), got %d", what, c.prog.D, c.componentList(), len(row.Elems))
			ok = false
			continue
		}
		p, pok := c.namedPoint(row, why)
		if !pok {
			ok = false
			continue
		}
		if msg := c.outside(p); msg != "" {
			c.errorf(row.Pos, "%s %d is outside the domain: %s", what, i, msg)
			ok = false
		}
		pts = append(pts, p)
	}
	return pts, ok
}

// namedPoint checks one point's values: a level name for a categorical
// component, a number for the others.
func (c *checker) namedPoint(row *ast.VecLit, why string) ([]float64, bool) {
	p := make([]float64, c.prog.D)
	ok := true
	for _, d := range c.prog.Dims {
		for j := d.Offset; j < d.Offset+d.Size; j++ {
			v, vok := c.constExpr(row.Elems[j], constCtx(why))
			switch {
			case !vok:
				ok = false
			case d.Categorical() && v.Type.Kind == dsl.String:
				i, iok := c.levelIndex(row.Elems[j].Span(), d.Type(), v.Text)
				p[j], ok = float64(i), ok && iok
			case d.Categorical():
				c.errorHint(row.Elems[j].Span(), fmt.Sprintf("one of %s", levelList(d.Levels)),
					"%s is categorical: its value is a level name, got %s", d.Name, v.Type)
				ok = false
			case !v.Type.IsNumeric():
				c.errorf(row.Elems[j].Span(), "%s needs a number, got %s", c.prog.ComponentName(j), v.Type)
				ok = false
			default:
				p[j] = v.Float()
			}
		}
	}
	return p, ok
}

// describeNode names what an expression is, for "expected a point, got a
// number".
func describeNode(e ast.Expr) string {
	switch e.(type) {
	case *ast.NumberLit:
		return "a number"
	case *ast.StringLit:
		return "a string"
	}
	return "an expression"
}

// outside says which component of p leaves the domain, or "".
func (c *checker) outside(p []float64) string {
	for _, d := range c.prog.Dims {
		for i := d.Offset; i < d.Offset+d.Size; i++ {
			x := p[i]
			name := c.prog.ComponentName(i)
			switch {
			case d.Categorical() && (x != math.Trunc(x) || x < d.Lo || x > d.Hi):
				return fmt.Sprintf("%s = %s is not one of its levels", name, fmtNum(x))
			case x < d.Lo || x > d.Hi:
				return fmt.Sprintf("%s = %s is not in %s", name, fmtNum(x), rangeText(d))
			case d.Integer && x != math.Trunc(x):
				return fmt.Sprintf("%s = %s is not an integer", name, fmtNum(x))
			}
		}
	}
	return ""
}

// rangeText renders a dimension's range as the file writes it.
func rangeText(d *ir.Dim) string {
	if d.Categorical() {
		return levelList(d.Levels)
	}
	if d.Integer {
		return fmtNum(d.Lo) + ".." + fmtNum(d.Hi)
	}
	return "[" + fmtNum(d.Lo) + ", " + fmtNum(d.Hi) + "]"
}

// levelList renders level names as the file writes them: {"a", "b"}.
func levelList(levels []string) string {
	quoted := make([]string, len(levels))
	for i, l := range levels {
		quoted[i] = strconv.Quote(l)
	}
	return "{" + strings.Join(quoted, ", ") + "}"
}

// componentList names the scalar components in order.
func (c *checker) componentList() string { return elide(c.componentNames()) }

// elide joins names, leaving out the middle of long lists:
// "x, y" or "p[0], p[1], p[2], p[3], ..., p[8], p[9]".
func elide(names []string) string {
	const head, tail = 4, 2
	if len(names) > head+tail+1 {
		names = append(append(names[:head:head], "..."), names[len(names)-tail:]...)
	}
	return strings.Join(names, ", ")
}

// componentNames names every scalar component in order.
func (c *checker) componentNames() []string {
	names := make([]string, c.prog.D)
	for i := range names {
		names[i] = c.prog.ComponentName(i)
	}
	return names
}
