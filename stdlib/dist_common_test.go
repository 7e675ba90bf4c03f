package stdlib

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/parser"
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/bocdev/boc/typecheck"
	"github.com/dave/jennifer/jen"
)

func constValue(v dsl.Value) ir.Value { return &ir.ConstExpr{Value: v} }
func realConst(x float64) ir.Value    { return constValue(dsl.RealValue(x)) }
func vecConst(xs ...float64) ir.Value {
	return constValue(dsl.Value{Type: dsl.VecOf(len(xs)), Numbers: xs})
}

func matrix(rows ...[]float64) ir.Value {
	v := dsl.Value{Type: dsl.MatOf(len(rows), len(rows[0]))}
	for _, r := range rows {
		v.Numbers = append(v.Numbers, r...)
	}
	return constValue(v)
}

// dist builds a call of distribution name with arguments given as name,
// value pairs.
func dist(name string, args ...any) *ir.Call {
	c := &ir.Call{Plugin: "distribution." + name}
	for i := 0; i < len(args); i += 2 {
		c.Args = append(c.Args, &ir.Arg{Name: args[i].(string), Value: args[i+1].(ir.Value)})
	}
	return c
}

func distList(cs ...*ir.Call) ir.Value {
	l := &ir.List{}
	for _, c := range cs {
		l.Values = append(l.Values, c)
	}
	return l
}

// Domain-dependent parameters of the test calls: placeholders in the IR, and
// the Go code each stands for in the probe program, over its parameter x.
var (
	spreadOverX = &ir.VarExpr{}
	dfSwitch    = &ir.VarExpr{}
	paramCode   = map[ir.Value]jen.Code{
		spreadOverX: jen.Parens(jen.Lit(0.01).Op("+").Lit(0.1).Op("*").Id("x")),
		dfSwitch:    jen.Id("cond").Call(jen.Id("x").Op("<").Lit(0.6), jen.Lit(0.5), jen.Lit(7.0)),
	}
)

// drawGen is the DrawGen of call c whose base uniforms are u[offset+i] of
// the probe program's draw functions.
func drawGen(c *ir.Call, offset int, fresh *int) *registry.DrawGen {
	g := &registry.DrawGen{Args: registry.Args{Call: c}}
	g.Param = func(name string) registry.ExprValue {
		a := c.Arg(name)
		if a == nil {
			return registry.ExprValue{}
		}
		k, ok := a.Value.(*ir.ConstExpr)
		if !ok {
			return registry.ExprValue{Type: dsl.RealType, Elems: []jen.Code{paramCode[a.Value]}}
		}
		v := registry.ExprValue{Type: k.Value.Type, Const: &k.Value}
		for _, x := range k.Value.Numbers {
			v.Elems = append(v.Elems, jen.Lit(x))
		}
		return v
	}
	g.Uniform = func(i int) jen.Code { return jen.Id("u").Index(jen.Lit(offset + i)) }
	g.Fresh = func(prefix string) string {
		*fresh++
		return fmt.Sprintf("%s%d", prefix, *fresh)
	}
	g.Sub = func(n *ir.Call, off int) *registry.DrawGen { return drawGen(n, offset+off, fresh) }
	return g
}

// distCase is a distribution as a .bo file would declare it.
type distCase struct {
	name     string
	call     *ir.Call
	dim      int
	baseLen  int
	gaussian bool
	xs       []float64 // the points at which domain-dependent parameters are evaluated
}

