package cli

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/bocdev/boc/codegen"
	"github.com/bocdev/boc/driver"
	"github.com/rogpeppe/go-internal/diff"
)

var diffCommand = &command{
	name:    "diff",
	args:    "FILE.bo -o DIR [--package NAME]",
	summary: "report whether DIR holds what gen would write (for CI)",
	doc: `Diff compiles FILE.bo as gen does and compares the files gen would write
into DIR with those there. It exits 0 when every file is up to date, and 1
with a unified diff of each file that is missing or differs, and the name of
each file gen would retire (generated earlier from FILE.bo but no longer
part of the output; a file gen retired already, which no build reads, is no
difference). Other files in DIR are not looked at. Nothing is
written. In a downstream repository's CI, after the files were generated
with //go:generate boc gen problem.bo -o ./opt:

	boc diff problem.bo -o ./opt

fails the build when problem.bo or boc changed and the generated package was
not regenerated.`,
	nargs: 1,
	flags: func(fs *flag.FlagSet) func(*env, []string) int {
		return packageFlags(fs, "compare with the package in `DIR` (required)", diffGenerated)
	},
}

// diffGenerated prints the differences between gen's output and dir, and
// returns exitFail when there is one.
func diffGenerated(e *env, dir string, u *driver.Unit, gen *codegen.Output) int {
	differ := false
	wanted := map[string]bool{}
	for _, f := range gen.Library {
		target := filepath.Join(dir, filepath.FromSlash(f.Name))
		wanted[target] = true
		old, err := os.ReadFile(target)
		switch {
		case errors.Is(err, os.ErrNotExist):
			differ = true
			fmt.Fprintf(e.stdout, "%s: missing\n", target)
			e.stdout.Write(diff.Diff(target, nil, "generated/"+f.Name, f.Content))
		case err != nil:
			return e.failf("%v", err)
		default:
			if d := diff.Diff(target, old, "generated/"+f.Name, f.Content); d != nil {
				differ = true
				e.stdout.Write(d)
			}
		}
	}
	stale, _, err := staleGenerated(dir, u.Program.Source, wanted)
	if err != nil {
		return e.failf("%v", err)
	}
	for _, name := range stale {
		differ = true
		fmt.Fprintf(e.stdout, "%s: generated from %s, no longer part of the output; gen retires it\n", name, u.Program.Source)
	}
	if differ {
		fmt.Fprintf(e.stderr, "boc: %s is not up to date with %s; run boc gen %s -o %s\n", dir, u.Path, u.Path, dir)
		return exitFail
	}
	return exitOK
}
