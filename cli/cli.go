// Package cli implements the boc command line: check, gen, build, run, study,
// list-plugins, version and help. cmd/boc only calls Run, so that tests can run
// every command in process and a custom boc (with extra plugins imported for
// their side effects) is a three-line main package.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/bocdev/boc/dsl"
)

// Exit codes: 1 means the input or the build was wrong, 2 that boc was called
// wrongly (unknown command or flag, missing argument).
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

// env is what a command may touch of the outside world, and the command
// running, for its usage message.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	cmd            *command
	flags          *flag.FlagSet
}

// failf prints "boc: message" to stderr and returns exitFail.
func (e *env) failf(format string, args ...any) int {
	fmt.Fprintf(e.stderr, "boc: "+format+"\n", args...)
	return exitFail
}

// command is one boc subcommand.
type command struct {
	name    string
	args    string // the synopsis after the name, e.g. "[--dump ast|ir] FILE.bo"
	summary string // one line for the command list
	doc     string // what `boc help NAME` adds below the synopsis
	// flags declares the command's flags on fs and returns the function that
	// runs the command with the positional arguments.
	flags func(fs *flag.FlagSet) func(e *env, args []string) int
	// nargs is the number of positional arguments the command takes; -1
	// leaves checking them to the command.
	nargs int
}

// commands is filled in init: help refers to it.
var commands []*command

func init() {
	commands = []*command{checkCommand, fmtCommand, genCommand, diffCommand, buildCommand, runCommand, studyCommand, listPluginsCommand, lspCommand, versionCommand, helpCommand}
}

func lookupCommand(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

func commandNames() []string {
	names := make([]string, len(commands))
	for i, c := range commands {
		names[i] = c.name
	}
	return names
}

// Run runs boc with the command-line arguments args (without the program
// name) and returns the process exit code.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	if len(args) == 0 {
		printOverview(stderr)
		return exitUsage
	}
	name := args[0]
	switch name {
	case "-h", "-help", "--help":
		printOverview(stdout)
		return exitOK
	}
	c := lookupCommand(name)
	if c == nil {
		return unknownCommand(e, name)
	}
	return c.run(e, args[1:])
}

func unknownCommand(e *env, name string) int {
	fmt.Fprintf(e.stderr, "boc: unknown command %q\n", name)
	if hint := dsl.DidYouMean(name, commandNames()); hint != "" {
		fmt.Fprintf(e.stderr, "    hint: %s\n", hint)
	}
	fmt.Fprintln(e.stderr, `Run "boc help" for the list of commands.`)
	return exitUsage
}

// run parses the command's flags, which may come before or after its
// positional arguments (`boc gen FILE.bo -o DIR` reads naturally), and runs it.
func (c *command) run(e *env, args []string) int {
	fs := flag.NewFlagSet("boc "+c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors and usage are printed below, once
	action := c.flags(fs)
	e.cmd, e.flags = c, fs
	pos, err := parseInterleaved(fs, args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		c.usage(e.stdout, fs)
		return exitOK
	case err != nil:
		return e.usageError("%v", err)
	case c.nargs >= 0 && len(pos) != c.nargs:
		return e.usageError("%s", c.argCountError(len(pos)))
	}
	return action(e, pos)
}

// argCountError explains a wrong number of positional arguments; commands
// take either none or one .bo file.
func (c *command) argCountError(got int) string {
	switch {
	case c.nargs == 0:
		return "takes no arguments"
	case got == 0:
		return "missing FILE.bo"
	}
	return fmt.Sprintf("takes one FILE.bo, got %d arguments", got)
}

// usageError reports a wrong command line and shows how to call the running
// command.
func (e *env) usageError(format string, args ...any) int {
	fmt.Fprintf(e.stderr, "boc %s: %s\n", e.cmd.name, fmt.Sprintf(format, args...))
	e.cmd.usage(e.stderr, e.flags)
	return exitUsage
}

func (c *command) synopsis() string {
	return strings.TrimSpace("boc " + c.name + " " + c.args)
}

// usage prints the synopsis, the description and the flags.
func (c *command) usage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintf(w, "usage: %s\n\n%s\n", c.synopsis(), c.doc)
	var flags []*flag.Flag
	fs.VisitAll(func(f *flag.Flag) { flags = append(flags, f) })
	if len(flags) == 0 {
		return
	}
	fmt.Fprintln(w, "\nflags:")
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	for _, f := range flags {
		arg, text := flag.UnquoteUsage(f)
		dashes := "--"
		if len(f.Name) == 1 {
			dashes = "-"
		}
		fmt.Fprintf(tw, "  %s%s %s\t%s\n", dashes, f.Name, arg, text)
	}
	tw.Flush()
}

// parseInterleaved parses flags anywhere among the positional arguments and
// returns the positional ones in order. After "--" everything is positional.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		// The flag package stops at "--" (consuming it) or at the first
		// non-flag argument; only in the first case is the rest all positional.
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(pos, rest...), nil
		}
		pos, args = append(pos, rest[0]), rest[1:]
	}
}
