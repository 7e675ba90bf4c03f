// Package ast declares the syntax tree of a .bo file as the parser produces it.
// Every node carries its source span. The tree knows no semantics: names are not
// resolved and plugin calls are not distinguished from function calls; that is
// the type checker's work.
package ast

import "github.com/bocdev/boc/dsl"

// Node is any syntax-tree node.
type Node interface {
	Span() dsl.Span
}

// File is one parsed .bo file: its statements in source order.
type File struct {
	Name  string // file name as given to the parser (used in positions)
	Stmts []Stmt
}

// Stmt is a top-level statement.
type Stmt interface {
	Node
	stmt()
}

// Expr is an expression.
type Expr interface {
	Node
	expr()
}

// Ident is a name.
type Ident struct {
	Pos  dsl.Span
	Name string
}

func (n *Ident) Span() dsl.Span { return n.Pos }

// ---- statements ----

// ProblemStmt is `problem NAME`.
type ProblemStmt struct {
	Pos  dsl.Span
	Name *Ident
}

// LetStmt is `let NAME = EXPR`.
type LetStmt struct {
	Pos   dsl.Span
	Name  *Ident
	Value Expr
}

// DomainStmt is `domain { DIM... }`.
type DomainStmt struct {
	Pos  dsl.Span
	Dims []*Dim
}

// Dim is one line of a domain block:
//
//	x in [0, 1]           real interval (Lo, Hi; Integer false)
//	n in 1..10            integer range (Integer true)
//	p[4] in [0, pi]       vector (Size = 4)
//	lr in [1e-4, 1] log   log-scaled (Log true)
//	cat in {"a", "b"}     categorical (Levels; Lo and Hi nil)
//	g in [0, 1] when c == "a"   conditional: exists only where When holds
type Dim struct {
	Pos     dsl.Span
	Name    *Ident
	Size    Expr // nil for a scalar dimension
	Lo, Hi  Expr
	Integer bool
	Log     bool
	Levels  []*StringLit // a categorical dimension's level names, in source order
	When    Expr         // the condition of a conditional dimension; nil otherwise
}

// CandidatesStmt is `candidates CALL` or `candidates file "x.csv"`.
type CandidatesStmt struct {
	Pos  dsl.Span
	Call Expr       // a call or bare name; nil when File is set
	File *StringLit // nil unless the file form is used
}

// ObjectiveStmt is `objective maximize|minimize BINDING` or, with several
// objectives, `objective [BINDING] { LINES }`: Lines is then not nil, and
// Binding measures every line at once (nil when each line has its
// expression).
type ObjectiveStmt struct {
	Pos      dsl.Span
	Maximize bool
	Binding  Binding
	Lines    []*ObjectiveLine
}

// Sense is the statement's keyword for its direction: "maximize" or
// "minimize".
func (s *ObjectiveStmt) Sense() string { return sense(s.Maximize) }

// ObjectiveLine is one of several objectives: `maximize|minimize NAME
// [= EXPR] [CMP THRESHOLD] [{ OPTIONS }]`. Expr is nil for a measured
// objective, Op "" without a threshold.
type ObjectiveLine struct {
	Pos       dsl.Span
	Maximize  bool
	Name      *Ident
	Expr      Expr
	Op        string
	OpPos     dsl.Span
	Threshold Expr
	Options   []*Option
}

// Sense is the line's keyword: "maximize" or "minimize".
func (l *ObjectiveLine) Sense() string { return sense(l.Maximize) }

func sense(maximize bool) string {
	if maximize {
		return "maximize"
	}
	return "minimize"
}

// InputNoiseStmt is `input noise { TARGET ~ DIST ... }` or the one-line form.
type InputNoiseStmt struct {
	Pos   dsl.Span
	Decls []*NoiseDecl
}

// NoiseDecl is `TARGET ~ DIST`. Target is an *Ident, an *IndexExpr, a
// *SliceExpr or a *TupleExpr of those.
type NoiseDecl struct {
	Pos    dsl.Span
	Target Expr
	Dist   Expr
}

// ObservationNoiseStmt is `observation noise ~ DIST`, `observation noise learn`
// or `observation noise reported`. Exactly one of Dist, Learn, Reported is set.
type ObservationNoiseStmt struct {
	Pos      dsl.Span
	Dist     Expr
	Learn    *LearnExpr
	Reported bool
}

