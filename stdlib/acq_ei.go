package stdlib

import (
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

func init() {
	registry.Register(&registry.Plugin{Kind: registry.Acquisition, Name: "ei",
		Doc: "expected improvement over the best posterior mean at an evaluated point", Params: []registry.Param{xiParam}, Emit: eiEmit})
	registry.Register(&registry.Plugin{Kind: registry.Acquisition, Name: "pi",
		Doc: "probability of improvement over the best posterior mean at an evaluated point", Params: []registry.Param{xiParam}, Emit: piEmit})
	registry.Register(&registry.Plugin{Kind: registry.Acquisition, Name: "ei_noisy",
		Doc:  "corrected noisy expected improvement (Zhou, Ma, Blaschko, Eq. 7) over the incumbent, under the joint posterior",
		Emit: eiNoisyEmit})
}

// EI, PI and corrected noisy EI, scored in log space (logSpace).
var (
	eiEmit registry.AcquisitionEmit = func(g *registry.AcquisitionGen) registry.AcquisitionCode {
		return logSpace(g, "LogEI", false, g.Mean, g.SD, g.Best, jen.Lit(g.Real("xi")))
	}
	piEmit registry.AcquisitionEmit = func(g *registry.AcquisitionGen) registry.AcquisitionCode {
		return logSpace(g, "LogPI", false, g.Mean, g.SD, g.Best, jen.Lit(g.Real("xi")))
	}
	eiNoisyEmit registry.AcquisitionEmit = func(g *registry.AcquisitionGen) registry.AcquisitionCode {
		return logSpace(g, "LogNoisyEI", true, g.Mean, g.SD, g.Best, g.BestSD, g.Cov)
	}
)
