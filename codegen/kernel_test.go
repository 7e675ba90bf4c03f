package codegen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/parser"
	"github.com/bocdev/boc/plan"
	"github.com/bocdev/boc/runtime/kernel"
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/bocdev/boc/typecheck"
	"github.com/dave/jennifer/jen"
)

// The kernels' emitted straight-line code is compiled into a probe program
// in the golden module. For every case the probe prints, at fixed random
// pairs of points, the kernel's value, its emitted gradient in the first
// input and in the log-hyperparameters, and central differences of the
// emitted value for both; the test compares the values with the closed forms
// of MATH.md §3 and the gradients with the differences.

// knode is a kernel expression of a test case with its hyperparameters.
type knode struct {
	plugin string // kernel plugin name
	ls     []float64
	s2     float64   // signal variance
	alpha  float64   // rq's shape
	terms  []float64 // rqmix's per-term lengthscales (nil: all 1)
	offset float64   // linear's constant
	factor float64   // scale's constant
	// mix is a stationary kernel's interaction λ over a domain with
	// categorical components, or over its components with additive; NaN
	// leaves it out (the product's 1).
	mix float64
	// additive gives the kernel groups = "components": mix weighs it
	// against the average of one kernel per component.
	additive bool
	parts    []*knode
}

// kcase is one kernel the probe evaluates: fixed (hyperparameters folded into
// literals) or learned (every learnable hyperparameter read from h). A
// kernel with a closed form here has a root; any other registered kernel is
// its plugin's example call, whose value is only checked for symmetry and
// against its fixed case, and whose gradients against differences.
type kcase struct {
	name    string
	d       int
	learned bool
	root    *knode
	example string
	// levels holds each component's number of levels, 0 for a numeric
	// one; nil when none is categorical.
	levels []int
}

// referenceKernels are the kernels with a closed form in knode.reference.
var referenceKernels = map[string]bool{"se": true, "matern12": true, "matern32": true, "matern52": true,
	"rq": true, "rqmix": true, "linear": true, "sum": true, "product": true, "scale": true}

const (
	pairsPerKernel  = 5
	kernelTolerance = 1e-12
	// blockTolerance bounds the difference between a kernel's
	// runtime/kernel.Block and its emitted code: batched fastexp (an ulp
	// from math.Exp) and rqmix's one fraction and fifth roots.
	blockTolerance = 1e-13
	// The differences use steps of probeStep; their error is O(step²) plus
	// rounding O(1e-16/step).
	probeStep     = 1e-5
	gradTolerance = 2e-6
)

func stationaryNode(name string, d int, ard bool) *knode {
	n := &knode{plugin: name, ls: make([]float64, d), s2: 1.7, alpha: 0.8, mix: math.NaN()}
	for i := range n.ls {
		n.ls[i] = 0.3
		if ard {
			n.ls[i] = 0.15 + 0.1*float64(i)
		}
	}
	return n
}