// ConstraintStmt is `constraint NAME: LHS CMP RHS [{ OPTIONS }]`. Each side is
// a Binding: an *ExprBinding for expressions over the domain, or a go, exec or
// reported binding for a measured quantity.
type ConstraintStmt struct {
	Pos dsl.Span
	// Require marks an outcome constraint, `require NAME: ...`: only the
	// result must meet it, and evaluations may break it.
	Require bool
	Name    *Ident
	LHS     Binding
	Op      string // ">=" or "<=" (the checker rejects others with a hint)
	OpPos   dsl.Span
	RHS     Binding
	Options []*Option
}

// Option is one line inside a constraint's or an objective line's braces:
// `seed [[...], ...]`, `kernel CALL` or `noise ~ DIST`.
type Option struct {
	Pos   dsl.Span
	Name  *Ident // "seed", "kernel" or "noise" (checked by the type checker)
	Value Expr
}

// PluginStmt is a statement whose argument is a plugin call: `model CALL`,
// `acquisition CALL`, `search CALL`, and `init CALL`. Keyword names which.
// Call is a *CallExpr or a bare *Ident (a call without parentheses); for init it
// may also be a *VecLit of explicit points.
type PluginStmt struct {
	Pos     dsl.Span
	Keyword string // "model", "acquisition", "search" or "init"
	Call    Expr
}

// ValueStmt is a statement with one expression: `budget EXPR`, `seed EXPR`,
// `stop when EXPR`. Keyword is "budget", "seed" or "stop".
type ValueStmt struct {
	Pos     dsl.Span
	Keyword string
	Value   Expr
}

func (s *ProblemStmt) Span() dsl.Span          { return s.Pos }
func (s *LetStmt) Span() dsl.Span              { return s.Pos }
func (s *DomainStmt) Span() dsl.Span           { return s.Pos }
func (s *Dim) Span() dsl.Span                  { return s.Pos }
func (s *CandidatesStmt) Span() dsl.Span       { return s.Pos }
func (s *ObjectiveStmt) Span() dsl.Span        { return s.Pos }
func (s *ObjectiveLine) Span() dsl.Span        { return s.Pos }
func (s *InputNoiseStmt) Span() dsl.Span       { return s.Pos }
func (s *NoiseDecl) Span() dsl.Span            { return s.Pos }
func (s *ObservationNoiseStmt) Span() dsl.Span { return s.Pos }
func (s *ConstraintStmt) Span() dsl.Span       { return s.Pos }
func (s *Option) Span() dsl.Span               { return s.Pos }
func (s *PluginStmt) Span() dsl.Span           { return s.Pos }
func (s *ValueStmt) Span() dsl.Span            { return s.Pos }

func (*ProblemStmt) stmt()          {}
func (*LetStmt) stmt()              {}
func (*DomainStmt) stmt()           {}
func (*CandidatesStmt) stmt()       {}
func (*ObjectiveStmt) stmt()        {}
func (*InputNoiseStmt) stmt()       {}
func (*ObservationNoiseStmt) stmt() {}
func (*ConstraintStmt) stmt()       {}
func (*PluginStmt) stmt()           {}
func (*ValueStmt) stmt()            {}

// ---- bindings: what is measured ----

// Binding says where a value comes from.
type Binding interface {
	Node
	binding()
}

// ExprBinding is an expression over domain variables.
type ExprBinding struct {
	X Expr
}

// GoBinding is `go "import/path".Func`.
type GoBinding struct {
	Pos  dsl.Span
	Path *StringLit
	Func *Ident
}

// ExecBinding is `exec "cmd" "arg"...`.
type ExecBinding struct {
	Pos  dsl.Span
	Args []*StringLit
}

// ExternalBinding is `external` (objective) or `reported` (constraint side):
// values arrive from outside through ask/tell. Keyword is the word used.
type ExternalBinding struct {
	Pos     dsl.Span
	Keyword string
}

// SimulatedBinding is `simulated EXPR` (constraint side): a value the
// generated program computes from the expression and measures with noise,
// for studies of unknown constraints whose truth is known.
type SimulatedBinding struct {
	Pos dsl.Span
	X   Expr
}

func (b *ExprBinding) Span() dsl.Span      { return b.X.Span() }
func (b *SimulatedBinding) Span() dsl.Span { return b.Pos }
func (b *GoBinding) Span() dsl.Span        { return b.Pos }
func (b *ExecBinding) Span() dsl.Span      { return b.Pos }
func (b *ExternalBinding) Span() dsl.Span  { return b.Pos }

