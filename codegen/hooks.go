package codegen

import (
	"reflect"
	"strings"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
)

// hookOf returns the Emit hook of plugin id as a T. The checker refuses
// plugins without one, and a hook of the wrong type is a bug in the plugin:
// both are internal errors here.
func hookOf[T any](g *generator, id string, span dsl.Span) (T, bool) {
	var zero T
	p, ok := registry.ByID(id)
	if !ok {
		g.internal(span, "no plugin %s is registered", id)
		return zero, false
	}
	if !p.Built() || isNilFunc(p.Emit) {
		g.internal(span, "plugin %s has no Emit hook", id)
		return zero, false
	}
	h, ok := p.Emit.(T)
	if !ok {
		g.internal(span, "plugin %s has an Emit hook of type %T, want %T", id, p.Emit, zero)
		return zero, false
	}
	return h, true
}

// isNilFunc reports whether v holds a nil function (a typed nil in Emit).
func isNilFunc(v any) bool {
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Func && rv.IsNil()
}

// callHook checks that every argument of c is a constant the hooks can
// emit, then returns c's hook.
func callHook[T any](g *generator, c *ir.Call) (T, bool) {
	if c == nil {
		var zero T
		g.internal(dsl.Span{}, "the IR lacks a plugin call of kind %T", zero)
		return zero, false
	}
	ok := g.checkConstantArgs(c)
	h, found := hookOf[T](g, c.Plugin, c.Span)
	return h, ok && found
}

// checkConstantArgs reports, as internal errors, arguments of c that the
// checker and the plan should have refused: `learn` outside the model and
// its kernel, and values that depend on the domain. Nested calls are checked
// when their own hooks are looked up.
func (g *generator) checkConstantArgs(c *ir.Call) bool {
	ok := true
	for _, a := range c.Args {
		ok = g.checkConstantValue(c, a, a.Value) && ok
	}
	return ok
}

func (g *generator) checkConstantValue(c *ir.Call, a *ir.Arg, v ir.Value) bool {
	switch v := v.(type) {
	case *ir.ConstExpr, *ir.Call:
		return true
	case *ir.Learn:
		if p, ok := registry.ByID(c.Plugin); ok && p.Kind == registry.Model {
			return true // a model's own learned parameters are planned with its kernel's
		}
		g.internal(a.Span, "argument %s of %s is learned", a.Name, c.Plugin)
		return false
	case *ir.List:
		ok := true
		for _, e := range v.Values {
			ok = g.checkConstantValue(c, a, e) && ok
		}
		return ok
	}
	g.internal(a.Span, "argument %s of %s is not a constant", a.Name, c.Plugin)
	return false
}

// pluginName is the name a plugin has in .bo source: "matern52" for
// "kernel.matern52".
func pluginName(id string) string {
	_, name, _ := strings.Cut(id, ".")
	return name
}

// callString renders a call with every argument as .bo source, for comments
// in the emitted code: matern52(lengthscale = 0.2, variance = 1).
func callString(c *ir.Call) string {
	args := make([]string, len(c.Args))
	for i, a := range c.Args {
		args[i] = a.Name + " = " + valueString(a.Value)
	}
	return pluginName(c.Plugin) + "(" + strings.Join(args, ", ") + ")"
}

func valueString(v ir.Value) string {
	switch v := v.(type) {
	case *ir.ConstExpr:
		return v.Value.String()
	case *ir.Call:
		return callString(v)
	case *ir.Learn:
		return "learn"
	case *ir.List:
		parts := make([]string, len(v.Values))
		for i, e := range v.Values {
			parts[i] = valueString(e)
		}
		return strings.Join(parts, ", ")
	}
	return "(an expression over the domain)"
}
