package lsp

import (
	"fmt"
	"strings"

	"github.com/bocdev/boc/dsl/ast"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
	"go.lsp.dev/protocol"
)

// hover describes the name under the cursor: a plugin by its registry
// documentation (as `boc list-plugins` prints it), a domain variable by its
// type and bounds, a let by its definition, a keyword by a line of the
// language reference.
func hover(d *document, u *unit, pos protocol.Position) *protocol.Hover {
	off := d.offset(pos)
	word, start := d.wordAt(off)
	if word == "" {
		return nil
	}
	text := describe(d, u, word, start)
	if text == "" {
		return nil
	}
	r := protocol.Range{Start: d.position(start), End: d.position(start + len(word))}
	return &protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.Markdown, Value: text}, Range: &r}
}

// describe is the hover text of word, which starts at byte offset start:
// a declaration's, a plugin's or a keyword's; "" for none.
func describe(d *document, u *unit, word string, start int) string {
	if text := declared(u, word); text != "" {
		return text
	}
	if p := pluginAt(d, start, word); p != nil {
		var b strings.Builder
		fmt.Fprintf(&b, "%s %s\n\n", p.Kind, p.Name)
		p.Describe(&b)
		return "```text\n" + b.String() + "```"
	}
	if doc := keywordDocs[word]; doc != "" {
		return "`" + word + "`: " + doc
	}
	return ""
}

// declared describes the domain variable or let named name, "" when the
// last check has no such declaration.
func declared(u *unit, name string) string {
	if u == nil {
		return ""
	}
	if u.Program != nil {
		for _, dim := range u.Program.Dims {
			if dim.Name == name {
				return "```bo\n" + name + ": " + dimDescription(dim) + "\n```"
			}
		}
	}
	if u.Tree == nil {
		return ""
	}
	for _, s := range u.Tree.Stmts {
		switch s := s.(type) {
		case *ast.LetStmt:
			if s.Name.Name == name {
				return "```bo\n" + sourceOf(u, s) + "\n```"
			}
		case *ast.DomainStmt:
			for _, dim := range s.Dims {
				if dim.Name.Name == name {
					return "```bo\n" + strings.TrimSpace(sourceOf(u, dim)) + "\n```\ndomain variable"
				}
			}
		}
	}
	return ""
}

// dimDescription is a checked domain variable's type, with its bounds or
// levels and the condition it exists under.
func dimDescription(dim *ir.Dim) string {
	var out string
	switch {
	case dim.Categorical():
		out = fmt.Sprintf("one of {%s}", quoteAll(dim.Levels))
	case dim.Integer:
		out = fmt.Sprintf("int in %g..%g", dim.Lo, dim.Hi)
	default:
		out = fmt.Sprintf("real in [%g, %g]", dim.Lo, dim.Hi)
	}
	if dim.Vector {
		out = fmt.Sprintf("vec[%d], each %s", dim.Size, out)
	}
	if dim.Log {
		out += ", log scale"
	}
	if dim.When != nil {
		out += ", only where its condition holds"
	}
	return out
}

func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

// sourceOf is the text of a span of the checked source.
func sourceOf(u *unit, s ast.Node) string {
	return sourceText(u.Source, s.Span().Start.Offset, s.Span().End.Offset)
}

func sourceText(src []byte, start, end int) string {
	start, end = min(max(start, 0), len(src)), min(max(end, 0), len(src))
	return string(src[start:max(start, end)])
}

// pluginAt is the plugin a name at byte offset start names, judged by
// where it stands: after `kernel =` a kernel, after `~` a distribution, else
// by the statement it is in (an init's sobol is a design, a candidates'
// one a generator). Nil when no plugin has the name.
func pluginAt(d *document, start int, name string) *registry.Plugin {
	for _, k := range kindsAt(d, start) {
		if p, ok := registry.Lookup(k, name); ok {
			return p
		}
	}
	return nil
}

