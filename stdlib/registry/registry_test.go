package registry

import (
	"math"
	"testing"
)

func TestRegisterLookupList(t *testing.T) {
	a := &Plugin{Kind: Kernel, Name: "registry_test_b"}
	b := &Plugin{Kind: Kernel, Name: "registry_test_a", Emit: 1}
	Register(a)
	Register(b)
	if p, ok := Lookup(Kernel, "registry_test_b"); !ok || p != a {
		t.Fatalf("Lookup did not find the registered plugin")
	}
	if p, ok := ByID("kernel.registry_test_a"); !ok || p != b {
		t.Fatalf("ByID did not find the registered plugin")
	}
	if _, ok := Lookup(Model, "registry_test_a"); ok {
		t.Errorf("a kernel was found as a model")
	}
	names := Names(Kernel)
	ia, ib := indexOf(names, "registry_test_a"), indexOf(names, "registry_test_b")
	if ia < 0 || ib != ia+1 {
		t.Errorf("Names(kernel) = %v, want the two test plugins next to each other in sorted order", names)
	}
	all := All()
	for i := 1; i < len(all); i++ {
		if all[i-1].ID() >= all[i].ID() {
			t.Fatalf("All is not sorted by ID: %s before %s", all[i-1].ID(), all[i].ID())
		}
	}
	if a.Built() || !b.Built() {
		t.Errorf("Built is wrong: a plugin is built exactly when it has an Emit hook")
	}
}

func TestRegisterRejectsDuplicatesAndBlankNames(t *testing.T) {
	Register(&Plugin{Kind: Model, Name: "registry_test_dup"})
	for name, p := range map[string]*Plugin{
		"duplicate": {Kind: Model, Name: "registry_test_dup"},
		"no name":   {Kind: Model},
		"no kind":   {Name: "x"},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: Register did not panic", name)
				}
			}()
			Register(p)
		}()
	}
}

func TestRange(t *testing.T) {
	positive := Range{Lo: 0, Hi: math.Inf(1), LoOpen: true}
	unit := Range{Lo: 0, Hi: 1}
	tests := []struct {
		r    Range
		x    float64
		want bool
	}{
		{positive, 0, false}, {positive, 1e-300, true}, {positive, math.Inf(1), true},
		{unit, 0, true}, {unit, 1, true}, {unit, 1.0000001, false}, {unit, math.NaN(), false},
	}
	for _, tt := range tests {
		if got := tt.r.Contains(tt.x); got != tt.want {
			t.Errorf("%v.Contains(%g) = %v, want %v", tt.r, tt.x, got, tt.want)
		}
	}
	if s := positive.String(); s != "(0, inf)" {
		t.Errorf("positive.String() = %q", s)
	}
	if s := unit.String(); s != "[0, 1]" {
		t.Errorf("unit.String() = %q", s)
	}
}

func TestPluginParam(t *testing.T) {
	p := &Plugin{Kind: Kernel, Name: "k", Params: []Param{{Name: "lengthscale"}, {Name: "variance"}}}
	if p.ID() != "kernel.k" {
		t.Errorf("ID = %q", p.ID())
	}
	if got := p.Param("variance"); got == nil || got.Name != "variance" {
		t.Errorf("Param(variance) = %v", got)
	}
	if p.Param("alpha") != nil {
		t.Errorf("Param found a parameter the plugin lacks")
	}
}

func indexOf(xs []string, s string) int {
	for i, x := range xs {
		if x == s {
			return i
		}
	}
	return -1
}

// TestExampleCall: an example call gives every required argument a value
// its parameter accepts, and plugins as arguments by the registry's own.
func TestExampleCall(t *testing.T) {
	r := New()
	positive := &Range{Lo: 0, Hi: math.Inf(1), LoOpen: true}
	r.Register(&Plugin{Kind: Kernel, Name: "base", Emit: 1, Params: []Param{{Name: "variance", Type: RealParam, Default: Learn()}}})
	r.Register(&Plugin{Kind: Kernel, Name: "scaled", Emit: 1, Params: []Param{
		{Name: "factor", Type: RealParam, Range: positive}, {Name: "kernel", Type: KernelParam}}})
	r.Register(&Plugin{Kind: Kernel, Name: "sum", Emit: 1, Params: []Param{{Name: "parts", Type: KernelParam, Variadic: true}}})
	r.Register(&Plugin{Kind: Distribution, Name: "uniform", Emit: 1, Params: []Param{
		{Name: "lo", Type: RealParam}, {Name: "hi", Type: RealParam}, {Name: "n", Type: IntParam, Range: &Range{Lo: 3, Hi: 9}}}})
	r.Register(&Plugin{Kind: Distribution, Name: "given", Emit: 1, Example: "given(1, 2)"})
	for id, want := range map[string]string{
		"kernel.base":          "base",
		"kernel.scaled":        "scaled(factor = 0.5, kernel = base)",
		"kernel.sum":           "sum(base, base)",
		"distribution.uniform": "uniform(lo = 0.5, hi = 0.6, n = 3)",
		"distribution.given":   "given(1, 2)",
	} {
		p, _ := r.ByID(id)
		if got := r.ExampleCall(p); got != want {
			t.Errorf("ExampleCall(%s) = %q, want %q", id, got, want)
		}
	}
}
