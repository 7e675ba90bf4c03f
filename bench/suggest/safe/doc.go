// Package safe is the safe optimiser boc generates from safe.bo, committed
// so that its Suggest can be benchmarked as users get it
// (docs/performance.md): SGP-UCB on a 64×64 grid of the unit square with two
// unknown constraints. Its tests fail when the committed code is stale;
// regenerate it with go generate.
package safe

//go:generate go run ../../../cmd/boc gen safe.bo -o .
