package cli

import (
	"flag"
	"fmt"
	"io"
	"text/tabwriter"
)

var helpCommand = &command{
	name:    "help",
	args:    "[COMMAND]",
	summary: "show help for boc or one of its commands",
	doc:     "Help lists boc's commands, or describes COMMAND and its flags.",
	nargs:   -1,
	flags: func(*flag.FlagSet) func(*env, []string) int {
		return func(e *env, args []string) int {
			switch len(args) {
			case 0:
				printOverview(e.stdout)
				return exitOK
			case 1:
				c := lookupCommand(args[0])
				if c == nil {
					return unknownCommand(e, args[0])
				}
				fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
				c.flags(fs)
				c.usage(e.stdout, fs)
				return exitOK
			}
			fmt.Fprintln(e.stderr, "boc help: takes at most one command name")
			return exitUsage
		}
	},
}

// printOverview writes what boc is and the list of commands.
func printOverview(w io.Writer) {
	fmt.Fprint(w, `boc compiles a Bayesian-optimisation problem written in a .bo file into a
specialised Go optimiser.

usage: boc COMMAND [ARGUMENTS]

commands:
`)
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	for _, c := range commands {
		fmt.Fprintf(tw, "  %s\t%s\n", c.name, c.summary)
	}
	tw.Flush()
	fmt.Fprintln(w, `
Run "boc help COMMAND" or "boc COMMAND -h" for a command's arguments and flags.`)
}
