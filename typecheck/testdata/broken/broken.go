// Package broken does not compile: the type checker's tests bind to it to
// check how a package that fails to load is reported.
package broken

// Measure uses an undefined name.
func Measure(x [1]float64) float64 { return x[0] * undefinedScale }
