package stdlib

import (
	"fmt"
	"math"

	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

// Kernels are emitted as straight-line code with their derivatives (MATH.md
// §3). A stationary kernel is s²·f(r²) with r² = Σ_i d_i², d_i = (a_i − b_i)/ℓ_i,
// so with the slope f' = df/dr² every derivative follows from the chain rule:
//
//	∂k/∂a_i     = 2 s² f' d_i / ℓ_i
//	∂k/∂log ℓ_i = −2 s² f' d_i²      (summed over i for one shared ℓ)
//	∂k/∂log s²  = k
//
// and each profile adds the derivatives in its own hyperparameters.

// profile is the code of a stationary kernel's shape f(r²), for s² = 1.
type profile struct {
	stmts []jen.Code
	value jen.Code // f(r²)
	// slope is df/dr², emitted only when derivatives are wanted.
	slope jen.Code
	// own holds ∂f/∂log θ for the profile's own learned hyperparameters.
	own []hyperTerm
}

// hyperTerm is one term of the derivative in learned hyperparameter index.
type hyperTerm struct {
	index int
	term  jen.Code
}

// shape emits a profile over the local r2 holding r²; its slope only when
// slope is set (otherwise locals only the slope uses would go unused).
type shape func(g *registry.KernelGen, r2 string, slope bool) profile

// stationaryEmit emits s²·f(r²), unrolled over the input dimension; fixed
// inverse lengthscales are folded into literals.
func stationaryEmit(sh shape) registry.KernelDiffEmit {
	return func(g *registry.KernelGen) registry.KernelCode {
		signal := g.Hyper(variance.Name, 0)
		ls := make([]registry.Hyper, g.D)
		diffs := make([]string, g.D)
		stmts := make([]jen.Code, 0, g.D+6)
		var sum *jen.Statement
		for i := range ls {
			ls[i] = g.Hyper(lengthscale.Name, i)
			d := g.Fresh(fmt.Sprintf("d%d", i))
			diffs[i] = d
			diff := jen.Parens(jen.Id(g.A).Index(jen.Lit(i)).Op("-").Id(g.B).Index(jen.Lit(i)))
			if ls[i].Fixed {
				diff = diff.Op("*").Lit(1 / ls[i].Value)
			} else {
				diff = diff.Op("/").Add(ls[i].Code)
			}
			stmts = append(stmts, jen.Id(d).Op(":=").Add(diff))
			square := jen.Id(d).Op("*").Id(d)
			if sum == nil {
				sum = square
			} else {
				sum = sum.Op("+").Add(square)
			}
		}
		r2 := g.Fresh("r2")
		stmts = append(stmts, jen.Id(r2).Op(":=").Add(sum))
		needSlope := g.Grad == registry.GradInput
		for _, l := range ls {
			needSlope = needSlope || (g.Grad == registry.GradHyper && !l.Fixed)
		}
		p := sh(g, r2, needSlope)
		stmts = append(stmts, p.stmts...)
		if g.Grad == registry.NoGrad {
			return registry.KernelCode{Stmts: stmts, Value: times(signal, p.value)}
		}
		k, dk := g.Fresh("k"), g.Fresh("dk")
		stmts = append(stmts, jen.Id(k).Op(":=").Add(times(signal, p.value)))
		if needSlope {
			stmts = append(stmts, jen.Id(dk).Op(":=").Add(times(signal, p.slope)))
		}
		grad := make([]jen.Code, g.GradLen())
		if g.Grad == registry.GradInput {
			for i, l := range ls {
				if l.Fixed {
					grad[i] = jen.Lit(2 / l.Value).Op("*").Id(dk).Op("*").Id(diffs[i])
				} else {
					grad[i] = jen.Lit(2.0).Op("*").Id(dk).Op("*").Id(diffs[i]).Op("/").Add(l.Code)
				}
			}
			return registry.KernelCode{Stmts: stmts, Value: jen.Id(k), Grad: grad}
		}
		if !signal.Fixed {
			accumulate(grad, signal.Index, jen.Id(k))
		}
		for i, l := range ls {
			if !l.Fixed {
				accumulate(grad, l.Index, jen.Lit(-2.0).Op("*").Id(dk).Op("*").Id(diffs[i]).Op("*").Id(diffs[i]))
			}
		}
		for _, t := range p.own {
			accumulate(grad, t.index, times(signal, t.term))
		}
		return registry.KernelCode{Stmts: stmts, Value: jen.Id(k), Grad: grad}
	}
}

// times is h·x, leaving out a fixed factor of 1.
func times(h registry.Hyper, x jen.Code) jen.Code {
	if h.Fixed && h.Value == 1 {
		return x
	}
	return jen.Add(h.Code).Op("*").Add(x)
}

// accumulate adds term to grad[j].
func accumulate(grad []jen.Code, j int, term jen.Code) {
	if grad[j] == nil {
		grad[j] = term
		return
	}
	grad[j] = jen.Add(grad[j]).Op("+").Add(term)
}

// maternEmit emits a Matérn kernel whose value at r = sqrt(scale·r²) is
// poly(r)·exp(−r) (scale = 2ν); its slope is slope(r)·exp(−r), after the
// statements slope returns.
func maternEmit(scale float64, poly func(r string) jen.Code, slope func(g *registry.KernelGen, r string) ([]jen.Code, jen.Code)) registry.KernelDiffEmit {
	return stationaryEmit(func(g *registry.KernelGen, r2 string, needSlope bool) profile {
		r, e := g.Fresh("r"), g.Fresh("e")
		arg := jen.Id(r2)
		if scale != 1 {
			arg = jen.Lit(scale).Op("*").Id(r2)
		}
		p := profile{stmts: []jen.Code{
			jen.Id(r).Op(":=").Qual("math", "Sqrt").Call(arg),
			jen.Id(e).Op(":=").Qual("math", "Exp").Call(jen.Op("-").Id(r)),
		}}
		p.value = jen.Id(e)
		if q := poly(r); q != nil {
			p.value = jen.Add(q).Op("*").Id(e)
		}
		if needSlope {
			stmts, factor := slope(g, r)
			p.stmts = append(p.stmts, stmts...)
			p.slope = jen.Add(factor).Op("*").Id(e)
		}
		return p
	})
}

var (
	// f = exp(−r²/2), f' = −f/2.
	seEmit = stationaryEmit(func(g *registry.KernelGen, r2 string, _ bool) profile {
		e := g.Fresh("e")
		return profile{
			stmts: []jen.Code{jen.Id(e).Op(":=").Qual("math", "Exp").Call(jen.Lit(-0.5).Op("*").Id(r2))},
			value: jen.Id(e),
			slope: jen.Lit(-0.5).Op("*").Id(e),
		}
	})
	// f = e^{−r}, f' = −e^{−r}/(2r): infinite at r = 0, where every term it
	// multiplies (d_i, d_i²) vanishes at least as fast, so 1/r is taken as 0
	// there.
	matern12Emit = maternEmit(1, func(string) jen.Code { return nil },
		func(g *registry.KernelGen, r string) ([]jen.Code, jen.Code) {
			inv := g.Fresh("rinv")
			return []jen.Code{
				jen.Id(inv).Op(":=").Lit(0.0),
				jen.If(jen.Id(r).Op(">").Lit(0)).Block(jen.Id(inv).Op("=").Lit(1.0).Op("/").Id(r)),
			}, jen.Lit(-0.5).Op("*").Id(inv)
		})
	// f = (1+r)e^{−r} with r = √3·r, f' = −(3/2)e^{−r}.
	matern32Emit = maternEmit(3, func(r string) jen.Code {
		return jen.Parens(jen.Lit(1.0).Op("+").Id(r))
	}, func(*registry.KernelGen, string) ([]jen.Code, jen.Code) { return nil, jen.Lit(-1.5) })
	// f = (1+r+r²/3)e^{−r} with r = √5·r, f' = −(5/6)(1+r)e^{−r}.
	matern52Emit = maternEmit(5, func(r string) jen.Code {
		return jen.Parens(jen.Lit(1.0).Op("+").Id(r).Op("+").Id(r).Op("*").Id(r).Op("/").Lit(3.0))
	}, func(_ *registry.KernelGen, r string) ([]jen.Code, jen.Code) {
		return nil, jen.Lit(-5.0 / 6).Op("*").Parens(jen.Lit(1.0).Op("+").Id(r))
	})
)

// rationalQuadratic emits q = 1 + r²/(2a) and p = q^(−a) for shape a, and
// the terms of f = p: f' = −p/(2q) and ∂p/∂log a = a·p·((q−1)/q − log q).
func rationalQuadratic(g *registry.KernelGen, r2 string, a registry.Hyper) (stmts []jen.Code, p string, slope jen.Code, own jen.Code) {
	q := g.Fresh("q")
	p = g.Fresh("p")
	scaled := jen.Id(r2).Op("/").Parens(jen.Lit(2.0).Op("*").Add(a.Code))
	power := jen.Qual("math", "Exp").Call(jen.Op("-").Add(a.Code).Op("*").Qual("math", "Log").Call(jen.Id(q)))
	if a.Fixed {
		scaled = jen.Id(r2).Op("*").Lit(1 / (2 * a.Value))
		power = fixedPower(q, a.Value)
	}
	stmts = []jen.Code{
		jen.Id(q).Op(":=").Lit(1.0).Op("+").Add(scaled),
		jen.Id(p).Op(":=").Add(power),
	}
	slope = jen.Lit(-0.5).Op("*").Id(p).Op("/").Id(q)
	own = jen.Add(a.Code).Op("*").Id(p).Op("*").Parens(
		jen.Parens(jen.Id(q).Op("-").Lit(1.0)).Op("/").Id(q).Op("-").Qual("math", "Log").Call(jen.Id(q)))
	return stmts, p, slope, own
}

// fixedPower is q^(−a) for a constant a: by a square root or products where
// a is a half or a small whole number (as in the RQ mixture), otherwise as
// exp(−a·log q), which for q >= 1 is as accurate as math.Pow and about twice
// as fast (Pow's general path dominated the RQ mixture's cost).
func fixedPower(q string, a float64) *jen.Statement {
	switch {
	case a == 0.5:
		return jen.Lit(1.0).Op("/").Qual("math", "Sqrt").Call(jen.Id(q))
	case a == 1:
		return jen.Lit(1.0).Op("/").Id(q)
	case a == math.Trunc(a) && a >= 2 && a <= 5:
		product := jen.Id(q)
		for range int(a) - 1 {
			product = product.Op("*").Id(q)
		}
		return jen.Lit(1.0).Op("/").Parens(product)
	}
	return jen.Qual("math", "Exp").Call(jen.Lit(-a).Op("*").Qual("math", "Log").Call(jen.Id(q)))
}

// rqMixShapes are the shapes a of AIRBO's RQ mixture (Eq. 32).
var rqMixShapes = []float64{0.2, 0.5, 1, 2, 5}

var (
	rqEmit = stationaryEmit(func(g *registry.KernelGen, r2 string, _ bool) profile {
		a := g.Hyper("alpha", 0)
		stmts, p, slope, own := rationalQuadratic(g, r2, a)
		pr := profile{stmts: stmts, value: jen.Id(p), slope: slope}
		if !a.Fixed {
			pr.own = []hyperTerm{{a.Index, own}}
		}
		return pr
	})
	// rqmixEmit is Σ_a (1 + r²/(2a))^(−a), unnormalised as in the paper:
	// k(x, x) = 5s².
	rqmixEmit = stationaryEmit(func(g *registry.KernelGen, r2 string, _ bool) profile {
		var pr profile
		var value, slope *jen.Statement
		for _, a := range rqMixShapes {
			stmts, p, s, _ := rationalQuadratic(g, r2, registry.Hyper{Code: jen.Lit(a), Fixed: true, Value: a, Index: -1})
			pr.stmts = append(pr.stmts, stmts...)
			if value == nil {
				value, slope = jen.Id(p), jen.Add(s)
				continue
			}
			value, slope = value.Op("+").Id(p), slope.Op("+").Add(s)
		}
		pr.value, pr.slope = jen.Parens(value), jen.Parens(slope)
		return pr
	})
)

// linearEmit is s²·aᵀb + c on unit coordinates.
var linearEmit registry.KernelDiffEmit = func(g *registry.KernelGen) registry.KernelCode {
	signal, offset := g.Hyper(variance.Name, 0), g.Hyper("offset", 0)
	dot := g.Fresh("dot")
	var sum *jen.Statement
	for i := range g.D {
		term := jen.Id(g.A).Index(jen.Lit(i)).Op("*").Id(g.B).Index(jen.Lit(i))
		if sum == nil {
			sum = term
		} else {
			sum = sum.Op("+").Add(term)
		}
	}
	stmts := []jen.Code{jen.Id(dot).Op(":=").Add(sum)}
	value := jen.Add(times(signal, jen.Id(dot)))
	if !offset.Fixed || offset.Value != 0 {
		value = value.Op("+").Add(offset.Code)
	}
	code := registry.KernelCode{Stmts: stmts, Value: jen.Parens(value), Grad: make([]jen.Code, g.GradLen())}
	switch g.Grad {
	case registry.GradInput:
		for i := range g.D {
			code.Grad[i] = times(signal, jen.Id(g.B).Index(jen.Lit(i)))
		}
	case registry.GradHyper:
		if !signal.Fixed {
			accumulate(code.Grad, signal.Index, times(signal, jen.Id(dot)))
		}
		if !offset.Fixed {
			accumulate(code.Grad, offset.Index, offset.Code)
		}
	}
	return code
}

// partsArg returns the values of a call's variadic argument "parts" (a
// combinator's kernels, concat's distributions). A malformed argument, a bug
// of the checker or of the plugin's signature, is recorded in a.
func partsArg(a *registry.Args) []ir.Value {
	var list *ir.List
	if arg := a.Call.Arg("parts"); arg != nil {
		list, _ = arg.Value.(*ir.List)
	}
	if list == nil {
		a.Nested("parts") // records that the argument is malformed
		return nil
	}
	return list.Values
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
