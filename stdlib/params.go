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
	fraction    = &registry.Range{Lo: 0, Hi: 1}
)
