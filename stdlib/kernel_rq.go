package stdlib

import (
	"math"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

func init() {
	registry.Register(stationaryKernel("rq", "rational quadratic: s² (1 + r²/(2a))^(−a)", rqEmit,
		registry.Param{Name: "alpha", Type: registry.RealParam, Default: registry.Real(1), Range: positive, Learnable: true,
			LearnBounds: [2]float64{0.05, 20}, Doc: "shape a; large a approaches se"}))
	rqmix := stationaryKernel("rqmix",
		"AIRBO's mixture of rational quadratics (Eq. 32): s² Σ_a (1 + r²/(2a·ℓ_a²))^(−a), a ∈ {0.2, 0.5, 1, 2, 5}", rqmixEmit,
		registry.Param{Name: termLengthscale, Type: registry.RealOrVecParam, Len: len(rqMixShapes), Default: registry.Real(1), Range: positive,
			Learnable: true, LearnBounds: [2]float64{0.01, 10},
			Doc: "a lengthscale ℓ_a per term, dividing r² (AIRBO's authors learn one per term: lengthscale = 1, term_lengthscale = learn)"})
	rqmix.Check = func(ctx *registry.CheckContext) {
		checkGroups(ctx)
		checkTermLengthscales(ctx)
	}
	registry.Register(rqmix)
}

// termLengthscale is rqmix's parameter of one lengthscale per term.
const termLengthscale = "term_lengthscale"

// checkTermLengthscales warns when rqmix learns both its lengthscales and
// its per-term ones: the kernel depends only on their products, so one
// scale would be fitted twice.
func checkTermLengthscales(ctx *registry.CheckContext) {
	terms, ls := ctx.Call.Arg(termLengthscale), ctx.Call.Arg(lengthscale.Name)
	if terms == nil || ls == nil {
		return
	}
	if _, ok := terms.Value.(*ir.Learn); !ok {
		return
	}
	if _, ok := ls.Value.(*ir.Learn); ok {
		ctx.Report(dsl.Warningf(terms.Span, "rqmix learns both lengthscale and %s, whose products alone matter", termLengthscale).
			WithHint("fix one, e.g. lengthscale = 1 as in AIRBO's kernel"))
	}
}

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
	// rqmixEmit is Σ_a (1 + r_a²/(2a))^(−a) with r_a² = r²/ℓ_a², unnormalised
	// as in the paper: k(x, x) = 5s². A term's slope in r² is its slope in
	// r_a² over ℓ_a², and its derivative in log ℓ_a is −2·r_a² times that.
	rqmixEmit = stationaryEmit(func(g *registry.KernelGen, r2 string, _ bool) profile {
		var pr profile
		var value, slope *jen.Statement
		for t, a := range rqMixShapes {
			ra2, scale := r2, g.Hyper(termLengthscale, t)
			if !(scale.Fixed && scale.Value == 1) {
				ra2 = g.Fresh("ra2")
				divided := jen.Id(r2).Op("/").Parens(jen.Add(scale.Code).Op("*").Add(scale.Code))
				if scale.Fixed {
					divided = jen.Id(r2).Op("*").Lit(1 / (scale.Value * scale.Value))
				}
				pr.stmts = append(pr.stmts, jen.Id(ra2).Op(":=").Add(divided))
			}
			stmts, p, s, _ := rationalQuadratic(g, ra2, registry.Hyper{Code: jen.Lit(a), Fixed: true, Value: a, Index: -1})
			pr.stmts = append(pr.stmts, stmts...)
			if ra2 != r2 {
				if !scale.Fixed {
					pr.own = append(pr.own, hyperTerm{scale.Index, jen.Lit(-2.0).Op("*").Id(ra2).Op("*").Add(s)})
				}
				s = jen.Add(s).Op("/").Parens(jen.Add(scale.Code).Op("*").Add(scale.Code))
			}
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
