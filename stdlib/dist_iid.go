package stdlib

import (
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

func init() {
	registry.Register(distribution(iidEmit, "iid", "n independent copies of a one-dimensional distribution", iidDim,
		registry.Param{Name: "d", Type: registry.DistParam, Doc: "a dist[1]"},
		registry.Param{Name: "n", Type: registry.IntParam, Range: atLeastOne, Doc: "number of copies"}))
}

// iidEmit is the iid distribution's hooks.
var iidEmit = registry.DistributionEmit{
	BaseLen: func(g *registry.DrawGen) int {
		d, ok := iidPart(g)
		if !ok {
			return 0
		}
		return g.Int("n") * d.hooks.BaseLen(g.Sub(d.call, 0))
	},
	Draw: func(g *registry.DrawGen) (stmts, elems []jen.Code) {
		d, ok := iidPart(g)
		if !ok {
			return nil, nil
		}
		step := d.hooks.BaseLen(g.Sub(d.call, 0))
		for i := range g.Int("n") {
			s, e := d.hooks.Draw(g.Sub(d.call, i*step))
			stmts, elems = append(stmts, s...), append(elems, e...)
		}
		return stmts, elems
	},
	Moments: func(g *registry.DrawGen) (stmts, mean, cov []jen.Code) {
		d, ok := iidPart(g)
		if !ok {
			return nil, nil, nil
		}
		stmts, m, c := d.hooks.Moments(g.Sub(d.call, 0))
		blocks := make([]moments, g.Int("n"))
		for i := range blocks {
			blocks[i] = moments{m, c}
		}
		mean, cov = blockDiagonal(blocks)
		return stmts, mean, cov
	},
	Gaussian: func(g *registry.DrawGen) bool {
		d, ok := iidPart(g)
		return ok && d.hooks.Gaussian(g.Sub(d.call, 0))
	},
}

// iidPart resolves iid's repeated distribution.
func iidPart(g *registry.DrawGen) (distPart, bool) {
	if c := g.Nested("d"); c != nil {
		return nestedDist(g, c)
	}
	return distPart{}, false
}
