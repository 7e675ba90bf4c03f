package stdlib

import (
	"github.com/bocdev/boc/runtime/acq"
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

func init() {
	registry.Register(&registry.Plugin{Kind: registry.Acquisition, Name: "hedge",
		Doc: "GP-Hedge (Hoffman, Brochu, de Freitas): a portfolio of ei, pi and ucb; each suggestion maximises all three " +
			"and plays one maximiser, drawn with probability ∝ exp(η·gain), an arm's gain the posterior mean summed over its maximisers so far",
		Params: []registry.Param{
			withDoc(xiParam, "required improvement ξ of the ei and pi arms, in the objective's units"),
			withDoc(betaParam, "weight β of σ in the ucb arm's μ + β σ"),
			{Name: "eta", Type: registry.RealParam, Default: registry.Real(1), Range: positive,
				Doc: "η: how strongly the arms' gains, on the model's standardised scale, favour the best arm"},
		},
		Runtime: []string{runtimeAcq},
		Emit: registry.AcquisitionHooks{Code: hedgeEmit, Spec: func(a *registry.Args) registry.AcquisitionSpec {
			// The ei and pi arms improve on the best value observed, as the
			// ei and pi acquisitions do by default.
			return registry.AcquisitionSpec{Arms: acq.HedgeArms, Eta: a.Real("eta"), Incumbent: registry.BestObserved}
		}}})
}

// hedgeEmit scores the arm being searched (runtime/acq.Hedge).
var hedgeEmit registry.AcquisitionEmit = func(g *registry.AcquisitionGen) registry.AcquisitionCode {
	xi, beta := g.Real("xi"), g.Real("beta")
	args := func(arm jen.Code) []jen.Code {
		return []jen.Code{arm, g.Mean, g.SD, g.Best, jen.Lit(xi), jen.Lit(beta)}
	}
	return registry.AcquisitionCode{
		Score:    acqCall("Hedge", args(g.Arm)...),
		Gradient: acqCall("HedgeGrad", args(g.Arm)...),
		Value:    jen.Qual("math", "Exp").Call(g.Score), // the ei arm's (AcquisitionSpec.Arms)
	}
}
