package parser

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ast"
)

// converter turns grammar productions into dsl/ast nodes. The grammar has
// checked the structure; what can still be wrong is the content of a literal
// (a number out of range, a bad escape in a string) and what the flat
// expression grammar lets through (chained comparisons, `not` as an operand of
// arithmetic).
type converter struct {
	src   *source
	diags dsl.Diagnostics
}

// production is any grammar struct: it knows the tokens it matched.
type production interface {
	tokens() []lexer.Token
}

func (c *converter) span(p production) dsl.Span { return c.src.tokensSpan(p.tokens()) }

// fail records a problem; the statement is then dropped from the tree.
func (c *converter) fail(d dsl.Diagnostic) { c.diags = append(c.diags, d) }

// between is the span from the start of a to the end of b.
func between(a, b ast.Node) dsl.Span { return dsl.SpanOf(a.Span().Start, b.Span().End) }

func (c *converter) problem(s *problemStmt) ast.Stmt {
	return &ast.ProblemStmt{Pos: c.span(s), Name: c.ident(s.Name)}
}

func (c *converter) let(s *letStmt) ast.Stmt {
	return &ast.LetStmt{Pos: c.span(s), Name: c.ident(s.Name), Value: c.expr(s.Value)}
}

func (c *converter) domain(s *domainStmt) ast.Stmt {
	out := &ast.DomainStmt{Pos: c.span(s)}
	for _, d := range s.Block.Items {
		out.Dims = append(out.Dims, c.dim(d))
	}
	return out
}

func (c *converter) candidates(s *candidatesStmt) ast.Stmt {
	out := &ast.CandidatesStmt{Pos: c.span(s)}
	if s.File != nil {
		out.File = c.stringLit(s.File)
	} else {
		out.Call = c.call(s.Call)
	}
	return out
}

func (c *converter) objective(s *objectiveStmt) ast.Stmt {
	lines := s.Computed
	switch {
	case s.Measured != nil:
		lines = s.Measured.Lines
	case lines == nil:
		return &ast.ObjectiveStmt{Pos: c.span(s), Maximize: s.Sense == "maximize", Binding: c.binding(s.Binding)}
	}
	out := &ast.ObjectiveStmt{Pos: c.span(s), Lines: []*ast.ObjectiveLine{}}
	if m := s.Measured; m != nil {
		b := m.Binding
		out.Binding = c.binding(&binding{matched: b.matched, Go: b.Go, Exec: b.Exec, External: b.External})
	}
	for _, l := range lines.Items {
		line := &ast.ObjectiveLine{Pos: c.span(l), Maximize: l.Sense == "maximize", Name: c.ident(l.Name)}
		if l.Expr != nil {
			line.Expr = climb(c, precAdd, l.Expr.X, l.Expr.Rest)
		}
		if l.Op != nil {
			line.Op, line.OpPos = l.Op.Op, c.span(l.Op)
			line.Threshold = climb(c, precAdd, l.Threshold.X, l.Threshold.Rest)
		}
		line.Options = c.options(l.Options)
		out.Lines = append(out.Lines, line)
	}
	return out
}

func (c *converter) inputNoise(s *inputNoiseStmt) ast.Stmt {
	out := &ast.InputNoiseStmt{Pos: c.span(s)}
	if s.Block != nil {
		for _, d := range s.Block.Items {
			out.Decls = append(out.Decls, c.noiseDecl(d))
		}
	} else {
		out.Decls = []*ast.NoiseDecl{c.noiseDecl(s.One)}
	}
	return out
}

func (c *converter) observationNoise(s *observationStmt) ast.Stmt {
	out := &ast.ObservationNoiseStmt{Pos: c.span(s), Reported: s.Reported}
	if s.Dist != nil {
		out.Dist = c.expr(s.Dist)
	}
	if s.Learn != nil {
		out.Learn = c.learn(s.Learn)
	}
	return out
}

func (c *converter) plugin(s *pluginStmt) ast.Stmt {
	return &ast.PluginStmt{Pos: c.span(s), Keyword: s.Keyword, Call: c.call(s.Call)}
}

func (c *converter) initDesign(s *initStmt) ast.Stmt {
	out := &ast.PluginStmt{Pos: c.span(s), Keyword: "init"}
	if s.Points != nil {
		out.Call = c.vecLit(s.Points)
	} else {
		out.Call = c.call(s.Call)
	}
	return out
}

func (c *converter) value(s *valueStmt) ast.Stmt {
	return &ast.ValueStmt{Pos: c.span(s), Keyword: s.Keyword, Value: c.expr(s.Value)}
}

