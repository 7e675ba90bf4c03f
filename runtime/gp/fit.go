package gp

import "fmt"

// Refits: when the caller learns new kernel hyperparameters (runtime/fit),
// it overwrites the stored kernel values with KernelRow, and the noise with
// SetNoise where that is learned too, then calls Refactor, which rebuilds
// the factor in O(n³). Between refits Add stays O(n²).

// KernelRow returns row i of the stored kernel matrix, k(x_i, x_j) for
// j <= i, for the caller to overwrite after a change of hyperparameters.
// The GP is inconsistent until Refactor. It panics unless 0 <= i < Len().
func (g *GP) KernelRow(i int) []float64 {
	if i < 0 || i >= g.n {
		panic(fmt.Sprintf("gp: KernelRow(%d) with %d observations", i, g.n))
	}
	return g.k[rowStart(i):rowStart(i+1)]
}

// Noise returns the noise variance of observation i, in units of y².
func (g *GP) Noise(i int) float64 { return g.noise[i] }

// SetNoise sets the noise variance of observation i (units of y², >= 0);
// Refactor applies it. It panics unless 0 <= i < Len().
func (g *GP) SetNoise(i int, noiseVar float64) {
	if i < 0 || i >= g.n {
		panic(fmt.Sprintf("gp: SetNoise(%d) with %d observations", i, g.n))
	}
	g.noise[i] = noiseVar
}

// SetY sets observation i's value (the model's units); Refactor applies
// it. A model that warps its outputs (runtime/warp) replaces every value
// when it refits the warp. It panics unless 0 <= i < Len().
func (g *GP) SetY(i int, y float64) {
	if i < 0 || i >= g.n {
		panic(fmt.Sprintf("gp: SetY(%d) with %d observations", i, g.n))
	}
	g.y[i] = y
}

// Load replaces the observations by len(y) new ones with values y and
// noise variances noise, for a caller that conditions the GP on another
// subset of its observations (runtime/subset): it then writes each one's
// KernelRow and calls Refactor. Fantasies are forgotten, and so is a
// standardisation Standardise gave. It panics when
// the values do not fit (len(y) > Cap()) or len(noise) != len(y).
func (g *GP) Load(y, noise []float64) {
	if len(y) > g.capacity || len(noise) != len(y) {
		panic(fmt.Sprintf("gp: Load of %d values and %d noise variances, capacity %d", len(y), len(noise), g.capacity))
	}
	g.n, g.fantasies, g.given = len(y), 0, false
	copy(g.y, y)
	copy(g.noise, noise)
}

// Refactor re-standardises the observations (scale = their standard
// deviation now; not under WithFixedPrior or Standardise) and refactors A from the stored kernel values and noise,
// with the jitter of every row reset, in O(n³). On error (the kernel values
// are not positive definite even with the largest jitter, or not finite)
// the GP must be given consistent values and refactored before it is used.
func (g *GP) Refactor() error {
	if g.n == 0 {
		return nil
	}
	for _, v := range g.k[:rowStart(g.n)] {
		if !finite(v) {
			return fmt.Errorf("%w: a kernel value is %v", ErrInvalidInput, v)
		}
	}
	g.standardisedAt = g.n
	if g.standardisesItself() {
		g.scale = Deviation(g.y[:g.n])
	}
	clear(g.jitter[:g.n])
	if err := g.refactor(); err != nil {
		return err
	}
	g.updateAlpha()
	return nil
}
