// Package stdlib holds boc's built-in plugins. Importing it (usually for its
// side effects) registers every kernel, model, acquisition, distribution,
// benchmark function, built-in function, initial design and search with
// stdlib/registry.
package stdlib

//
// A plugin is one unit: one file holds its registration, signature, check
// and emit hooks (kernel_se.go, model_mmd.go, acq_ucb.go, ...), beside the
// machinery a family shares (kernel_stationary.go, model_inputs.go) and the
// runtime package its emitted code calls.

// Import paths of the runtime packages emitted code calls.
const (
	runtimeGP     = "github.com/bocdev/boc/runtime/gp"
	runtimeAcq    = "github.com/bocdev/boc/runtime/acq"
	runtimeDesign = "github.com/bocdev/boc/runtime/design"
	runtimeSearch = "github.com/bocdev/boc/runtime/search"
	runtimeBench  = "github.com/bocdev/boc/runtime/bench"
)
