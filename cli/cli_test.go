package cli

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/bocdev/boc/codegen"
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/google/go-cmp/cmp"
)

// runBoc runs boc in process and returns its exit code and output.
func runBoc(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = Run(args, strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestCommandLine(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.bo")
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string // a regexp the output must match; "" means empty
		stderr string
	}{
		{name: "no arguments", args: nil, code: exitUsage, stderr: `(?s)usage: boc COMMAND.*check.*list-plugins`},
		{name: "help", args: []string{"help"}, code: exitOK, stdout: `(?s)usage: boc COMMAND.*\n  check .*\n  gen .*\n  build .*\n  run .*\n  study .*\n  list-plugins .*\n  version .*\n  help `},
		{name: "--help", args: []string{"--help"}, code: exitOK, stdout: `usage: boc COMMAND`},
		{name: "unknown command", args: []string{"chekc"}, code: exitUsage, stderr: `boc: unknown command "chekc"\n    hint: did you mean "check"\?\nRun "boc help"`},
		{name: "unknown command, nothing close", args: []string{"frobnicate"}, code: exitUsage, stderr: `^boc: unknown command "frobnicate"\nRun "boc help"`},
		{name: "help for a command", args: []string{"help", "gen"}, code: exitOK, stdout: `(?s)^usage: boc gen FILE.bo -o DIR \[--package NAME\]\n\nGen .*flags:\n  -o DIR +write the package into DIR \(required\)\n  --package NAME +the package NAME`},
		{name: "help for an unknown command", args: []string{"help", "biuld"}, code: exitUsage, stderr: `did you mean "build"`},
		{name: "help with two names", args: []string{"help", "gen", "run"}, code: exitUsage, stderr: `at most one`},
		{name: "-h documents flags", args: []string{"check", "-h"}, code: exitOK, stdout: `(?s)usage: boc check \[--dump ast\|ir\|plan\] FILE.bo.*--dump ast\|ir\|plan +print the ast\|ir\|plan`},
		{name: "run -h", args: []string{"run", "--help"}, code: exitOK, stdout: `(?s)--budget N +number.*--json +print.*--seed N +random`},
		{name: "check without a file", args: []string{"check"}, code: exitUsage, stderr: `(?s)^boc check: missing FILE.bo\nusage: boc check`},
		{name: "check with two files", args: []string{"check", "a.bo", "b.bo"}, code: exitUsage, stderr: `takes one FILE.bo, got 2 arguments`},
		{name: "bad dump", args: []string{"check", "--dump", "xml", "a.bo"}, code: exitUsage, stderr: `invalid value "xml" for flag -dump: "xml" is not one of ast, ir`},
		{name: "unknown flag", args: []string{"build", "a.bo", "--fast"}, code: exitUsage, stderr: `flag provided but not defined: -fast`},
		{name: "gen without -o", args: []string{"gen", "a.bo"}, code: exitUsage, stderr: `boc gen: missing -o DIR`},
		{name: "gen with a bad package", args: []string{"gen", "a.bo", "-o", "x", "--package", "1x"}, code: exitUsage, stderr: `--package "1x" is not a valid Go package name`},
		{name: "run with a zero budget", args: []string{"run", "a.bo", "--budget", "0"}, code: exitUsage, stderr: `--budget must be a positive`},
		{name: "run with a negative seed", args: []string{"run", "a.bo", "--seed", "-1"}, code: exitUsage, stderr: `invalid value "-1" for flag -seed`},
		{name: "version takes no arguments", args: []string{"version", "x"}, code: exitUsage, stderr: `boc version: takes no arguments`},
		{name: "check a missing file", args: []string{"check", missing}, code: exitFail, stderr: `^boc: open .*missing.bo: no such file or directory\n$`},
		{name: "unknown kind", args: []string{"list-plugins", "--kind", "kernal"}, code: exitUsage, stderr: `unknown kind "kernal"\n    hint: did you mean "kernel"\?`},
		{name: "version", args: []string{"version"}, code: exitOK, stdout: `^boc devel.* go1\.\d+.* ` + runtime.GOOS + "/" + runtime.GOARCH + "\n$"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runBoc(tt.args...)
			if code != tt.code {
				t.Errorf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, stdout, stderr)
			}
			checkOutput(t, "stdout", stdout, tt.stdout)
			checkOutput(t, "stderr", stderr, tt.stderr)
		})
	}
}

func checkOutput(t *testing.T, name, got, pattern string) {
	t.Helper()
	if pattern == "" {
		if got != "" {
			t.Errorf("%s = %q, want nothing", name, got)
		}
		return
	}
	if !regexp.MustCompile(pattern).MatchString(got) {
		t.Errorf("%s does not match %q:\n%s", name, pattern, got)
	}
}

