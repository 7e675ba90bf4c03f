package codegen

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/bocdev/boc/plan"
	"github.com/bocdev/boc/stdlib/registry"
)

// TestPendingBeliefFollowsPlugin: the fantasies of every golden case are the
// ones its acquisition plugin's Spec asks for (registry.PendingBelief), a
// safe optimiser has none, and every unsafe acquisition in the registry is
// covered by a golden case, so that each rule is built and tested.
func TestPendingBeliefFollowsPlugin(t *testing.T) {
	covered := map[string]bool{}
	for _, name := range goldenCases(t) {
		p := checkFile(t, filepath.Join(goldenDir, name+".bo"))
		o, diags := plan.Build(p)
		if diags.HasErrors() {
			t.Fatalf("%s: %v", name, diags)
		}
		lib := string(generateCase(t, name).Library[0].Content)
		hallucinates := strings.Contains(lib, "y := o.model.Mean(o.kvec[:n])")
		lies := strings.Contains(lib, "y := o.model.MinY()")
		covered[p.Acquisition.Plugin] = true
		switch {
		case o.Acquisition.Pareto != nil:
			if hallucinates || lies || !strings.Contains(lib, "multi.New(") {
				t.Errorf("%s: an optimiser of several objectives fantasises, or does without runtime/multi", name)
			}
		case o.Acquisition.Safe != nil:
			if hallucinates || lies || strings.Contains(lib, "AddFantasy") {
				t.Errorf("%s: a safe optimiser fantasises", name)
			}
		case o.Acquisition.Pending == registry.Hallucinate:
			if !hallucinates || lies {
				t.Errorf("%s: the plan hallucinates pending points, the code does not", name)
			}
		default:
			if !lies || hallucinates {
				t.Errorf("%s: the plan fantasises constant lies, the code does not", name)
			}
		}
	}
	for _, pl := range registry.All() {
		if pl.Kind != registry.Acquisition {
			continue
		}
		hooks, ok := pl.Emit.(registry.AcquisitionHooks)
		if !ok || hooks.Spec == nil {
			continue
		}
		if !covered[pl.ID()] && hooks.Code != nil {
			t.Errorf("acquisition %s has no golden case", pl.ID())
		}
	}
}
