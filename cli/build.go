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
	"strconv"
	"syscall"

	"github.com/bocdev/boc/codegen"
	"github.com/bocdev/boc/driver"
	"github.com/bocdev/boc/internal/proc"
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
			ctx, stop := stopContext()
			defer stop()
			return buildSource(ctx, e, args[0], func(problem string) string {
				if *out != "" {
					return *out
				}
				return problem + driver.ExeSuffix()
			})
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
			// An interrupt or SIGTERM while building stops the build; while the
			// program runs, runProgram passes them on.
			ctx, stop := stopContext()
			defer stop()
			tmp, err := os.MkdirTemp("", "boc-run-*")
			if err != nil {
				return e.failf("%v", err)
			}
			defer os.RemoveAll(tmp)
			var exe string
			code := buildSource(ctx, e, args[0], func(problem string) string {
				exe = filepath.Join(tmp, problem+driver.ExeSuffix())
				return exe
			})
			if code != exitOK {
				return code
			}
			stop()
			return runProgram(e, exe, progArgs, func() { os.RemoveAll(tmp) })
		}
	},
}

// buildSource compiles the file at path and builds its program into the
// executable exe names after the problem, explaining a failure.
func buildSource(ctx context.Context, e *env, path string, exe func(problem string) string) int {
	u, out, ok := generate(e, path, driver.ProgramOptions)
	if !ok {
		return exitFail
	}
	return buildUnit(ctx, e, u, out, exe(u.Program.Name))
}

// buildUnit builds the program u generated as out into exe and explains a
// failure.
func buildUnit(ctx context.Context, e *env, u *driver.Unit, out *codegen.Output, exe string) int {
	err := u.Build(ctx, out, exe)
	if err != nil && ctx.Err() != nil {
		return e.failf("interrupted")
	}
	return reportBuild(e, u, err)
}

// reportBuild prints why building u's program failed, with a hint, and
// returns the exit code: exitOK for a nil err.
func reportBuild(e *env, u *driver.Unit, err error) int {
	var noModule *driver.NoModuleError
	var be *driver.BuildError
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, context.Canceled):
		return e.failf("interrupted")
	case errors.As(err, &noModule):
		fmt.Fprintf(e.stderr, "boc: %s: %v\n", u.Path, err)
		fmt.Fprintln(e.stderr, "    hint: keep the .bo file inside the Go module that provides the package (go mod init creates one)")
		return exitFail
	case errors.As(err, &be):
		fmt.Fprintf(e.stderr, "boc: building the program for %s failed (%v):\n%s", u.Path, be.Err, be.Output)
		if be.UserModule != "" {
			fmt.Fprintf(e.stderr, "    hint: check that the Go module in %s builds (go build ./... there)\n", be.UserModule)
		} else {
			fmt.Fprintln(e.stderr, "    hint: the generated code should always build; please report this with the .bo file")
		}
		return exitFail
	}
	return e.failf("building the program for %s: %v", u.Path, err)
}

// runProgram runs exe with args, its standard streams connected to boc's, and
// returns its exit status. Once the program has started, started removes
// its executable (a running program needs no file, on Unix), so that even
// a kill -9 of boc leaves nothing behind; an interrupt or SIGTERM sent to
// boc is passed on to the program, which ends its run cleanly, and boc
// waits for it.
func runProgram(e *env, exe string, args []string, started func()) int {
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(signals)
	cmd := exec.Command(exe, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = e.stdin, e.stdout, e.stderr
	proc.EndWithParent(cmd)
	err := cmd.Start()
	started()
	if err == nil {
		done := make(chan struct{})
		go func() {
			for {
				select {
				case sig := <-signals:
					cmd.Process.Signal(sig)
				case <-done:
					return
				}
			}
		}()
		err = cmd.Wait()
		close(done)
	}
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

// stopContext returns a context that an interrupt or SIGTERM sent to boc
// cancels, for the commands that build programs or run them themselves (the
// study's runs are killed with it); runProgram passes the signals on to
// `boc run`'s program instead.
func stopContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