func (*ExprBinding) binding()      {}
func (*SimulatedBinding) binding() {}
func (*GoBinding) binding()        {}
func (*ExecBinding) binding()      {}
func (*ExternalBinding) binding()  {}

// ---- expressions ----

// NumberLit is a numeric literal; Int is true when it was written without a
// decimal point or exponent.
type NumberLit struct {
	Pos   dsl.Span
	Text  string
	Value float64
	Int   bool
}

// StringLit is a double-quoted string; Value is unquoted.
type StringLit struct {
	Pos   dsl.Span
	Value string
}

// VecLit is `[a, b, ...]`; a vector of vectors is a matrix literal.
type VecLit struct {
	Pos   dsl.Span
	Elems []Expr
}

// TableLit is `{"a": x, "b": y, ...}`: values keyed by the level names of
// a categorical dimension.
type TableLit struct {
	Pos     dsl.Span
	Entries []*TableEntry
}

// TableEntry is one `"key": value` of a table.
type TableEntry struct {
	Pos   dsl.Span
	Key   *StringLit
	Value Expr
}

// TupleExpr is `(a, b, ...)` with two or more elements (input-noise targets).
type TupleExpr struct {
	Pos   dsl.Span
	Elems []Expr
}

// ParenExpr is `(x)`.
type ParenExpr struct {
	Pos dsl.Span
	X   Expr
}

// UnaryExpr is `-x` or `not x`.
type UnaryExpr struct {
	Pos dsl.Span
	Op  string
	X   Expr
}

// BinaryExpr is `x OP y` with OP one of + - * / ^ < <= > >= == != and or.
type BinaryExpr struct {
	Pos   dsl.Span
	Op    string
	OpPos dsl.Span
	X, Y  Expr
}

// IfExpr is `if C then A else B`.
type IfExpr struct {
	Pos              dsl.Span
	Cond, Then, Else Expr
}

// IndexExpr is `x[i]`.
type IndexExpr struct {
	Pos   dsl.Span
	X     Expr
	Index Expr
}

// SliceExpr is `x[lo:hi]`; either bound may be nil.
type SliceExpr struct {
	Pos    dsl.Span
	X      Expr
	Lo, Hi Expr
}

// CallExpr is `f(args)`: a built-in, a benchmark function or a plugin call.
type CallExpr struct {
	Pos  dsl.Span
	Fun  *Ident
	Args []*Arg
}

// Arg is a positional (Name nil) or named (`name = value`) argument.
type Arg struct {
	Pos   dsl.Span
	Name  *Ident
	Value Expr
}

// LearnExpr is `learn` or `learn(init = 0.3, bounds = [0.01, 10])`.
type LearnExpr struct {
	Pos  dsl.Span
	Args []*Arg
}

func (e *Ident) expr()      {}
func (e *NumberLit) expr()  {}
func (e *StringLit) expr()  {}
func (e *VecLit) expr()     {}
func (e *TableLit) expr()   {}
func (e *TupleExpr) expr()  {}
func (e *ParenExpr) expr()  {}
func (e *UnaryExpr) expr()  {}
func (e *BinaryExpr) expr() {}
func (e *IfExpr) expr()     {}
func (e *IndexExpr) expr()  {}
func (e *SliceExpr) expr()  {}
func (e *CallExpr) expr()   {}
func (e *LearnExpr) expr()  {}

func (e *NumberLit) Span() dsl.Span  { return e.Pos }
func (e *StringLit) Span() dsl.Span  { return e.Pos }
func (e *VecLit) Span() dsl.Span     { return e.Pos }
func (e *TableLit) Span() dsl.Span   { return e.Pos }
func (e *TableEntry) Span() dsl.Span { return e.Pos }
func (e *TupleExpr) Span() dsl.Span  { return e.Pos }
func (e *ParenExpr) Span() dsl.Span  { return e.Pos }
func (e *UnaryExpr) Span() dsl.Span  { return e.Pos }
func (e *BinaryExpr) Span() dsl.Span { return e.Pos }
func (e *IfExpr) Span() dsl.Span     { return e.Pos }
func (e *IndexExpr) Span() dsl.Span  { return e.Pos }
func (e *SliceExpr) Span() dsl.Span  { return e.Pos }
func (e *CallExpr) Span() dsl.Span   { return e.Pos }
func (e *Arg) Span() dsl.Span        { return e.Pos }
func (e *LearnExpr) Span() dsl.Span  { return e.Pos }