var handCases = []distCase{
	{"normal(0.5, 0.2)", dist("normal", "mean", realConst(0.5), "sd", realConst(0.2)), 1, 1, true, []float64{0}},
	{"normal(0, 0.01 + 0.1 * x)", dist("normal", "mean", realConst(0), "sd", spreadOverX), 1, 1, true, []float64{0.3, 0.9}},
	{"uniform(-0.3, 0.5)", dist("uniform", "lo", realConst(-0.3), "hi", realConst(0.5)), 1, 1, false, []float64{0}},
	{"beta(2, 3, scale = 0.2)", dist("beta", "a", realConst(2), "b", realConst(3), "scale", realConst(0.2)), 1, 1, false, []float64{0}},
	{"chi2(3, scale = 0.5)", dist("chi2", "df", realConst(3), "scale", realConst(0.5)), 1, 1, false, []float64{0}},
	{"chi2(if x < 0.6 then 0.5 else 7.0, scale = 0.01)", dist("chi2", "df", dfSwitch, "scale", realConst(0.01)), 1, 1, false, []float64{0.3, 0.8}},
	{"circle(0.5)", dist("circle", "radius", realConst(0.5)), 2, 1, false, []float64{0}},
	{"mvnormal(3-d)", dist("mvnormal", "mean", vecConst(1, -1, 0.5),
		"cov", matrix([]float64{1, 0.5, 0.2}, []float64{0.5, 2, 0.3}, []float64{0.2, 0.3, 0.5})), 3, 3, true, []float64{0}},
	{"gmm(2 components, 2-d)", dist("gmm", "weights", vecConst(0.3, 0.7), "means", matrix([]float64{0, 1}, []float64{2, -1}),
		"cov", matrix([]float64{0.1, 0.05}, []float64{0.05, 0.2})), 2, 3, false, []float64{0}},
	{"concat(normal, circle, uniform)", dist("concat", "parts", distList(
		dist("normal", "mean", realConst(0), "sd", realConst(0.1)), dist("circle", "radius", realConst(1)), dist("uniform", "lo", realConst(0), "hi", realConst(1)))),
		4, 3, false, []float64{0}},
	{"concat(normal(1, 0.01 + 0.1 * x), mvnormal)", dist("concat", "parts", distList(
		dist("normal", "mean", realConst(1), "sd", spreadOverX), dist("mvnormal", "mean", vecConst(0, 0), "cov", matrix([]float64{1, 0.3}, []float64{0.3, 1})))),
		3, 3, true, []float64{0.5}},
	{"iid(beta(2, 2), 3)", dist("iid", "d", dist("beta", "a", realConst(2), "b", realConst(2), "scale", realConst(1)), "n", constValue(dsl.IntValue(3))),
		3, 3, false, []float64{0}},
	{"iid(normal(0, 0.3), 2)", dist("iid", "d", dist("normal", "mean", realConst(0), "sd", realConst(0.3)), "n", constValue(dsl.IntValue(2))),
		2, 2, true, []float64{0}},
	{"iid(gmm(1-d), 2)", dist("iid", "d", dist("gmm", "weights", vecConst(0.5, 0.5), "means", matrix([]float64{-1}, []float64{1}),
		"cov", matrix([]float64{0.04})), "n", constValue(dsl.IntValue(2))), 2, 4, false, []float64{0}},
}

// distCases are the hand-written cases and, for every registered
// distribution they do not call, its example call (registry.ExampleCall),
// so that a distribution is tested the day it is registered.
func distCases(t *testing.T) []distCase {
	t.Helper()
	cases := slices.Clone(handCases)
	covered := map[string]bool{}
	for _, c := range handCases {
		covered[c.call.Plugin] = true
	}
	for _, p := range registry.All() {
		if p.Kind != registry.Distribution || !p.Built() || covered[p.ID()] {
			continue
		}
		cases = append(cases, exampleCase(t, p))
	}
	return cases
}

// exampleCase checks p's example call as the input noise of the first n
// components of a point, for the n that fits.
func exampleCase(t *testing.T, p *registry.Plugin) distCase {
	t.Helper()
	example := registry.Default.ExampleCall(p)
	for n := 1; n <= 4; n++ {
		src := fmt.Sprintf("problem d\ndomain { x[4] in [0, 1] }\nobjective minimize sum(x)\nbudget 5\ninput noise x[0:%d] ~ %s\n", n, example)
		f, diags := parser.ParseFile("d.bo", []byte(src))
		if diags.HasErrors() {
			t.Fatalf("%s: %v", example, diags)
		}
		prog, diags := typecheck.Check(f, typecheck.Config{})
		if diags.HasErrors() {
			continue
		}
		c := prog.InputNoise[0].Dist
		h := hooks(t, c)
		return distCase{name: example, call: c, dim: n, baseLen: h.BaseLen(registry.PlanDraw(c)),
			gaussian: h.Gaussian(registry.PlanDraw(c)), xs: []float64{0}}
	}
	t.Fatalf("the example call %s of %s checks on no 1 to 4 components", example, p.ID())
	return distCase{}
}

