package plan

import (
	"math"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
)

// Hyper lays out the model's learned values in the vector a refit fits:
// the kernel's hyperparameters in the order the kernel tree names them, then
// the model's own (such as mmd's alpha).
type Hyper struct {
	Slots  []Slot
	Kernel int // learned values of the kernel: the first Kernel of the vector
	Size   int // all learned values of the model
	// ValueOnly is the first kernel of the tree without analytic
	// derivatives, whose input gradient is taken by differences; nil when
	// every kernel has them.
	ValueOnly *ir.Call
}

// Slot is one learned parameter of one call: Size values from Index on (one,
// or one per input component for an ARD lengthscale), fitted on a log scale
// within [Lo, Hi] from Init (natural units).
type Slot struct {
	Call        *ir.Call
	Param       string
	Index, Size int
	// PerComponent says the slot holds one value per domain component (a
	// lengthscale per component, ARD), not a vector of another length.
	PerComponent bool
	Init         []float64
	Lo, Hi       float64
}

// Slot returns the slot of parameter param of call c, or nil when it is not
// learned.
func (h *Hyper) Slot(c *ir.Call, param string) *Slot {
	for i := range h.Slots {
		if h.Slots[i].Call == c && h.Slots[i].Param == param {
			return &h.Slots[i]
		}
	}
	return nil
}

// hyper lays out the learned values of the model's kernel and then of the
// model itself.
func (b *builder) hyper() {
	m, k := b.o.Program.Model, b.o.Model.Kernel
	if k == nil {
		return
	}
	valueOnly := b.kernelCall(k)
	b.o.Hyper.ValueOnly = valueOnly
	if valueOnly != nil && b.o.Hyper.Size > 0 {
		b.report(dsl.Errorf(valueOnly.Span, "kernel %s has no derivatives, so no hyperparameter of the kernel it is part of can be learned", name(valueOnly)).
			WithHint("give the other kernels' hyperparameters fixed values (lengthscale and variance default to learn)"))
	}
	b.o.Hyper.Kernel = b.o.Hyper.Size
	p, ok := registry.ByID(m.Plugin)
	if !ok {
		return
	}
	for _, a := range m.Args {
		if l, ok := a.Value.(*ir.Learn); ok {
			b.learned(p, m, a, l)
		}
	}
}

// kernelCall lays out the learned values of kernel c and the kernels nested
// in it, and returns the first kernel of the tree without derivatives.
func (b *builder) kernelCall(c *ir.Call) (valueOnly *ir.Call) {
	p, ok := registry.ByID(c.Plugin)
	if !ok {
		return nil
	}
	diff := registry.Differentiable(p)
	if !diff {
		valueOnly = c
	}
	for _, a := range c.Args {
		if v := b.kernelArg(p, c, a, a.Value, diff); valueOnly == nil {
			valueOnly = v
		}
	}
	return valueOnly
}

func (b *builder) kernelArg(p *registry.Plugin, c *ir.Call, a *ir.Arg, v ir.Value, diff bool) (valueOnly *ir.Call) {
	switch v := v.(type) {
	case *ir.Call:
		return b.kernelCall(v)
	case *ir.List:
		for _, e := range v.Values {
			if w := b.kernelArg(p, c, a, e, diff); valueOnly == nil {
				valueOnly = w
			}
		}
	case *ir.Learn:
		if !diff {
			b.report(dsl.Errorf(a.Span, "kernel %s cannot learn its hyperparameters: give a fixed value, e.g. %s = %s",
				p.Name, a.Name, fixedExample(p, a.Name)))
			return nil
		}
		b.learned(p, c, a, v)
	}
	return valueOnly
}

// learned gives a learned parameter its slot.
func (b *builder) learned(p *registry.Plugin, c *ir.Call, a *ir.Arg, l *ir.Learn) {
	if s, ok := b.slot(p, c, a, l); ok {
		s.Index = b.o.Hyper.Size
		b.o.Hyper.Slots = append(b.o.Hyper.Slots, s)
		b.o.Hyper.Size += s.Size
	}
}

// slotOf is argument a's slot when it is learned.
func (b *builder) slotOf(p *registry.Plugin, c *ir.Call, a *ir.Arg) (Slot, bool) {
	if l, ok := a.Value.(*ir.Learn); ok {
		return b.slot(p, c, a, l)
	}
	return Slot{}, false
}

// slot is the slot of learned argument a of call c, without its index; ok
// is false (and the error reported) when its bounds are unusable.
func (b *builder) slot(p *registry.Plugin, c *ir.Call, a *ir.Arg, l *ir.Learn) (Slot, bool) {
	prm := p.Param(a.Name)
	if prm == nil {
		return Slot{}, false
	}
	s := Slot{Call: c, Param: a.Name, Size: 1}
	if prm.Type == registry.RealOrVecParam {
		s.Size, s.PerComponent = prm.VecLen(b.o.Program.D), prm.Len == 0
	}
	switch {
	case l.HasBounds:
		s.Lo, s.Hi = l.Lo, l.Hi
	case prm.LearnBounds != [2]float64{}:
		s.Lo, s.Hi = prm.LearnBounds[0], prm.LearnBounds[1]
	case prm.Range != nil:
		s.Lo, s.Hi = prm.Range.Lo, prm.Range.Hi
	}
	if !(s.Lo > 0 && s.Lo < s.Hi) || math.IsInf(s.Hi, 0) {
		b.report(dsl.Errorf(a.Span, "%s's %s needs positive, finite learn bounds", p.Name, a.Name).
			WithHint("give them: %s = learn(bounds = [0.01, 10])", a.Name))
		return Slot{}, false
	}
	s.Init = make([]float64, s.Size)
	for i := range s.Init {
		switch {
		case l.HasInit && len(l.Init) == s.Size:
			s.Init[i] = l.Init[i]
		case l.HasInit && len(l.Init) > 0:
			s.Init[i] = l.Init[0]
		default:
			s.Init[i] = math.Sqrt(s.Lo * s.Hi) // the middle of the log box
		}
		s.Init[i] = min(max(s.Init[i], s.Lo), s.Hi)
	}
	return s, true
}

// fixedExample is a value to suggest instead of `learn`: the parameter's
// default when that is a number, else 1.
func fixedExample(p *registry.Plugin, param string) string {
	if prm := p.Param(param); prm != nil && (prm.Default.Kind == registry.RealValue || prm.Default.Kind == registry.IntValue) {
		return prm.Default.String()
	}
	return "1"
}

// name is the name a plugin has in .bo source: "matern52" for
// "kernel.matern52".
func name(c *ir.Call) string {
	if p, ok := registry.ByID(c.Plugin); ok {
		return p.Name
	}
	return c.Plugin
}
