package gobuild

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// ProgramModule is the module path of the temporary module a program is built
// in; its packages import each other as ProgramModule + "/" + directory.
const ProgramModule = "bocprog"

// File is one source file of a program; Path is slash-separated and relative to
// the program module's root.
type File struct {
	Path    string
	Content []byte
}

// Program is what Build compiles: the files of a main package at the module
// root (and any packages below it), plus the local modules it imports.
type Program struct {
	Files []File
	// Uses lists modules on disk the program imports besides the carried one,
	// such as the user's module holding a Go-bound objective. A module with the
	// carried module's own path takes the carried copy's place, so a program
	// built from inside a checkout of boc links that checkout.
	Uses []LocalModule
}

// Builder builds programs against a carried module.
type Builder struct {
	// Carried is the source of the module programs link against, with its
	// go.mod and go.sum at the root.
	Carried fs.FS
	// CacheDir receives the extracted copy of Carried; "" means the "boc"
	// directory in os.UserCacheDir.
	CacheDir string
	// Env is the go command's environment before Build's own settings; nil
	// means os.Environ().
	Env []string
}

// BuildError is a failed `go build`, with what the go command printed.
type BuildError struct {
	Err    error
	Output string
}

func (e *BuildError) Error() string {
	return fmt.Sprintf("go build: %v\n%s", e.Err, strings.TrimRight(e.Output, "\n"))
}

func (e *BuildError) Unwrap() error { return e.Err }

// Build compiles prog into the executable output. It lays the program out in a
// temporary module (see writeModule) and runs `go build` there with -mod=mod,
// so go.mod gains the carried module's own requirements from the local module
// cache, and with the local toolchain. The temporary module is removed
// afterwards. -trimpath keeps compiled packages independent of the temporary
// directory's name, so the go build cache serves repeated builds.
func (b *Builder) Build(ctx context.Context, prog Program, output string) error {
	out, err := filepath.Abs(output)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "boc-build-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := b.writeModule(prog, tmp); err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-o", out, ".")
	cmd.Dir = tmp
	cmd.Env = append(b.environ(), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "GOWORK=off")
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	if err := cmd.Run(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return fmt.Errorf("the go command is needed to build programs: %w", err)
		}
		return &BuildError{Err: err, Output: buf.String()}
	}
	return nil
}

