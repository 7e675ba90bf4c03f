package plan

import "github.com/bocdev/boc/dsl"

// outcomes plans the outcome constraints (require). This version of boc
// checks them and has their models (runtime/outcome, planned as a safety
// constraint's by constraintModelOf), but no code generator for an
// optimiser that uses them: check refuses them here, so that no stage
// accepts what a later one cannot build.
func (b *builder) outcomes() {
	for _, c := range b.o.Program.Constraints {
		if c.Outcome {
			b.report(dsl.Errorf(c.Span, "require %s: outcome constraints are checked, but this version of boc cannot build an optimiser for them yet", c.Name).
				WithHint("for now, make it a safety constraint (constraint %s: ... { seed [[...]] }) with a safe acquisition, or fold it into the objective as a penalty", c.Name))
		}
	}
}