func (c *converter) dim(d *dim) *ast.Dim {
	out := &ast.Dim{Pos: c.span(d), Name: c.ident(d.Name), Log: d.Log}
	if d.Size != nil {
		out.Size = c.expr(d.Size)
	}
	if d.When != nil {
		out.When = c.expr(d.When)
	}
	switch {
	case d.Interval != nil:
		out.Lo, out.Hi = c.expr(d.Interval.Lo), c.expr(d.Interval.Hi)
	case d.Levels != nil:
		for _, name := range d.Levels.Names {
			out.Levels = append(out.Levels, c.stringLit(name))
		}
	default:
		out.Lo, out.Hi, out.Integer = c.expr(d.Range.Lo), c.expr(d.Range.Hi), true
	}
	return out
}

func (c *converter) noiseDecl(d *noiseDecl) *ast.NoiseDecl {
	out := &ast.NoiseDecl{Pos: c.span(d), Dist: c.expr(d.Dist)}
	if t := d.Target; t.One != nil {
		out.Target = c.targetAtom(t.One)
	} else {
		tuple := &ast.TupleExpr{Pos: c.span(t)}
		for _, a := range t.Tuple {
			tuple.Elems = append(tuple.Elems, c.targetAtom(a))
		}
		out.Target = tuple
	}
	return out
}

func (c *converter) targetAtom(a *targetAtom) ast.Expr {
	var x ast.Expr = c.ident(a.Name)
	if a.Index != nil {
		x = c.suffix(x, a.Index)
	}
	return x
}

func (c *converter) constraint(s *constraintStmt) ast.Stmt {
	out := &ast.ConstraintStmt{
		Pos:     c.span(s),
		Require: s.Keyword == "require",
		Name:    c.ident(s.Name),
		LHS:     c.side(s.LHS),
		Op:      s.Op.Op,
		OpPos:   c.span(s.Op),
		RHS:     c.side(s.RHS),
	}
	out.Options = c.options(s.Options)
	return out
}

// options converts a block of options, nil without one.
func (c *converter) options(b *block[option]) []*ast.Option {
	if b == nil {
		return nil
	}
	var out []*ast.Option
	for _, o := range b.Items {
		name := o.Tokens[0]
		out = append(out, &ast.Option{
			Pos:   c.span(o),
			Name:  &ast.Ident{Pos: c.src.tokenSpan(name), Name: name.Value},
			Value: c.expr(o.Value),
		})
	}
	return out
}

func (c *converter) binding(b *binding) ast.Binding {
	switch {
	case b.Go != nil:
		return c.goBinding(b.Go)
	case b.Exec != nil:
		return c.execBinding(b.Exec)
	case b.External:
		return &ast.ExternalBinding{Pos: c.span(b), Keyword: "external"}
	}
	return &ast.ExprBinding{X: c.expr(b.Expr)}
}

func (c *converter) side(s *side) ast.Binding {
	switch {
	case s.Go != nil:
		return c.goBinding(s.Go)
	case s.Exec != nil:
		return c.execBinding(s.Exec)
	case s.Reported:
		return &ast.ExternalBinding{Pos: c.span(s), Keyword: "reported"}
	case s.Simulated != nil:
		return &ast.SimulatedBinding{Pos: c.span(s), X: climb(c, precAdd, s.Simulated.X, s.Simulated.Rest)}
	}
	return &ast.ExprBinding{X: climb(c, precAdd, s.Expr.X, s.Expr.Rest)}
}

func (c *converter) goBinding(b *goBinding) *ast.GoBinding {
	return &ast.GoBinding{Pos: c.span(b), Path: c.stringLit(b.Path), Func: c.ident(b.Func)}
}

func (c *converter) execBinding(b *execBinding) *ast.ExecBinding {
	out := &ast.ExecBinding{Pos: c.span(b)}
	for _, a := range b.Args {
		out.Args = append(out.Args, c.stringLit(a))
	}
	return out
}

// ---- expressions ----

func (c *converter) expr(e *expr) ast.Expr { return climb(c, precOr, e.X, e.Rest) }

func (c *converter) binary(x ast.Expr, op lexer.Token, y ast.Expr) *ast.BinaryExpr {
	return &ast.BinaryExpr{Pos: between(x, y), Op: op.Value, OpPos: c.src.tokenSpan(op), X: x, Y: y}
}

// operand converts an operand without its prefix operators, which the
// climber applies.
func (c *converter) operand(o *operand) ast.Expr {
	switch {
	case o.If != nil:
		return &ast.IfExpr{
			Pos:  c.span(o.If),
			Cond: c.expr(o.If.Cond),
			Then: c.expr(o.If.Then),
			Else: c.expr(o.If.Else),
		}
	case o.Vec != nil:
		return c.vecLit(o.Vec)
	case o.Table != nil:
		out := &ast.TableLit{Pos: c.span(o.Table)}
		for _, e := range o.Table.Entries {
			out.Entries = append(out.Entries, &ast.TableEntry{Pos: c.span(e), Key: c.stringLit(e.Key), Value: c.expr(e.Value)})
		}
		return out
	}
	x := c.primary(o.X)
	for _, s := range o.Suffixes {
		x = c.suffix(x, s)
	}
	return x
}

