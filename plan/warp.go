package plan

import (
	"slices"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
)

// warp decides the output warping (ModelSpec.Warp). One asked for where it
// is not built is refused: it is refitted with the hyperparameters, so they
// must be learned; the optimisers of safety constraints, requirements and
// several objectives keep the values as they are. One left to its default
// is "auto" over a domain with categorical dimensions where it is built:
// measured on five problems with choices (docs/quality.md, "Choices by
// name") it gained on every one, where choices join parts of different
// scales, while on the continuous studies it is mixed.
func (b *builder) warp() {
	p, o := b.o.Program, b.o
	if p.Model == nil {
		return
	}
	what, hint := b.warpUnbuilt()
	if o.Model.Warp == "" {
		a := p.Model.Arg("warp")
		if what == "" && a != nil && a.Default && slices.ContainsFunc(p.Dims, (*ir.Dim).Categorical) {
			o.Model.Warp = "auto"
		}
		return
	}
	if what != "" {
		b.report(dsl.Errorf(p.Model.Span, "model %s with warp = %q %s", name(p.Model), o.Model.Warp, what).WithHint("%s", hint))
	}
}

// warpUnbuilt says why the warping is not built for this optimiser, with a
// hint; "" when it is.
func (b *builder) warpUnbuilt() (what, hint string) {
	o := b.o
	switch {
	case !o.Learning():
		return "needs learned hyperparameters: the warping is refitted with them", "learn the kernel's lengthscale, e.g. kernel = matern52(lengthscale = learn)"
	case o.Inflates():
		return "cannot inflate the observation noise, given in the objective's units", `use input_noise = "ignore", or no warp`
	case o.Safety != nil || len(o.Outcomes) > 0 || len(o.Objectives) > 0:
		return "is not supported yet beside safety constraints, requirements or several objectives", "remove warp"
	}
	return "", ""
}
