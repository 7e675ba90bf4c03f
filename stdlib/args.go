package stdlib

import (
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
)

// partsArg returns the values of a call's variadic argument "parts" (a
// combinator's kernels, concat's distributions). A malformed argument, a bug
// of the checker or of the plugin's signature, is recorded in a.
func partsArg(a *registry.Args) []ir.Value {
	var list *ir.List
	if arg := a.Call.Arg("parts"); arg != nil {
		list, _ = arg.Value.(*ir.List)
	}
	if list == nil {
		a.Nested("parts") // records that the argument is malformed
		return nil
	}
	return list.Values
}

// pluginName is the name a plugin has in .bo source: "mmd" for "model.mmd".
func pluginName(c *ir.Call) string {
	p, ok := registry.ByID(c.Plugin)
	if !ok {
		return c.Plugin
	}
	return p.Name
}
