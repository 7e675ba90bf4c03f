// Package additive is the optimiser boc generates from additive.bo, a
// 100-dimensional problem with an additive kernel and coordinate sweeps,
// committed so that a suggestion whose sweeps are scored by component can
// be benchmarked (docs/performance.md). Its tests fail when the committed
// code is stale; regenerate it with go generate.
package additive

//go:generate go run ../../../cmd/boc gen additive.bo -o .