func kernelCases() []kcase {
	var cases []kcase
	add := func(name string, d int, root func() *knode) {
		for _, learned := range []bool{false, true} {
			cases = append(cases, kcase{name: fmt.Sprintf("%s_d%d_learned%v", name, d, learned), d: d, learned: learned, root: root()})
		}
	}
	for _, p := range registry.All() {
		if p.Kind == registry.Kernel && registry.Differentiable(p) && !referenceKernels[p.Name] {
			for d := 1; d <= 3; d++ {
				for _, learned := range []bool{false, true} {
					cases = append(cases, kcase{name: fmt.Sprintf("%s_d%d_learned%v", p.Name, d, learned), d: d, learned: learned,
						example: registry.Default.ExampleCall(p)})
				}
			}
		}
	}
	for d := 1; d <= 4; d++ {
		for _, name := range []string{"se", "matern12", "matern32", "matern52", "rq", "rqmix"} {
			add(name, d, func() *knode { return stationaryNode(name, d, false) })
			add(name+"_ard", d, func() *knode { return stationaryNode(name, d, true) })
		}
		add("rqmix_terms", d, func() *knode {
			n := stationaryNode("rqmix", d, true)
			n.terms = []float64{0.5, 0.8, 1.3, 2, 0.7}
			return n
		})
		add("linear", d, func() *knode { return &knode{plugin: "linear", s2: 0.6, offset: 0.4} })
		add("sum", d, func() *knode {
			return &knode{plugin: "sum", parts: []*knode{stationaryNode("se", d, true), {plugin: "linear", s2: 0.5, offset: 0.2}}}
		})
		add("product", d, func() *knode {
			return &knode{plugin: "product", parts: []*knode{stationaryNode("matern52", d, true), stationaryNode("rq", d, false)}}
		})
		add("scale", d, func() *knode {
			return &knode{plugin: "scale", factor: 0.5, parts: []*knode{stationaryNode("matern32", d, true)}}
		})
		// Over choices: the last component categorical (three levels), the
		// kernel the product (λ = 1), CoCaBO's mixture (λ = 0.3) or the sum
		// (λ = 0, fixed only: a learned λ is fitted on a log scale).
		for _, name := range []string{"se", "matern12", "matern52", "rq", "rqmix"} {
			for _, mix := range []float64{1, 0.3, 0} {
				levels := make([]int, d)
				levels[d-1] = 3
				for _, learned := range []bool{false, true} {
					if learned && mix == 0 {
						continue
					}
					n := stationaryNode(name, d, true)
					n.mix = mix
					cases = append(cases, kcase{name: fmt.Sprintf("%s_levels_mix%v_d%d_learned%v", name, strings.ReplaceAll(fmt.Sprint(mix), ".", "p"), d, learned),
						d: d, learned: learned, root: n, levels: levels})
				}
			}
		}
		// Additive: the average of one kernel per component (λ = 0), or
		// weighed against the kernel over all of them (λ = 0.4), over
		// numbers and, from d = 2, with a choice too.
		for _, name := range []string{"se", "matern32", "matern52", "rq", "rqmix"} {
			for _, mix := range []float64{0.4, 0} {
				for _, learned := range []bool{false, true} {
					if learned && mix == 0 {
						continue
					}
					var levels []int
					if d > 1 && name == "matern52" {
						levels = make([]int, d)
						levels[0] = 4
					}
					n := stationaryNode(name, d, true)
					n.mix, n.additive = mix, true
					cases = append(cases, kcase{name: fmt.Sprintf("%s_additive_mix%v_d%d_learned%v", name, strings.ReplaceAll(fmt.Sprint(mix), ".", "p"), d, learned),
						d: d, learned: learned, root: n, levels: levels})
				}
			}
		}
		add("nested", d, func() *knode {
			return &knode{plugin: "sum", parts: []*knode{
				{plugin: "scale", factor: 2, parts: []*knode{stationaryNode("rqmix", d, false)}},
				// Not matern12: it has no derivative at a = b, which a product
				// with a kernel whose derivative is not zero there exposes.
				{plugin: "product", parts: []*knode{stationaryNode("se", d, false), stationaryNode("matern32", d, true), {plugin: "linear", s2: 1.2, offset: 0.1}}},
			}}
		})
	}
	return cases
}

// ir builds the case's kernel IR and, for a learned case, the
// hyperparameter values in the order the plan lays them out.
func (k kcase) ir() (*ir.Call, []float64, error) {
	if k.root != nil {
		c, h := k.call(k.root)
		return c, h, nil
	}
	return exampleKernel(k.example, k.d, k.learned)
}

// exampleKernel checks the kernel call src in a problem of d components and
// returns its IR with its learned values at their starts: read from h when
// learned, folded into literals otherwise.
func exampleKernel(src string, d int, learned bool) (*ir.Call, []float64, error) {
	file := fmt.Sprintf("problem probe\ndomain { x[%d] in [0, 1] }\nobjective minimize sum(x)\nbudget 5\nmodel gp(kernel = %s)\n", d, src)
	f, diags := parser.ParseFile("probe.bo", []byte(file))
	if diags.HasErrors() {
		return nil, nil, diags
	}
	p, diags := typecheck.Check(f, typecheck.Config{})
	if diags.HasErrors() {
		return nil, nil, diags
	}
	o, diags := plan.Build(p)
	if diags.HasErrors() {
		return nil, nil, diags
	}
	var h []float64
	for _, slot := range o.Hyper.Slots {
		h = append(h, slot.Init...)
		if !learned {
			a := slot.Call.Arg(slot.Param)
			if len(slot.Init) == 1 {
				a.Value = realConst(slot.Init[0])
			} else {
				a.Value = vecConst(slot.Init...)
			}
		}
	}
	if !learned {
		h = nil
	}
	k, _ := p.Model.Arg("kernel").Value.(*ir.Call)
	return k, h, nil
}