// kindsAt lists the plugin kinds a name at byte offset start may be, the
// likeliest first.
func kindsAt(d *document, start int) []registry.Kind {
	before := strings.TrimRight(d.text[d.lines[d.position(start).Line]:start], " \t")
	switch {
	case strings.HasSuffix(before, "kernel =") || strings.HasSuffix(before, "kernel"):
		return []registry.Kind{registry.Kernel}
	case strings.HasSuffix(before, "~"):
		return []registry.Kind{registry.Distribution}
	}
	var first []registry.Kind
	switch statementAt(d, start) {
	case "model":
		first = []registry.Kind{registry.Model, registry.Kernel, registry.Distribution}
	case "acquisition":
		first = []registry.Kind{registry.Acquisition}
	case "search":
		first = []registry.Kind{registry.Search}
	case "init":
		first = []registry.Kind{registry.Init}
	case "candidates":
		first = []registry.Kind{registry.Candidates}
	case "input", "observation":
		first = []registry.Kind{registry.Distribution}
	default:
		first = []registry.Kind{registry.Benchmark, registry.Function}
	}
	return append(first, registry.Kinds...)
}

// statementAt is the keyword of the statement around byte offset off: the
// first word of the nearest line above it that starts at column 1.
func statementAt(d *document, off int) string {
	for line := int(d.position(off).Line); line >= 0; line-- {
		text := d.line(line)
		if text == "" || text[0] == ' ' || text[0] == '\t' || text[0] == '}' || strings.HasPrefix(text, "//") {
			continue
		}
		word, _ := (&document{text: text}).wordAt(0)
		return word
	}
	return ""
}

// keywordDocs are a line of the language reference (docs/language.md) for
// each reserved word and the words that start a statement's part.
var keywordDocs = map[string]string{
	"problem":     "names the problem: `problem NAME`, the generated program's and package's name.",
	"let":         "`let NAME = EXPR` names a constant or an expression over the domain variables.",
	"domain":      "`domain { x in [lo, hi] ... }` declares the search space: reals, integers (`lo..hi`), vectors (`x[4] in ...`), log scales, choices (`{\"a\", \"b\"}`) and components that exist only `when` a choice holds.",
	"in":          "in a domain line, gives a variable its range, levels or bounds.",
	"candidates":  "`candidates CALL` or `candidates file \"x.csv\"`: a finite decision set in place of the box.",
	"objective":   "`objective minimize|maximize EXPR`, or a `go`, `exec` or `external` objective; `objective { maximize a ... }` for several.",
	"maximize":    "the objective's sense: larger is better.",
	"minimize":    "the objective's sense: smaller is better.",
	"input":       "`input noise { x ~ DIST }`: where a query aimed at x really lands.",
	"observation": "`observation noise ~ DIST`, `learn` or `reported`: the noise of the measured values.",
	"noise":       "part of `input noise` and `observation noise`.",
	"constraint":  "`constraint NAME: LHS <= RHS`: a known condition of the space, or a measured safety constraint (`go`, `exec`, `reported`) that is never broken.",
	"require":     "`require NAME: reported >= h`: an outcome the result must meet, which evaluations may break.",
	"model":       "`model CALL`: the surrogate model (gp, ugp, mmd, erbf, skl).",
	"acquisition": "`acquisition CALL`: how the next point is chosen (ei, ucb, kg, nei, safe_ucb, ...).",
	"search":      "`search CALL`: how the acquisition is maximised (lbfgs, pattern, turbo).",
	"budget":      "`budget N`: the most evaluations a run makes.",
	"init":        "`init sobol(n)`, `lhs(n)`, `random(n)` or a list of points: the initial design.",
	"seed":        "`seed N`: the random seed, so that a run can be repeated exactly.",
	"stop":        "`stop when EXPR`: ends a run early (evaluations, acquisition, best, ...).",
	"when":        "in `stop when` the condition to stop; in a domain line, the choice a component exists for.",
	"learn":       "`learn` or `learn(init, [lo, hi])`: a hyperparameter fitted to the data.",
	"go":          "`go \"pkg\".Func`: a Go function measures the objective or a constraint.",
	"exec":        "`exec \"cmd\" args...`: a program reads {\"x\": ...} and writes {\"y\": ...}.",
	"external":    "the values are told from outside (ask and tell, serve, the package's Observe).",
	"reported":    "the value comes with the objective's report (a constraint, or the noise sd).",
	"file":        "`candidates file \"x.csv\"`: the decision set from a CSV file.",
	"if":          "`if C then A else B`: a conditional expression.",
	"then":        "part of `if C then A else B`.",
	"else":        "part of `if C then A else B`.",
	"and":         "logical and.",
	"or":          "logical or.",
	"not":         "logical negation.",
}
