package typecheck

import (
	"fmt"
	"math"
	"sort"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ast"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
)

// checkInputNoise checks `input noise { TARGET ~ DIST ... }`: each target is
// resolved to component indices, each component is perturbed at most once,
// and each distribution's dimension equals its target's. Distribution
// parameters marked domain-dependent may use the domain variables.
func (c *checker) checkInputNoise() {
	s := c.stmts.inputNoise
	if s == nil {
		return
	}
	c.stmtSpan = s.Pos
	if len(s.Decls) == 0 {
		c.errorHint(s.Pos, "e.g. input noise x ~ normal(0, 0.05)", "input noise declares no target")
		return
	}
	perturbed := map[int]dsl.Span{}
	for _, d := range s.Decls {
		if d == nil {
			c.incomplete("input noise")
			continue
		}
		target, tok := c.noiseTarget(d.Target)
		fresh := tok && c.perturbOnce(target, d.Target.Span(), perturbed)
		dist := c.call(registry.Distribution, d.Dist, exprCtx{domain: true})
		if !fresh || dist == nil {
			continue
		}
		if n := len(target); dist.typ != dsl.DistOf(n) {
			hint := ""
			if dist.typ == dsl.DistOf(1) {
				hint = fmt.Sprintf("use iid(DIST, %d) for independent copies, or declare each component", n)
			}
			c.errorHint(d.Dist.Span(), hint, "%s gives a %s but the target (%s) has %d component%s",
				dist.plugin.Name, dist.typ, c.components(target), n, plural(n))
			continue
		}
		c.prog.InputNoise = append(c.prog.InputNoise, &ir.InputNoise{Span: d.Pos, Target: target, Dist: dist.call})
	}
}

