package ir

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/bocdev/boc/dsl"
)

// Fprint writes a readable dump of p: one statement per line, the arguments
// of plugin calls indented below them (every parameter, marked when its
// value is the default), and expressions as S-expressions with their types,
// e.g. (+ x:real 0.5:real):real. Source positions appear as @line:col. The
// output is deterministic; `boc check --dump ir` and golden tests use it.
func Fprint(w io.Writer, p *Program) {
	d := &dumper{w: w}
	d.program(p)
}

// FprintIdentity writes what makes p the problem it is: Fprint's dump
// without the source file, the source positions and the budget, which a
// study may outgrow. Two programs with the same identity suggest the same
// points from the same observations.
func FprintIdentity(w io.Writer, p *Program) {
	d := &dumper{w: w, identity: true}
	d.program(p)
}

type dumper struct {
	w        io.Writer
	depth    int
	identity bool // leave out the source, positions and budget
}

func (d *dumper) line(format string, args ...any) {
	fmt.Fprintf(d.w, "%s%s\n", strings.Repeat("  ", d.depth), fmt.Sprintf(format, args...))
}

// nested runs f one level deeper.
func (d *dumper) nested(f func()) {
	d.depth++
	f()
	d.depth--
}

func (d *dumper) program(p *Program) {
	d.line("problem %s", p.Name)
	if !d.identity {
		d.line("source %s", p.Source)
	}
	d.line("dims D=%d", p.D)
	d.nested(func() {
		for _, dim := range p.Dims {
			d.dim(dim)
		}
	})
	if o := p.Objective; o.Outputs != nil {
		d.objectives(o)
	} else {
		d.line("objective %s", direction(o.Maximize))
		d.nested(func() { d.binding(o.Binding) })
	}
	if c := p.Candidates; c != nil {
		d.line("candidates%s", d.at(c.Span))
		d.nested(func() {
			if c.File != "" {
				d.line("file %q", c.File)
			}
			if c.Call != nil {
				d.call("", c.Call, false)
			}
			d.points(c.Points)
		})
	}
	for _, n := range p.InputNoise {
		d.line("input noise %s%s", componentNames(p, n.Target), d.at(n.Span))
		d.nested(func() { d.call("", n.Dist, false) })
	}
	d.obsNoise(p.ObsNoise)
	for _, c := range p.Constraints {
		d.constraint(c)
	}
	d.statementCall("model", p.Model)
	d.statementCall("acquisition", p.Acquisition)
	d.statementCall("search", p.Search)
	if !d.identity {
		d.line("budget %d", p.Budget)
	}
	d.line("init%s", d.at(p.Init.Span))
	d.nested(func() {
		if p.Init.Call != nil {
			d.call("", p.Init.Call, false)
		}
		d.points(p.Init.Points)
	})
	d.line("seed %d", p.Seed)
	if p.Stop != nil {
		d.line("stop when %s", SExpr(p.Stop))
	}
}

// objectives dumps several objectives: the binding that measures them, or
// each one's expression.
func (d *dumper) objectives(o Objective) {
	d.line("objectives %d", len(o.Outputs))
	d.nested(func() {
		if o.Binding.Kind != ExprBinding {
			d.binding(o.Binding)
		}
		for _, out := range o.Outputs {
			threshold := ""
			if !math.IsNaN(out.Threshold) {
				threshold = " threshold " + dsl.RealValue(out.Threshold).String()
			}
			d.line("%s %s%s%s", direction(out.Maximize), out.Name, threshold, d.at(out.Span))
			d.nested(func() {
				if out.Expr != nil {
					d.line("expr %s", SExpr(out.Expr))
				}
				if out.Kernel != nil {
					d.call("kernel = ", out.Kernel, false)
				}
				if out.Noise != nil {
					d.call("noise = ", out.Noise, false)
				}
			})
		}
	})
}

func direction(maximize bool) string {
	if maximize {
		return "maximize"
	}
	return "minimize"
}

// at renders a span's start as @line:col, or nothing for IR that the checker
// made up (defaults).
func (d *dumper) at(sp dsl.Span) string {
	if d.identity || !sp.Start.IsValid() {
		return ""
	}
	return fmt.Sprintf(" @%d:%d", sp.Start.Line, sp.Start.Col)
}

