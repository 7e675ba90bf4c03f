package plan

import (
	"fmt"
	"io"
	"strings"

	"github.com/bocdev/boc/dsl/ir"
)

// Fprint writes o in a stable, line-oriented form, for
// `boc check --dump plan` and golden tests.
func Fprint(w io.Writer, o *Optimizer) {
	p := o.Program
	fmt.Fprintf(w, "plan %s\n", p.Name)
	fmt.Fprintf(w, "learned %d values (kernel %d, model %d)\n", o.Hyper.Size, o.Hyper.Kernel, o.Hyper.Size-o.Hyper.Kernel)
	for _, s := range o.Hyper.Slots {
		at := fmt.Sprint(s.Index)
		if s.Size > 1 {
			at = fmt.Sprintf("%d..%d", s.Index, s.Index+s.Size-1)
		}
		fmt.Fprintf(w, "  h[%s] %s.%s in [%g, %g] from %s%s\n", at, name(s.Call), s.Param, s.Lo, s.Hi, numbers(s.Init), position(s.Call))
	}
	if v := o.Hyper.ValueOnly; v != nil {
		fmt.Fprintf(w, "  kernel %s has no derivatives%s\n", name(v), position(v))
	}
	switch n := o.Noise; {
	case n == nil:
		fmt.Fprintln(w, "noise variance not learned")
	case n.Implied:
		fmt.Fprintf(w, "noise variance learned in [%g, %g] from %g, for the input noise\n", n.Lo, n.Hi, n.Init)
	default:
		fmt.Fprintf(w, "noise variance learned in [%g, %g] from %g\n", n.Lo, n.Hi, n.Init)
	}
	fmt.Fprintf(w, "refit learns %d values\n", o.NumFit())
	if d := o.Draws; d != nil {
		fmt.Fprintf(w, "input noise drawn from %d base uniforms\n", d.BaseLen)
		for i, n := range p.InputNoise {
			fmt.Fprintf(w, "  %s from uniform %d%s\n", name(n.Dist), d.Offsets[i], position(n.Dist))
		}
	} else {
		fmt.Fprintln(w, "input noise not drawn")
	}
	fmt.Fprintf(w, "memory about %s\n", bytes(o.Memory))
}

// numbers renders xs as "0.3" or "[0.3, 0.4]".
func numbers(xs []float64) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprintf("%g", x)
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// position renders " @line:col" for a call from the source, "" for one the
// checker made from a default.
func position(c *ir.Call) string {
	if !c.Span.Start.IsValid() || c.Span.Start.Line == 0 {
		return " (default)"
	}
	return fmt.Sprintf(" @%d:%d", c.Span.Start.Line, c.Span.Start.Col)
}
