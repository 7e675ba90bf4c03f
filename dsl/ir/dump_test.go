package ir

import (
	"bytes"
	"testing"

	"github.com/bocdev/boc/dsl"
)

func span(line, col int) dsl.Span {
	p := dsl.Pos{File: "t.bo", Line: line, Col: col}
	return dsl.Span{Start: p, End: p}
}

// TestFprint dumps a hand-built program that uses the forms the checker's
// golden files do not: a candidate generator, a variadic list, learn with
// bounds, exec bindings, and missing plugin calls.
func TestFprint(t *testing.T) {
	x := &Dim{Name: "x", Span: span(2, 5), Size: 1, Lo: 0, Hi: 1}
	p := &Dim{Name: "p", Span: span(3, 5), Vector: true, Size: 2, Offset: 1, Integer: true, Log: true, Lo: 1, Hi: 8}
	real2 := func(v float64) *ConstExpr { return &ConstExpr{Value: dsl.RealValue(v)} }
	prog := &Program{
		Name: "dump", Source: "t.bo", Dims: []*Dim{x, p}, D: 3,
		Objective: Objective{Binding: Binding{Kind: ExecBinding, Span: span(5, 20), Exec: []string{"./sim", "a b"}}},
		Candidates: &Candidates{Span: span(4, 1), Call: &Call{Plugin: "candidates.grid", Span: span(4, 12),
			Args: []*Arg{{Name: "n", Value: &ConstExpr{Value: dsl.IntValue(5)}}}}},
		InputNoise: []*InputNoise{{Span: span(6, 5), Target: []int{1, 2}, Dist: &Call{Plugin: "distribution.concat", Span: span(6, 12),
			Args: []*Arg{{Name: "parts", Value: &List{Values: []Value{
				&Call{Plugin: "distribution.normal", Args: []*Arg{{Name: "sd", Value: &BinaryExpr{Op: "*", X: real2(0.1), Y: &VarExpr{Dim: x}, Typ: dsl.RealType}}}},
				&Call{Plugin: "distribution.normal", Args: []*Arg{{Name: "sd", Default: true, Value: &Learn{HasInit: true, Init: []float64{0.1, 0.2}, HasBounds: true, Lo: 0.01, Hi: 1}}}},
			}}}}}}},
		ObsNoise:    ObsNoise{Kind: ObsNoiseLearn, Span: span(7, 1), Learn: &Learn{}},
		Constraints: []*Constraint{{Name: "c", Span: span(8, 1), Measured: Binding{Kind: ExternalBinding, Span: span(8, 15)}, Threshold: 2}},
		Budget:      9,
		Init:        Init{Span: span(9, 1), Points: [][]float64{{0.5, 2, 3}}},
		Stop: &UnaryExpr{Op: "not", X: &CondExpr{Cond: &NameExpr{Name: "best", Typ: dsl.BoolType},
			Then: &IndexExpr{X: &VarExpr{Dim: p}, Index: &ConstExpr{Value: dsl.IntValue(0)}, Typ: dsl.RealType},
			Else: &CallExpr{Plugin: "function.sum", Args: []Expr{&SliceExpr{X: &VecExpr{Elems: []Expr{real2(1), real2(2)}, Typ: dsl.VecOf(2)}, Lo: 0, Hi: 1, Typ: dsl.VecOf(1)}}, Typ: dsl.RealType},
			Typ:  dsl.RealType}, Typ: dsl.BoolType},
	}
	want := `problem dump
source t.bo
dims D=3
  x real [0, 1] component 0 @2:5
  p vec[2] 1..8 log components 1..2 @3:5
objective minimize
  exec "./sim" "a b" @5:20
candidates @4:1
  candidates.grid @4:12
    n = 5:int
input noise (p[0], p[1]) @6:5
  distribution.concat @6:12
    parts = list
      - distribution.normal
        sd = (* 0.1:real x:real):real
      - distribution.normal
        sd = learn(init = [0.1, 0.2], bounds = [0.01, 1]) (default)
observation noise learn @7:1
constraint c measured <= 2 @8:1
  external @8:15
model none
acquisition none
search none
budget 9
init @9:1
  [0.5, 2, 3]
seed 0
stop when (not (if best:bool (index p:vec[2] 0:int):real (function.sum (slice 0 1 (vec 1:real 2:real):vec[2]):vec[1]):real):real):bool
`
	var got bytes.Buffer
	Fprint(&got, prog)
	if got.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", got.String(), want)
	}
}
