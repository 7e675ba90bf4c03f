// Package objectives holds Go objectives that the golden problems bind to with
// `go "github.com/bocdev/boc/testdata/golden/objectives".Name`.
package objectives

import (
	"context"
	"math"
)

// Bowl is a shifted quadratic in (x, w[0], w[1]); it fails once ctx is done.
func Bowl(ctx context.Context, x [3]float64) (float64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	return (x[0]-0.3)*(x[0]-0.3) + (x[1]-1)*(x[1]-1) + 0.5*(x[2]-0.5)*(x[2]-0.5), nil
}

// Bump is a single smooth peak at 0.7.
func Bump(x [1]float64) float64 {
	return math.Exp(-(x[0] - 0.7) * (x[0] - 0.7) / 0.02)
}

// BowlWithSD is Bowl as measured by an instrument that reports the noise sd
// of each value: the farther from the centre of the domain, the noisier.
func BowlWithSD(x [3]float64) (y, sd float64) {
	y, _ = Bowl(context.Background(), x)
	return y, 0.01 + 0.05*math.Abs(x[0])
}