func (d *dumper) dim(dim *Dim) {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s ", dim.Name, dim.Type())
	lo, hi := dsl.RealValue(dim.Lo), dsl.RealValue(dim.Hi)
	switch {
	case dim.Categorical():
		quoted := make([]string, len(dim.Levels))
		for i, l := range dim.Levels {
			quoted[i] = strconv.Quote(l)
		}
		fmt.Fprintf(&b, "{%s}", strings.Join(quoted, ", "))
	case dim.Integer:
		fmt.Fprintf(&b, "%s..%s", lo, hi)
	default:
		fmt.Fprintf(&b, "[%s, %s]", lo, hi)
	}
	if dim.Log {
		b.WriteString(" log")
	}
	if dim.When != nil {
		fmt.Fprintf(&b, " when %s", SExpr(dim.When))
	}
	if dim.Size == 1 {
		fmt.Fprintf(&b, " component %d", dim.Offset)
	} else {
		fmt.Fprintf(&b, " components %d..%d", dim.Offset, dim.Offset+dim.Size-1)
	}
	d.line("%s%s", b.String(), d.at(dim.Span))
}

// componentNames renders component indices as names: x, p[2].
func componentNames(p *Program, idx []int) string {
	names := make([]string, len(idx))
	for i, k := range idx {
		names[i] = p.ComponentName(k)
	}
	return "(" + strings.Join(names, ", ") + ")"
}

func (d *dumper) binding(b Binding) {
	switch b.Kind {
	case ExprBinding:
		d.line("expr %s", SExpr(b.Expr))
	case GoBinding:
		form := ""
		if b.GoContext {
			form += " context"
		}
		if s := b.GoInput; s != nil {
			fields := make([]string, len(s.Fields))
			for i, f := range s.Fields {
				fields[i] = f.Dim.Name + ":" + f.Name
				if f.Pointer {
					fields[i] += " pointer"
				}
				if f.ElemName != "" {
					fields[i] += " " + f.ElemName
				}
			}
			form += fmt.Sprintf(" input %q.%s{%s}", s.Package, s.Name, strings.Join(fields, ", "))
		}
		if b.GoSD {
			form += " sd"
		}
		if b.GoValues {
			form += " values" + goFields(b.GoFields)
		}
		if b.GoError {
			form += " error"
		}
		d.line("go %q.%s%s%s", b.GoPackage, b.GoFunc, form, d.at(b.Span))
	case ExecBinding:
		quoted := make([]string, len(b.Exec))
		for i, a := range b.Exec {
			quoted[i] = strconv.Quote(a)
		}
		d.line("exec %s%s", strings.Join(quoted, " "), d.at(b.Span))
	case ExternalBinding:
		d.line("external%s", d.at(b.Span))
	}
}

func (d *dumper) obsNoise(n ObsNoise) {
	switch n.Kind {
	case ObsNoiseNone:
		d.line("observation noise none")
	case ObsNoiseDist:
		d.line("observation noise%s", d.at(n.Span))
		d.nested(func() { d.call("", n.Dist, false) })
	case ObsNoiseLearn:
		d.line("observation noise %s%s", learnText(n.Learn), d.at(n.Span))
	case ObsNoiseReported:
		d.line("observation noise reported%s", d.at(n.Span))
	}
}

func (d *dumper) constraint(c *Constraint) {
	if c.Known {
		d.line("constraint %s known%s", c.Name, d.at(c.Span))
		d.nested(func() { d.line("g %s >= 0", SExpr(c.G)) })
		return
	}
	cmp := "<="
	if c.AtLeast {
		cmp = ">="
	}
	if c.Outcome {
		d.line("require %s measured %s %s (confidence %s)%s", c.Name, cmp, dsl.RealValue(c.Threshold), dsl.RealValue(c.Confidence), d.at(c.Span))
	} else {
		d.line("constraint %s measured %s %s%s", c.Name, cmp, dsl.RealValue(c.Threshold), d.at(c.Span))
	}
	d.nested(func() {
		d.binding(c.Measured)
		if c.RandomSeeds > 0 {
			d.line("seeds: %d drawn among the truly safe candidates", c.RandomSeeds)
		}
		if len(c.Seeds) > 0 {
			d.line("seeds")
			d.nested(func() { d.points(c.Seeds) })
		}
		if c.Kernel != nil {
			d.call("kernel = ", c.Kernel, false)
		}
		if c.Noise != nil {
			d.call("noise = ", c.Noise, false)
		}
		if l := c.Landing; l != nil {
			switch l.Mode {
			case "chance":
				d.line("landing chance (alpha %s, %d draws)%s", dsl.RealValue(l.Alpha), l.Draws, d.at(l.Span))
			case "mean":
				d.line("landing mean (%d draws)%s", l.Draws, d.at(l.Span))
			default:
				d.line("landing %s%s", l.Mode, d.at(l.Span))
			}
		}
		if c.Lipschitz > 0 {
			d.line("lipschitz %s%s", dsl.RealValue(c.Lipschitz), d.at(c.LipschitzSpan))
		}
	})
}

