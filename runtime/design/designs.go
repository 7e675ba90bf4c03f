package design

import (
	"fmt"
	"math/rand/v2"
)

// zeroSeedShift is the shift SobolDesign draws for seed 0, the seed of every
// problem that does not set one: the unshifted sequence starts at the
// corner of the cube (the origin), where an initial design should not put
// its first point.
const zeroSeedShift = 0x736f626f6c2d3021 // "sobol-0!"

// SobolDesign writes the first n points of the dim-dimensional Sobol
// sequence, digitally shifted by a shift drawn from seed, to out, row-major
// n×dim. Every seed, 0 included, gives a shifted (scrambled) design.
func SobolDesign(n, dim int, seed uint64, out []float64) error {
	if err := checkShape(n, dim, out); err != nil {
		return err
	}
	if seed == 0 {
		seed = zeroSeedShift
	}
	s, err := NewSobol(dim, seed)
	if err != nil {
		return err
	}
	for i := range n {
		s.Next(out[i*dim : (i+1)*dim])
	}
	return nil
}

// LHS writes a Latin hypercube of n points in [0,1)^dim to out, row-major
// n×dim: along every axis each of the n strata [k/n, (k+1)/n) holds exactly
// one point, placed uniformly inside it, and the strata are matched across
// axes by independent random permutations. It panics if n < 0, dim < 1 or
// len(out) < n*dim, which are programming errors.
func LHS(n, dim int, seed uint64, out []float64) {
	mustShape(n, dim, out)
	rng := rand.New(rand.NewPCG(seed, lhsStream))
	for j := range dim {
		for i := range n {
			out[i*dim+j] = (float64(i) + rng.Float64()) / float64(n)
		}
		// Fisher–Yates on column j pairs the strata of this axis with a
		// random permutation of the rows.
		for i := n - 1; i > 0; i-- {
			k := rng.IntN(i + 1)
			out[i*dim+j], out[k*dim+j] = out[k*dim+j], out[i*dim+j]
		}
	}
}

// Random writes n independent uniform points in [0,1)^dim to out, row-major
// n×dim. It panics if n < 0, dim < 1 or len(out) < n*dim, which are
// programming errors.
func Random(n, dim int, seed uint64, out []float64) {
	mustShape(n, dim, out)
	var rng rand.PCG
	rng.Seed(seed, randomStream)
	for i := range out[:n*dim] {
		out[i] = unitFloat(rng.Uint64())
	}
}

// checkShape reports whether out can hold an n×dim design.
func checkShape(n, dim int, out []float64) error {
	switch {
	case n < 0:
		return fmt.Errorf("design: negative number of points %d", n)
	case dim < 1:
		return fmt.Errorf("%w: %d", ErrDimension, dim)
	case len(out) < n*dim:
		return fmt.Errorf("design: output holds %d values, need %d×%d = %d", len(out), n, dim, n*dim)
	}
	return nil
}

func mustShape(n, dim int, out []float64) {
	if err := checkShape(n, dim, out); err != nil {
		panic(err)
	}
}