// call builds the IR of knode n and, for a learned case, the hyperparameter
// values in the order the code generator lays them out.
func (k kcase) call(n *knode) (*ir.Call, []float64) {
	var h []float64
	value := func(name string, x []float64) ir.Value {
		if k.learned {
			h = append(h, x...)
			return &ir.Learn{}
		}
		if len(x) > 1 {
			return vecConst(x...)
		}
		return realConst(x[0])
	}
	switch n.plugin {
	case "sum", "product":
		list := &ir.List{}
		for _, p := range n.parts {
			c, ph := k.call(p)
			list.Values, h = append(list.Values, c), append(h, ph...)
		}
		return call("kernel."+n.plugin, arg("parts", list)), h
	case "scale":
		c, ph := k.call(n.parts[0])
		return call("kernel.scale", arg("factor", realConst(n.factor)), arg("kernel", c)), ph
	case "linear":
		s2 := value("variance", []float64{n.s2})
		return call("kernel.linear", arg("variance", s2), arg("offset", value("offset", []float64{n.offset}))), h
	}
	c := call("kernel."+n.plugin, arg("lengthscale", value("lengthscale", n.ls)), arg("variance", value("variance", []float64{n.s2})))
	if !math.IsNaN(n.mix) {
		c.Args = append(c.Args, arg("interaction", value("interaction", []float64{n.mix})))
	}
	if n.additive {
		c.Args = append(c.Args, arg("groups", &ir.ConstExpr{Value: dsl.Value{Type: dsl.Type{Kind: dsl.String}, Text: registry.GroupsComponents}}))
	}
	if n.plugin == "rq" {
		c.Args = append(c.Args, arg("alpha", value("alpha", []float64{n.alpha})))
	}
	switch {
	case n.terms != nil:
		c.Args = append(c.Args, arg("term_lengthscale", value("term_lengthscale", n.terms)))
	case n.plugin == "rqmix": // the default the checker fills in
		c.Args = append(c.Args, arg("term_lengthscale", realConst(1)))
	}
	return c, h
}

// reference is the closed form of n at a, b, whose components are
// categorical where levels is positive.
func (n *knode) reference(a, b []float64, levels []int) float64 {
	switch n.plugin {
	case "sum":
		v := 0.0
		for _, p := range n.parts {
			v += p.reference(a, b, levels)
		}
		return v
	case "product":
		v := 1.0
		for _, p := range n.parts {
			v *= p.reference(a, b, levels)
		}
		return v
	case "scale":
		return n.factor * n.parts[0].reference(a, b, levels)
	case "linear":
		dot := 0.0
		for i := range a {
			dot += a[i] * b[i]
		}
		return n.s2*dot + n.offset
	}
	var r2 [2]float64 // over the numeric components, then the categorical ones
	for i, l := range n.ls {
		d, part := (a[i]-b[i])/l, 0
		if levels != nil && levels[i] > 0 {
			d, part = kernel.LevelDistance(a[i], b[i], float64(levels[i]))/l, 1
		}
		r2[part] += d * d
	}
	if math.IsNaN(n.mix) || n.mix == 1 {
		return n.s2 * n.profile(r2[0]+r2[1])
	}
	if n.additive {
		average := 0.0
		for i, l := range n.ls {
			d := (a[i] - b[i]) / l
			if levels != nil && levels[i] > 0 {
				d = kernel.LevelDistance(a[i], b[i], float64(levels[i])) / l
			}
			average += n.profile(d*d) / float64(len(n.ls))
		}
		return n.s2 * (n.mix*n.profile(r2[0]+r2[1]) + (1-n.mix)*average)
	}
	return n.s2 * (n.mix*n.profile(r2[0]+r2[1]) + (1-n.mix)/2*(n.profile(r2[0])+n.profile(r2[1])))
}

// profile is stationary kernel n's shape f(r²), for s² = 1.
func (n *knode) profile(r2 float64) float64 {
	r := math.Sqrt(r2)
	switch n.plugin {
	case "se":
		return math.Exp(-r2 / 2)
	case "matern12":
		return math.Exp(-r)
	case "matern32":
		return (1 + math.Sqrt(3)*r) * math.Exp(-math.Sqrt(3)*r)
	case "matern52":
		return (1 + math.Sqrt(5)*r + 5*r2/3) * math.Exp(-math.Sqrt(5)*r)
	case "rq":
		return math.Pow(1+r2/(2*n.alpha), -n.alpha)
	case "rqmix":
		v := 0.0
		for t, a := range []float64{0.2, 0.5, 1, 2, 5} {
			l := 1.0
			if n.terms != nil {
				l = n.terms[t]
			}
			v += math.Pow(1+r2/(2*a*l*l), -a)
		}
		return v
	}
	panic("no reference for kernel " + n.plugin)
}

