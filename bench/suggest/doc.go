// Package suggest is the optimiser boc generates from suggest.bo, committed
// so that its Suggest and Observe can be benchmarked as users get them
// (docs/performance.md): d = 4, room for 1000 observations, a fixed
// squared-exponential kernel. Its tests fail when the committed code is
// stale; regenerate it with go generate.
package suggest

//go:generate go run ../../cmd/boc gen suggest.bo -o .
