package typecheck

import (
	"testing"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ast"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
)

// TestPluginDefaults checks the default of every parameter of every
// registered plugin as the checker uses it: it must type-check against its
// parameter and lie in its range. A failure here is a plugin bug.
func TestPluginDefaults(t *testing.T) {
	sp := at(1, 1)
	checked := 0
	for _, p := range registry.All() {
		for i := range p.Params {
			prm := &p.Params[i]
			if !prm.Default.IsSet() {
				continue
			}
			c := newChecker(&ast.File{Name: "defaults.bo"}, Config{})
			c.domainOK, c.prog.D = true, 2
			v, _, ok := c.defaultValue(p.Name+"'s "+prm.Name, prm, sp)
			if !ok || len(c.diags) > 0 || v == nil {
				t.Errorf("%s: default %s of %s: %v", p.ID(), prm.Default, prm.Name, c.diags)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no defaults found")
	}
	t.Logf("%d defaults checked", checked)
}

// TestDefaultsAreMarked checks that arguments left out carry their default,
// marked as such and placed at the call.
func TestDefaultsAreMarked(t *testing.T) {
	c := newChecker(&ast.File{Name: "defaults.bo"}, Config{})
	call := &ast.CallExpr{Pos: at(3, 7), Fun: &ast.Ident{Pos: at(3, 7), Name: "mmd"},
		Args: []*ast.Arg{{Pos: at(3, 11), Value: &ast.Ident{Pos: at(3, 11), Name: "se"}}}}
	cc := c.call(registry.Model, call, exprCtx{})
	if cc == nil || len(c.diags) > 0 {
		t.Fatalf("mmd(se): %v", c.diags)
	}
	for _, a := range cc.call.Args {
		if wantDefault := a.Name != "kernel"; a.Default != wantDefault {
			t.Errorf("%s: Default = %v, want %v", a.Name, a.Default, wantDefault)
		}
		if a.Default && a.Span != call.Pos {
			t.Errorf("%s: defaulted span %v, want the call's %v", a.Name, a.Span, call.Pos)
		}
	}
	if _, ok := cc.call.Arg("alpha").Value.(*ir.Learn); !ok {
		t.Errorf("alpha = %T, want the default learn", cc.call.Arg("alpha").Value)
	}
	kernel := cc.call.Arg("kernel").Value.(*ir.Call)
	if ls := kernel.Arg("lengthscale"); !ls.Default {
		t.Errorf("se's lengthscale = %+v, want the default learn", ls)
	} else if l, ok := ls.Value.(*ir.Learn); !ok || l.HasInit || l.HasBounds {
		t.Errorf("se's lengthscale = %+v, want the default learn", ls.Value)
	}
}

// TestDefaultsIgnoreUserNames checks that a user's let cannot change the
// meaning of a default that names something.
func TestDefaultsIgnoreUserNames(t *testing.T) {
	c := newChecker(&ast.File{Name: "defaults.bo"}, Config{})
	c.declare(&ast.Ident{Pos: at(1, 5), Name: "learn_rate"}, letSym)
	v := dsl.RealValue(3)
	c.scope.names["learn_rate"].value = &v
	prm := &registry.Param{Name: "rate", Type: registry.RealParam, Default: registry.Call("learn_rate")}
	if _, _, ok := c.defaultValue("test's rate", prm, at(2, 1)); ok {
		t.Fatal("a default resolved a user's let")
	}
}
