package stdlib

import (
	"math"
	"strconv"
	"strings"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
	"gonum.org/v1/gonum/mat"
)

// constArg returns the constant value of a call's argument, if it is constant.
func constArg(c *ir.Call, name string) (*ir.Arg, *dsl.Value) {
	a := c.Arg(name)
	if a == nil {
		return nil, nil
	}
	if k, ok := a.Value.(*ir.ConstExpr); ok {
		return a, &k.Value
	}
	return a, nil
}

// unknownChoice is the error for a string argument a whose value v is none
// of choices, what naming the argument, with a hint for a misspelling.
func unknownChoice(a *ir.Arg, v *dsl.Value, what string, choices []string) dsl.Diagnostic {
	quoted := make([]string, len(choices))
	for i, c := range choices {
		quoted[i] = strconv.Quote(c)
	}
	want := quoted[len(quoted)-1]
	if len(quoted) > 1 {
		want = strings.Join(quoted[:len(quoted)-1], ", ") + " or " + want
	}
	d := dsl.Errorf(a.Span, "unknown %s %s: want %s", what, v, want)
	if hint := dsl.DidYouMean(v.Text, choices); hint != "" {
		d = d.WithHint("%s", hint)
	}
	return d
}

// checkCovariance reports a constant covariance that is not square of size n,
// not symmetric, or not positive definite. n < 0 skips the size check.
func checkCovariance(ctx *registry.CheckContext, name string, n int) {
	a, v := constArg(ctx.Call, name)
	if v == nil {
		return
	}
	rows, cols := v.Type.Rows, v.Type.Cols
	if rows != cols || (n >= 0 && rows != n) {
		want := "square"
		if n >= 0 {
			want = dsl.MatOf(n, n).String()
		}
		ctx.Report(dsl.Errorf(a.Span, "%s must be %s, got %s", name, want, v.Type))
		return
	}
	sym := mat.NewSymDense(rows, nil)
	for i := 0; i < rows; i++ {
		for j := 0; j < rows; j++ {
			x, y := v.At(i, j), v.At(j, i)
			if math.Abs(x-y) > 1e-12*math.Max(1, math.Abs(x)) {
				ctx.Report(dsl.Errorf(a.Span, "%s is not symmetric: element [%d][%d] = %g but [%d][%d] = %g", name, i, j, x, j, i, y).
					WithHint("a covariance matrix equals its transpose"))
				return
			}
			sym.SetSym(i, j, x)
		}
	}
	var chol mat.Cholesky
	if !chol.Factorize(sym) {
		ctx.Report(dsl.Errorf(a.Span, "%s is not positive definite", name).
			WithHint("every variance must be positive and each covariance smaller in size than the product of the two standard deviations"))
	}
}
