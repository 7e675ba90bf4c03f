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

// Acquisitions call runtime/acq, which uses the same maximisation convention.
var (
	ucbEmit registry.AcquisitionEmit = func(g *registry.AcquisitionGen) jen.Code {
		return jen.Qual(runtimeAcq, "UCB").Call(g.Mean, g.SD, jen.Lit(g.Real("beta")))
	}
	eiEmit registry.AcquisitionEmit = func(g *registry.AcquisitionGen) jen.Code {
		return jen.Qual(runtimeAcq, "EI").Call(g.Mean, g.SD, g.Best, jen.Lit(g.Real("xi")))
	}
	piEmit registry.AcquisitionEmit = func(g *registry.AcquisitionGen) jen.Code {
		return jen.Qual(runtimeAcq, "PI").Call(g.Mean, g.SD, g.Best, jen.Lit(g.Real("xi")))
	}
)

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
// keyed by name; their variances are the textbook moments.
var distributionEmits = map[string]registry.DistributionEmit{
	"normal": {Variance: func(a *registry.Args) float64 { return sq(a.Real("sd")) }},
	"uniform": {Variance: func(a *registry.Args) float64 {
		return sq(a.Real("hi")-a.Real("lo")) / 12
	}},
	"beta": {Variance: func(a *registry.Args) float64 {
		p, q := a.Real("a"), a.Real("b")
		return sq(a.Real("scale")) * p * q / (sq(p+q) * (p + q + 1))
	}},
	"chi2": {Variance: func(a *registry.Args) float64 { return sq(a.Real("scale")) * 2 * a.Real("df") }},
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
