package mmd

import "github.com/bocdev/boc/bench/internal/optbench"

// Point is the point type of a generated optimiser over one or two
// components of [0, 1].
type Point interface{ ~[1]float64 | ~[2]float64 }

// Optimizer is the part of a generated optimiser the benchmarks drive.
type Optimizer[P Point] interface {
	Suggest() (P, error)
	Observe(x P, y float64) error
}

// Padded drives an optimiser over the first components of [0,1]^4: the
// points optbench draws are cut to the optimiser's dimension and its
// suggestions are padded with zeros. It allocates nothing.
type Padded[P Point, O Optimizer[P]] struct{ Optimizer O }

// Suggest returns the optimiser's suggestion padded to four components.
func (p Padded[P, O]) Suggest() ([4]float64, error) {
	x, err := p.Optimizer.Suggest()
	var padded [4]float64
	for i := range len(x) {
		padded[i] = x[i]
	}
	return padded, err
}

// Observe records y at the first components of x.
func (p Padded[P, O]) Observe(x [4]float64, y float64) error {
	return p.Optimizer.Observe(Cut[P](x), y)
}

// Cut returns the first components of x as a P.
func Cut[P Point](x [4]float64) P { return P(x[:]) }

// Problem is the optbench problem of an optimiser made by newOptimizer, with
// objective f.
func Problem[P Point, O Optimizer[P]](newOptimizer func() O, f func(P) float64) optbench.Problem[[4]float64] {
	return optbench.Problem[[4]float64]{
		New:       func() optbench.Optimizer[[4]float64] { return Padded[P, O]{newOptimizer()} },
		Objective: func(x [4]float64) float64 { return f(Cut[P](x)) },
	}
}
