package stdlib

import (
	"math"
	"testing"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/stdlib/registry"
)

func vec(xs ...float64) dsl.Value { return dsl.Value{Type: dsl.VecOf(len(xs)), Numbers: xs} }

// TestFolds evaluates every built-in function on constants through its
// registered Fold hook.
func TestFolds(t *testing.T) {
	r, i := dsl.RealValue, dsl.IntValue
	tests := []struct {
		fn   string
		args []dsl.Value
		want dsl.Value
		err  string
	}{
		{fn: "sin", args: []dsl.Value{r(math.Pi / 2)}, want: r(1)},
		{fn: "cos", args: []dsl.Value{i(0)}, want: r(1)},
		{fn: "tan", args: []dsl.Value{r(0)}, want: r(0)},
		{fn: "exp", args: []dsl.Value{r(0)}, want: r(1)},
		{fn: "exp", args: []dsl.Value{r(1000)}, err: "exp(1000) is not a finite number"},
		{fn: "log", args: []dsl.Value{r(math.E)}, want: r(1)},
		{fn: "log", args: []dsl.Value{r(0)}, err: "log(0) is undefined: log needs a positive number"},
		{fn: "sqrt", args: []dsl.Value{i(9)}, want: r(3)},
		{fn: "sqrt", args: []dsl.Value{r(-1)}, err: "sqrt(-1) is undefined: sqrt needs a non-negative number"},
		{fn: "abs", args: []dsl.Value{r(-2.5)}, want: r(2.5)},
		{fn: "floor", args: []dsl.Value{r(-1.5)}, want: r(-2)},
		{fn: "ceil", args: []dsl.Value{r(1.2)}, want: r(2)},
		{fn: "min", args: []dsl.Value{i(3), i(2)}, want: i(2)},
		{fn: "min", args: []dsl.Value{i(3), r(2.5)}, want: r(2.5)},
		{fn: "max", args: []dsl.Value{vec(1, 7, 3)}, want: r(7)},
		{fn: "sum", args: []dsl.Value{vec(1, 2, 3)}, want: r(6)},
		{fn: "norm", args: []dsl.Value{vec(3, 4)}, want: r(5)},
		{fn: "dot", args: []dsl.Value{vec(1, 2), vec(3, 4)}, want: r(11)},
		{fn: "zeros", args: []dsl.Value{i(2)}, want: vec(0, 0)},
		{fn: "ones", args: []dsl.Value{i(3)}, want: vec(1, 1, 1)},
		{fn: "ones", args: []dsl.Value{i(2e6)}, err: "ones(2e+06) would have 2e+06 elements; the limit is 1048576"},
		{fn: "eye", args: []dsl.Value{i(2)}, want: dsl.Value{Type: dsl.MatOf(2, 2), Numbers: []float64{1, 0, 0, 1}}},
		{fn: "eye", args: []dsl.Value{i(2000)}, err: "eye(2000) would have 4e+06 elements; the limit is 1048576"},
	}
	for _, tt := range tests {
		p, ok := registry.Lookup(registry.Function, tt.fn)
		if !ok || p.Fold == nil {
			t.Fatalf("%s: no Fold hook", tt.fn)
		}
		got, err := p.Fold(tt.args)
		switch {
		case tt.err != "":
			if err == nil || err.Error() != tt.err {
				t.Errorf("%s%v: error %v, want %q", tt.fn, tt.args, err, tt.err)
			}
		case err != nil:
			t.Errorf("%s%v: %v", tt.fn, tt.args, err)
		case got.Type != tt.want.Type || got.String() != tt.want.String():
			t.Errorf("%s%v = %s %s, want %s %s", tt.fn, tt.args, got.Type, got, tt.want.Type, tt.want)
		}
	}
}

// TestEveryFunctionFolds makes sure no built-in function was registered
// without a Fold hook, which would leave constant calls unfolded.
func TestEveryFunctionFolds(t *testing.T) {
	for _, name := range registry.Names(registry.Function) {
		if p, _ := registry.Lookup(registry.Function, name); p.Fold == nil {
			t.Errorf("function %s has no Fold hook", name)
		}
	}
}
