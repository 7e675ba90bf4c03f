package stdlib

import (
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

// Acquisition hooks, one file per acquisition (acq_*.go), call runtime/acq,
// which uses the same maximisation convention. EI, PI, their corrected noisy
// forms, noisy EI by Monte Carlo and the knowledge gradient are searched in
// log space, where they never underflow to a flat 0 (the maximiser is the
// same), and converted back with exp for `stop when acquisition < κ`.

// betaParam and xiParam are the exploration weight and required improvement
// several acquisitions share.
var (
	betaParam = registry.Param{Name: "beta", Type: registry.RealParam, Default: registry.Real(2), Range: nonNegative,
		Doc: "exploration weight β in μ + β σ (β multiplies σ directly, as in uGP-UCB and AIRBO)"}
	xiParam = registry.Param{Name: "xi", Type: registry.RealParam, Default: registry.Real(0), Range: nonNegative,
		Doc: "required improvement ξ, in the objective's units"}
)

// withDoc returns p documented for one plugin's use of it.
func withDoc(p registry.Param, doc string) registry.Param {
	p.Doc = doc
	return p
}

// logSpace is the code of an acquisition whose score is its logarithm,
// runtime/acq's function name and name+"Grad" called with args.
func logSpace(g *registry.AcquisitionGen, name string, args ...jen.Code) registry.AcquisitionCode {
	return registry.AcquisitionCode{
		Score:    acqCall(name, args...),
		Gradient: acqCall(name+"Grad", args...),
		Value:    jen.Qual("math", "Exp").Call(g.Score),
	}
}

// pointAcquisition is an acquisition of the posterior at the candidate
// alone, scored by code.
func pointAcquisition(code registry.AcquisitionEmit) registry.AcquisitionHooks {
	return registry.AcquisitionHooks{Spec: func(*registry.Args) registry.AcquisitionSpec { return registry.AcquisitionSpec{} }, Code: code}
}

// acqCall is a call of runtime/acq's function name.
func acqCall(name string, args ...jen.Code) jen.Code { return jen.Qual(runtimeAcq, name).Call(args...) }
