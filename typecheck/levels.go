package typecheck

import (
	"fmt"
	"slices"
	"strings"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ast"
	"github.com/bocdev/boc/dsl/ir"
)

// Categorical dimensions in expressions. A point holds a categorical
// component as the index of its level, so everything that names a level is
// resolved here to that index: `catalyst == "Ni"` compares the component
// with the constant 2, and a keyed table `cost[catalyst]` becomes a lookup
// of the constant vector of its values in level order. Level names never
// reach the IR's expressions.

// levelsOf returns the level names of the categorical dimension a level
// type belongs to.
func (c *checker) levelsOf(t dsl.Type) []string {
	if sym := c.scope.names[t.Dim]; sym != nil && sym.dim != nil {
		return sym.dim.Levels
	}
	return nil
}

// levelIndex resolves a level name of t's dimension, reporting a misspelt
// one at sp with the closest level.
func (c *checker) levelIndex(sp dsl.Span, t dsl.Type, name string) (int, bool) {
	levels := c.levelsOf(t)
	if i := slices.Index(levels, name); i >= 0 {
		return i, true
	}
	hint := dsl.DidYouMean(name, levels)
	if hint == "" {
		hint = fmt.Sprintf("the levels of %s are %s", t.Dim, levelList(levels))
	}
	c.errorHint(sp, hint, "%q is not a level of %s", name, t.Dim)
	return 0, false
}

// levelComparison checks x == y or x != y where one side is a level: the
// other is a level name or a level of the same dimension.
func (c *checker) levelComparison(e *ast.BinaryExpr, x, y ir.Expr) ir.Expr {
	level, other := x, y
	if level.Type().Kind != dsl.Level {
		level, other = y, x
	}
	lt, ot := level.Type(), other.Type()
	hint := fmt.Sprintf("compare %s with one of its levels, e.g. %s == %q", lt.Dim, lt.Dim, firstLevel(c.levelsOf(lt)))
	switch v, isConst := constOf(other); {
	case ot == lt:
		return &ir.BinaryExpr{At: e.Pos, Op: e.Op, X: x, Y: y, Typ: dsl.BoolType}
	case isConst && ot.Kind == dsl.String:
		i, ok := c.levelIndex(other.Span(), lt, v.Text)
		if !ok {
			return invalid(e.Pos)
		}
		return &ir.BinaryExpr{At: e.Pos, Op: e.Op, X: level, Y: constant(other.Span(), intValue(float64(i))), Typ: dsl.BoolType}
	case ot.Kind == dsl.Level:
		c.errorHint(e.OpPos, hint, "cannot compare a level of %s with a level of %s", lt.Dim, ot.Dim)
	default:
		c.errorHint(e.OpPos, hint, "cannot compare %s %s %s", x.Type(), e.Op, y.Type())
	}
	return invalid(e.Pos)
}

func firstLevel(levels []string) string {
	if len(levels) == 0 {
		return ""
	}
	return levels[0]
}

// levelHint is the hint for an operator that got a level where it wants a
// number.
func levelHint(x, y ir.Expr) string {
	for _, t := range []dsl.Type{x.Type(), y.Type()} {
		if t.Kind == dsl.Level {
			return fmt.Sprintf("%s is categorical: compare it with a level name (%s == \"...\") or look it up in a keyed table (t[%s])", t.Dim, t.Dim, t.Dim)
		}
	}
	return ""
}

// tableLit checks {"a": x, "b": y, ...}: constant numbers under distinct
// keys. Whether the keys are a dimension's levels is checked where the
// table is indexed.
func (c *checker) tableLit(e *ast.TableLit, ctx exprCtx) ir.Expr {
	v := dsl.Value{Type: dsl.Type{Kind: dsl.Table, Rows: len(e.Entries)}}
	ok := true
	for _, entry := range e.Entries {
		if entry == nil || entry.Key == nil {
			c.incomplete("table")
			return invalid(e.Pos)
		}
		if slices.Contains(v.Keys, entry.Key.Value) {
			c.errorf(entry.Key.Pos, "key %q appears twice in the table", entry.Key.Value)
			ok = false
		}
		x, xok := c.constExpr(entry.Value, ctx.requireConst("a table's values must be constant"))
		switch {
		case !xok:
			ok = false
		case !x.Type.IsNumeric():
			c.errorf(entry.Value.Span(), "a table's values must be numbers, got %s", x.Type)
			ok = false
		}
		v.Keys = append(v.Keys, entry.Key.Value)
		v.Numbers = append(v.Numbers, x.Float())
	}
	if !ok {
		return invalid(e.Pos)
	}
	return constant(e.Pos, v)
}

// tableIndex checks t[i] for a table t: a constant for a level name, or a
// lookup by a categorical dimension, whose every level t must have and
// whose levels are all t may have.
func (c *checker) tableIndex(e *ast.IndexExpr, table dsl.Value, index ir.Expr) ir.Expr {
	it := index.Type()
	if v, ok := constOf(index); ok && it.Kind == dsl.String {
		i := slices.Index(table.Keys, v.Text)
		if i < 0 {
			c.errorHint(e.Index.Span(), dsl.DidYouMean(v.Text, table.Keys), "the table has no key %q", v.Text)
			return invalid(e.Pos)
		}
		return constant(e.Pos, dsl.RealValue(table.Numbers[i]))
	}
	if it.Kind != dsl.Level {
		c.errorHint(e.Index.Span(), `e.g. cost[catalyst] with catalyst in {"Pd", "Ni"}, or cost["Pd"]`,
			"a table is indexed by a categorical dimension or a level name, got %s", it)
		return invalid(e.Pos)
	}
	levels := c.levelsOf(it)
	values := make([]float64, len(levels))
	ok := true
	var missing []string
	for i, l := range levels {
		k := slices.Index(table.Keys, l)
		if k < 0 {
			missing = append(missing, l)
			continue
		}
		values[i] = table.Numbers[k]
	}
	if missing != nil {
		c.errorHint(e.Pos, fmt.Sprintf("every level of %s needs an entry: %s", it.Dim, levelList(levels)),
			"the table has no entry for %s of %s", quotedList(missing), it.Dim)
		ok = false
	}
	for _, k := range table.Keys {
		if !slices.Contains(levels, k) {
			c.errorHint(e.Pos, dsl.DidYouMean(k, levels), "the table's key %q is not a level of %s", k, it.Dim)
			ok = false
		}
	}
	if !ok {
		return invalid(e.Pos)
	}
	vec := constant(e.X.Span(), dsl.Value{Type: dsl.VecOf(len(values)), Numbers: values})
	return &ir.IndexExpr{At: e.Pos, X: vec, Index: index, Typ: dsl.RealType}
}

// quotedList renders names as "a", "b" and "c".
func quotedList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	switch len(q) {
	case 1:
		return "level " + q[0]
	case 2:
		return "levels " + q[0] + " and " + q[1]
	}
	return "levels " + strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}