func (d *dumper) statementCall(keyword string, c *Call) {
	if c == nil {
		d.line("%s none", keyword)
		return
	}
	d.call(keyword+" ", c, false)
}

// call writes a plugin call on one line and its arguments below it.
func (d *dumper) call(prefix string, c *Call, isDefault bool) {
	d.line("%s%s%s%s", prefix, c.Plugin, defaultMark(isDefault), d.at(c.Span))
	d.nested(func() {
		for _, a := range c.Args {
			d.value(a.Name+" = ", a.Value, a.Default)
		}
	})
}

func defaultMark(isDefault bool) string {
	if isDefault {
		return " (default)"
	}
	return ""
}

// value writes one argument value.
func (d *dumper) value(prefix string, v Value, isDefault bool) {
	switch v := v.(type) {
	case *Call:
		d.call(prefix, v, isDefault)
	case *List:
		d.line("%slist%s", prefix, defaultMark(isDefault))
		d.nested(func() {
			for _, x := range v.Values {
				d.value("- ", x, false)
			}
		})
	case *Learn:
		d.line("%s%s%s", prefix, learnText(v), defaultMark(isDefault))
	case Expr:
		d.line("%s%s%s", prefix, SExpr(v), defaultMark(isDefault))
	default:
		d.line("%s<nil>%s", prefix, defaultMark(isDefault))
	}
}

func learnText(l *Learn) string {
	var parts []string
	if l.HasInit {
		parts = append(parts, "init = "+numbers(l.Init))
	}
	if l.HasBounds {
		parts = append(parts, fmt.Sprintf("bounds = [%s, %s]", dsl.RealValue(l.Lo), dsl.RealValue(l.Hi)))
	}
	if len(parts) == 0 {
		return "learn"
	}
	return "learn(" + strings.Join(parts, ", ") + ")"
}

// numbers renders one number as itself and several as a vector.
func numbers(xs []float64) string {
	if len(xs) == 1 {
		return dsl.RealValue(xs[0]).String()
	}
	return dsl.Value{Type: dsl.VecOf(len(xs)), Numbers: xs}.String()
}

func (d *dumper) points(pts [][]float64) {
	for _, p := range pts {
		d.line("%s", dsl.Value{Type: dsl.VecOf(len(p)), Numbers: p})
	}
}

// SExpr renders an expression as an S-expression with types: constants and
// names as value:type, operations as (op operands...):type.
func SExpr(e Expr) string {
	var b strings.Builder
	writeSExpr(&b, e)
	return b.String()
}

func writeSExpr(b *strings.Builder, e Expr) {
	op := func(name string, args ...Expr) {
		b.WriteString("(" + name)
		for _, a := range args {
			b.WriteByte(' ')
			writeSExpr(b, a)
		}
		b.WriteString("):" + e.Type().String())
	}
	switch e := e.(type) {
	case nil:
		b.WriteString("<nil>")
	case *ConstExpr:
		b.WriteString(e.Value.String() + ":" + e.Type().String())
	case *VarExpr:
		b.WriteString(e.Dim.Name + ":" + e.Type().String())
	case *NameExpr:
		b.WriteString(e.Name + ":" + e.Type().String())
	case *UnaryExpr:
		op(e.Op, e.X)
	case *BinaryExpr:
		op(e.Op, e.X, e.Y)
	case *CondExpr:
		op("if", e.Cond, e.Then, e.Else)
	case *IndexExpr:
		op("index", e.X, e.Index)
	case *SliceExpr:
		op(fmt.Sprintf("slice %d %d", e.Lo, e.Hi), e.X)
	case *VecExpr:
		op("vec", e.Elems...)
	case *CallExpr:
		op(e.Plugin, e.Args...)
	default:
		fmt.Fprintf(b, "<%T>", e)
	}
}

// goFields lists a Go objective's fields for its reported constraints, in
// the constraints' name order: (temperature: Temperature, ...).
func goFields(fields map[string]string) string {
	var pairs []string
	for _, name := range slices.Sorted(maps.Keys(fields)) {
		pairs = append(pairs, name+": "+fields[name])
	}
	return "(" + strings.Join(pairs, ", ") + ")"
}
