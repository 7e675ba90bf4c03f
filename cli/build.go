package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"

	"github.com/bocdev/boc"
	"github.com/bocdev/boc/codegen"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/internal/gobuild"
)

var buildCommand = &command{
	name:    "build",
	args:    "FILE.bo [-o PROG]",
	summary: "build a standalone optimiser program",
	doc: `Build compiles FILE.bo into a program whose "run" command performs the
optimisation (PROG run [--json] [--seed N] [--budget N]). It needs only the go
command: the runtime the program links travels inside boc, and its
dependencies come from the local module cache, so building works offline. When
the objective is bound to Go code, the Go module containing FILE.bo is linked
into the program.`,
	nargs: 1,
	flags: func(fs *flag.FlagSet) func(*env, []string) int {
		out := fs.String("o", "", "write the program to `PROG` (default: the problem name)")
		return func(e *env, args []string) int {
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
			defer stop()
			u, prog, code := buildSource(e, args[0])
			if code != exitOK {
				return code
			}
			exe := *out
			if exe == "" {
				exe = u.prog.Name + exeSuffix()
			}
			return buildProgram(ctx, e, u, prog, exe)
		}
	},
}

var runCommand = &command{
	name:    "run",
	args:    "FILE.bo [--json] [--trace] [--random-search] [--seed N] [--budget N]",
	summary: "build the optimiser for a .bo file and run it",
	doc: `Run builds FILE.bo like "boc build" into a temporary directory and runs the
program's "run" command with the given flags, passing its output through and
exiting with its status. The go build cache makes a second run fast.`,
	nargs: 1,
	flags: func(fs *flag.FlagSet) func(*env, []string) int {
		jsonOut := fs.Bool("json", false, "print the result as one JSON object")
		trace := fs.Bool("trace", false, "with --json, add every evaluation to the result")
		randomSearch := fs.Bool("random-search", false, "evaluate uniformly random points instead of the optimiser's suggestions")
		seed := fs.Uint64("seed", 0, "random seed `N` (default: the file's seed)")
		budget := fs.Int("budget", 0, "number of evaluations `N` (default: the file's budget)")
		return func(e *env, args []string) int {
			progArgs := []string{"run"}
			for _, f := range []struct {
				set  bool
				flag string
			}{{*jsonOut, "--json"}, {*trace, "--trace"}, {*randomSearch, "--random-search"}} {
				if f.set {
					progArgs = append(progArgs, f.flag)
				}
			}
			if isSet(fs, "seed") {
				progArgs = append(progArgs, "--seed", strconv.FormatUint(*seed, 10))
			}
			if isSet(fs, "budget") {
				if *budget < 1 {
					return e.usageError("--budget must be a positive number of evaluations")
				}
				progArgs = append(progArgs, "--budget", strconv.Itoa(*budget))
			}
			// An interrupt reaches the program too; boc outlives it to clean up.
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
			defer stop()
			u, prog, code := buildSource(e, args[0])
			if code != exitOK {
				return code
			}
			tmp, err := os.MkdirTemp("", "boc-run-*")
			if err != nil {
				return e.failf("%v", err)
			}
			defer os.RemoveAll(tmp)
			exe := filepath.Join(tmp, u.prog.Name+exeSuffix())
			if code := buildProgram(ctx, e, u, prog, exe); code != exitOK {
				return code
			}
			return runProgram(e, exe, progArgs)
		}
	},
}

// libraryDir is where the library package goes in the program module.
const libraryDir = "lib"

// buildSource compiles the file at path to the Go files of a program module.
func buildSource(e *env, path string) (*unit, gobuild.Program, int) {
	u, out, ok := generate(e, path, programOptions)
	if !ok {
		return u, gobuild.Program{}, exitFail
	}
	prog, code := programFiles(e, u, out)
	return u, prog, code
}

// programOptions generates the code of a program module.
var programOptions = codegen.Options{ImportPath: gobuild.ProgramModule + "/" + libraryDir}

// programFiles lays out the code generated for u with programOptions as a
// program module, linking the Go module of a Go binding.
func programFiles(e *env, u *unit, out *codegen.Output) (gobuild.Program, int) {
	var prog gobuild.Program
	for _, f := range out.Library {
		prog.Files = append(prog.Files, gobuild.File{Path: libraryDir + "/" + f.Name, Content: f.Content})
	}
	for _, f := range out.Main {
		prog.Files = append(prog.Files, gobuild.File{Path: f.Name, Content: f.Content})
	}
	if pkg, ok := firstGoBinding(u.prog); ok {
		mod, err := gobuild.FindModule(u.dir())
		if err != nil {
			fmt.Fprintf(e.stderr, "boc: %s binds Go package %q, but no Go module contains it: %v\n", u.path, pkg, err)
			fmt.Fprintln(e.stderr, "    hint: keep the .bo file inside the Go module that provides the package (go mod init creates one)")
			return prog, exitFail
		}
		prog.Uses = []gobuild.LocalModule{mod}
	}
	return prog, exitOK
}

// firstGoBinding returns the package of the first measured quantity bound to
// Go code, if any: the program then has to link the user's module.
func firstGoBinding(p *ir.Program) (string, bool) {
	if p.Objective.Binding.Kind == ir.GoBinding {
		return p.Objective.Binding.GoPackage, true
	}
	for _, c := range p.Constraints {
		if !c.Known && c.Measured.Kind == ir.GoBinding {
			return c.Measured.GoPackage, true
		}
	}
	return "", false
}

// buildProgram builds prog into the executable exe and explains a failure.
func buildProgram(ctx context.Context, e *env, u *unit, prog gobuild.Program, exe string) int {
	b := &gobuild.Builder{Carried: boc.Module}
	err := b.Build(ctx, prog, exe)
	var be *gobuild.BuildError
	switch {
	case err == nil:
		return exitOK
	case ctx.Err() != nil:
		return e.failf("interrupted")
	case errors.As(err, &be):
		fmt.Fprintf(e.stderr, "boc: building the program for %s failed (%v):\n%s", u.path, be.Err, be.Output)
		if len(prog.Uses) > 0 {
			fmt.Fprintf(e.stderr, "    hint: check that the Go module in %s builds (go build ./... there)\n", prog.Uses[0].Dir)
		} else {
			fmt.Fprintln(e.stderr, "    hint: the generated code should always build; please report this with the .bo file")
		}
		return exitFail
	}
	return e.failf("building the program for %s: %v", u.path, err)
}

// runProgram runs exe with args, its standard streams connected to boc's, and
// returns its exit status.
func runProgram(e *env, exe string, args []string) int {
	cmd := exec.Command(exe, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = e.stdin, e.stdout, e.stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &exit) && exit.ExitCode() > 0:
		return exit.ExitCode()
	case errors.As(err, &exit):
		return e.failf("the program ended abnormally: %v", err)
	}
	return e.failf("running the program: %v", err)
}

func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

func exeSuffix() string {
	if runtime.GOOS == "windows" {
		return ".exe"
	}
	return ""
}