func TestParseInterleaved(t *testing.T) {
	tests := []struct {
		args    []string
		wantPos []string
		wantO   string
		wantV   bool
	}{
		{[]string{"a.bo"}, []string{"a.bo"}, "", false},
		{[]string{"-o", "d", "a.bo"}, []string{"a.bo"}, "d", false},
		{[]string{"a.bo", "-o", "d", "-v"}, []string{"a.bo"}, "d", true},
		{[]string{"a.bo", "-v", "b.bo", "--o=d"}, []string{"a.bo", "b.bo"}, "d", true},
		{[]string{"-v", "--", "-a.bo", "-o"}, []string{"-a.bo", "-o"}, "", true},
		{[]string{"a.bo", "--", "-v"}, []string{"a.bo", "-v"}, "", false},
		{nil, nil, "", false},
	}
	for _, tt := range tests {
		fs := flag.NewFlagSet("test", flag.ContinueOnError)
		o := fs.String("o", "", "")
		v := fs.Bool("v", false, "")
		pos, err := parseInterleaved(fs, tt.args)
		if err != nil || !cmp.Equal(pos, tt.wantPos) || *o != tt.wantO || *v != tt.wantV {
			t.Errorf("parseInterleaved(%q) = %q, o=%q, v=%v, %v; want %q, o=%q, v=%v",
				tt.args, pos, *o, *v, err, tt.wantPos, tt.wantO, tt.wantV)
		}
	}
}

func TestListPluginsJSON(t *testing.T) {
	code, stdout, stderr := runBoc("list-plugins", "--json")
	if code != exitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	var got []pluginJSON
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("output is not a JSON array of plugins: %v\n%s", err, stdout)
	}
	var want []string
	for _, k := range registry.Kinds {
		for _, name := range registry.Names(k) {
			want = append(want, string(k)+"."+name)
		}
	}
	var ids []string
	for _, p := range got {
		ids = append(ids, p.ID)
		reg, ok := registry.ByID(p.ID)
		if !ok {
			t.Errorf("listed plugin %s is not registered", p.ID)
			continue
		}
		if p.Planned == reg.Built() || p.Doc != reg.Doc || len(p.Params) != len(reg.Params) {
			t.Errorf("%s listed as %+v, registered as %+v", p.ID, p, reg)
			continue
		}
		for i, prm := range reg.Params {
			lp := p.Params[i]
			if lp.Name != prm.Name || lp.Type != prm.TypeString() || lp.Default != prm.Default.String() ||
				lp.Required != !prm.Default.IsSet() || lp.Learnable != prm.Learnable || (lp.Range != "") != (prm.Range != nil) {
				t.Errorf("%s parameter %d listed as %+v, registered as %+v", p.ID, i, lp, prm)
			}
		}
	}
	if diff := cmp.Diff(want, ids); diff != "" {
		t.Errorf("listed plugins, by kind then name (-want +got):\n%s", diff)
	}
	if len(want) < 20 {
		t.Errorf("only %d plugins registered; is stdlib imported?", len(want))
	}
}

func TestListPluginsText(t *testing.T) {
	for _, k := range registry.Kinds {
		names := registry.Names(k)
		if len(names) == 0 {
			continue
		}
		t.Run(string(k), func(t *testing.T) {
			code, stdout, stderr := runBoc("list-plugins", "--kind", string(k))
			if code != exitOK || stderr != "" {
				t.Fatalf("exit %d, stderr %s", code, stderr)
			}
			if !strings.HasPrefix(stdout, string(k)+":\n") || strings.Count(stdout, ":\n") != 1 {
				t.Errorf("listing does not have exactly the heading %q:\n%s", k, stdout)
			}
			last := -1
			for _, name := range names {
				p, _ := registry.Lookup(k, name)
				line := "\n  " + name + "  " + p.Doc + "\n"
				if !p.Built() {
					line = "\n  " + name + " (planned)  " + p.Doc + "\n"
				}
				i := strings.Index(stdout, line)
				if i < 0 {
					t.Errorf("no line %q in:\n%s", line, stdout)
					continue
				}
				if i < last {
					t.Errorf("%s listed out of order", name)
				}
				last = i
				for _, prm := range p.Params {
					re := `\n      ` + regexp.QuoteMeta(prm.Name) + ` +` + regexp.QuoteMeta(prm.TypeString()) + ` +`
					if !prm.Default.IsSet() {
						re += "required"
					} else {
						re += regexp.QuoteMeta("default " + prm.Default.String())
					}
					if !regexp.MustCompile(re).MatchString(stdout[i:]) {
						t.Errorf("%s: no parameter line matching %q", name, re)
					}
				}
			}
		})
	}
}