func hooks(t *testing.T, c *ir.Call) registry.DistributionEmit {
	t.Helper()
	h, ok := registry.DistributionHooks(c)
	if !ok || h.BaseLen == nil || h.Draw == nil || h.Moments == nil || h.Gaussian == nil {
		t.Fatalf("%s: missing input-noise hooks", c.Plugin)
	}
	return h
}

// TestDistributionShapes: every distribution's hooks give a draw, a mean and
// a covariance of its dimension, use the base uniforms they declare, and say
// which are Gaussian.
func TestDistributionShapes(t *testing.T) {
	for _, tt := range distCases(t) {
		fresh := 0
		g := drawGen(tt.call, 0, &fresh)
		h := hooks(t, tt.call)
		base := h.BaseLen(g)
		_, elems := h.Draw(g)
		_, mean, cov := h.Moments(g)
		gaussian := h.Gaussian(g)
		if err := g.Err(); err != nil {
			t.Errorf("%s: %v", tt.name, err)
		}
		if base != tt.baseLen || len(elems) != tt.dim || len(mean) != tt.dim || len(cov) != tt.dim*tt.dim || gaussian != tt.gaussian {
			t.Errorf("%s: BaseLen %d, %d components, mean %d, cov %d, Gaussian %v; want %d, %d, %d, %d, %v", tt.name,
				base, len(elems), len(mean), len(cov), gaussian, tt.baseLen, tt.dim, tt.dim, tt.dim*tt.dim, tt.gaussian)
		}
	}
}

// TestDistributionConstantFolding: constant parameters reach the emitted
// code as literals, and unit factors and zero offsets disappear.
func TestDistributionConstantFolding(t *testing.T) {
	tests := []struct {
		call             *ir.Call
		draw, mean, cova string
	}{
		{dist("normal", "mean", realConst(0), "sd", realConst(0.5)), "(0.5 * noise.Normal(u[0]))", "0.0", "0.25"},
		{dist("normal", "mean", realConst(0), "sd", spreadOverX), "((0.01 + 0.1*x) * noise.Normal(u[0]))", "0.0", "((0.01 + 0.1*x) * (0.01 + 0.1*x))"},
		{dist("uniform", "lo", realConst(-1), "hi", realConst(1)), "((-1.0) + (2.0 * u[0]))", "0.0", "0.3333333333333333"},
		{dist("chi2", "df", realConst(4), "scale", realConst(1)), "noise.Chi2(4.0, u[0])", "4.0", "8.0"},
	}
	for _, tt := range tests {
		fresh := 0
		g := drawGen(tt.call, 0, &fresh)
		h := hooks(t, tt.call)
		_, elems := h.Draw(g)
		_, mean, cov := h.Moments(g)
		if got := [3]string{render(elems[0]), render(mean[0]), render(cov[0])}; got != [3]string{tt.draw, tt.mean, tt.cova} {
			t.Errorf("%s: draw, mean, variance %q, want %q", tt.call.Plugin, got, [3]string{tt.draw, tt.mean, tt.cova})
		}
	}
}

// probeResult is what the probe program reports for one case at one x.
type probeResult struct {
	Name                                 string
	X                                    float64
	Mean, Cov                            []float64 // the Moments hook's values
	SampleMean, SampleCov, MeanSE, CovSE []float64
	Allocs                               float64 // per draw
	Finite                               bool
}

