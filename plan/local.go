package plan

import (
	"fmt"
	"slices"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
)

// autoLocalBudget is the largest budget at which approx = "auto" keeps the
// exact GP over every observation. Measured (bench/library/scale_study.py,
// docs/performance.md, "Long runs"), an evaluation of the exact GP costs 4
// ms at n = 200 and 64 ms at n = 1,000 on the 4-D Levy problem (226 ms on
// the 10-D Ackley), so a run of 1,000 takes half a minute to a minute, and
// its cost keeps growing as n² beyond it (n³ for the refits), while the
// local model's stays that of its subset, at some price in regret.
const autoLocalBudget = 1000

// fantasyShare is the part of a local model's subset size added to its
// capacity for the fantasies of pending points (ModelSize).
const fantasyShare = 4

// ModelSize is the number of observations the model can hold: the budget
// for the exact GP; for a local one its subset size and room for the
// fantasies of a quarter as many pending points (runtime/subset), within
// the budget.
func (o *Optimizer) ModelSize() int {
	if o.Local == 0 {
		return o.Program.Budget
	}
	return min(o.Program.Budget, o.Local+o.Local/fantasyShare)
}

// localModel decides the GP's form at large n (registry.ModelSpec.Approx):
// local where it is asked for, or by default where the budget exceeds
// autoLocalBudget; refused where the optimiser holds its observations in
// other ways than a point model and the objective's values (a safe
// explorer's certificates, the requirements' and several objectives'
// models, input distributions, warped values, a portfolio's memory, a
// finite decision set, choices) and with a search that keeps to no box.
func (b *builder) localModel() {
	spec := b.o.Model
	if spec.Approx != registry.ApproxLocal && spec.Approx != registry.ApproxAuto {
		return
	}
	p := b.o.Program
	if p.Budget <= spec.LocalSize {
		return // every observation fits the subset
	}
	where := b.localUnsupported()
	if spec.Approx == registry.ApproxAuto {
		if where == "" && p.Budget > autoLocalBudget {
			b.o.Local = spec.LocalSize
		}
		return
	}
	if where != "" {
		span := p.Model.Span
		if a := p.Model.Arg("approx"); a != nil {
			span = a.Span
		}
		b.report(dsl.Errorf(span, "a local model is not built %s in this version of boc", where).
			WithHint(`use approx = "exact"`))
		return
	}
	b.o.Local = spec.LocalSize
}

// localUnsupported says where a local model is not built, "" where it is.
func (b *builder) localUnsupported() string {
	o, p := b.o, b.o.Program
	switch {
	case o.Acquisition.Safe != nil:
		return "with a safe acquisition"
	case len(o.Outcomes) > 0:
		return "with outcome constraints (require)"
	case len(o.Objectives) > 0:
		return "with several objectives"
	case o.InputModel() || o.Inflates() || o.Unscented():
		return "with the input noise in the model or the acquisition"
	case slices.ContainsFunc(p.Dims, func(d *ir.Dim) bool { return d.Categorical() || d.When != nil }):
		return "over a domain with choices or conditional components"
	case o.Model.Warp != "":
		return "with warped values (warp)"
	case o.Finite():
		return "over candidates, a finite decision set"
	case !o.GradientSearch():
		return fmt.Sprintf("with search %s, which cannot be confined to the region the subset describes", name(p.Search))
	case o.Acquisition.Arms > 0:
		return fmt.Sprintf("with acquisition %s, a portfolio", name(p.Acquisition))
	}
	return ""
}
