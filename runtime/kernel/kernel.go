// Package kernel holds the runtime's generic covariance functions (MATH.md
// §3): squared exponential, Matérn 1/2, 3/2 and 5/2, rational quadratic,
// AIRBO's rational-quadratic mixture, linear, and their sums, products and
// constant multiples, with scalar or ARD lengthscales.
//
// Emitted optimisers evaluate kernels with straight-line code specialised to
// their dimension and hyperparameters; this package is the generic path that
// such code is checked and timed against, and what runtime code that is not
// specialised can use. Block evaluates a stationary kernel a row of points
// at a time, with batched exponentials: the emitted models over input
// distributions sum their base kernel over samples with it. Every kernel also gives its gradient with respect to
// its first input (for acquisition optimisers) and to its log-hyperparameters
// (for the marginal likelihood).
//
// Kernels are immutable while they are evaluated, so several goroutines may
// evaluate one kernel at once; no method allocates.
package kernel

// Kernel is a covariance function k(a, b) on vectors of one fixed dimension.
//
// Its hyperparameters are exposed as the vector θ of their natural
// logarithms, so that an optimiser can move them freely while they stay
// positive. Composite kernels concatenate the θ of their parts in order.
type Kernel interface {
	// Eval returns k(a, b).
	Eval(a, b []float64) float64
	// AddGradX adds w·∂k(a, b)/∂a to grad[:len(a)] and returns k(a, b).
	// Accumulating with a weight lets sums and products combine their
	// parts' gradients without scratch memory.
	AddGradX(a, b []float64, w float64, grad []float64) float64
	// NumParams returns the length of θ.
	NumParams() int
	// Params writes θ to p[:NumParams()].
	Params(p []float64)
	// SetParams sets the hyperparameters from θ = p[:NumParams()].
	SetParams(p []float64)
	// AddGradParams adds w·∂k(a, b)/∂θ to grad[:NumParams()] and returns
	// k(a, b).
	AddGradParams(a, b []float64, w float64, grad []float64) float64
}
