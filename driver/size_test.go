package driver

import (
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// TestLargeObjectiveChecks checks a generated objective of 100,000 terms: its
// cost must grow with its size, in small steps. Before expressions were read
// by hand, parsing alone took 3.4 KB per token; before the checker walked
// sums in a loop, it recursed once per term, and a stack of 32 MB did not
// suffice.
func TestLargeObjectiveChecks(t *testing.T) {
	if testing.Short() {
		t.Skip("checks a 1.4 MB file")
	}
	const terms = 100_000
	src := "problem big\ndomain {\n    x in [0, 1]\n}\nobjective minimize " +
		strings.Repeat("0.5 * x^2 + ", terms-1) + "x\nbudget 10\n"
	tokens := 6*terms + 15

	defer debug.SetMaxStack(debug.SetMaxStack(32 << 20))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	u := Compile("big.bo", []byte(src), Options{})
	runtime.ReadMemStats(&after)
	if !u.OK() {
		t.Fatalf("refused: %v", u.Diagnostics)
	}
	perToken := float64(after.TotalAlloc-before.TotalAlloc) / float64(tokens)
	t.Logf("%d tokens: %.0f bytes allocated per token", tokens, perToken)
	if perToken > 2000 {
		t.Errorf("checking allocated %.0f bytes per token, want at most 2000", perToken)
	}
}
