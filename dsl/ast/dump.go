package ast

import (
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"

	"github.com/bocdev/boc/dsl"
)

// Fprint writes a readable, indented dump of f, one node per line with its
// span, for `boc check --dump ast` and golden tests:
//
//	File "drone.bo"
//	  LetStmt @3:1-3:19
//	    Name: Ident "spread" @3:5-3:11
//	    Value: BinaryExpr "+" @3:14-3:19 op @3:16-3:17
//	      X: NumberLit 1 int @3:14-3:15
//	      Y: Ident "x" @3:18-3:19
//
// The output depends only on the tree, so it is deterministic.
func Fprint(w io.Writer, f *File) {
	fmt.Fprintf(w, "File %q\n", f.Name)
	for _, s := range f.Stmts {
		fprintNode(w, 1, "", s)
	}
}

// field is a labelled child of a node.
type field struct {
	label string
	node  Node
}

func fprintNode(w io.Writer, depth int, label string, n Node) {
	header, trailer, children := describe(n)
	if label != "" {
		label += ": "
	}
	fmt.Fprintf(w, "%s%s%s %s%s\n", strings.Repeat("  ", depth), label, header, spanString(n.Span()), trailer)
	for _, c := range children {
		if !isNil(c.node) {
			fprintNode(w, depth+1, c.label, c.node)
		}
	}
}

// isNil reports whether n is absent: a nil interface or a nil pointer in one.
func isNil(n Node) bool {
	if n == nil {
		return true
	}
	v := reflect.ValueOf(n)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

func spanString(s dsl.Span) string {
	return fmt.Sprintf("@%d:%d-%d:%d", s.Start.Line, s.Start.Col, s.End.Line, s.End.Col)
}

// list labels the elements of a slice Label[0], Label[1], ...
func list[T Node](label string, nodes []T) []field {
	out := make([]field, len(nodes))
	for i, n := range nodes {
		out[i] = field{fmt.Sprintf("%s[%d]", label, i), n}
	}
	return out
}

// flag renders a boolean property in a header: " log" when set.
func flag(name string, on bool) string {
	if on {
		return " " + name
	}
	return ""
}

// describe returns what a node's line shows before its span (kind and scalar
// properties) and after it (an operator's span), and its children in source
// order.
func describe(n Node) (header, trailer string, children []field) {
	switch n := n.(type) {
	case *Ident:
		return "Ident " + strconv.Quote(n.Name), "", nil
	case *ProblemStmt:
		return "ProblemStmt", "", []field{{"Name", n.Name}}
	case *LetStmt:
		return "LetStmt", "", []field{{"Name", n.Name}, {"Value", n.Value}}
	case *DomainStmt:
		return "DomainStmt", "", list("Dims", n.Dims)
	case *Dim:
		return "Dim" + flag("integer", n.Integer) + flag("log", n.Log), "",
			append(append([]field{{"Name", n.Name}, {"Size", n.Size}, {"Lo", n.Lo}, {"Hi", n.Hi}}, list("Levels", n.Levels)...), field{"When", n.When})
	case *CandidatesStmt:
		return "CandidatesStmt", "", []field{{"Call", n.Call}, {"File", n.File}}
	case *ObjectiveStmt:
		if n.Lines != nil {
			return "ObjectiveStmt several", "", append([]field{{"Binding", n.Binding}}, list("Lines", n.Lines)...)
		}
		return "ObjectiveStmt " + n.Sense(), "", []field{{"Binding", n.Binding}}
	case *ObjectiveLine:
		trailer = ""
		if n.Op != "" {
			header += " " + strconv.Quote(n.Op)
			trailer = " op " + spanString(n.OpPos)
		}
		return "ObjectiveLine " + n.Sense() + header, trailer,
			append([]field{{"Name", n.Name}, {"Expr", n.Expr}, {"Threshold", n.Threshold}}, list("Options", n.Options)...)
	case *InputNoiseStmt:
		return "InputNoiseStmt", "", list("Decls", n.Decls)
	case *NoiseDecl:
		return "NoiseDecl", "", []field{{"Target", n.Target}, {"Dist", n.Dist}}
	case *ObservationNoiseStmt:
		return "ObservationNoiseStmt" + flag("reported", n.Reported), "",
			[]field{{"Dist", n.Dist}, {"Learn", n.Learn}}
	case *ConstraintStmt:
		kind := "ConstraintStmt"
		if n.Require {
			kind = "ConstraintStmt require"
		}
		return fmt.Sprintf("%s %q", kind, n.Op), " op " + spanString(n.OpPos),
			append([]field{{"Name", n.Name}, {"LHS", n.LHS}, {"RHS", n.RHS}}, list("Options", n.Options)...)
	case *Option:
		return "Option", "", []field{{"Name", n.Name}, {"Value", n.Value}}
	case *PluginStmt:
		return "PluginStmt " + n.Keyword, "", []field{{"Call", n.Call}}
	case *ValueStmt:
		return "ValueStmt " + n.Keyword, "", []field{{"Value", n.Value}}
	case *ExprBinding:
		return "ExprBinding", "", []field{{"X", n.X}}
	case *GoBinding:
		return "GoBinding", "", []field{{"Path", n.Path}, {"Func", n.Func}}
	case *ExecBinding:
		return "ExecBinding", "", list("Args", n.Args)
	case *ExternalBinding:
		return "ExternalBinding " + n.Keyword, "", nil
	case *SimulatedBinding:
		return "SimulatedBinding", "", []field{{"X", n.X}}
	case *NumberLit:
		header = "NumberLit " + n.Text
		if value := strconv.FormatFloat(n.Value, 'g', -1, 64); value != n.Text {
			header += " = " + value
		}
		return header + flag("int", n.Int), "", nil
	case *StringLit:
		return "StringLit " + strconv.Quote(n.Value), "", nil
	case *VecLit:
		return "VecLit", "", list("Elems", n.Elems)
	case *TableLit:
		return "TableLit", "", list("Entries", n.Entries)
	case *TableEntry:
		return "TableEntry", "", []field{{"Key", n.Key}, {"Value", n.Value}}
	case *TupleExpr:
		return "TupleExpr", "", list("Elems", n.Elems)
	case *ParenExpr:
		return "ParenExpr", "", []field{{"X", n.X}}
	case *UnaryExpr:
		return "UnaryExpr " + strconv.Quote(n.Op), "", []field{{"X", n.X}}
	case *BinaryExpr:
		return fmt.Sprintf("BinaryExpr %q", n.Op), " op " + spanString(n.OpPos), []field{{"X", n.X}, {"Y", n.Y}}
	case *IfExpr:
		return "IfExpr", "", []field{{"Cond", n.Cond}, {"Then", n.Then}, {"Else", n.Else}}
	case *IndexExpr:
		return "IndexExpr", "", []field{{"X", n.X}, {"Index", n.Index}}
	case *SliceExpr:
		return "SliceExpr", "", []field{{"X", n.X}, {"Lo", n.Lo}, {"Hi", n.Hi}}
	case *CallExpr:
		return "CallExpr", "", append([]field{{"Fun", n.Fun}}, list("Args", n.Args)...)
	case *Arg:
		return "Arg", "", []field{{"Name", n.Name}, {"Value", n.Value}}
	case *LearnExpr:
		return "LearnExpr", "", list("Args", n.Args)
	}
	return fmt.Sprintf("%T", n), "", nil
}