// pairs returns fixed random pairs of points in the unit cube; the first
// pair is a point with itself.
func (k kcase) pairs() [][2][]float64 {
	rng := rand.New(rand.NewPCG(uint64(k.d), 42))
	out := make([][2][]float64, pairsPerKernel)
	for i := range out {
		for j := range out[i] {
			out[i][j] = make([]float64, k.d)
			for c := range out[i][j] {
				out[i][j][c] = rng.Float64()
			}
		}
	}
	out[0][1] = out[0][0]
	return out
}

// probeCheck is the probe's generic part: for a kernel wrapped as
// fn(h, a, b, g, mode) (mode 0: value; 1: gradient in a; 2: gradient in log h)
// it returns the value, the gradient in a and its differences, and the
// gradient in log h and its differences.
const probeCheck = `
func check(fn func(h, a, b, g []float64, mode int) float64, h, a, b []float64) (out []float64) {
	defer func() { out = append(out, fn(h, a, b, nil, 3)) }() // last: the Block's value
	out = []float64{fn(h, a, b, nil, 0)}
	g := make([]float64, len(a))
	out = append(out, fn(h, a, b, g, 1))
	out = append(out, g...)
	x := append([]float64(nil), a...)
	for i := range a {
		x[i] = a[i] + step
		up := fn(h, x, b, nil, 0)
		x[i] = a[i] - step
		down := fn(h, x, b, nil, 0)
		x[i] = a[i]
		out = append(out, (up-down)/(2*step))
	}
	if len(h) == 0 {
		return out
	}
	g = make([]float64, len(h))
	out = append(out, fn(h, a, b, g, 2))
	out = append(out, g...)
	y := append([]float64(nil), h...)
	for j := range h {
		y[j] = h[j] * math.Exp(step)
		up := fn(y, a, b, nil, 0)
		y[j] = h[j] * math.Exp(-step)
		down := fn(y, a, b, nil, 0)
		y[j] = h[j]
		out = append(out, (up-down)/(2*step))
	}
	return out
}
`

// program is the problem of the case's kernel: its components, categorical
// where levels says so, without dimensions when none is.
func (k kcase) program() *ir.Program {
	p := &ir.Program{D: k.d}
	if k.levels == nil {
		return p
	}
	for i, n := range k.levels {
		dim := &ir.Dim{Name: fmt.Sprintf("x%d", i), Size: 1, Offset: i, Hi: 1}
		for l := range n {
			dim.Levels = append(dim.Levels, fmt.Sprintf("l%d", l))
		}
		if n > 0 {
			dim.Hi = float64(n - 1)
		}
		p.Dims = append(p.Dims, dim)
	}
	return p
}

// kernelGenerator plans p with model gp over kernel c and resolves the
// kernel's hooks.
func kernelGenerator(c *ir.Call, p *ir.Program) (*generator, error) {
	p.Model = call("model.gp", arg("kernel", c))
	o, diags := plan.Build(p)
	if diags.HasErrors() {
		return nil, diags
	}
	g := &generator{o: o, p: p, kernel: c, components: components(p)}
	g.planKernel(c)
	if g.diags.HasErrors() {
		return nil, g.diags
	}
	return g, nil
}

