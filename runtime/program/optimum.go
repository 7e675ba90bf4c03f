package program

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"

	"github.com/bocdev/boc/runtime/command"
)

// optimumCommand prints the best candidate of a finite decision set and its
// noise-free value: {"x": {...}, "value": f} with --json.
func optimumCommand(p Problem, args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("optimum", flag.ContinueOnError)
	flags.SetOutput(io.Discard)
	asJSON := flags.Bool("json", false, "")
	if code, ok := parseFlags(p, flags, "optimum", args, stdout, stderr); !ok {
		return code
	}
	if p.Optimum == nil {
		fmt.Fprintf(stderr, "%s: optimum needs a finite decision set (candidates) and an expression objective\n", p.Name)
		return ExitUsage
	}
	x, value := p.Optimum()
	if math.IsNaN(value) {
		fmt.Fprintf(stderr, "%s: no candidate satisfies the known constraints\n", p.Name)
		return ExitFailure
	}
	if !*asJSON {
		fmt.Fprintf(stdout, "optimum %s at %s\n", formatValue(value), formatPoint(p.Dims, x))
		return ExitOK
	}
	b, err := json.Marshal(struct {
		X     command.Point `json:"x"`
		Value float64       `json:"value"`
	}{command.Point{Dims: p.Dims, X: x}, value})
	if err != nil {
		printError(stderr, p, err)
		return ExitFailure
	}
	fmt.Fprintf(stdout, "%s\n", b)
	return ExitOK
}