// suffix applies an index or slice to x.
func (c *converter) suffix(x ast.Expr, s *suffix) ast.Expr {
	pos := dsl.SpanOf(x.Span().Start, c.span(s).End)
	switch {
	case s.OpenLo != nil:
		return &ast.SliceExpr{Pos: pos, X: x, Hi: c.optExpr(s.OpenLo.Hi)}
	case s.Slice != nil:
		return &ast.SliceExpr{Pos: pos, X: x, Lo: c.expr(s.Index), Hi: c.optExpr(s.Slice.Hi)}
	}
	return &ast.IndexExpr{Pos: pos, X: x, Index: c.expr(s.Index)}
}

// optExpr converts an optional expression, keeping a nil interface for nil.
func (c *converter) optExpr(e *expr) ast.Expr {
	if e == nil {
		return nil
	}
	return c.expr(e)
}

func (c *converter) primary(p *primary) ast.Expr {
	switch {
	case p.Number != nil:
		return c.numberLit(p.Number)
	case p.String != nil:
		return c.stringLit(p.String)
	case p.Learn != nil:
		return c.learn(p.Learn)
	case p.Call != nil:
		return c.call(p.Call)
	case p.Name:
		return &ast.Ident{Pos: c.span(p), Name: "acquisition"}
	}
	elems := make([]ast.Expr, len(p.Paren.Elems))
	for i, e := range p.Paren.Elems {
		elems[i] = c.expr(e)
	}
	if len(elems) == 1 {
		return &ast.ParenExpr{Pos: c.span(p), X: elems[0]}
	}
	return &ast.TupleExpr{Pos: c.span(p), Elems: elems}
}

func (c *converter) ident(i *ident) *ast.Ident { return &ast.Ident{Pos: c.span(i), Name: i.Name} }

func (c *converter) numberLit(n *numberLit) *ast.NumberLit {
	v, err := strconv.ParseFloat(n.Text, 64)
	if errors.Is(err, strconv.ErrRange) {
		c.fail(dsl.Errorf(c.span(n), "number %s is too large", n.Text).
			WithHint("the largest number is about 1.8e308"))
	}
	return &ast.NumberLit{Pos: c.span(n), Text: n.Text, Value: v, Int: !strings.ContainsAny(n.Text, ".eE")}
}

// stringLit unquotes a string, reporting the first bad escape sequence where it
// is.
func (c *converter) stringLit(s *stringLit) *ast.StringLit {
	body := s.Quoted[1 : len(s.Quoted)-1]
	for rest := body; rest != ""; {
		_, _, tail, err := strconv.UnquoteChar(rest, '"')
		if err != nil {
			at := s.Tokens[0].Pos.Offset + 1 + len(body) - len(rest)
			_, size := utf8.DecodeRuneInString(rest[1:]) // rest starts with the backslash
			escape := lexer.Token{Pos: lexer.Position{Offset: at}, Value: rest[:1+size]}
			c.fail(dsl.Errorf(c.src.tokenSpan(escape), "invalid escape sequence `%s` in string", escape.Value).
				WithHint(`escapes are Go's: \n, \t, \\, \", \xFF, \u1234`))
			return &ast.StringLit{Pos: c.span(s)}
		}
		rest = tail
	}
	value, _ := strconv.Unquote(s.Quoted) // every escape was checked above
	return &ast.StringLit{Pos: c.span(s), Value: value}
}

func (c *converter) learn(l *learn) *ast.LearnExpr {
	return &ast.LearnExpr{Pos: c.span(l), Args: c.args(l.Args)}
}

// call is a bare name (a plugin without arguments, or a plain name in an
// expression) or a call with parentheses.
func (c *converter) call(e *call) ast.Expr {
	if e.Args == nil {
		return c.ident(e.Fun)
	}
	return &ast.CallExpr{Pos: c.span(e), Fun: c.ident(e.Fun), Args: c.args(e.Args)}
}

func (c *converter) args(l *argList) []*ast.Arg {
	if l == nil {
		return nil
	}
	var out []*ast.Arg
	for _, a := range l.Args {
		arg := &ast.Arg{Pos: c.span(a), Value: c.expr(a.Value)}
		if a.Name != nil {
			arg.Name = &ast.Ident{Pos: c.span(a.Name), Name: a.Name.Name}
		}
		out = append(out, arg)
	}
	return out
}

func (c *converter) vecLit(v *vecLit) *ast.VecLit {
	out := &ast.VecLit{Pos: c.span(v)}
	for _, e := range v.Elems {
		out.Elems = append(out.Elems, c.expr(e))
	}
	return out
}
