package registry

import (
	"fmt"
	"math"
	"strings"
)

// ExampleCall is a call of p in .bo source, for tests that exercise every
// registered plugin and for documentation: p.Example when it has one, else
// p's name with every required argument at a value its parameter accepts. A
// kernel or distribution argument is the example call of the first built
// plugin of that kind, by ID.
func (r *Registry) ExampleCall(p *Plugin) string {
	if p.Example != "" {
		return p.Example
	}
	var args []string
	for i, prm := range p.Params {
		switch {
		case prm.Default.IsSet():
		case prm.Variadic && i == 0: // a variadic parameter takes positional arguments
			v := r.exampleValue(prm, i)
			args = append(args, v+", "+v)
		default:
			args = append(args, prm.Name+" = "+r.exampleValue(prm, i))
		}
	}
	if len(args) == 0 {
		return p.Name
	}
	return p.Name + "(" + strings.Join(args, ", ") + ")"
}

// exampleValue is a value parameter prm, the i-th of its plugin, accepts.
func (r *Registry) exampleValue(prm Param, i int) string {
	switch prm.Type {
	case KernelParam:
		return r.firstExample(Kernel)
	case DistParam:
		return r.firstExample(Distribution)
	case IntParam:
		for _, n := range []float64{2, 1, 0} {
			if prm.Range == nil || prm.Range.Contains(n) {
				return fmt.Sprint(n)
			}
		}
		return fmt.Sprint(math.Ceil(prm.Range.Lo))
	case BoolParam:
		return "true"
	case StringParam:
		return `""`
	}
	// Values that grow with the position, so that lo < hi holds.
	for _, x := range []float64{0.5, 1, 0} {
		x += 0.1 * float64(i)
		if prm.Range == nil || prm.Range.Contains(x) {
			return fmt.Sprint(x)
		}
	}
	return fmt.Sprint(math.Nextafter(prm.Range.Lo, math.Inf(1)))
}

// firstExample is the example call of the first built plugin of kind k
// other than the combinators that take plugins of their own kind.
func (r *Registry) firstExample(k Kind) string {
	for _, p := range r.All() {
		if p.Kind == k && p.Built() && !takes(p, k) {
			return r.ExampleCall(p)
		}
	}
	return ""
}

// takes reports whether p has a parameter that takes a plugin of kind k.
func takes(p *Plugin, k Kind) bool {
	for _, prm := range p.Params {
		if (k == Kernel && prm.Type == KernelParam) || (k == Distribution && prm.Type == DistParam) {
			return true
		}
	}
	return false
}
