package stdlib

import (
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

// Import paths of the runtime packages emitted code calls.
const (
	runtimeGP     = "github.com/bocdev/boc/runtime/gp"
	runtimeAcq    = "github.com/bocdev/boc/runtime/acq"
	runtimeDesign = "github.com/bocdev/boc/runtime/design"
	runtimeSearch = "github.com/bocdev/boc/runtime/search"
	runtimeBench  = "github.com/bocdev/boc/runtime/bench"
)

// gpEmit holds the exact GP of runtime/gp with the model's kernel.
var gpEmit registry.ModelEmit = func(g *registry.ModelGen) registry.ModelCode {
	return registry.ModelCode{
		Type:   jen.Op("*").Qual(runtimeGP, "GP"),
		New:    jen.Qual(runtimeGP, "New").Call(g.Capacity),
		Kernel: g.Nested("kernel"),
	}
}

// designEmit calls a runtime/design generator func(n, dim int, seed uint64,
// out []float64), returning its error when it has one.
func designEmit(name string, returnsError bool) registry.InitEmit {
	return func(g *registry.InitGen) []jen.Code {
		call := jen.Qual(runtimeDesign, name).Call(jen.Lit(g.N), jen.Lit(g.D), g.Seed, g.Out)
		if !returnsError {
			return []jen.Code{call}
		}
		return []jen.Code{jen.If(jen.Id("err").Op(":=").Add(call), jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Id("err")))}
	}
}

var (
	sobolEmit  = designEmit("SobolDesign", true)
	lhsEmit    = designEmit("LHS", false)
	randomEmit = designEmit("Random", false)
)

// patternEmit holds runtime/search's pattern search.
var patternEmit registry.SearchEmit = func(g *registry.SearchGen) registry.SearchCode {
	return registry.SearchCode{
		Type: jen.Op("*").Qual(runtimeSearch, "Pattern"),
		New:  jen.Qual(runtimeSearch, "NewPattern").Call(jen.Lit(g.D), jen.Lit(g.Int("raw")), jen.Lit(g.Int("restarts"))),
	}
}

// distributionEmits holds the hooks of the one-dimensional distributions,
// keyed by name; their variances are the textbook moments, and their samplers
// draw from the distribution as declared (mean and scale included).
var distributionEmits = map[string]registry.DistributionEmit{
	"normal": {
		Variance: func(a *registry.Args) float64 { return sq(a.Real("sd")) },
		Sample: func(a *registry.Args, rand jen.Code) jen.Code {
			return shifted(a.Real("mean"), jen.Lit(a.Real("sd")).Op("*").Add(rand).Dot("NormFloat64").Call())
		},
	},
	"uniform": {
		Variance: func(a *registry.Args) float64 { return sq(a.Real("hi")-a.Real("lo")) / 12 },
		Sample: func(a *registry.Args, rand jen.Code) jen.Code {
			lo := a.Real("lo")
			return shifted(lo, jen.Lit(a.Real("hi")-lo).Op("*").Add(rand).Dot("Float64").Call())
		},
	},
	"beta": {
		Variance: func(a *registry.Args) float64 {
			p, q := a.Real("a"), a.Real("b")
			return sq(a.Real("scale")) * p * q / (sq(p+q) * (p + q + 1))
		},
		Sample: func(a *registry.Args, rand jen.Code) jen.Code {
			return scaled(a.Real("scale"), jen.Qual(distuv, "Beta").Values(jen.Dict{
				jen.Id("Alpha"): jen.Lit(a.Real("a")), jen.Id("Beta"): jen.Lit(a.Real("b")), jen.Id("Src"): rand,
			}).Dot("Rand").Call())
		},
	},
	"chi2": {
		Variance: func(a *registry.Args) float64 { return sq(a.Real("scale")) * 2 * a.Real("df") },
		Sample: func(a *registry.Args, rand jen.Code) jen.Code {
			return scaled(a.Real("scale"), jen.Qual(distuv, "ChiSquared").Values(jen.Dict{
				jen.Id("K"): jen.Lit(a.Real("df")), jen.Id("Src"): rand,
			}).Dot("Rand").Call())
		},
	},
}

// distuv is gonum's package of distributions, whose samplers take a
// math/rand/v2 source.
const distuv = "gonum.org/v1/gonum/stat/distuv"

// shifted is offset + draw, leaving out a zero offset.
func shifted(offset float64, draw *jen.Statement) jen.Code {
	if offset == 0 {
		return draw
	}
	return jen.Lit(offset).Op("+").Add(draw)
}

// scaled is factor·draw, leaving out a unit factor.
func scaled(factor float64, draw *jen.Statement) jen.Code {
	if factor == 1 {
		return draw
	}
	return jen.Lit(factor).Op("*").Add(draw)
}

func sq(x float64) float64 { return x * x }

// distributionEmit returns the Emit value of distribution name: its hooks,
// or nil when this version cannot emit it.
func distributionEmit(name string) any {
	if e, ok := distributionEmits[name]; ok {
		return e
	}
	return nil
}
