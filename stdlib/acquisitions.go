package stdlib

import "github.com/bocdev/boc/stdlib/registry"

func init() {
	beta := registry.Param{Name: "beta", Type: registry.RealParam, Default: "2", Range: nonNegative,
		Doc: "exploration weight β in μ + β σ (β multiplies σ directly, as in uGP-UCB and AIRBO)"}
	xi := registry.Param{Name: "xi", Type: registry.RealParam, Default: "0", Range: nonNegative,
		Doc: "required improvement ξ, in the objective's units"}
	registry.Register(&registry.Plugin{Kind: registry.Acquisition, Name: "ucb",
		Doc: "upper confidence bound μ + β σ", Params: []registry.Param{beta}, Emit: ucbEmit})
	registry.Register(&registry.Plugin{Kind: registry.Acquisition, Name: "ei",
		Doc: "expected improvement over the best posterior mean at an evaluated point", Params: []registry.Param{xi}, Emit: eiEmit})
	registry.Register(&registry.Plugin{Kind: registry.Acquisition, Name: "pi",
		Doc: "probability of improvement", Params: []registry.Param{xi}, Emit: piEmit})
	registry.Register(&registry.Plugin{Kind: registry.Acquisition, Name: "ei_noisy",
		Doc: "corrected noisy expected improvement (Zhou, Ma, Blaschko, Eq. 7)"})
	registry.Register(&registry.Plugin{Kind: registry.Acquisition, Name: "uei",
		Doc: "unscented expected improvement over the input distribution's sigma points"})
	registry.Register(&registry.Plugin{Kind: registry.Acquisition, Name: "safe_ucb",
		Doc: "SGP-UCB: UCB restricted to the estimated safe set, after a safe exploration phase",
		Params: []registry.Param{beta,
			{Name: "delta", Type: registry.RealParam, Default: "0.01", Range: unit, Doc: "failure probability δ"}}})
}
