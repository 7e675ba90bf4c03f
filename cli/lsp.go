package cli

import (
	"context"
	"flag"
	"io"

	"github.com/bocdev/boc/lsp"
)

var lspCommand = &command{
	name:    "lsp",
	summary: "serve the .bo language to an editor (Language Server Protocol on stdin/stdout)",
	doc: `Lsp speaks the Language Server Protocol on standard input and output, for
an editor to start: diagnostics as you type (the checks of boc check, on the
editor's text), hover documentation, completion, formatting (boc fmt), go to
definition, references, the outline and quick fixes for "did you mean"
hints. docs/editors.md says how to set up VS Code, Neovim and Helix.`,
	nargs: 0,
	flags: func(*flag.FlagSet) func(*env, []string) int {
		return func(e *env, _ []string) int {
			if err := lsp.Serve(context.Background(), stdio{e.stdin, e.stdout}); err != nil {
				return e.failf("lsp: %v", err)
			}
			return exitOK
		}
	},
}

// stdio joins standard input and output into the stream an editor and its
// language server share.
type stdio struct {
	io.Reader
	io.Writer
}

func (stdio) Close() error { return nil }
