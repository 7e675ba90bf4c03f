// Command cmd is a main package: go bindings cannot import it.
package main

// Measure would be a fine objective, but in a main package.
func Measure(x [2]float64) float64 { return x[0] }

func main() {}
