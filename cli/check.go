package cli

import (
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/bocdev/boc/dsl/ast"
	"github.com/bocdev/boc/dsl/ir"
)

var checkCommand = &command{
	name:    "check",
	args:    "[--dump ast|ir] FILE.bo",
	summary: "parse and type-check a .bo file, reporting every error",
	doc: `Check parses and type-checks FILE.bo and prints every error and warning to
stderr as FILE:LINE:COL, with the source line, a caret under the problem and a
hint where a fix is likely. It exits with status 1 if there is an error;
warnings alone do not fail. --dump prints the syntax tree (ast) or the checked
intermediate representation (ir) to stdout.`,
	nargs: 1,
	flags: func(fs *flag.FlagSet) func(*env, []string) int {
		dump := &choiceFlag{choices: []string{"ast", "ir"}}
		fs.Var(dump, "dump", "print the `ast|ir` (syntax tree or checked IR) to stdout")
		return func(e *env, args []string) int {
			u, ok := compile(e, args[0])
			// The syntax tree is worth seeing even when checking failed.
			switch {
			case dump.value == "ast" && u != nil && u.Tree != nil:
				ast.Fprint(e.stdout, u.Tree)
			case dump.value == "ir" && ok:
				ir.Fprint(e.stdout, u.Program)
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
