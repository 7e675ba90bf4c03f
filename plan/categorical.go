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
	p, ok := registry.ByID(k.Plugin)
	if !ok {
		return nil
	}
	composite := false
	for _, a := range k.Args {
		if nested, isCall := a.Value.(*ir.Call); isCall {
			if q, _ := registry.ByID(nested.Plugin); q != nil && q.Kind == registry.Kernel {
				composite = true
				if bad := nonStationary(nested); bad != nil {
					return bad
				}
			}
		}
	}
	if p.Family == "" && !composite {
		return k
	}
	return nil
}
