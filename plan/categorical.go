package plan

import (
	"slices"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
)

// A categorical component holds its level's index; every kernel measures it
// by whether two levels differ (registry.KernelGen.Levels, the measured
// outputs' runtime/kernel.Stationary.SetLevels), which the stationary kernels
// do; categorical refuses a kernel that measures components as numbers.
func (b *builder) categorical() {
	p := b.o.Program
	i := slices.IndexFunc(p.Dims, (*ir.Dim).Categorical)
	if i >= 0 {
		b.mixtureByDefault()
	}
	b.interactions(i >= 0)
	if i < 0 {
		return
	}
	dim := p.Dims[i].Name
	if m := p.Model; m != nil && b.o.Model.Kernel != nil {
		if k := nonStationary(b.o.Model.Kernel); k != nil {
			b.report(dsl.Errorf(k.Span, "kernel %s treats every component as a number; a categorical dimension (%s) needs a stationary kernel", name(k), dim).
				WithHint("use se, matern12, matern32, matern52, rq or rqmix, or sums and products of them"))
		}
	}
}

// nonStationary returns the first kernel of the tree under k that measures
// components as numbers (one with no family and no nested kernel), or nil.
func nonStationary(k *ir.Call) *ir.Call {
	var bad *ir.Call
	kernelTree(k, func(c *ir.Call) {
		if p, ok := registry.ByID(c.Plugin); ok && bad == nil && p.Family == "" && len(nestedKernels(c)) == 0 {
			bad = c
		}
	})
	return bad
}

// kernelTree calls visit on every kernel of the tree under k, nested ones
// (sums' and products' parts, a scaled kernel) first.
func kernelTree(k *ir.Call, visit func(*ir.Call)) {
	for _, c := range nestedKernels(k) {
		kernelTree(c, visit)
	}
	visit(k)
}

// nestedKernels returns the kernels among c's arguments, lists included.
func nestedKernels(c *ir.Call) []*ir.Call {
	var out []*ir.Call
	add := func(v ir.Value) {
		if nested, ok := v.(*ir.Call); ok {
			if p, _ := registry.ByID(nested.Plugin); p != nil && p.Kind == registry.Kernel {
				out = append(out, nested)
			}
		}
	}
	for _, a := range c.Args {
		if list, ok := a.Value.(*ir.List); ok {
			for _, v := range list.Values {
				add(v)
			}
		} else {
			add(a.Value)
		}
	}
	return out
}

// mixtureByDefault learns the interaction of every stationary kernel of the
// model that leaves it out, over a domain of choices and numbers, when the
// kernel learns its other hyperparameters and the model is a point model
// (interactions): CoCaBO's mixture of the product and the sum of a kernel
// over the numbers and one over the choices, with its weight fitted.
// Measured on five problems with choices (docs/quality.md, "Choices by
// name") it was ahead of the product on four and level on the fifth, where
// the sum alone lost on four. The plan decides it, as it does the warping,
// by making the defaulted argument learned.
func (b *builder) mixtureByDefault() {
	k := b.o.Model.Kernel
	if k == nil || b.o.InputModel() || !learns(k) || !slices.ContainsFunc(b.o.Program.Dims, func(d *ir.Dim) bool { return !d.Categorical() }) {
		return
	}
	kernelTree(k, func(c *ir.Call) {
		if a := c.Arg("interaction"); a != nil && a.Default {
			a.Value = &ir.Learn{}
		}
	})
}

// learns reports whether a kernel of the tree under k learns a
// hyperparameter.
func learns(k *ir.Call) bool {
	learned := false
	kernelTree(k, func(c *ir.Call) {
		for _, a := range c.Args {
			_, isLearn := a.Value.(*ir.Learn)
			learned = learned || isLearn
		}
	})
	return learned
}

// interactions refuses a kernel's interaction other than the product's 1
// where it has no meaning, a domain without choices (unless the kernel
// averages over components, additive.go), and where it is not
// built: a model over input distributions, whose kernel sums run on
// runtime/kernel.Block, which knows only the product.
func (b *builder) interactions(categorical bool) {
	if b.o.Model.Kernel == nil {
		return
	}
	for _, k := range mixtures(b.o.Model.Kernel) {
		a := k.Arg("interaction")
		switch {
		case !categorical && !byComponent(k):
			b.report(dsl.Errorf(a.Span, "%s's interaction weighs the kernel over numbers and choices together against their sum; the domain has no categorical dimension", name(k)).
				WithHint("leave interaction out"))
		case b.o.InputModel():
			b.report(dsl.Errorf(a.Span, "%s's interaction is not built for a model over input distributions (its kernel sums know only the product)", name(k)).
				WithHint("leave interaction out (1, the product)"))
		}
	}
}

// mixtures returns the stationary kernels of the tree under k whose
// interaction is learned or other than 1.
func mixtures(k *ir.Call) []*ir.Call {
	var out []*ir.Call
	kernelTree(k, func(c *ir.Call) {
		if a := c.Arg("interaction"); a != nil {
			if v, ok := a.Value.(*ir.ConstExpr); !ok || v.Value.Float() != 1 {
				out = append(out, c)
			}
		}
	})
	return out
}
