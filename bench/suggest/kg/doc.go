// Package kg is the optimiser boc generates from kg.bo, the problem of
// bench/suggest/learned with the knowledge gradient as its acquisition,
// committed so that the lookahead's cost can be benchmarked
// (docs/performance.md). Its tests fail when the committed code is stale;
// regenerate it with go generate.
package kg

//go:generate go run ../../../cmd/boc gen kg.bo -o .
