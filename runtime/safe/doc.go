// Package safe holds the safe-exploration primitives of SGP-UCB (Amani et
// al.), SafeOpt (Sui et al. 2015) and StageOpt (Sui et al. 2018) over a
// finite decision set: confidence intervals intersected over time, the
// certified safe set, SafeOpt's maximizers and expanders, the plateau rule
// that ends a first phase, and Theorem 1's β_t.
//
// Conventions: a constraint is g(x) ≥ h (a `<=` constraint is negated by
// the caller); β multiplies the variance, so intervals are μ ± √β σ, as in
// the papers (boc's ucb(beta) multiplies σ directly). Every routine works in
// the caller's slices and does not allocate, so an optimiser's Suggest stays
// allocation-free.
package safe
