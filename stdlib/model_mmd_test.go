package stdlib

import (
	"strings"
	"testing"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
)

// TestMMDEstimatorCheck: the estimator must be one of mmd's, with a hint
// for a misspelling, and landmarks given to an estimator that sums over the
// samples is warned about.
func TestMMDEstimatorCheck(t *testing.T) {
	for _, tt := range []struct {
		estimator string
		landmarks bool // given explicitly
		want      string
	}{
		{"embedding", true, ""},
		{"nystrom", true, ""},
		{"empirical", false, ""},
		{"unbiased", false, ""},
		{"empirical", true, "warning: landmarks is ignored by the empirical estimator"},
		{"unbiased", true, "warning: landmarks is ignored by the unbiased estimator"},
		{"unbiassed", false, `error: unknown MMD estimator "unbiassed": want "empirical", "unbiased", "nystrom" or "embedding" (did you mean "unbiased"?)`},
	} {
		landmarks := &ir.Arg{Name: "landmarks", Value: &ir.ConstExpr{Value: dsl.IntValue(10)}, Default: !tt.landmarks}
		call := &ir.Call{Plugin: "model.mmd", Args: []*ir.Arg{stringArg("estimator", tt.estimator), landmarks}}
		var got []string
		checkMMD(&registry.CheckContext{Call: call, Dim: 1, Report: func(d dsl.Diagnostic) {
			msg := d.Severity.String() + ": " + d.Message
			if d.Hint != "" {
				msg += " (" + d.Hint + ")"
			}
			got = append(got, msg)
		}})
		if strings.Join(got, "; ") != tt.want {
			t.Errorf("estimator %q, landmarks given %v: reported %q, want %q", tt.estimator, tt.landmarks, got, tt.want)
		}
	}
}
