package lsp

import (
	"testing"

	"github.com/bocdev/boc/parser"
)

// TestEveryKeywordHasADoc: hover has a line for every reserved word.
func TestEveryKeywordHasADoc(t *testing.T) {
	for _, k := range append(parser.Keywords(), parser.StatementKeywords()...) {
		if keywordDocs[k] == "" {
			t.Errorf("keyword %s has no hover text", k)
		}
	}
}
