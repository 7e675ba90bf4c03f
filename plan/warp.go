package plan

import (
	"github.com/bocdev/boc/dsl"
)

// warp refuses an output warping (ModelSpec.Warp) where it is not built:
// it is refitted with the hyperparameters, so they must be learned; the
// optimisers of safety constraints, requirements and several objectives keep
// the values as they are.
func (b *builder) warp() {
	p, o := b.o.Program, b.o
	if o.Model.Warp == "" || p.Model == nil {
		return
	}
	refuse := func(what, hint string) {
		b.report(dsl.Errorf(p.Model.Span, "model %s with warp = %q %s", name(p.Model), o.Model.Warp, what).WithHint("%s", hint))
	}
	switch {
	case !o.Learning():
		refuse("needs learned hyperparameters: the warping is refitted with them", "learn the kernel's lengthscale, e.g. kernel = matern52(lengthscale = learn)")
	case o.Inflates():
		refuse("cannot inflate the observation noise, given in the objective's units", `use input_noise = "ignore", or no warp`)
	case o.Safety != nil || len(o.Outcomes) > 0 || len(o.Objectives) > 0:
		refuse("is not supported yet beside safety constraints, requirements or several objectives", "remove warp")
	}
}
