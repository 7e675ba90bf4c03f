package cli

import (
	"bytes"
	"flag"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/bocdev/boc/format"
)

var fmtCommand = &command{
	name:    "fmt",
	args:    "[-w | --check] [FILE.bo | DIR]...",
	summary: "lay out .bo files in the canonical format",
	doc: `Fmt lays each FILE.bo out in boc's canonical format, as gofmt does Go
source: the same tokens and comments, canonical spacing, four-space
indentation inside { } blocks and continued brackets, at most one blank line
between statements. The formatted file checks to the same program, and
formatting it again changes nothing. Without flags it prints the formatted
files to stdout; -w rewrites the files that change, in place (through a
symbolic link, to the file it points to); --check writes nothing, lists the
files that are not formatted and exits 1 if there is one (for CI). A
directory stands for every .bo file under it, in lexical order, skipping
directories whose names start with "." or "_" and testdata, as the go command
does. Without files it formats standard input to standard output (for
editors). A file with syntax errors is reported and left alone.`,
	nargs: -1,
	flags: func(fs *flag.FlagSet) func(*env, []string) int {
		write := fs.Bool("w", false, "rewrite the files in place")
		check := fs.Bool("check", false, "list the files that are not formatted; exit 1 if any")
		return func(e *env, args []string) int {
			switch {
			case *write && *check:
				return e.usageError("-w and --check exclude each other")
			case len(args) == 0 && *write:
				return e.usageError("-w rewrites files: give FILE.bo or DIR")
			case len(args) == 0:
				src, err := io.ReadAll(e.stdin)
				if err != nil {
					return e.failf("reading standard input: %v", err)
				}
				return formatSource(e, "<standard input>", src, *check)
			}
			code := exitOK
			for _, arg := range args {
				paths, err := boFiles(arg)
				if err != nil {
					code = e.failf("%v", err)
					continue
				}
				for _, path := range paths {
					if c := formatFile(e, path, *write, *check); c != exitOK {
						code = c
					}
				}
			}
			return code
		}
	},
}

// boFiles is arg itself, or for a directory every .bo file under it, in
// lexical order, without the directories the go command skips too.
func boFiles(arg string) ([]string, error) {
	info, err := os.Stat(arg)
	if err != nil || !info.IsDir() {
		return []string{arg}, nil // formatFile reports what is wrong
	}
	var paths []string
	err = filepath.WalkDir(arg, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && path != arg && (strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_") || d.Name() == "testdata"):
			return filepath.SkipDir
		case !d.IsDir() && strings.HasSuffix(d.Name(), ".bo"):
			paths = append(paths, path)
		}
		return nil
	})
	return paths, err
}

// formatFile formats one file as fmt's flags say and returns its exit code.
func formatFile(e *env, path string, write, check bool) int {
	src, err := os.ReadFile(path)
	if err != nil {
		return e.failf("%v", err)
	}
	if !write {
		return formatSource(e, path, src, check)
	}
	out, ok := formatted(e, path, src)
	if !ok {
		return exitFail
	}
	// Through a symbolic link, to the file it points to: the link stays.
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return e.failf("%v", err)
	}
	info, err := os.Stat(target)
	if err != nil {
		return e.failf("%v", err)
	}
	if err := writeFileAtomic(target, out); err != nil {
		return e.failf("%v", err)
	}
	if err := os.Chmod(target, info.Mode().Perm()); err != nil {
		return e.failf("%v", err)
	}
	return exitOK
}

// formatSource prints src formatted, or with check, name if formatting
// would change it; it returns the exit code.
func formatSource(e *env, name string, src []byte, check bool) int {
	out, ok := formatted(e, name, src)
	switch {
	case !ok:
		return exitFail
	case !check:
		e.stdout.Write(out)
	case !bytes.Equal(out, src):
		e.stdout.Write([]byte(name + "\n"))
		return exitFail
	}
	return exitOK
}

// formatted is src in the canonical layout; a syntax error is rendered to
// stderr instead.
func formatted(e *env, name string, src []byte) ([]byte, bool) {
	out, diags := format.Source(name, src)
	if diags.HasErrors() {
		diags.Render(e.stderr, src)
		return nil, false
	}
	return out, true
}
