package plan

import "github.com/bocdev/boc/stdlib/registry"

// mean resolves the model's constant prior mean (ModelSpec.Mean; "" for a
// model without the choice, which keeps the average). Left to "auto" it is
// "worst" for the objectives of a problem with several and "average"
// otherwise: with each objective's Gaussian process expecting the worst
// value observed where it knows nothing, the expected hypervolume
// improvement spent half as many evaluations on the corners of DTLZ2's box,
// whose log10 hypervolume gap fell from -1.11 to -1.32 with two objectives
// and from -0.67 to -0.75 with three; on six other problems it moved by
// at most 0.05, but for ZDT3's 0.11 over 40 seeds (docs/quality.md,
// "Several objectives against Optuna's MOTPE and NSGA-II"). With one
// objective it was measured on two problems with opposite results, and
// the average stays. A worst mean is an objective's alone: the Gaussian
// processes of requirements and safety constraints, whose limits and not
// a direction say which values are bad, keep the average.
func (b *builder) mean() {
	o := b.o
	if o.Model.Mean == registry.MeanAuto {
		o.Model.Mean = registry.MeanAverage
		if len(o.Objectives) > 0 {
			o.Model.Mean = registry.MeanWorst
		}
	}
	if o.Model.Mean == registry.MeanWorst {
		for i := range o.Objectives {
			o.Objectives[i].WorstMean = true
		}
	}
}