// kernelProbe is the probe program's source.
func kernelProbe() ([]byte, error) {
	f := jen.NewFile("main")
	var calls []jen.Code
	for _, k := range kernelCases() {
		c, h, err := k.ir()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", k.name, err)
		}
		g, err := kernelGenerator(c, k.program())
		if err != nil {
			return nil, fmt.Errorf("%s: %v", k.name, err)
		}
		if g.o.Hyper.Size != len(h) {
			return nil, fmt.Errorf("%s: %d learned values, the test expects %d", k.name, g.o.Hyper.Size, len(h))
		}
		dim, hyper := jen.Lit(k.d), jen.Index(jen.Lit(len(h))).Float64()
		f.Add(g.kernelFunc(k.name+"_k", registry.NoGrad, k.d, dim, hyper))
		f.Add(g.kernelFunc(k.name+"_gA", registry.GradInput, k.d, dim, hyper))
		modes := []jen.Code{
			jen.Case(jen.Lit(0)).Block(jen.Return(jen.Id(k.name+"_k").Call(jen.Op("&").Id("hh"), jen.Op("&").Id("aa"), jen.Op("&").Id("bb")))),
			jen.Case(jen.Lit(1)).Block(
				jen.Var().Id("ga").Index(dim).Float64(),
				jen.Id("v").Op(":=").Id(k.name+"_gA").Call(jen.Op("&").Id("hh"), jen.Op("&").Id("aa"), jen.Op("&").Id("bb"), jen.Op("&").Id("ga")),
				jen.Copy(jen.Id("g"), jen.Id("ga").Index(jen.Op(":"))),
				jen.Return(jen.Id("v")),
			),
		}
		if len(h) > 0 {
			f.Add(g.kernelFunc(k.name+"_gH", registry.GradHyper, k.d, dim, hyper))
			modes = append(modes, jen.Case(jen.Lit(2)).Block(
				jen.Var().Id("gh").Add(hyper),
				jen.Id("v").Op(":=").Id(k.name+"_gH").Call(jen.Op("&").Id("hh"), jen.Op("&").Id("aa"), jen.Op("&").Id("bb"), jen.Op("&").Id("gh")),
				jen.Copy(jen.Id("g"), jen.Id("gh").Index(jen.Op(":"))),
				jen.Return(jen.Id("v")),
			))
		}
		// Mode 3 is the kernel's runtime/kernel.Block where its plugin has
		// one (the rows of the models over input distributions), else its
		// value.
		block := []jen.Code{jen.Return(jen.Id(k.name+"_k").Call(jen.Op("&").Id("hh"), jen.Op("&").Id("aa"), jen.Op("&").Id("bb")))}
		if p, _ := registry.ByID(c.Plugin); p.Block != nil && (k.root == nil || !k.root.additive && (math.IsNaN(k.root.mix) || k.root.mix == 1)) {
			lit, learned := g.blockLiteral(c, k.d)
			block = []jen.Code{jen.Return(jen.Add(lit).Dot("Eval").Call(jen.Id("aa").Index(jen.Op(":")), jen.Id("bb").Index(jen.Op(":"))))}
			if learned {
				block = append([]jen.Code{jen.Id("h").Op(":=").Op("&").Id("hh")}, block...)
			}
		}
		modes = append(modes, jen.Case(jen.Lit(3)).Block(block...))
		f.Func().Id(k.name).Params(jen.List(jen.Id("h"), jen.Id("a"), jen.Id("b"), jen.Id("g")).Index().Float64(), jen.Id("mode").Int()).Float64().Block(
			jen.Var().Id("hh").Add(hyper),
			jen.Var().List(jen.Id("aa"), jen.Id("bb")).Index(dim).Float64(),
			jen.Copy(jen.Id("hh").Index(jen.Op(":")), jen.Id("h")),
			jen.Copy(jen.Id("aa").Index(jen.Op(":")), jen.Id("a")),
			jen.Copy(jen.Id("bb").Index(jen.Op(":")), jen.Id("b")),
			jen.Switch(jen.Id("mode")).Block(modes...),
			jen.Panic(jen.Lit("no such mode")),
		)
		for _, pair := range k.pairs() {
			calls = append(calls, jen.Id("check").Call(jen.Id(k.name), floats(h), floats(pair[0]), floats(pair[1])))
		}
	}
	f.Const().Id("step").Op("=").Lit(probeStep)
	f.Var().Id("_").Op("=").Qual("math", "Exp")
	f.Func().Id("main").Params().Block(
		jen.Id("values").Op(":=").Index().Index().Float64().Custom(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}, calls...),
		jen.Qual("encoding/json", "NewEncoder").Call(jen.Qual("os", "Stdout")).Dot("Encode").Call(jen.Id("values")),
	)
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		return nil, err
	}
	buf.WriteString(probeCheck)
	return buf.Bytes(), nil
}

func floats(xs []float64) jen.Code {
	vals := make([]jen.Code, len(xs))
	for i, x := range xs {
		vals[i] = jen.Lit(x)
	}
	return jen.Index().Float64().Values(vals...)
}

