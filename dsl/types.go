package dsl

import (
	"fmt"
	"strconv"
	"strings"
)

// Kind is the basic sort of a .bo type.
type Kind int

const (
	Invalid Kind = iota // the type of an expression that already failed to check
	Real
	Int
	Bool
	String
	Vec    // vec[Rows]
	Mat    // mat[Rows, Cols]
	Dist   // dist[Rows]: a distribution over R^Rows
	Kernel // a covariance function
	Level  // one of a categorical dimension's level names; Type.Dim names the dimension
	Table  // table[Rows]: numbers keyed by level names
)

var kindNames = [...]string{"invalid", "real", "int", "bool", "string", "vec", "mat", "dist", "kernel", "level", "table"}

func (k Kind) String() string { return kindNames[k] }

// Type is a .bo type with its shape. Rows is the length of a vec, the row count of
// a mat and the dimension of a dist; Cols is the column count of a mat.
type Type struct {
	Kind Kind
	Rows int
	Cols int
	Dim  string // a Level's categorical dimension
}

// Handy scalar types.
var (
	RealType   = Type{Kind: Real}
	IntType    = Type{Kind: Int}
	BoolType   = Type{Kind: Bool}
	StringType = Type{Kind: String}
	KernelType = Type{Kind: Kernel}
)

// VecOf returns vec[n].
func VecOf(n int) Type { return Type{Kind: Vec, Rows: n} }

// MatOf returns mat[r, c].
func MatOf(r, c int) Type { return Type{Kind: Mat, Rows: r, Cols: c} }

// LevelOf returns the type of the levels of categorical dimension dim.
func LevelOf(dim string) Type { return Type{Kind: Level, Dim: dim} }

// DistOf returns dist[n].
func DistOf(n int) Type { return Type{Kind: Dist, Rows: n} }

// IsNumeric reports whether t is real or int.
func (t Type) IsNumeric() bool { return t.Kind == Real || t.Kind == Int }

// String renders t as written in .bo source: real, vec[3], mat[2,2], dist[1].
func (t Type) String() string {
	switch t.Kind {
	case Vec, Dist, Table:
		return fmt.Sprintf("%s[%d]", t.Kind, t.Rows)
	case Level:
		return "level of " + t.Dim
	case Mat:
		return fmt.Sprintf("mat[%d,%d]", t.Rows, t.Cols)
	}
	return t.Kind.String()
}

// Value is a compile-time constant. Numbers holds a scalar (one element), a vec,
// or a mat in row-major order; ints are stored exactly as float64.
type Value struct {
	Type    Type
	Numbers []float64
	Text    string   // for string values
	Truth   bool     // for bool values
	Keys    []string // a table's keys, one per number, in source order
}

// RealValue returns a real constant.
func RealValue(x float64) Value { return Value{Type: RealType, Numbers: []float64{x}} }

// IntValue returns an int constant.
func IntValue(n int) Value { return Value{Type: IntType, Numbers: []float64{float64(n)}} }

// Float returns a scalar value as float64 (0 if v is not numeric).
func (v Value) Float() float64 {
	if len(v.Numbers) == 0 {
		return 0
	}
	return v.Numbers[0]
}

// At returns element (i, j) of a mat value.
func (v Value) At(i, j int) float64 { return v.Numbers[i*v.Type.Cols+j] }

// String renders v as .bo source, so that values in messages read like the file.
func (v Value) String() string {
	switch v.Type.Kind {
	case String:
		return strconv.Quote(v.Text)
	case Bool:
		return strconv.FormatBool(v.Truth)
	case Real, Int:
		return formatNumber(v.Float())
	case Vec:
		return "[" + joinNumbers(v.Numbers) + "]"
	case Table:
		entries := make([]string, len(v.Keys))
		for i, k := range v.Keys {
			entries[i] = strconv.Quote(k) + ": " + formatNumber(v.Numbers[i])
		}
		return "{" + strings.Join(entries, ", ") + "}"
	case Mat:
		rows := make([]string, v.Type.Rows)
		for i := range rows {
			rows[i] = "[" + joinNumbers(v.Numbers[i*v.Type.Cols:(i+1)*v.Type.Cols]) + "]"
		}
		return "[" + strings.Join(rows, ", ") + "]"
	}
	return v.Type.String()
}

func joinNumbers(xs []float64) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = formatNumber(x)
	}
	return strings.Join(parts, ", ")
}

func formatNumber(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
