// Package mmd benchmarks Suggest with AIRBO's MMD model (model mmd, the
// default embedding estimator) at n = 100 observations, in one dimension
// (subpackage doublepeak) and two (subpackage sphere), as bench/suggest
// does for the GP (docs/robust.md). The subpackages are optimisers boc
// generates, committed so that they can be benchmarked; this package adapts
// them to bench/internal/optbench, which drives optimisers over [0,1]^4.
package mmd
