package ir

import "github.com/bocdev/boc/dsl"

// Expr is a typed expression over the domain variables. Constant
// sub-expressions have been folded to *ConstExpr.
type Expr interface {
	Type() dsl.Type
	Span() dsl.Span
	irExpr()
}

// ConstExpr is a constant.
type ConstExpr struct {
	At    dsl.Span
	Value dsl.Value
}

// VarExpr is a domain dimension: a scalar, or a whole vector dimension.
type VarExpr struct {
	At  dsl.Span
	Dim *Dim
}

// NameExpr is a name that only exists in a particular context, such as
// `acquisition`, `best` and `evaluations` in `stop when`.
type NameExpr struct {
	At   dsl.Span
	Name string
	Typ  dsl.Type
}

// UnaryExpr is -X or not X.
type UnaryExpr struct {
	At  dsl.Span
	Op  string // "-" or "not"
	X   Expr
	Typ dsl.Type
}

// BinaryExpr is X Op Y. Arithmetic on vectors is element-wise; a scalar
// operand is broadcast. Op is one of + - * / ^ < <= > >= == != and or.
type BinaryExpr struct {
	At   dsl.Span
	Op   string
	X, Y Expr
	Typ  dsl.Type
}

// CondExpr is `if Cond then Then else Else`.
type CondExpr struct {
	At               dsl.Span
	Cond, Then, Else Expr
	Typ              dsl.Type
}

// IndexExpr is X[Index] on a vector (giving a real) or a matrix (giving a row).
type IndexExpr struct {
	At    dsl.Span
	X     Expr
	Index Expr // int-valued
	Typ   dsl.Type
}

// SliceExpr is X[Lo:Hi] with constant bounds, a vec[Hi-Lo].
type SliceExpr struct {
	At     dsl.Span
	X      Expr
	Lo, Hi int
	Typ    dsl.Type
}

// VecExpr is a vector (or, of vectors, a matrix) built from element
// expressions that are not all constant.
type VecExpr struct {
	At    dsl.Span
	Elems []Expr
	Typ   dsl.Type
}

// CallExpr calls a function or benchmark plugin (Plugin is its ID, e.g.
// "function.sin", "benchmark.branin").
type CallExpr struct {
	At     dsl.Span
	Plugin string
	Args   []Expr
	Typ    dsl.Type
}

func (e *ConstExpr) Type() dsl.Type  { return e.Value.Type }
func (e *VarExpr) Type() dsl.Type    { return e.Dim.Type() }
func (e *NameExpr) Type() dsl.Type   { return e.Typ }
func (e *UnaryExpr) Type() dsl.Type  { return e.Typ }
func (e *BinaryExpr) Type() dsl.Type { return e.Typ }
func (e *CondExpr) Type() dsl.Type   { return e.Typ }
func (e *IndexExpr) Type() dsl.Type  { return e.Typ }
func (e *SliceExpr) Type() dsl.Type  { return e.Typ }
func (e *VecExpr) Type() dsl.Type    { return e.Typ }
func (e *CallExpr) Type() dsl.Type   { return e.Typ }

func (e *ConstExpr) Span() dsl.Span  { return e.At }
func (e *VarExpr) Span() dsl.Span    { return e.At }
func (e *NameExpr) Span() dsl.Span   { return e.At }
func (e *UnaryExpr) Span() dsl.Span  { return e.At }
func (e *BinaryExpr) Span() dsl.Span { return e.At }
func (e *CondExpr) Span() dsl.Span   { return e.At }
func (e *IndexExpr) Span() dsl.Span  { return e.At }
func (e *SliceExpr) Span() dsl.Span  { return e.At }
func (e *VecExpr) Span() dsl.Span    { return e.At }
func (e *CallExpr) Span() dsl.Span   { return e.At }

func (*ConstExpr) irExpr()  {}
func (*VarExpr) irExpr()    {}
func (*NameExpr) irExpr()   {}
func (*UnaryExpr) irExpr()  {}
func (*BinaryExpr) irExpr() {}
func (*CondExpr) irExpr()   {}
func (*IndexExpr) irExpr()  {}
func (*SliceExpr) irExpr()  {}
func (*VecExpr) irExpr()    {}
func (*CallExpr) irExpr()   {}

// Expressions are also argument values (domain-dependent parameters).
func (*ConstExpr) irValue()  {}
func (*VarExpr) irValue()    {}
func (*NameExpr) irValue()   {}
func (*UnaryExpr) irValue()  {}
func (*BinaryExpr) irValue() {}
func (*CondExpr) irValue()   {}
func (*IndexExpr) irValue()  {}
func (*SliceExpr) irValue()  {}
func (*VecExpr) irValue()    {}
func (*CallExpr) irValue()   {}
