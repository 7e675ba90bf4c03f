package typecheck

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
)

// TestGoldenCoversPlugins makes sure the golden files of testdata/ok use every
// built-in plugin, so that each plugin's signature and defaults are checked
// end to end. Built-in functions are folded away when constant, so for them
// a call in the source is enough.
func TestGoldenCoversPlugins(t *testing.T) {
	used := map[string]bool{}
	var sources strings.Builder
	files, _ := filepath.Glob("testdata/ok/*.bo")
	for _, path := range files {
		f, src := parse(t, path)
		sources.Write(src)
		p, diags := Check(f, Config{Dir: filepath.Dir(path)})
		if p == nil {
			t.Fatalf("%s: %v", path, diags)
		}
		collectPlugins(p, used)
	}
	for _, p := range registry.All() {
		switch {
		case !p.Built():
			// Refused until it is built (testdata/errors/constraints_unknown.bo).
		case p.Kind == registry.Candidates, testPlugins[p.ID()]:
			// No built-in candidate generators; the test plugins have their own test.
		case p.Kind == registry.Function:
			if !strings.Contains(sources.String(), p.Name+"(") {
				t.Errorf("no golden file calls %s", p.ID())
			}
		case !used[p.ID()]:
			t.Errorf("no golden file uses %s", p.ID())
		}
	}
}

// collectPlugins records the ID of every plugin a program calls.
func collectPlugins(p *ir.Program, used map[string]bool) {
	var value func(v ir.Value)
	var expr func(e ir.Expr)
	call := func(c *ir.Call) {
		if c == nil {
			return
		}
		used[c.Plugin] = true
		for _, a := range c.Args {
			value(a.Value)
		}
	}
	value = func(v ir.Value) {
		switch v := v.(type) {
		case *ir.Call:
			call(v)
		case *ir.List:
			for _, x := range v.Values {
				value(x)
			}
		case ir.Expr:
			expr(v)
		}
	}
	expr = func(e ir.Expr) {
		switch e := e.(type) {
		case *ir.CallExpr:
			used[e.Plugin] = true
			for _, a := range e.Args {
				expr(a)
			}
		case *ir.UnaryExpr:
			expr(e.X)
		case *ir.BinaryExpr:
			expr(e.X)
			expr(e.Y)
		case *ir.CondExpr:
			expr(e.Cond)
			expr(e.Then)
			expr(e.Else)
		case *ir.IndexExpr:
			expr(e.X)
		case *ir.SliceExpr:
			expr(e.X)
		case *ir.VecExpr:
			for _, x := range e.Elems {
				expr(x)
			}
		}
	}
	expr(p.Objective.Binding.Expr)
	for _, n := range p.InputNoise {
		call(n.Dist)
	}
	call(p.ObsNoise.Dist)
	for _, c := range p.Constraints {
		call(c.Kernel)
		call(c.Noise)
		if c.G != nil {
			expr(c.G)
		}
	}
	if p.Candidates != nil {
		call(p.Candidates.Call)
	}
	call(p.Model)
	call(p.Acquisition)
	call(p.Search)
	call(p.Init.Call)
	if p.Stop != nil {
		expr(p.Stop)
	}
}
