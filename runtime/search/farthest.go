package search

import (
	"math"
	"math/rand/v2"
)

// farthestCandidates is the number of random candidates Farthest compares.
const farthestCandidates = 512

// farthestStream is the PCG stream of Farthest's candidates.
const farthestStream = 0xfa57_e57

// Farthest writes to out (dim values) the point of the unit cube, among
// random candidates drawn from seed that satisfy feasible (nil: all do),
// whose smallest distance to the n evaluated points is largest; coord(i, j)
// is coordinate j of evaluated point i. An optimiser falls back on it when
// its model is equally certain everywhere, as for a constant objective,
// where both the acquisition and the posterior standard deviation are flat
// and their searches return an evaluated point. The candidates are drawn
// into out, and the best drawn again at the end, so that Farthest needs no
// memory of its own and does not allocate.
func Farthest(n, dim int, coord func(i, j int) float64, feasible func(u []float64) bool, seed uint64, out []float64) error {
	u := out[:dim]
	var rng rand.PCG
	draw := func() {
		for j := range u {
			u[j] = float64(rng.Uint64()>>11) / (1 << 53)
		}
	}
	rng.Seed(seed, farthestStream)
	best, bestAt := -1.0, -1
	for c := range farthestCandidates {
		draw()
		if feasible != nil && !feasible(u) {
			continue
		}
		nearest := math.Inf(1)
		for i := 0; i < n && nearest > best; i++ {
			d := 0.0
			for j := range u {
				e := u[j] - coord(i, j)
				d += e * e
			}
			nearest = min(nearest, d)
		}
		if nearest > best {
			best, bestAt = nearest, c
		}
	}
	if bestAt < 0 {
		return ErrNoFeasible
	}
	rng.Seed(seed, farthestStream)
	for range bestAt + 1 {
		draw()
	}
	return nil
}
