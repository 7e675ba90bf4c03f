package stdlib

import (
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

func init() {
	registry.Register(&registry.Plugin{Kind: registry.Acquisition, Name: "ei",
		Doc: "expected improvement over the best posterior mean at an evaluated point", Params: []registry.Param{xiParam}, Emit: pointAcquisition(eiEmit), Runtime: []string{runtimeAcq}})
	registry.Register(&registry.Plugin{Kind: registry.Acquisition, Name: "pi",
		Doc: "probability of improvement over the best posterior mean at an evaluated point", Params: []registry.Param{xiParam}, Emit: pointAcquisition(piEmit), Runtime: []string{runtimeAcq}})
	registry.Register(&registry.Plugin{Kind: registry.Acquisition, Name: "ei_noisy",
		Doc:     "corrected noisy expected improvement (Zhou, Ma, Blaschko, Eq. 7) over the incumbent, under the joint posterior",
		Runtime: []string{runtimeAcq},
		Emit: registry.AcquisitionHooks{Code: eiNoisyEmit,
			Spec: func(*registry.Args) registry.AcquisitionSpec { return registry.AcquisitionSpec{Joint: true} }}})
}

// EI, PI and corrected noisy EI, scored in log space (logSpace); noisy EI
// compares the candidate with the incumbent under their joint posterior.
var (
	eiEmit registry.AcquisitionEmit = func(g *registry.AcquisitionGen) registry.AcquisitionCode {
		return logSpace(g, "LogEI", g.Mean, g.SD, g.Best, jen.Lit(g.Real("xi")))
	}
	piEmit registry.AcquisitionEmit = func(g *registry.AcquisitionGen) registry.AcquisitionCode {
		return logSpace(g, "LogPI", g.Mean, g.SD, g.Best, jen.Lit(g.Real("xi")))
	}
	eiNoisyEmit registry.AcquisitionEmit = func(g *registry.AcquisitionGen) registry.AcquisitionCode {
		return logSpace(g, "LogNoisyEI", g.Mean, g.SD, g.Best, g.BestSD, g.Cov)
	}
)