// TestDistributionDrawMoments builds a program from the Draw and Moments
// code of every case, draws probeSamples points from pseudo-random base
// uniforms, and checks that the sample mean and covariance agree with the
// Moments hook within probeSigmas standard errors (estimated from the same
// sample, so heavy tails widen them), that every draw is finite, and that a
// draw does not allocate.
func TestDistributionDrawMoments(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a Go program; skipped with -short")
	}
	const probeSigmas = 5
	out := runProbe(t)
	var results []probeResult
	if err := json.Unmarshal(out, &results); err != nil {
		t.Fatalf("probe output: %v\n%s", err, out)
	}
	want := 0
	for _, c := range distCases(t) {
		want += len(c.xs)
	}
	if len(results) != want {
		t.Fatalf("probe reported %d results, want %d", len(results), want)
	}
	worst := 0.0 // the largest deviation, in standard errors
	for _, r := range results {
		for i := range r.Mean {
			worst = max(worst, math.Abs(r.SampleMean[i]-r.Mean[i])/r.MeanSE[i])
		}
		for i := range r.Cov {
			if r.CovSE[i] > 0 {
				worst = max(worst, math.Abs(r.SampleCov[i]-r.Cov[i])/r.CovSE[i])
			}
		}
		if !r.Finite || r.Allocs != 0 {
			t.Errorf("%s at x = %g: finite %v, %v allocations per draw", r.Name, r.X, r.Finite, r.Allocs)
		}
		for i := range r.Mean {
			if d := math.Abs(r.SampleMean[i] - r.Mean[i]); !(d <= probeSigmas*r.MeanSE[i]+1e-12) {
				t.Errorf("%s at x = %g: mean[%d] = %g, sample mean %g ± %.2g", r.Name, r.X, i, r.Mean[i], r.SampleMean[i], r.MeanSE[i])
			}
		}
		for i := range r.Cov {
			if d := math.Abs(r.SampleCov[i] - r.Cov[i]); !(d <= probeSigmas*r.CovSE[i]+1e-12) {
				t.Errorf("%s at x = %g: cov[%d] = %g, sample covariance %g ± %.2g", r.Name, r.X, i, r.Cov[i], r.SampleCov[i], r.CovSE[i])
			}
		}
	}
	t.Logf("%d cases, %d draws each: moments within %.2f standard errors", len(results), probeSamples, worst)
}

// probeSamples is the number of draws per case: standard errors of about
// 0.7% of a standard deviation.
const probeSamples = 20000

// runProbe writes the probe program into a temporary module that replaces
// in this repository, runs it and returns its output.
func runProbe(t *testing.T) []byte {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":   fmt.Sprintf("module drawprobe\n\ngo 1.26\n\nrequire github.com/bocdev/boc v0.0.0\n\nreplace github.com/bocdev/boc => %s\n", root),
		"go.sum":   string(sum),
		"main.go":  probeMain,
		"cases.go": probeCases(t),
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "run", ".", fmt.Sprint(probeSamples))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "GOWORK=off")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go run in %s: %v\n%s\n%s", dir, err, stderr.String(), files["cases.go"])
	}
	return out
}

// probeCases emits, for each case, a draw function and a moments function
// of the domain point x, and the table main runs.
func probeCases(t *testing.T) string {
	f := jen.NewFile("main")
	var table []jen.Code
	for i, c := range distCases(t) {
		h := hooks(t, c.call)
		fresh := 0
		g := drawGen(c.call, 0, &fresh)
		stmts, elems := h.Draw(g)
		body := append([]jen.Code{}, stmts...)
		for j, e := range elems {
			body = append(body, jen.Id("out").Index(jen.Lit(j)).Op("=").Add(e))
		}
		drawName, momentsName := fmt.Sprintf("draw%d", i), fmt.Sprintf("moments%d", i)
		f.Func().Id(drawName).Params(jen.Id("x").Float64(), jen.Id("u"), jen.Id("out").Index().Float64()).Block(body...)
		mstmts, mean, cov := h.Moments(g)
		f.Func().Id(momentsName).Params(jen.Id("x").Float64()).Params(jen.Index().Float64(), jen.Index().Float64()).Block(
			append(mstmts, jen.Return(jen.Index().Float64().Values(mean...), jen.Index().Float64().Values(cov...)))...)
		if err := g.Err(); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, x := range c.xs {
			table = append(table, jen.Values(jen.Dict{
				jen.Id("name"): jen.Lit(c.name), jen.Id("x"): jen.Lit(x), jen.Id("dim"): jen.Lit(c.dim),
				jen.Id("base"): jen.Lit(h.BaseLen(g)), jen.Id("draw"): jen.Id(drawName), jen.Id("moments"): jen.Id(momentsName),
			}))
		}
	}
	f.Var().Id("cases").Op("=").Index().Id("probeCase").Values(table...)
	return fmt.Sprintf("%#v", f)
}

