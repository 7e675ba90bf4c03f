package stdlib

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

// TestEmitHooks: every plugin built has an Emit of the type its kind
// requires (stdlib/registry/emit.go); the checker refuses the others.
func TestEmitHooks(t *testing.T) {
	hookType := map[registry.Kind]reflect.Type{
		registry.Kernel:       reflect.TypeFor[registry.KernelDiffEmit](), // stdlib kernels are differentiable
		registry.Model:        reflect.TypeFor[registry.ModelHooks](),
		registry.Acquisition:  reflect.TypeFor[registry.AcquisitionHooks](),
		registry.Init:         reflect.TypeFor[registry.InitEmit](),
		registry.Search:       reflect.TypeFor[registry.SearchEmit](),
		registry.Benchmark:    reflect.TypeFor[registry.CallEmit](),
		registry.Function:     reflect.TypeFor[registry.CallEmit](),
		registry.Distribution: reflect.TypeFor[registry.DistributionEmit](),
	}
	built := 0
	for _, p := range registry.All() {
		if p.Kind == registry.Candidates || !p.Built() {
			continue
		}
		built++
		if got, want := reflect.TypeOf(p.Emit), hookType[p.Kind]; got != want {
			t.Errorf("%s: Emit is a %v, want %v", p.ID(), got, want)
		}
		if v := reflect.ValueOf(p.Emit); v.Kind() == reflect.Func && v.IsNil() {
			t.Errorf("%s: Emit holds a nil function", p.ID())
		}
	}
	if built < 50 {
		t.Errorf("only %d plugins are built", built)
	}
}

func realArg(name string, v float64) *ir.Arg {
	return &ir.Arg{Name: name, Value: &ir.ConstExpr{Value: dsl.RealValue(v)}}
}

func TestDistributionVariance(t *testing.T) {
	tests := []struct {
		id   string
		args []*ir.Arg
		want float64
	}{
		{"distribution.normal", []*ir.Arg{realArg("mean", 3), realArg("sd", 0.1)}, 0.01},
		{"distribution.uniform", []*ir.Arg{realArg("lo", -0.3), realArg("hi", 0.3)}, 0.03},
		{"distribution.beta", []*ir.Arg{realArg("a", 2), realArg("b", 2), realArg("scale", 0.2)}, 0.002},
		{"distribution.chi2", []*ir.Arg{realArg("df", 3), realArg("scale", 0.5)}, 1.5},
	}
	for _, tt := range tests {
		p, _ := registry.ByID(tt.id)
		a := &registry.Args{Call: &ir.Call{Plugin: tt.id, Args: tt.args}}
		got := p.Emit.(registry.DistributionEmit).Variance(a)
		if a.Err() != nil || math.Abs(got-tt.want) > 1e-15 {
			t.Errorf("%s: variance %v (%v), want %v", tt.id, got, a.Err(), tt.want)
		}
	}
}

// TestDistributionSample: each sampler draws the distribution as declared,
// mean and scale included, from the given *rand.Rand.
func TestDistributionSample(t *testing.T) {
	tests := []struct {
		id   string
		args []*ir.Arg
		want string
	}{
		{"distribution.normal", []*ir.Arg{realArg("mean", 0), realArg("sd", 0.5)}, "0.5 * rng.NormFloat64()"},
		{"distribution.normal", []*ir.Arg{realArg("mean", 2), realArg("sd", 0.5)}, "2.0 + 0.5*rng.NormFloat64()"},
		{"distribution.uniform", []*ir.Arg{realArg("lo", -1), realArg("hi", 1)}, "-1.0 + 2.0*rng.Float64()"},
		{"distribution.beta", []*ir.Arg{realArg("a", 2), realArg("b", 3), realArg("scale", 1)},
			"distuv.Beta{\n\tAlpha: 2.0,\n\tBeta:  3.0,\n\tSrc:   rng,\n}.Rand()"},
		{"distribution.chi2", []*ir.Arg{realArg("df", 4), realArg("scale", 0.1)},
			"0.1 * distuv.ChiSquared{\n\tK:   4.0,\n\tSrc: rng,\n}.Rand()"},
	}
	for _, tt := range tests {
		p, _ := registry.ByID(tt.id)
		a := &registry.Args{Call: &ir.Call{Plugin: tt.id, Args: tt.args}}
		got := render(p.Emit.(registry.DistributionEmit).Sample(a, jen.Id("rng")))
		if a.Err() != nil || got != tt.want {
			t.Errorf("%s: sample %q (%v), want %q", tt.id, got, a.Err(), tt.want)
		}
	}
}