// writeModule writes prog into dir as module ProgramModule. Its go.mod
// requires the carried module and every module in prog.Uses at v0.0.0, each
// replaced by its directory (the carried one extracted into the cache unless
// prog.Uses supplies it); it keeps the replace directives of the modules in
// prog.Uses, which the go command would otherwise ignore in a dependency, so
// the program resolves their requirements as their own builds do; and it
// declares the latest go version among them. Its go.sum merges theirs, so no
// checksum has to be fetched.
func (b *Builder) writeModule(prog Program, dir string) error {
	carriedPath, goVersion, carriedSum, err := b.readCarried()
	if err != nil {
		return err
	}
	var deps []LocalModule
	var used []moduleInfo
	sums := [][]byte{carriedSum}
	carriedLocal := false
	for _, m := range prog.Uses {
		info, err := b.readModule(m.Dir)
		if err != nil {
			return err
		}
		if goVersionAfter(info.goVersion, goVersion) {
			goVersion = info.goVersion
		}
		carriedLocal = carriedLocal || m.Path == carriedPath
		deps = append(deps, LocalModule{Path: m.Path, Dir: info.dir})
		used, sums = append(used, info), append(sums, info.sum)
	}
	if !carriedLocal {
		cacheRoot, err := b.cacheRoot()
		if err != nil {
			return err
		}
		extracted, err := Extract(b.Carried, cacheRoot)
		if err != nil {
			return fmt.Errorf("extracting the runtime: %w", err)
		}
		deps = append(deps, LocalModule{Path: carriedPath, Dir: extracted})
	}
	sort.Slice(deps, func(i, j int) bool { return deps[i].Path < deps[j].Path })

	// The program's own replacements come first and win: a used module's
	// replacement of one of them (say, of the carried module by a checkout
	// elsewhere) is dropped.
	var replaces []replacement
	own := map[string]bool{}
	for _, d := range deps {
		replaces = append(replaces, replacement{Old: d.Path, New: d.Dir})
		own[d.Path] = true
	}
	for _, info := range used {
		for _, r := range info.replaces {
			if !own[r.Old] {
				replaces = append(replaces, r)
			}
		}
	}

	files := append([]File{
		{Path: "go.mod", Content: moduleFile(ProgramModule, goVersion, deps, replaces)},
		{Path: "go.sum", Content: mergeSums(sums...)},
	}, prog.Files...)
	for _, f := range files {
		dst := filepath.Join(dir, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(dst, f.Content, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func (b *Builder) cacheRoot() (string, error) {
	if b.CacheDir != "" {
		return b.CacheDir, nil
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory for the runtime: %w", err)
	}
	return filepath.Join(dir, "boc"), nil
}

func (b *Builder) environ() []string {
	if b.Env != nil {
		return b.Env
	}
	return os.Environ()
}

// readCarried returns the carried module's path, go version and go.sum.
func (b *Builder) readCarried() (path, goVersion string, sum []byte, err error) {
	gomod, err := fs.ReadFile(b.Carried, "go.mod")
	if err != nil {
		return "", "", nil, fmt.Errorf("carried module: %w", err)
	}
	if path, err = parseDirective(gomod, "module"); err != nil {
		return "", "", nil, fmt.Errorf("carried module go.mod: %w", err)
	}
	if goVersion, err = parseDirective(gomod, "go"); err != nil {
		return "", "", nil, fmt.Errorf("carried module go.mod: %w", err)
	}
	sum, err = fs.ReadFile(b.Carried, "go.sum")
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", "", nil, fmt.Errorf("carried module: %w", err)
	}
	return path, goVersion, sum, nil
}

// moduleInfo is what a program module needs to know of a module it uses.
type moduleInfo struct {
	dir       string // absolute
	goVersion string
	replaces  []replacement // with directories made absolute
	sum       []byte        // its go.sum; nil if it has none
}

// readModule reads the module in dir. Its go.mod is read by `go mod edit
// -json`, the go command's own parser.
func (b *Builder) readModule(dir string) (moduleInfo, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return moduleInfo{}, err
	}
	cmd := exec.Command("go", "mod", "edit", "-json")
	cmd.Dir, cmd.Env = dir, append(b.environ(), "GOWORK=off")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return moduleInfo{}, fmt.Errorf("reading %s: %v\n%s", filepath.Join(dir, "go.mod"), err, stderr.String())
	}
	type version struct{ Path, Version string }
	var gomod struct {
		Go      string
		Replace []struct{ Old, New version }
	}
	if err := json.Unmarshal(out, &gomod); err != nil {
		return moduleInfo{}, fmt.Errorf("reading %s: %w", filepath.Join(dir, "go.mod"), err)
	}
	info := moduleInfo{dir: dir, goVersion: gomod.Go}
	for _, r := range gomod.Replace {
		to := r.New.Path
		if r.New.Version == "" && !filepath.IsAbs(to) {
			to = filepath.Join(dir, filepath.FromSlash(to))
		}
		info.replaces = append(info.replaces, replacement{Old: r.Old.Path, OldVersion: r.Old.Version, New: to, NewVersion: r.New.Version})
	}
	info.sum, err = os.ReadFile(filepath.Join(dir, "go.sum"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return moduleInfo{}, err
	}
	return info, nil
}

// goVersionAfter reports whether go version a ("1.26.8", "1.27") is later than
// b, comparing the numeric release fields. The program module must declare at
// least the version of every module it requires.
func goVersionAfter(a, b string) bool {
	fa, fb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < max(len(fa), len(fb)); i++ {
		na, nb := versionField(fa, i), versionField(fb, i)
		if na != nb {
			return na > nb
		}
	}
	return false
}

// versionField is the leading number of fields[i] ("21rc1" → 21), 0 when absent.
func versionField(fields []string, i int) int {
	if i >= len(fields) {
		return 0
	}
	s := fields[i]
	end := strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' })
	if end >= 0 {
		s = s[:end]
	}
	n, _ := strconv.Atoi(s)
	return n
}