// probeMain estimates each case's moments from its draws.
const probeMain = `package main

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/bocdev/boc/runtime/noise"
)

type probeCase struct {
	name      string
	x         float64
	dim, base int
	draw      func(x float64, u, out []float64)
	moments   func(x float64) (mean, cov []float64)
}

type result struct {
	Name                                 string
	X                                    float64
	Mean, Cov                            []float64
	SampleMean, SampleCov, MeanSE, CovSE []float64
	Allocs                               float64
	Finite                               bool
}

// cond is the .bo language's if-then-else.
func cond(c bool, a, b float64) float64 {
	if c {
		return a
	}
	return b
}

func estimate(c probeCase, m int) result {
	r := result{Name: c.name, X: c.x, Finite: true}
	r.Mean, r.Cov = c.moments(c.x)
	rng := rand.New(rand.NewPCG(1, 2))
	u, out := make([]float64, c.base), make([]float64, c.dim)
	samples := make([]float64, m*c.dim)
	for s := range m {
		noise.Fresh(rng, u)
		c.draw(c.x, u, out)
		for _, v := range out {
			r.Finite = r.Finite && !math.IsNaN(v) && !math.IsInf(v, 0)
		}
		copy(samples[s*c.dim:], out)
	}
	n := c.dim
	r.SampleMean, r.MeanSE = make([]float64, n), make([]float64, n)
	for s := range m {
		for i := range n {
			r.SampleMean[i] += samples[s*n+i] / float64(m)
		}
	}
	r.SampleCov, r.CovSE = make([]float64, n*n), make([]float64, n*n)
	for i := range n {
		for j := range n {
			sum, sumSq := 0.0, 0.0
			for s := range m {
				p := (samples[s*n+i] - r.SampleMean[i]) * (samples[s*n+j] - r.SampleMean[j])
				sum, sumSq = sum+p, sumSq+p*p
			}
			mean := sum / float64(m)
			r.SampleCov[i*n+j] = sum / float64(m-1)
			r.CovSE[i*n+j] = math.Sqrt(max(sumSq/float64(m)-mean*mean, 0) / float64(m))
		}
		r.MeanSE[i] = math.Sqrt(r.SampleCov[i*n+i] / float64(m))
	}
	r.Allocs = testing.AllocsPerRun(100, func() { c.draw(c.x, u, out) })
	return r
}

func main() {
	m, err := strconv.Atoi(os.Args[1])
	if err != nil {
		panic(err)
	}
	results := make([]result, len(cases))
	for i, c := range cases {
		results[i] = estimate(c, m)
	}
	if err := json.NewEncoder(os.Stdout).Encode(results); err != nil {
		panic(err)
	}
}
`

// TestExampleCase: a distribution without a hand-written case is tested
// through its example call, placed on as many components as it has.
func TestExampleCase(t *testing.T) {
	for id, want := range map[string]struct{ dim, baseLen int }{
		"distribution.mvnormal": {2, 2}, "distribution.circle": {2, 1}, "distribution.normal": {1, 1},
	} {
		p, _ := registry.ByID(id)
		if c := exampleCase(t, p); c.dim != want.dim || c.baseLen != want.baseLen || c.call.Plugin != id {
			t.Errorf("%s: case %q of dimension %d with %d base uniforms, want %d and %d", id, c.name, c.dim, c.baseLen, want.dim, want.baseLen)
		}
	}
}
