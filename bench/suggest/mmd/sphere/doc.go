// Package sphere is the optimiser boc generates from sphere.bo, a
// two-dimensional problem with input noise and model mmd, committed so that
// the cost of Suggest can be benchmarked (docs/robust.md). Its tests fail
// when the committed code is stale; regenerate it with go generate.
package sphere

//go:generate go run ../../../../cmd/boc gen sphere.bo -o .
