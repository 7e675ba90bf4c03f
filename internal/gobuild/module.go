// Package gobuild builds Go programs that boc generates, offline, on a machine
// that has nothing but a Go toolchain: the module the programs link against (the
// boc runtime) travels as source inside the boc binary, is extracted once into a
// content-addressed cache directory, and is wired into a temporary module with a
// replace directive. Dependencies of that module (gonum) come from the local
// module cache, where they already are wherever boc itself was built.
package gobuild

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// LocalModule is a module on disk: its module path and the directory holding
// its go.mod.
type LocalModule struct {
	Path string
	Dir  string
}

// ErrNoModule is returned by FindModule when no go.mod encloses a directory.
var ErrNoModule = errors.New("no go.mod found")

// FindModule returns the module that contains dir: the nearest go.mod in dir or
// one of its parents.
func FindModule(dir string) (LocalModule, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return LocalModule{}, err
	}
	for d := abs; ; {
		data, err := os.ReadFile(filepath.Join(d, "go.mod"))
		switch {
		case err == nil:
			path, err := parseDirective(data, "module")
			if err != nil {
				return LocalModule{}, fmt.Errorf("%s: %w", filepath.Join(d, "go.mod"), err)
			}
			return LocalModule{Path: path, Dir: d}, nil
		case !errors.Is(err, os.ErrNotExist):
			return LocalModule{}, err
		}
		parent := filepath.Dir(d)
		if parent == d {
			return LocalModule{}, fmt.Errorf("%w in %s or any parent directory", ErrNoModule, abs)
		}
		d = parent
	}
}

// parseDirective returns the argument of the first single-line go.mod directive
// called name ("module", "go"), unquoting it if needed. Those directives take one
// argument and are never written in block form, so a line scan is exact.
func parseDirective(gomod []byte, name string) (string, error) {
	sc := bufio.NewScanner(bytes.NewReader(gomod))
	for sc.Scan() {
		line := sc.Text()
		if i := strings.Index(line, "//"); i >= 0 {
			line = line[:i]
		}
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), name)
		arg := strings.TrimSpace(rest)
		if !ok || arg == "" || arg == rest {
			continue // another directive, or name is only a prefix of it
		}
		if strings.HasPrefix(arg, `"`) || strings.HasPrefix(arg, "`") {
			unq, err := strconv.Unquote(arg)
			if err != nil {
				return "", fmt.Errorf("malformed %s directive %s", name, arg)
			}
			arg = unq
		}
		return arg, nil
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	return "", fmt.Errorf("no %s directive", name)
}

// replacement is one replace directive: Old (at OldVersion, or at every
// version when that is empty) => New, a directory when NewVersion is empty,
// else a module at NewVersion.
type replacement struct {
	Old, OldVersion, New, NewVersion string
}

func (r replacement) String() string {
	s := r.Old
	if r.OldVersion != "" {
		s += " " + r.OldVersion
	}
	if r.NewVersion == "" {
		return s + " => " + strconv.Quote(r.New) // a directory may contain spaces
	}
	return s + " => " + r.New + " " + r.NewVersion
}

// moduleFile renders the go.mod of a program module called path that
// requires each module of deps at v0.0.0, with the given replacements.
// Pinning one pseudo-version and replacing it keeps the build away from any
// proxy.
func moduleFile(path, goVersion string, deps []LocalModule, replaces []replacement) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "module %s\n\ngo %s\n\nrequire (\n", path, goVersion)
	for _, d := range deps {
		fmt.Fprintf(&b, "\t%s v0.0.0\n", d.Path)
	}
	b.WriteString(")\n\nreplace (\n")
	for _, r := range replaces {
		fmt.Fprintf(&b, "\t%s\n", r)
	}
	b.WriteString(")\n")
	return b.Bytes()
}

// mergeSums joins go.sum files, dropping blank and duplicate lines, in the
// sorted order the go command itself writes.
func mergeSums(sums ...[]byte) []byte {
	seen := map[string]bool{}
	var lines []string
	for _, s := range sums {
		for _, line := range strings.Split(string(s), "\n") {
			line = strings.TrimSpace(line)
			if line == "" || seen[line] {
				continue
			}
			seen[line] = true
			lines = append(lines, line)
		}
	}
	sort.Strings(lines)
	if len(lines) == 0 {
		return nil
	}
	return []byte(strings.Join(lines, "\n") + "\n")
}
