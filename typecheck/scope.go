package typecheck

import (
	"fmt"
	"math"
	"reflect"
	"sort"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ast"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
)

type symbolKind int

const (
	constSym symbolKind = iota // a predefined constant: pi, e
	letSym
	dimSym
)

// symbol is a name of the file: a predefined constant, a let or a domain
// dimension. Lets and dimensions share one namespace.
type symbol struct {
	kind   symbolKind
	name   string
	decl   dsl.Span   // the declaring name; zero for predefined constants
	value  *dsl.Value // constants, and lets that checked cleanly
	dim    *ir.Dim    // dimensions that checked cleanly
	failed bool       // the let or dimension had errors: uses are silently invalid
	used   bool
	// derived marks a let over domain variables, a quantity of the point:
	// derivation is its checked expression, substituted where it is used.
	derived    bool
	derivation ir.Expr
}

// scope holds every name of the file. Lets are visible to every statement,
// wherever they are written, except that a let may use only the lets before
// it (so that lets cannot form cycles). Domain dimensions are visible where
// expressions may depend on the point being evaluated.
type scope struct {
	names map[string]*symbol
	lets  []*symbol // declared lets in source order, for unused-let warnings
}

// predefined are the constants every file can use. LANGUAGE.md names pi and
// e; true and false are predefined too, for bool parameters and conditions.
var predefined = map[string]dsl.Value{
	"pi":    dsl.RealValue(math.Pi),
	"e":     dsl.RealValue(math.E),
	"true":  {Type: dsl.BoolType, Truth: true},
	"false": {Type: dsl.BoolType, Truth: false},
}

func newScope() scope {
	s := scope{names: map[string]*symbol{}}
	for name, v := range predefined {
		s.names[name] = &symbol{kind: constSym, name: name, value: &v}
	}
	return s
}

// exprCtx says what an expression may refer to.
type exprCtx struct {
	domain bool // domain variables are allowed
	stop   bool // the stop-condition names are allowed
	// why completes the message for a domain variable where none is allowed:
	// "x is a domain variable; <why>", e.g. "bounds must be constant".
	why string
	// let is the let being defined: it may use only lets declared before it.
	let *symbol
	// predefinedOnly resolves names to the predefined constants only; plugin
	// defaults are checked this way so that a user's let cannot change them.
	predefinedOnly bool
}

func constCtx(why string) exprCtx { return exprCtx{why: why} }

// declare adds a let or dimension name, reporting reserved and duplicate names.
func (c *checker) declare(id *ast.Ident, kind symbolKind) {
	name, what := id.Name, symbolNoun[kind]
	if _, ok := predefined[name]; ok {
		c.errorf(id.Pos, "%s is a predefined constant; choose another name for the %s", name, what)
		return
	}
	if _, ok := c.plugins.Lookup(registry.Function, name); ok {
		c.errorf(id.Pos, "%s is a built-in function; choose another name for the %s", name, what)
		return
	}
	if prev, dup := c.scope.names[name]; dup {
		c.errorHint(id.Pos, fmt.Sprintf("the first is at line %d", prev.decl.Start.Line),
			"%s is declared twice", name)
		return
	}
	sym := &symbol{kind: kind, name: name, decl: id.Pos}
	c.scope.names[name] = sym
	if kind == letSym {
		c.scope.lets = append(c.scope.lets, sym)
	}
}

// declared returns the symbol declared by id, or nil when id's declaration
// was rejected (reserved or duplicate name).
func (c *checker) declared(id *ast.Ident) *symbol {
	if id == nil {
		return nil
	}
	if sym := c.scope.names[id.Name]; sym != nil && sym.decl == id.Pos {
		return sym
	}
	return nil
}

// checkLets evaluates the constant lets in source order; the derived ones,
// which use domain variables (directly or through earlier derived lets),
// wait for the domain (checkDerivedLets). Which is which is read from the
// names a let's expression mentions, before any is checked, because the
// domain's bounds may use constant lets.
func (c *checker) checkLets() {
	for _, s := range c.stmts.lets {
		if sym := c.declared(s.Name); sym != nil && !isNil(s.Value) {
			sym.derived = c.mentionsDomain(s.Value)
		}
	}
	for _, s := range c.stmts.lets {
		c.stmtSpan = s.Pos
		if s.Name == nil {
			c.incomplete("let statement")
			continue
		}
		sym := c.declared(s.Name)
		if sym != nil && sym.derived {
			continue
		}
		self := sym
		if self == nil { // a rejected name: still check the value, then drop it
			self = &symbol{kind: letSym, name: s.Name.Name, decl: s.Name.Pos}
		}
		v, ok := c.constExpr(s.Value, exprCtx{let: self, why: fmt.Sprintf("let %s must be constant", s.Name.Name)})
		if sym == nil {
			continue
		}
		if ok {
			sym.value = &v
		} else {
			sym.failed = true
		}
	}
}

