// Package nei is the optimiser boc generates from nei.bo, the problem of
// bench/suggest/learned with noisy EI by Monte Carlo as its acquisition,
// committed so that the latent draws' cost can be benchmarked
// (docs/performance.md). Its tests fail when the committed code is stale;
// regenerate it with go generate.
package nei

//go:generate go run ../../../cmd/boc gen nei.bo -o .
