package codegen

import (
	"go/token"
	"strconv"
)

// Identifiers the emitted code declares or imports. Locals never take these
// names, so a local can neither shadow a package-level declaration nor an
// imported package.
var reservedNames = []string{
	// package-level declarations of the emitted library
	"Dim", "Budget", "Seed", "Maximize", "InitialDesign", "Point", "ComponentNames", "Lower", "Upper", "Integer", "Log",
	"ErrFull", "ErrExhausted", "EvaluationError", "Optimizer", "New", "Objective", "Run", "RunOptions", "Progress", "Result",
	"StoppedBudget", "StoppedCondition", "StoppedExhausted",
	"fromUnit", "toUnit", "snap", "feasible", "kernel", "acquisition", "acquisitionValue", "noiseVariance", "nuggetFraction",
	"initialPoints", "designPool", "streamSeed", "stopWhen", "commandLine", "layout",
	"infeasible", "kernelGradA", "kernelGradHyper", "hyperparameters", "numHyper", "numFit", "fitStart", "fitLower", "fitUpper",
	// imported packages
	"acq", "bench", "command", "context", "design", "errors", "fit", "fmt", "gp", "math", "program", "search", "strconv", "strings",
	"safe", kernelAlias, "slices",
	// predeclared identifiers the emitted code uses
	"min", "max", "len", "copy", "nil", "true", "false", "float64", "int", "uint64", "bool", "string", "error",
}

// namer hands out local identifiers that are unique within one function.
type namer struct {
	used map[string]bool
}

func newNamer(taken ...string) *namer {
	n := &namer{used: map[string]bool{}}
	for _, s := range reservedNames {
		n.used[s] = true
	}
	for _, s := range taken {
		n.used[s] = true
	}
	return n
}

// fresh returns prefix, or prefix followed by the smallest number that makes
// it unused, and marks the result used.
func (n *namer) fresh(prefix string) string {
	name := prefix
	for i := 1; n.used[name] || token.IsKeyword(name); i++ {
		name = prefix + strconv.Itoa(i)
	}
	n.used[name] = true
	return name
}
