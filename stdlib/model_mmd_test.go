package stdlib

import (
	"strings"
	"testing"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
)

// TestMMDEstimatorCheck: the estimator and the draws must be among mmd's
// choices, with a hint for a misspelling, and landmarks given to an
// estimator that sums over the samples is warned about.
func TestMMDEstimatorCheck(t *testing.T) {
	for _, tt := range []struct {
		estimator string
		landmarks bool // given explicitly
		draws     string
		want      string
	}{
		{"embedding", true, "common", ""},
		{"nystrom", true, "fresh", ""},
		{"empirical", false, "common", ""},
		{"unbiased", false, "fresh", ""},
		{"empirical", true, "common", "warning: landmarks is ignored by the empirical estimator"},
		{"unbiased", true, "common", "warning: landmarks is ignored by the unbiased estimator"},
		{"unbiassed", false, "common", `error: unknown MMD estimator "unbiassed": want "empirical", "unbiased", "nystrom" or "embedding" (did you mean "unbiased"?)`},
		{"embedding", false, "new", `error: unknown draws "new": want "common" or "fresh"`},
	} {
		landmarks := &ir.Arg{Name: "landmarks", Value: &ir.ConstExpr{Value: dsl.IntValue(10)}, Default: !tt.landmarks}
		call := &ir.Call{Plugin: "model.mmd", Args: []*ir.Arg{stringArg("estimator", tt.estimator), landmarks, stringArg("draws", tt.draws)}}
		var got []string
		checkMMD(&registry.CheckContext{Call: call, Dim: 1, Report: func(d dsl.Diagnostic) {
			msg := d.Severity.String() + ": " + d.Message
			if d.Hint != "" {
				msg += " (" + d.Hint + ")"
			}
			got = append(got, msg)
		}})
		if strings.Join(got, "; ") != tt.want {
			t.Errorf("estimator %q, landmarks given %v, draws %q: reported %q, want %q", tt.estimator, tt.landmarks, tt.draws, got, tt.want)
		}
	}
}