// TestKernelCode compares the emitted kernels with their closed forms, and
// their emitted gradients with central differences, for every kernel and
// combinator, D = 1..4, fixed and learned hyperparameters, scalar and ARD
// lengthscales.
func TestKernelCode(t *testing.T) {
	b := builtModule(t)
	stdout, stderr, code := b.runProgram(t, "kernelprobe")
	if code != 0 {
		t.Fatalf("kernelprobe: exit %d: %s", code, stderr)
	}
	var results [][]float64
	if err := json.Unmarshal([]byte(stdout), &results); err != nil {
		t.Fatal(err)
	}
	i := 0
	fixed := map[string]float64{} // an example kernel's fixed values, by dimension and pair
	for _, k := range kernelCases() {
		_, h, err := k.ir()
		if err != nil {
			t.Fatal(err)
		}
		for j, pair := range k.pairs() {
			if i >= len(results) {
				t.Fatalf("the probe printed %d results, want more", len(results))
			}
			ref := math.NaN()
			if k.root != nil {
				ref = k.root.reference(pair[0], pair[1], k.levels)
			} else if at := fmt.Sprint(k.example, k.d, j); k.learned {
				ref = fixed[at]
			} else {
				fixed[at] = results[i][0]
			}
			checkProbeResult(t, k, ref, h, pair, results[i])
			i++
		}
	}
	if i != len(results) {
		t.Errorf("the probe printed %d results, want %d", len(results), i)
	}
}

// checkProbeResult checks one case at one pair: the value against ref (NaN:
// not checked) and the gradients against differences.
func checkProbeResult(t *testing.T, k kcase, ref float64, h []float64, pair [2][]float64, got []float64) {
	t.Helper()
	want := 3 + 2*k.d
	if len(h) > 0 {
		want += 1 + 2*len(h)
	}
	if len(got) != want {
		t.Errorf("%s: %d numbers, want %d", k.name, len(got), want)
		return
	}
	at := fmt.Sprintf("%s at %v, %v", k.name, pair[0], pair[1])
	close := func(x, y, tol float64) bool { return math.Abs(x-y) <= tol*math.Max(1, math.Abs(y)) }
	block := got[len(got)-1]
	got = got[:len(got)-1]
	if !close(block, got[0], blockTolerance) {
		t.Errorf("%s: runtime/kernel.Block %v, emitted kernel %v", at, block, got[0])
	}
	if !math.IsNaN(ref) && (!close(got[0], ref, kernelTolerance) || !close(got[1], ref, kernelTolerance)) {
		t.Errorf("%s: emitted %v (with gradient %v), closed form %v", at, got[0], got[1], ref)
	}
	compare := func(what string, analytic, differences []float64) {
		for j := range analytic {
			if !close(analytic[j], differences[j], gradTolerance) {
				t.Errorf("%s: %s %d: emitted %.10g, central differences %.10g", at, what, j, analytic[j], differences[j])
			}
		}
	}
	compare("∂k/∂a", got[2:2+k.d], got[2+k.d:2+2*k.d])
	if len(h) == 0 {
		return
	}
	rest := got[2+2*k.d:]
	if !close(rest[0], got[0], kernelTolerance) {
		t.Errorf("%s: kernelGradHyper returns %v, the kernel %v", at, rest[0], got[0])
	}
	compare("∂k/∂log h", rest[1:1+len(h)], rest[1+len(h):])
}

// TestKernelHyperparameterLayout: a learned lengthscale gets one slot per
// component, in the order of the kernel's arguments, each labelled in the
// emitted comment.
func TestKernelHyperparameterLayout(t *testing.T) {
	c, _ := kcase{d: 2, learned: true}.call(&knode{plugin: "sum", parts: []*knode{
		stationaryNode("se", 2, false), {plugin: "linear", s2: 1, offset: 0.1}}})
	g, err := kernelGenerator(c, &ir.Program{D: 2, Dims: scalarDims(0, 1, "x", "y")})
	if err != nil {
		t.Fatal(err)
	}
	f := jen.NewFile("p")
	g.kernelDecls(f)
	src := fmt.Sprintf("%#v", f)
	for _, want := range []string{
		"h[0]: se's lengthscale for x", "h[1]: se's lengthscale for y", "h[2]: se's variance",
		"h[3]: linear's variance", "h[4]: linear's offset", "const numHyper = 5",
		"func kernelGradHyper(h *hyperparameters, a, b *[Dim]float64, g *hyperparameters) float64",
		"func kernelGradA(h *hyperparameters, a, b *[Dim]float64, g *[Dim]float64) float64",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("the kernel declarations lack %q:\n%s", want, src)
		}
	}
}
