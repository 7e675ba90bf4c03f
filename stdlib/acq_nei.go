package stdlib

import (
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

func init() {
	registry.Register(&registry.Plugin{Kind: registry.Acquisition, Name: "nei",
		Doc: "noisy expected improvement by Monte Carlo (Letham et al.; BoTorch's qNoisyExpectedImprovement for one point): " +
			"EI over the best latent value at the evaluated points, averaged over samples of their joint posterior",
		Params:  []registry.Param{neiSamples},
		Runtime: []string{runtimeAcq}, Check: checkLookahead,
		Emit: registry.AcquisitionHooks{Code: neiEmit, Spec: func(a *registry.Args) registry.AcquisitionSpec {
			return registry.AcquisitionSpec{Lookahead: true, LatentDraws: a.Int("samples"), LogScore: true}
		}}})
}

// neiSamples is the number of samples of the evaluated points' values. Each
// gives a closed-form EI, so a few dozen average out well; Letham et al.
// and the corrected-EI paper's baseline use 20.
var neiSamples = registry.Param{Name: "samples", Type: registry.IntParam, Default: registry.Int(32),
	Range: &registry.Range{Lo: 1, Hi: 1024},
	Doc:   "number of samples of the evaluated points' latent values, drawn before each search; a candidate's score costs one EI per sample"}

// neiEmit scores log NEI (runtime/acq.LatentDraws.LogNEI).
var neiEmit registry.AcquisitionEmit = func(g *registry.AcquisitionGen) registry.AcquisitionCode {
	return registry.AcquisitionCode{
		Score:    jen.Add(g.LatentDraws).Dot("LogNEI").Call(g.Covs, g.Mean, g.SD, g.Scratch),
		Gradient: jen.Add(g.LatentDraws).Dot("LogNEIGrad").Call(g.Covs, g.Mean, g.SD, g.Scratch, g.DCovs),
		Value:    jen.Qual("math", "Exp").Call(g.Score),
	}
}
