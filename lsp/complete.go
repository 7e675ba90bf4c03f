package lsp

import (
	"regexp"
	"strings"

	"github.com/bocdev/boc/dsl/ast"
	"github.com/bocdev/boc/parser"
	"github.com/bocdev/boc/stdlib/registry"
	"go.lsp.dev/protocol"
)

// complete offers what the position accepts: after a statement keyword its
// plugins, after `kernel =` the kernels, after `~` the distributions, inside
// a plugin's parentheses its parameters (with their types and defaults),
// at the start of a line the statement keywords, and elsewhere the domain
// variables, lets, choices' levels, functions and benchmarks.
func complete(d *document, u *unit, pos protocol.Position) *protocol.CompletionList {
	_, start := d.wordAt(d.offset(pos))
	before := d.text[d.lines[d.position(start).Line]:start]
	var items []protocol.CompletionItem
	switch {
	case strings.TrimSpace(before) == "" && !inBlock(d, start):
		items = keywordItems(parser.StatementKeywords())
	case pluginStatement.MatchString(before):
		items = pluginItems(statementKinds[pluginStatement.FindStringSubmatch(before)[1]])
	case kernelArgument.MatchString(before):
		items = pluginItems(registry.Kernel)
	case strings.HasSuffix(strings.TrimSpace(before), "~"):
		items = pluginItems(registry.Distribution)
	default:
		if call, ok := openCall(d, start); ok && argumentName.MatchString(d.text[:start]) {
			items = paramItems(d, start, call)
		}
		if items == nil {
			items = expressionItems(u)
		}
	}
	return &protocol.CompletionList{Items: items}
}

var (
	pluginStatement = regexp.MustCompile(`^(model|acquisition|search|init|candidates)\s+$`)
	kernelArgument  = regexp.MustCompile(`kernel\s*(=\s*)?$`)
	// argumentName matches text that ends where an argument's name may
	// start: after the call's parenthesis or a comma.
	argumentName = regexp.MustCompile(`[(,]\s*$`)
)

// statementKinds are the plugin kinds each plugin statement takes.
var statementKinds = map[string]registry.Kind{"model": registry.Model, "acquisition": registry.Acquisition,
	"search": registry.Search, "init": registry.Init, "candidates": registry.Candidates}

// inBlock reports whether byte offset off lies inside braces (a domain's
// lines, a constraint's options), where no statement starts.
func inBlock(d *document, off int) bool {
	depth := 0
	for _, r := range stripComments(d.text[:off]) {
		switch r {
		case '{':
			depth++
		case '}':
			depth--
		}
	}
	return depth > 0
}

// openCall is the name of the innermost call whose parentheses are open
// at byte offset off, within its statement.
func openCall(d *document, off int) (string, bool) {
	text := stripComments(d.text[:off])
	depth := 0
	for i := len(text) - 1; i >= 0; i-- {
		switch text[i] {
		case ')':
			depth++
		case '(':
			if depth > 0 {
				depth--
				continue
			}
			j := i
			for j > 0 && isNameByte(text[j-1]) {
				j--
			}
			return text[j:i], j < i
		case '\n':
			if i+1 < len(text) && text[i+1] != ' ' && text[i+1] != '\t' && text[i+1] != ')' {
				return "", false // the statement starts on the next line
			}
		}
	}
	return "", false
}

// stripComments blanks out comments, keeping every offset.
func stripComments(s string) string {
	b := []byte(s)
	for i := 0; i < len(b); i++ {
		switch {
		case b[i] == '"':
			for i++; i < len(b) && b[i] != '"' && b[i] != '\n'; i++ {
			}
		case strings.HasPrefix(string(b[i:min(i+2, len(b))]), "//"):
			for ; i < len(b) && b[i] != '\n'; i++ {
				b[i] = ' '
			}
		case strings.HasPrefix(string(b[i:min(i+2, len(b))]), "/*"):
			for ; i < len(b) && !strings.HasPrefix(string(b[i:min(i+2, len(b))]), "*/"); i++ {
				if b[i] != '\n' {
					b[i] = ' '
				}
			}
			if i+1 < len(b) {
				b[i], b[i+1] = ' ', ' '
				i++
			}
		}
	}
	return string(b)
}

func keywordItems(words []string) []protocol.CompletionItem {
	items := make([]protocol.CompletionItem, len(words))
	for i, w := range words {
		items[i] = protocol.CompletionItem{Label: w, Kind: protocol.CompletionItemKindKeyword, Detail: keywordDocs[w]}
	}
	return items
}

// pluginItems are the built plugins of kind k: what a file may use.
func pluginItems(k registry.Kind) []protocol.CompletionItem {
	var items []protocol.CompletionItem
	for _, name := range registry.Names(k) {
		p, _ := registry.Lookup(k, name)
		if !p.Built() {
			continue
		}
		items = append(items, protocol.CompletionItem{Label: name, Kind: protocol.CompletionItemKindFunction, Detail: string(k) + ": " + p.Doc})
	}
	return items
}

// paramItems are the parameters of the plugin called name, as `name = `.
func paramItems(d *document, start int, name string) []protocol.CompletionItem {
	p := pluginAt(d, start, name)
	if p == nil {
		return nil
	}
	var items []protocol.CompletionItem
	for _, prm := range p.Params {
		detail := prm.TypeString() + ", " + prm.DefaultString()
		if r := prm.RangeString(); r != "" {
			detail += ", " + r
		}
		items = append(items, protocol.CompletionItem{Label: prm.Name, Kind: protocol.CompletionItemKindField,
			Detail: detail, Documentation: prm.Doc, InsertText: prm.Name + " = "})
	}
	return items
}

// expressionItems are the names an expression may use: the domain
// variables and lets of the last check, the levels of its choices, the
// functions and the benchmarks.
func expressionItems(u *unit) []protocol.CompletionItem {
	var items []protocol.CompletionItem
	if u != nil && u.Tree != nil {
		for _, s := range u.Tree.Stmts {
			switch s := s.(type) {
			case *ast.DomainStmt:
				for _, dim := range s.Dims {
					items = append(items, protocol.CompletionItem{Label: dim.Name.Name, Kind: protocol.CompletionItemKindVariable, Detail: "domain variable"})
					for _, level := range dim.Levels {
						items = append(items, protocol.CompletionItem{Label: `"` + level.Value + `"`, Kind: protocol.CompletionItemKindEnumMember, Detail: "a level of " + dim.Name.Name})
					}
				}
			case *ast.LetStmt:
				items = append(items, protocol.CompletionItem{Label: s.Name.Name, Kind: protocol.CompletionItemKindConstant, Detail: "let"})
			}
		}
	}
	for _, k := range []registry.Kind{registry.Function, registry.Benchmark} {
		items = append(items, pluginItems(k)...)
	}
	return append(items, keywordItems([]string{"if", "then", "else", "and", "or", "not", "learn"})...)
}
