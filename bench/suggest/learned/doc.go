// Package learned is the optimiser boc generates from learned.bo, the
// problem of bench/suggest with the kernel's lengthscale and variance
// learned, committed so that the cost of refits can be benchmarked
// (docs/performance.md). Its tests fail when the committed code is stale;
// regenerate it with go generate.
package learned

//go:generate go run ../../../cmd/boc gen learned.bo -o .
