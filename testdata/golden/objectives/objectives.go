// Package objectives holds Go objectives that the golden problems bind to with
// `go "github.com/bocdev/boc/testdata/golden/objectives".Name`.
package objectives

import (
	"context"
	"errors"
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

// Loads is what SphereLoad reports besides its value.
type Loads struct {
	Total float64 `boc:"load"` // the sum of the components
	Peak  float64 // the largest component, reported to no constraint
}

// SphereLoad is the sphere centred at 0.25 in every component, reporting the
// load of a point, the sum of its components; it fails once ctx is done.
func SphereLoad(ctx context.Context, x [3]float64) (float64, Loads, error) {
	if err := ctx.Err(); err != nil {
		return 0, Loads{}, err
	}
	var y float64
	l := Loads{Peak: math.Inf(-1)}
	for _, v := range x {
		y += (v - 0.25) * (v - 0.25)
		l.Total += v
		l.Peak = max(l.Peak, v)
	}
	return y, l, nil
}

// Sphere is the sum of the squared components.
func Sphere(x [3]float64) float64 { return x[0]*x[0] + x[1]*x[1] + x[2]*x[2] }

// Rig is what a rig measures at once: a throughput to raise, a latency to
// lower and a purity the result must keep, from two settings.
type Rig struct {
	Throughput float64
	Latency    float64
	Purity     float64 `boc:"purity"`
}

// MeasureRig is a rig of two settings in [0, 1]: throughput and latency
// pull in opposite directions; purity falls with the first setting.
func MeasureRig(x [2]float64) (Rig, error) {
	return Rig{
		Throughput: 100 * (x[0] + 0.5*x[1]),
		Latency:    50 + 200*x[0]*x[0] + 40*(1-x[1]),
		Purity:     1 - 0.3*x[0]*x[1],
	}, nil
}

// Tool is a machining tool's name; its constants are gobind_struct.bo's
// levels.
type Tool string

// The tools.
const (
	Drill Tool = "drill"
	Mill  Tool = "mill"
)

// Cut is a point of gobind_struct.bo's domain, by name: the drill alone has
// a depth, nil for the mill.
type Cut struct {
	Feed  float64
	Tool  Tool
	Depth *int
	Angle [2]float64
}

// Machining is a machining cost over a Cut; it fails once ctx is done or on
// a Cut the domain cannot hold.
func Machining(ctx context.Context, c Cut) (float64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	cost := (c.Feed-0.4)*(c.Feed-0.4) + (c.Angle[0]-0.2)*(c.Angle[0]-0.2) + c.Angle[1]*c.Angle[1]
	switch {
	case c.Tool == Drill && c.Depth != nil:
		return cost + 0.05*float64((*c.Depth-3)*(*c.Depth-3)), nil
	case c.Tool == Mill && c.Depth == nil:
		return cost + 0.3, nil
	}
	return 0, errors.New("objectives: a cut with a depth exactly when it drills")
}
