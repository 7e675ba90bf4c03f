package stdlib

import (
	"math"

	"github.com/bocdev/boc/stdlib/registry"
)

// Ranges shared by many parameters.
var (
	positive    = &registry.Range{Lo: 0, Hi: math.Inf(1), LoOpen: true}
	nonNegative = &registry.Range{Lo: 0, Hi: math.Inf(1)}
	atLeastOne  = &registry.Range{Lo: 1, Hi: math.Inf(1)}
	unit        = &registry.Range{Lo: 0, Hi: 1, LoOpen: true, HiOpen: true}
)

// lengthscale and variance are the hyperparameters every stationary kernel has.
// Inputs are scaled to the unit box before the kernel sees them, so lengthscales
// are fractions of each dimension's range.
var (
	lengthscale = registry.Param{Name: "lengthscale", Type: registry.RealOrVecParam, Default: registry.Learn(), Range: positive, Learnable: true,
		LearnBounds: [2]float64{0.01, 10},
		Doc:         "length scale as a fraction of each dimension's range; a vec[d] gives one per component (ARD); learn fits one per component"}
	variance = registry.Param{Name: "variance", Type: registry.RealParam, Default: registry.Learn(), Range: positive, Learnable: true,
		LearnBounds: [2]float64{0.05, 20},
		Doc:         "signal variance s² (outputs are standardised, so 1 is the natural scale)"}
)