// render formats emitted code as Go source text.
func render(c jen.Code) string { return fmt.Sprintf("%#v", c) }

// TestCallEmits emits every function and benchmark for typical arguments.
func TestCallEmits(t *testing.T) {
	scalar := func(name string) registry.ExprValue {
		return registry.ExprValue{Type: dsl.RealType, Elems: []jen.Code{jen.Id(name)}}
	}
	vec := registry.ExprValue{Type: dsl.VecOf(2), Elems: []jen.Code{jen.Id("v").Index(jen.Lit(0)), jen.Id("v").Index(jen.Lit(1))},
		Slice: jen.Id("v").Index(jen.Empty().Op(":"))}
	three := dsl.IntValue(3)
	count := registry.ExprValue{Type: dsl.IntType, Elems: []jen.Code{jen.Lit(3.0)}, Const: &three}
	tests := []struct {
		id   string
		args []registry.ExprValue
		want string
	}{
		{"function.sqrt", []registry.ExprValue{scalar("a")}, "math.Sqrt(a)"},
		{"function.floor", []registry.ExprValue{scalar("a")}, "math.Floor(a)"},
		{"function.max", []registry.ExprValue{scalar("a"), scalar("b")}, "max(a, b)"},
		{"function.min", []registry.ExprValue{vec}, "min(v[0], v[1])"},
		{"function.sum", []registry.ExprValue{vec}, "(v[0] + v[1])"},
		{"function.norm", []registry.ExprValue{vec}, "math.Sqrt(v[0]*v[0] + v[1]*v[1])"},
		{"function.dot", []registry.ExprValue{vec, vec}, "(v[0]*v[0] + v[1]*v[1])"},
		{"function.ones", []registry.ExprValue{count}, "1.0 1.0 1.0"},
		{"function.eye", []registry.ExprValue{count}, "1.0 0.0 0.0 0.0 1.0 0.0 0.0 0.0 1.0"},
		{"benchmark.hartmann6", []registry.ExprValue{vec}, "bench.Hartmann6(v[:])"},
		{"benchmark.branin", []registry.ExprValue{scalar("a"), scalar("b")}, "bench.Branin([]float64{a, b})"},
		{"benchmark.double_peak", []registry.ExprValue{scalar("a")}, "bench.DoublePeak([]float64{a})"},
	}
	for _, tt := range tests {
		p, _ := registry.ByID(tt.id)
		res, err := p.Emit.(registry.CallEmit)(tt.args)
		if err != nil {
			t.Errorf("%s: %v", tt.id, err)
			continue
		}
		parts := make([]string, len(res.Elems))
		for i, e := range res.Elems {
			parts[i] = render(e)
		}
		if got := strings.Join(parts, " "); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.id, got, tt.want)
		}
	}
	p, _ := registry.ByID("function.zeros")
	if _, err := p.Emit.(registry.CallEmit)([]registry.ExprValue{scalar("n")}); err == nil {
		t.Error("zeros of a non-constant size: no error")
	}
}

// TestArgsAccessors: a hook reading an argument its call lacks gets a zero
// value and the call an error, never a panic.
func TestArgsAccessors(t *testing.T) {
	c := &ir.Call{Plugin: "kernel.se", Args: []*ir.Arg{
		realArg("variance", 2),
		{Name: "lengthscale", Value: &ir.ConstExpr{Value: dsl.Value{Type: dsl.VecOf(2), Numbers: []float64{0.1, 0.2}}}},
		{Name: "learned", Value: &ir.Learn{}},
	}}
	a := &registry.Args{Call: c}
	if a.Real("variance") != 2 || fmt.Sprint(a.PerComponent("lengthscale", 2)) != "[0.1 0.2]" ||
		fmt.Sprint(a.PerComponent("variance", 3)) != "[2 2 2]" || a.Err() != nil {
		t.Fatalf("constant arguments misread: %v", a.Err())
	}
	for name, read := range map[string]func(a *registry.Args){
		"missing":        func(a *registry.Args) { a.Real("alpha") },
		"learned":        func(a *registry.Args) { a.Real("learned") },
		"wrong length":   func(a *registry.Args) { a.PerComponent("lengthscale", 3) },
		"not a call":     func(a *registry.Args) { a.Nested("variance") },
		"vector as real": func(a *registry.Args) { a.Real("lengthscale") },
	} {
		a := &registry.Args{Call: c}
		read(a)
		if a.Err() == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
