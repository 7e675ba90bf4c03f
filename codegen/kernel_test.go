package codegen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

// The kernels' emitted straight-line code is compiled into a probe program
// in the golden module; the probe prints the kernels' values at fixed random
// points, which the test compares with the closed forms of MATH.md §3.

// kernelCase is one kernel the probe evaluates.
type kernelCase struct {
	name string // the kernel plugin's name
	d    int
	ard  bool // one lengthscale per component
}

const (
	kernelVariance    = 1.7
	pairsPerKernel    = 6
	kernelTolerance   = 1e-12
	scalarLengthscale = 0.3
)

func kernelCases() []kernelCase {
	var cases []kernelCase
	for _, name := range []string{"se", "matern12", "matern32", "matern52"} {
		for d := 1; d <= 4; d++ {
			for _, ard := range []bool{false, true} {
				cases = append(cases, kernelCase{name, d, ard})
			}
		}
	}
	return cases
}

func (k kernelCase) lengthscales() []float64 {
	ls := make([]float64, k.d)
	for i := range ls {
		ls[i] = scalarLengthscale
		if k.ard {
			ls[i] = 0.15 + 0.1*float64(i)
		}
	}
	return ls
}

func (k kernelCase) call() *ir.Call {
	var lengthscale ir.Value = realConst(scalarLengthscale)
	if k.ard {
		lengthscale = vecConst(k.lengthscales()...)
	}
	return kernelCall(k.name, lengthscale, kernelVariance)
}

func (k kernelCase) funcName() string { return fmt.Sprintf("%s_d%d_ard%v", k.name, k.d, k.ard) }

// pairs returns fixed random pairs of points in the unit cube; the first
// pair is a point with itself.
func (k kernelCase) pairs() [][2][]float64 {
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

// reference is the kernel's closed form at scaled distance r.
func (k kernelCase) reference(a, b []float64) float64 {
	r2 := 0.0
	for i, l := range k.lengthscales() {
		d := (a[i] - b[i]) / l
		r2 += d * d
	}
	r := math.Sqrt(r2)
	switch k.name {
	case "se":
		return kernelVariance * math.Exp(-r2/2)
	case "matern12":
		return kernelVariance * math.Exp(-r)
	case "matern32":
		return kernelVariance * (1 + math.Sqrt(3)*r) * math.Exp(-math.Sqrt(3)*r)
	case "matern52":
		return kernelVariance * (1 + math.Sqrt(5)*r + 5*r2/3) * math.Exp(-math.Sqrt(5)*r)
	}
	panic("no reference for kernel " + k.name)
}

// kernelProbe is the probe program's source.
func kernelProbe() ([]byte, error) {
	g := &generator{p: &ir.Program{}}
	f := jen.NewFile("main")
	var calls []jen.Code
	for _, k := range kernelCases() {
		h, ok := hookOf[registry.KernelEmit](g, "kernel."+k.name, dsl.Span{})
		if !ok {
			return nil, fmt.Errorf("kernel %s: %v", k.name, g.diags)
		}
		f.Add(g.kernelFunc(k.funcName(), h, k.call(), k.d, jen.Lit(k.d)))
		for _, pair := range k.pairs() {
			args := make([]jen.Code, 2)
			for j, pt := range pair {
				vals := make([]jen.Code, len(pt))
				for c, v := range pt {
					vals[c] = jen.Lit(v)
				}
				args[j] = jen.Op("&").Index(jen.Lit(k.d)).Float64().Values(vals...)
			}
			calls = append(calls, jen.Id(k.funcName()).Call(args...))
		}
	}
	if g.diags.HasErrors() {
		return nil, g.diags
	}
	f.Func().Id("main").Params().Block(
		jen.Id("values").Op(":=").Index().Float64().Custom(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}, calls...),
		jen.Qual("encoding/json", "NewEncoder").Call(jen.Qual("os", "Stdout")).Dot("Encode").Call(jen.Id("values")),
	)
	var buf bytes.Buffer
	err := f.Render(&buf)
	return buf.Bytes(), err
}

// TestKernelCode compares the emitted kernels with their closed forms for
// D = 1..4, with one lengthscale and with one per component.
func TestKernelCode(t *testing.T) {
	b := builtModule(t)
	stdout, stderr, code := b.runProgram(t, "kernelprobe")
	if code != 0 {
		t.Fatalf("kernelprobe: exit %d: %s", code, stderr)
	}
	var values []float64
	if err := json.Unmarshal([]byte(stdout), &values); err != nil {
		t.Fatal(err)
	}
	i := 0
	for _, k := range kernelCases() {
		for _, pair := range k.pairs() {
			if i >= len(values) {
				t.Fatalf("the probe printed %d values, want more", len(values))
			}
			want := k.reference(pair[0], pair[1])
			if got := values[i]; math.Abs(got-want) > kernelTolerance*math.Max(1, math.Abs(want)) {
				t.Errorf("%s at %v, %v: emitted %v, closed form %v", k.funcName(), pair[0], pair[1], got, want)
			}
			i++
		}
	}
	if i != len(values) {
		t.Errorf("the probe printed %d values, want %d", len(values), i)
	}
}
