package lsp

import (
	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ast"
	"go.lsp.dev/protocol"
)

// A file's names: the domain variables and the lets are declared once
// and used in expressions. Navigation reads the syntax tree of the last
// check that parsed (checks run as the editor types, so it is the
// current text's but while a syntax error stands).

// declarations are the file's domain variables and lets, by name.
func declarations(tree *ast.File) map[string]*ast.Ident {
	out := map[string]*ast.Ident{}
	for _, s := range tree.Stmts {
		switch s := s.(type) {
		case *ast.LetStmt:
			out[s.Name.Name] = s.Name
		case *ast.DomainStmt:
			for _, dim := range s.Dims {
				out[dim.Name.Name] = dim.Name
			}
		}
	}
	return out
}

// uses are the identifiers of tree that stand for a value: every one but
// the names of calls, of arguments, of options, of the problem, of
// constraints and objectives, and the declarations themselves.
func uses(tree *ast.File) []*ast.Ident {
	names := map[*ast.Ident]bool{}
	inspect(tree, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			names[n.Fun] = true
		case *ast.Arg:
			names[n.Name] = true
		case *ast.Option:
			names[n.Name] = true
		case *ast.ProblemStmt:
			names[n.Name] = true
		case *ast.ConstraintStmt:
			names[n.Name] = true
		case *ast.ObjectiveLine:
			names[n.Name] = true
		case *ast.LetStmt:
			names[n.Name] = true
		case *ast.Dim:
			names[n.Name] = true
		}
		return true
	})
	var out []*ast.Ident
	inspect(tree, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && !names[id] {
			out = append(out, id)
		}
		return true
	})
	return out
}

// nameAt is the declared name at the position (a declaration or a use),
// and its declaration; nil when there is none.
func nameAt(d *document, u *unit, pos protocol.Position) *ast.Ident {
	if u == nil || u.Tree == nil {
		return nil
	}
	word, _ := d.wordAt(d.offset(pos))
	return declarations(u.Tree)[word]
}

// definition is where the name under the cursor is declared.
func definition(d *document, u *unit, pos protocol.Position) []protocol.Location {
	decl := nameAt(d, u, pos)
	if decl == nil {
		return []protocol.Location{}
	}
	return []protocol.Location{{URI: d.uri, Range: u.doc.rangeOf(decl.Span())}}
}

// references are the uses of the name under the cursor, and its
// declaration when asked.
func references(d *document, u *unit, pos protocol.Position, withDeclaration bool) []protocol.Location {
	decl := nameAt(d, u, pos)
	out := []protocol.Location{}
	if decl == nil {
		return out
	}
	if withDeclaration {
		out = append(out, protocol.Location{URI: d.uri, Range: u.doc.rangeOf(decl.Span())})
	}
	for _, id := range uses(u.Tree) {
		if id.Name == decl.Name {
			out = append(out, protocol.Location{URI: d.uri, Range: u.doc.rangeOf(id.Span())})
		}
	}
	return out
}

// symbols is the file's outline: its statements, the domain's variables
// inside the domain, the constraints and lets by name.
func symbols(d *document, u *unit) []protocol.DocumentSymbol {
	out := []protocol.DocumentSymbol{}
	if u == nil || u.Tree == nil {
		return out
	}
	symbol := func(name string, kind protocol.SymbolKind, whole dsl.Span, id *ast.Ident) protocol.DocumentSymbol {
		sel := whole
		if id != nil {
			sel = id.Span()
		}
		return protocol.DocumentSymbol{Name: name, Kind: kind, Range: u.doc.rangeOf(whole), SelectionRange: u.doc.rangeOf(sel)}
	}
	for _, s := range u.Tree.Stmts {
		switch s := s.(type) {
		case *ast.ProblemStmt:
			out = append(out, symbol("problem "+s.Name.Name, protocol.SymbolKindModule, s.Span(), s.Name))
		case *ast.LetStmt:
			out = append(out, symbol(s.Name.Name, protocol.SymbolKindConstant, s.Span(), s.Name))
		case *ast.DomainStmt:
			domain := symbol("domain", protocol.SymbolKindStruct, s.Span(), nil)
			for _, dim := range s.Dims {
				domain.Children = append(domain.Children, symbol(dim.Name.Name, protocol.SymbolKindField, dim.Span(), dim.Name))
			}
			out = append(out, domain)
		case *ast.ConstraintStmt:
			kind := "constraint "
			if s.Require {
				kind = "require "
			}
			out = append(out, symbol(kind+s.Name.Name, protocol.SymbolKindProperty, s.Span(), s.Name))
		case *ast.ObjectiveStmt:
			objective := symbol("objective", protocol.SymbolKindEvent, s.Span(), nil)
			for _, l := range s.Lines {
				objective.Children = append(objective.Children, symbol(l.Sense()+" "+l.Name.Name, protocol.SymbolKindEvent, l.Span(), l.Name))
			}
			out = append(out, objective)
		case *ast.PluginStmt:
			out = append(out, symbol(s.Keyword, protocol.SymbolKindFunction, s.Span(), nil))
		case *ast.ValueStmt:
			out = append(out, symbol(s.Keyword, protocol.SymbolKindNumber, s.Span(), nil))
		case *ast.CandidatesStmt:
			out = append(out, symbol("candidates", protocol.SymbolKindArray, s.Span(), nil))
		case *ast.InputNoiseStmt:
			out = append(out, symbol("input noise", protocol.SymbolKindObject, s.Span(), nil))
		case *ast.ObservationNoiseStmt:
			out = append(out, symbol("observation noise", protocol.SymbolKindObject, s.Span(), nil))
		}
	}
	return out
}

// inspect visits every statement of tree and the nodes below it.
func inspect(tree *ast.File, f func(ast.Node) bool) {
	for _, s := range tree.Stmts {
		ast.Inspect(s, f)
	}
}