// checkDerivedLets checks the lets over domain variables, once the domain is
// known.
func (c *checker) checkDerivedLets() {
	for _, s := range c.stmts.lets {
		sym := c.declared(s.Name)
		if sym == nil || !sym.derived {
			continue
		}
		c.stmtSpan = s.Pos
		x := c.expr(s.Value, exprCtx{domain: true, let: sym})
		if isInvalid(x) {
			sym.failed = true
			continue
		}
		sym.derivation = x
	}
}

// mentionsDomain reports whether e names a domain dimension or a derived
// let (lets and dimensions share one namespace, so a name is one or the
// other). The names of functions and of arguments are not values.
func (c *checker) mentionsDomain(e ast.Expr) bool {
	found := false
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			if sym := c.scope.names[n.Name]; sym != nil && (sym.kind == dimSym || sym.derived) {
				found = true
			}
		case *ast.CallExpr:
			for _, a := range n.Args {
				ast.Inspect(a, visit)
			}
			return false
		case *ast.Arg:
			ast.Inspect(n.Value, visit)
			return false
		}
		return !found
	}
	ast.Inspect(e, visit)
	return found
}

// reportUnusedLets warns about lets nothing refers to, except those that
// failed to check: their errors say enough.
func (c *checker) reportUnusedLets() {
	for _, sym := range c.scope.lets {
		if !sym.used && !sym.failed {
			c.report(dsl.Warningf(sym.decl, "let %s is never used", sym.name))
		}
	}
}

// ident resolves a name in an expression.
func (c *checker) ident(id *ast.Ident, ctx exprCtx) ir.Expr {
	if ctx.stop && !ctx.predefinedOnly {
		if t, ok := stopNames[id.Name]; ok {
			return &ir.NameExpr{At: id.Pos, Name: id.Name, Typ: t}
		}
	}
	sym := c.scope.names[id.Name]
	if sym != nil && ctx.predefinedOnly && sym.kind != constSym {
		sym = nil
	}
	if sym == nil {
		c.unknownName(id, ctx)
		return invalid(id.Pos)
	}
	sym.used = true
	switch sym.kind {
	case letSym:
		if ctx.let != nil && !sym.decl.Start.Before(ctx.let.decl.Start) {
			if sym == ctx.let {
				c.errorf(id.Pos, "let %s refers to itself", id.Name)
			} else {
				c.errorHint(id.Pos, fmt.Sprintf("move let %s above let %s", sym.name, ctx.let.name),
					"%s is declared after let %s, at line %d; a let can only use earlier lets", sym.name, ctx.let.name, sym.decl.Start.Line)
			}
			return invalid(id.Pos)
		}
		if sym.derived {
			if !ctx.domain {
				c.errorHint(id.Pos, fmt.Sprintf("let %s is a quantity of the point, derived from domain variables", sym.name),
					"%s depends on the domain; %s", id.Name, ctx.why)
				return invalid(id.Pos)
			}
			if sym.derivation == nil {
				return invalid(id.Pos)
			}
			return sym.derivation
		}
	case dimSym:
		if !ctx.domain {
			c.errorf(id.Pos, "%s is a domain variable; %s", id.Name, ctx.why)
			return invalid(id.Pos)
		}
		if sym.dim == nil {
			return invalid(id.Pos)
		}
		return &ir.VarExpr{At: id.Pos, Dim: sym.dim}
	}
	if sym.value == nil {
		return invalid(id.Pos)
	}
	return constant(id.Pos, *sym.value)
}

// unknownName reports a name that resolves to nothing, with the closest name
// the context offers, and says so when the name is a plugin.
func (c *checker) unknownName(id *ast.Ident, ctx exprCtx) {
	if ctx.domain && c.stmts.domain == nil {
		return // without a domain, any name may be a dimension: "missing domain" says it
	}
	if p := c.pluginNamed(id.Name, registry.Function, registry.Benchmark); p != nil {
		c.errorf(id.Pos, "%s is %s; call it, e.g. %s(x)", id.Name, aKind(p.Kind), id.Name)
		return
	}
	if p := c.pluginNamed(id.Name, registry.Kinds...); p != nil {
		c.errorf(id.Pos, "%s is %s, not a value", id.Name, aKind(p.Kind))
		return
	}
	var names []string
	for name, sym := range c.scope.names {
		if !ctx.predefinedOnly || sym.kind == constSym {
			names = append(names, name)
		}
	}
	if ctx.stop {
		for name := range stopNames {
			names = append(names, name)
		}
	}
	names = append(names, c.plugins.Names(registry.Function)...)
	sort.Strings(names)
	c.errorHint(id.Pos, dsl.DidYouMean(id.Name, names), "unknown name %s", id.Name)
}

// pluginNamed returns the first plugin called name among the kinds, or nil.
func (c *checker) pluginNamed(name string, kinds ...registry.Kind) *registry.Plugin {
	for _, k := range kinds {
		if p, ok := c.plugins.Lookup(k, name); ok {
			return p
		}
	}
	return nil
}

// isNil reports whether a node is missing: a nil interface or a nil pointer
// inside one. The parser leaves nodes out of partial trees.
func isNil(n any) bool {
	if n == nil {
		return true
	}
	v := reflect.ValueOf(n)
	return v.Kind() == reflect.Pointer && v.IsNil()
}
