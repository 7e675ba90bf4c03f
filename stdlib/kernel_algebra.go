package stdlib

import (
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

// Kernel algebra: the type checker turns k1 + k2, k1 * k2 and c * k into
// calls of these combinators.
func init() {
	registry.Register(&registry.Plugin{Kind: registry.Kernel, Name: "sum", Emit: sumEmit,
		Doc:    "sum of kernels, k1 + k2 + ...",
		Params: []registry.Param{{Name: "parts", Type: registry.KernelParam, Variadic: true, Doc: "the kernels added"}}})
	registry.Register(&registry.Plugin{Kind: registry.Kernel, Name: "product", Emit: productEmit,
		Doc:    "product of kernels, k1 * k2 * ...",
		Params: []registry.Param{{Name: "parts", Type: registry.KernelParam, Variadic: true, Doc: "the kernels multiplied"}}})
	registry.Register(&registry.Plugin{Kind: registry.Kernel, Name: "scale", Emit: scaleEmit,
		Doc: "a kernel times a positive constant, c * k",
		Params: []registry.Param{
			{Name: "factor", Type: registry.RealParam, Range: positive, Doc: "the constant c"},
			{Name: "kernel", Type: registry.KernelParam, Doc: "the kernel scaled"}}})
}

// parts emits the kernels of a combinator's variadic argument "parts".
func parts(g *registry.KernelGen) []registry.KernelCode {
	values := partsArg(&g.Args)
	out := make([]registry.KernelCode, 0, len(values))
	for _, v := range values {
		c, _ := v.(*ir.Call)
		out = append(out, g.Kernel(c))
	}
	return out
}

// sumEmit is k₁ + k₂ + ...: values and derivatives add.
var sumEmit registry.KernelDiffEmit = func(g *registry.KernelGen) registry.KernelCode {
	code := registry.KernelCode{Grad: make([]jen.Code, g.GradLen())}
	var value *jen.Statement
	for _, p := range parts(g) {
		code.Stmts = append(code.Stmts, p.Stmts...)
		if value == nil {
			value = jen.Add(p.Value)
		} else {
			value = value.Op("+").Add(p.Value)
		}
		for j, d := range p.Grad {
			if d != nil {
				accumulate(code.Grad, j, jen.Parens(d))
			}
		}
	}
	code.Value = jen.Parens(value)
	return code
}

// productEmit is k₁·k₂·...: ∂(Π k_i) = Σ_j ∂k_j Π_{i≠j} k_i.
var productEmit registry.KernelDiffEmit = func(g *registry.KernelGen) registry.KernelCode {
	ps := parts(g)
	code := registry.KernelCode{Grad: make([]jen.Code, g.GradLen())}
	values := make([]jen.Code, len(ps))
	for i, p := range ps {
		code.Stmts = append(code.Stmts, p.Stmts...)
		values[i] = p.Value
		if g.Grad != registry.NoGrad {
			// Each value is used once per derivative: compute it once.
			k := g.Fresh("part")
			code.Stmts = append(code.Stmts, jen.Id(k).Op(":=").Add(p.Value))
			values[i] = jen.Id(k)
		}
	}
	product := func(skip int) *jen.Statement {
		var out *jen.Statement
		for i, v := range values {
			if i == skip {
				continue
			}
			if out == nil {
				out = jen.Add(v)
			} else {
				out = out.Op("*").Add(v)
			}
		}
		return out
	}
	code.Value = jen.Parens(product(-1))
	for j, p := range ps {
		for m, d := range p.Grad {
			if d == nil {
				continue
			}
			term := jen.Parens(d)
			if rest := product(j); rest != nil {
				term = term.Op("*").Add(rest)
			}
			accumulate(code.Grad, m, term)
		}
	}
	return code
}

// scaleEmit is c·k for a constant c.
var scaleEmit registry.KernelDiffEmit = func(g *registry.KernelGen) registry.KernelCode {
	c := g.Real("factor")
	inner := g.Kernel(g.Nested("kernel"))
	code := registry.KernelCode{Stmts: inner.Stmts, Value: jen.Parens(jen.Lit(c).Op("*").Add(inner.Value)), Grad: make([]jen.Code, len(inner.Grad))}
	for j, d := range inner.Grad {
		if d != nil {
			code.Grad[j] = jen.Lit(c).Op("*").Parens(d)
		}
	}
	return code
}
