// Package mixed is the optimiser boc generates from mixed.bo, a problem of
// 3 categorical components of 5 levels and 4 continuous ones with learned
// hyperparameters, committed so that Suggest over a mixed domain can be
// benchmarked (docs/performance.md). Its tests fail when the committed code
// is stale; regenerate it with go generate.
package mixed

//go:generate go run ../../../cmd/boc gen mixed.bo -o .
