package plan

import (
	"slices"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
)

// defaultWarp makes a gp over a domain with categorical dimensions warp
// "auto" when its warp is left to its default and the warping is built for
// the problem: measured on five problems with choices (docs/quality.md,
// "Choices by name") it gained on every one, where choices combine parts of
// different scales, while on the continuous studies it is mixed.
func (b *builder) defaultWarp() {
	p, o := b.o.Program, b.o
	a := p.Model.Arg("warp")
	if a == nil || !a.Default || !slices.ContainsFunc(p.Dims, (*ir.Dim).Categorical) {
		return
	}
	if !o.Learning() || o.Inflates() || o.Safety != nil || len(o.Outcomes) > 0 || len(o.Objectives) > 0 {
		return
	}
	o.Model.Warp = "auto"
}

// warp refuses an output warping (ModelSpec.Warp) where it is not built:
// it is refitted with the hyperparameters, so they must be learned; the
// optimisers of safety constraints, requirements and several objectives keep
// the values as they are.
func (b *builder) warp() {
	p, o := b.o.Program, b.o
	if p.Model == nil {
		return
	}
	if o.Model.Warp == "" {
		b.defaultWarp()
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
