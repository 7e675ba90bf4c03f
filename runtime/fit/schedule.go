package fit

// Growth is the growth of the number of observations that triggers a refit:
// 20% keeps the total cost of the refits, O(n³) each, a small multiple of
// the last one's while the hyperparameters follow the data; between refits
// an observation costs O(n²).
const Growth = 1.2

// Due reports whether an optimiser holding n observations, whose initial
// design has designSize points and that last refitted at fitted
// observations (0: never), should refit: once the design has been observed
// (and at least two points), then whenever n has grown by Growth.
func Due(n, designSize, fitted int) bool {
	return n >= max(2, designSize) && float64(n) >= Growth*float64(fitted)
}