// perturbOnce records the components of a target, reporting one that an
// earlier declaration already perturbs.
func (c *checker) perturbOnce(target []int, sp dsl.Span, perturbed map[int]dsl.Span) bool {
	for _, i := range target {
		if prev, done := perturbed[i]; done {
			c.errorHint(sp, "perturb each component once; combine distributions with concat",
				"%s is already perturbed at line %d", c.prog.ComponentName(i), prev.Start.Line)
			return false
		}
		perturbed[i] = sp
	}
	return true
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// components names a list of component indices.
func (c *checker) components(idx []int) string {
	names := make([]string, len(idx))
	for i, k := range idx {
		names[i] = c.prog.ComponentName(k)
	}
	return elide(names)
}

// noiseTarget resolves an input-noise target to component indices: a
// dimension, a component p[i], a slice p[i:j], or a tuple of those.
func (c *checker) noiseTarget(e ast.Expr) ([]int, bool) {
	if isNil(e) {
		c.incomplete("input noise target")
		return nil, false
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		return c.noiseTarget(e.X)
	case *ast.TupleExpr:
		var all []int
		ok := true
		for _, x := range e.Elems {
			idx, xok := c.noiseTarget(x)
			all, ok = append(all, idx...), ok && xok
		}
		return all, ok
	case *ast.Ident:
		dim, ok := c.targetDim(e)
		if !ok {
			return nil, false
		}
		return componentRange(dim.Offset, dim.Offset+dim.Size), true
	case *ast.IndexExpr:
		dim, ok := c.targetVector(e.X)
		i, iok := c.constInt(e.Index, "a component index", exprCtx{})
		if !ok || !iok {
			return nil, false
		}
		if i < 0 || i >= dim.Size {
			c.errorf(e.Index.Span(), "index %d is out of range for %s[%d] (valid: 0 to %d)", i, dim.Name, dim.Size, dim.Size-1)
			return nil, false
		}
		return []int{dim.Offset + i}, true
	case *ast.SliceExpr:
		dim, ok := c.targetVector(e.X)
		lo, hi := 0, 0
		lok, hok := true, true
		if !isNil(e.Lo) {
			lo, lok = c.constInt(e.Lo, "a slice bound", exprCtx{})
		}
		if !ok || !lok {
			return nil, false
		}
		hi = dim.Size
		if !isNil(e.Hi) {
			hi, hok = c.constInt(e.Hi, "a slice bound", exprCtx{})
		}
		if !hok {
			return nil, false
		}
		if msg := sliceProblem(lo, hi, dim.Size); msg != "" {
			c.errorf(e.Pos, "%s", msg)
			return nil, false
		}
		return componentRange(dim.Offset+lo, dim.Offset+hi), true
	}
	c.errorHint(e.Span(), "e.g. x ~ normal(0, 0.1), p[2] ~ ..., p[0:2] ~ ..., (x, y) ~ ...",
		"an input noise target must be a domain variable, a component, a slice or a tuple of those")
	return nil, false
}

func componentRange(from, to int) []int {
	idx := make([]int, 0, to-from)
	for i := from; i < to; i++ {
		idx = append(idx, i)
	}
	return idx
}

// targetDim resolves a target name to its dimension.
func (c *checker) targetDim(id *ast.Ident) (*ir.Dim, bool) {
	sym := c.scope.names[id.Name]
	if sym == nil && c.stmts.domain == nil {
		return nil, false // "missing domain" says it
	}
	if sym == nil || sym.kind != dimSym {
		var dims []string
		for name, s := range c.scope.names {
			if s.kind == dimSym {
				dims = append(dims, name)
			}
		}
		sort.Strings(dims)
		what := "unknown name"
		if sym != nil {
			what = "a " + symbolNoun[sym.kind]
		}
		c.errorHint(id.Pos, dsl.DidYouMean(id.Name, dims), "%s is not a domain variable (%s)", id.Name, what)
		return nil, false
	}
	sym.used = true
	return sym.dim, sym.dim != nil && c.additiveNoise(sym.dim, id.Pos)
}

// additiveNoise reports a dimension that input noise cannot perturb: the
// noise is added to a component in its own units, and an integer dimension
// would leave its grid while a log-scaled one is searched in other units.
func (c *checker) additiveNoise(dim *ir.Dim, sp dsl.Span) bool {
	kind := ""
	switch {
	case dim.Categorical():
		kind = "a categorical"
	case dim.Integer:
		kind = "an integer"
	case dim.Log:
		kind = "a log-scaled"
	default:
		return true
	}
	c.errorHint(sp, "input noise perturbs a component additively in its own units; categorical, integer and log-scaled dimensions cannot take it — declare the dimension as a real interval",
		"%s is %s dimension; input noise cannot perturb it", dim.Name, kind)
	return false
}

// targetVector resolves the X of p[i] or p[i:j] to a vector dimension.
func (c *checker) targetVector(e ast.Expr) (*ir.Dim, bool) {
	if isNil(e) {
		c.incomplete("input noise target")
		return nil, false
	}
	id, isIdent := e.(*ast.Ident)
	if !isIdent {
		c.errorf(e.Span(), "only the components of a vector dimension can be indexed in a target")
		return nil, false
	}
	dim, ok := c.targetDim(id)
	if ok && !dim.Vector {
		c.errorf(id.Pos, "%s is a scalar dimension; only vector dimensions have components", id.Name)
		return nil, false
	}
	return dim, ok
}

// observationSD is the parameter `observation noise learn(...)` fits: the
// noise's standard deviation.
var observationSD = &registry.Param{Name: "sd", Type: registry.RealParam, Learnable: true,
	Range: &registry.Range{Lo: 0, Hi: math.Inf(1), LoOpen: true}}

func (c *checker) checkObservationNoise() {
	s := c.stmts.obsNoise
	if s == nil {
		return
	}
	c.stmtSpan = s.Pos
	on := ir.ObsNoise{Span: s.Pos}
	switch {
	case s.Reported:
		if obj := c.stmts.objective; obj != nil {
			if _, isExpr := obj.Binding.(*ast.ExprBinding); isExpr {
				c.errorHint(s.Pos, "to simulate observation noise on an expression or benchmark objective, declare it: observation noise ~ normal(0, sd)",
					"observation noise reported needs an objective that reports each value's noise sd (go, exec or external); an expression has none")
				return
			}
		}
		on.Kind = ir.ObsNoiseReported
	case s.Learn != nil:
		l, _, ok := c.learn("the observation noise sd", observationSD, s.Learn, exprCtx{})
		if !ok {
			return
		}
		on.Kind, on.Learn = ir.ObsNoiseLearn, l
	case !isNil(s.Dist):
		dist := c.measurementNoise(s.Dist, "observation noise")
		if dist == nil {
			return
		}
		on.Kind, on.Dist = ir.ObsNoiseDist, dist
	default:
		c.incomplete("observation noise statement")
		return
	}
	c.prog.ObsNoise = on
}

// measurementNoise checks the noise on a measured value: a one-dimensional
// distribution with constant parameters.
func (c *checker) measurementNoise(e ast.Expr, what string) *ir.Call {
	cc := c.call(registry.Distribution, e, constCtx(what+" must be constant"))
	if cc == nil {
		return nil
	}
	if cc.typ != dsl.DistOf(1) {
		c.errorHint(e.Span(), "e.g. normal(0, 0.1)", "%s must be a one-dimensional distribution, got %s", what, cc.typ)
		return nil
	}
	return cc.call
}
