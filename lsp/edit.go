package lsp

import (
	"encoding/json"
	"regexp"
	"strconv"

	"github.com/bocdev/boc/format"
	"go.lsp.dev/protocol"
)

// formatEdits is `boc fmt`'s text as one edit of the whole document; none
// when the text is formatted already or does not parse (the diagnostics
// say why).
func formatEdits(d *document) []protocol.TextEdit {
	out, diags := format.Source(d.path, []byte(d.text))
	if diags.HasErrors() || string(out) == d.text {
		return []protocol.TextEdit{}
	}
	whole := protocol.Range{Start: protocol.Position{}, End: d.position(len(d.text))}
	return []protocol.TextEdit{{Range: whole, NewText: string(out)}}
}

// didYouMean finds the name a "did you mean" hint proposes: quoted as a
// Go string by the checker, between backquotes by the parser.
var didYouMean = regexp.MustCompile("did you mean (\"(?:[^\"\\\\]|\\\\.)*\"|`[^`]*`)\\?")

// codeActions are the quick fixes of the diagnostics the editor shows at a
// range: each "did you mean" hint replaces the misspelt name, where the
// diagnostic starts, with the one it proposes.
func codeActions(d *document, diags []protocol.Diagnostic) []protocol.CodeAction {
	out := []protocol.CodeAction{}
	for _, diag := range diags {
		b, _ := json.Marshal(diag.Data)
		var data diagnosticData
		if json.Unmarshal(b, &data) != nil {
			continue
		}
		m := didYouMean.FindStringSubmatch(data.Hint)
		if m == nil {
			continue
		}
		name, err := strconv.Unquote(m[1]) // a backquoted name unquotes as a raw string
		if err != nil {
			continue
		}
		edit, ok := replacement(d, diag.Range.Start, name)
		if !ok {
			continue
		}
		out = append(out, protocol.CodeAction{
			Title:       "Change to " + name,
			Kind:        protocol.QuickFix,
			Diagnostics: []protocol.Diagnostic{diag},
			IsPreferred: true,
			Edit:        &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{d.uri: {edit}}},
		})
	}
	return out
}

// replacement is the edit that puts name in place of the name at pos: a
// name, or the text of a quoted level.
func replacement(d *document, pos protocol.Position, name string) (protocol.TextEdit, bool) {
	off := d.offset(pos)
	if off < len(d.text) && d.text[off] == '"' {
		end := off + 1
		for end < len(d.text) && d.text[end] != '"' && d.text[end] != '\n' {
			end++
		}
		return protocol.TextEdit{Range: protocol.Range{Start: d.position(off + 1), End: d.position(end)}, NewText: name}, true
	}
	word, start := d.wordAt(off)
	if word == "" {
		return protocol.TextEdit{}, false
	}
	return protocol.TextEdit{Range: protocol.Range{Start: d.position(start), End: d.position(start + len(word))}, NewText: name}, true
}
