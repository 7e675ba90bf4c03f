package cli

import (
	"bytes"
	"flag"
	"os"

	"github.com/bocdev/boc/format"
)

var fmtCommand = &command{
	name:    "fmt",
	args:    "[-w | --check] FILE.bo...",
	summary: "lay out .bo files in the canonical format",
	doc: `Fmt lays each FILE.bo out in boc's canonical format, as gofmt does Go
source: the same tokens and comments, canonical spacing, four-space
indentation inside { } blocks and continued brackets, at most one blank line
between statements. The formatted file checks to the same program, and
formatting it again changes nothing. Without flags it prints the formatted
files to stdout; -w rewrites the files that change, in place; --check writes
nothing, lists the files that are not formatted and exits 1 if there is one
(for CI). A file with syntax errors is reported and left alone.`,
	nargs: -1,
	flags: func(fs *flag.FlagSet) func(*env, []string) int {
		write := fs.Bool("w", false, "rewrite the files in place")
		check := fs.Bool("check", false, "list the files that are not formatted; exit 1 if any")
		return func(e *env, args []string) int {
			switch {
			case len(args) == 0:
				return e.usageError("missing FILE.bo")
			case *write && *check:
				return e.usageError("-w and --check exclude each other")
			}
			code := exitOK
			for _, path := range args {
				if c := formatFile(e, path, *write, *check); c != exitOK {
					code = c
				}
			}
			return code
		}
	},
}

// formatFile formats one file as fmt's flags say and returns its exit code.
func formatFile(e *env, path string, write, check bool) int {
	src, err := os.ReadFile(path)
	if err != nil {
		return e.failf("%v", err)
	}
	out, diags := format.Source(path, src)
	if diags.HasErrors() {
		diags.Render(e.stderr, src)
		return exitFail
	}
	switch {
	case check:
		if !bytes.Equal(out, src) {
			e.stdout.Write([]byte(path + "\n"))
			return exitFail
		}
	case write:
		info, err := os.Stat(path)
		if err != nil {
			return e.failf("%v", err)
		}
		if err := writeFileAtomic(path, out); err != nil {
			return e.failf("%v", err)
		}
		if err := os.Chmod(path, info.Mode().Perm()); err != nil {
			return e.failf("%v", err)
		}
	default:
		e.stdout.Write(out)
	}
	return exitOK
}
