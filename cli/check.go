package cli

import (
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/bocdev/boc/dsl/ast"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/plan"
)

var checkCommand = &command{
	name:    "check",
	args:    "[--dump ast|ir|plan] FILE.bo",
	summary: "parse, type-check and plan a .bo file, reporting every error",
	doc: `Check parses, type-checks and plans FILE.bo and prints every error and
warning to stderr as FILE:LINE:COL, with the source line, a caret under the
problem and a hint where a fix is likely. It exits with status 1 if there is an
error; warnings alone do not fail. A file check accepts is one gen accepts:
both run the same stages, gen only adds the code. --dump prints the syntax tree
(ast), the checked intermediate representation (ir) or the plan of the
optimiser (plan: its learned values, noise, draws and memory) to stdout.`,
	nargs: 1,
	flags: func(fs *flag.FlagSet) func(*env, []string) int {
		dump := &choiceFlag{choices: []string{"ast", "ir", "plan"}}
		fs.Var(dump, "dump", "print the `ast|ir|plan` (syntax tree, checked IR or plan) to stdout")
		return func(e *env, args []string) int {
			u, ok := compile(e, args[0])
			// The syntax tree is worth seeing even when checking failed.
			switch {
			case dump.value == "ast" && u != nil && u.Tree != nil:
				ast.Fprint(e.stdout, u.Tree)
			case dump.value == "ir" && ok:
				ir.Fprint(e.stdout, u.Program)
			case dump.value == "plan" && ok:
				plan.Fprint(e.stdout, u.Plan)
			}
			if !ok {
				return exitFail
			}
			return exitOK
		}
	},
}

// choiceFlag is a string flag restricted to a few values.
type choiceFlag struct {
	value   string
	choices []string
}

func (c *choiceFlag) String() string { return c.value }

func (c *choiceFlag) Set(s string) error {
	if !slices.Contains(c.choices, s) {
		return fmt.Errorf("%q is not one of %s", s, strings.Join(c.choices, ", "))
	}
	c.value = s
	return nil
}