func TestGeneratedFrom(t *testing.T) {
	tests := []struct {
		name, src, want string
		ok              bool
	}{
		{"boc header", "// Code generated by boc from quickstart.bo. DO NOT EDIT.\n\npackage quickstart\n", "quickstart.bo", true},
		{"after a build tag and blank lines", "//go:build linux\n\n// Code generated by boc from a.bo. DO NOT EDIT.\npackage a\n", "a.bo", true},
		{"another generator", "// Code generated by protoc-gen-go. DO NOT EDIT.\npackage a\n", "", false},
		{"handwritten", "// Package opt is mine.\npackage opt\n", "", false},
		{"header after the package clause", "package a\n\n// Code generated by boc from a.bo. DO NOT EDIT.\n", "", false},
		{"empty", "", "", false},
	}
	for _, tt := range tests {
		got, ok := generatedFrom([]byte(tt.src))
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s: generatedFrom = %q, %v; want %q, %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}

func header(source string) string { return headerPrefix + source + headerSuffix + "\n" }

func TestWriteGenerated(t *testing.T) {
	type files = map[string]string
	generated := func(source, body string) string { return header(source) + "\npackage p\n" + body }
	newOutput := files{"optimizer.go": generated("p.bo", "// new\n"), "kernel.go": generated("p.bo", "// kernel\n")}
	tests := []struct {
		name    string
		before  files
		want    files // the directory's files afterwards
		wantErr string
	}{
		{
			name: "into a new directory",
			want: newOutput,
		},
		{
			name:   "replaces generated files, retires stale ones from the same source",
			before: files{"optimizer.go": generated("p.bo", "// old\n"), "old.go": generated("p.bo", "")},
			want: files{"optimizer.go": newOutput["optimizer.go"], "kernel.go": newOutput["kernel.go"],
				"old.go": header("p.bo") + "\n//go:build ignore\n\n// boc gen retired this file: the next boc gen removes it.\n\npackage p\n"},
		},
		{
			name: "removes the files it retired",
			before: files{"optimizer.go": generated("p.bo", "// old\n"),
				"old.go": header("p.bo") + "\n//go:build ignore\n\n// boc gen retired this file: the next boc gen removes it.\n\npackage p\n"},
			want: newOutput,
		},
		{
			name:   "keeps files of other sources and handwritten files",
			before: files{"other.go": generated("q.bo", ""), "extra.go": "package p\n"},
			want:   files{"optimizer.go": newOutput["optimizer.go"], "kernel.go": newOutput["kernel.go"], "other.go": generated("q.bo", ""), "extra.go": "package p\n"},
		},
		{
			name:    "refuses to overwrite a handwritten file",
			before:  files{"optimizer.go": "package p\n// mine\n", "old.go": generated("p.bo", "")},
			want:    files{"optimizer.go": "package p\n// mine\n", "old.go": generated("p.bo", "")},
			wantErr: "optimizer.go: not generated by boc",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out", "opt")
			for name, content := range tt.before {
				writeTestFile(t, filepath.Join(dir, name), content)
			}
			var out []codegen.File
			for _, name := range []string{"kernel.go", "optimizer.go"} {
				out = append(out, codegen.File{Name: name, Content: []byte(newOutput[name])})
			}
			err := writeGenerated(dir, "p.bo", out)
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Errorf("writeGenerated error = %v, want %q", err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, readDir(t, dir)); diff != "" {
				t.Errorf("directory afterwards (-want +got):\n%s", diff)
			}
		})
	}
}

func TestWriteGeneratedLeavesUnchangedFiles(t *testing.T) {
	dir := t.TempDir()
	content := []byte(header("p.bo") + "package p\n")
	name := filepath.Join(dir, "optimizer.go")
	if err := writeGenerated(dir, "p.bo", []codegen.File{{Name: "optimizer.go", Content: content}}); err != nil {
		t.Fatal(err)
	}
	// Backdate the file; an identical rewrite must not touch it.
	old := mustStat(t, name).ModTime().Add(-3600e9)
	if err := os.Chtimes(name, old, old); err != nil {
		t.Fatal(err)
	}
	if err := writeGenerated(dir, "p.bo", []codegen.File{{Name: "optimizer.go", Content: content}}); err != nil {
		t.Fatal(err)
	}
	if got := mustStat(t, name); !got.ModTime().Equal(old) || got.Mode().Perm() != 0o644 {
		t.Errorf("unchanged file was rewritten or has mode %v", got.Mode())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries, want 1 (no temporary files left)", len(entries))
	}
}

func mustStat(t *testing.T, name string) os.FileInfo {
	t.Helper()
	fi, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	return fi
}

func writeTestFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readDir(t *testing.T, dir string) map[string]string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		got[filepath.Base(name)] = string(data)
	}
	return got
}

func TestRunProgramExitStatus(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	tests := []struct {
		name   string
		exe    string
		script string
		code   int
		stdout string
		stderr string
	}{
		{"success", sh, "echo out; echo err >&2", exitOK, "^out\n$", "^err\n$"},
		{"the program's status", sh, "exit 3", 3, "", ""},
		{"killed", sh, "kill -9 $$", exitFail, "", "^boc: the program ended abnormally: signal: killed\n$"},
		{"not started", filepath.Join(t.TempDir(), "missing"), "", exitFail, "", "^boc: running the program: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut}
			started := false
			if code := runProgram(e, tt.exe, []string{"-c", tt.script}, func() { started = true }); code != tt.code {
				t.Errorf("exit code %d, want %d", code, tt.code)
			}
			checkOutput(t, "stdout", out.String(), tt.stdout)
			checkOutput(t, "stderr", errOut.String(), tt.stderr)
			if !started {
				t.Error("the cleanup after the start was not called")
			}
		})
	}
}
