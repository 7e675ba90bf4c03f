// Package robot is the objective of examples/robot.bo: a toy two-joint arm
// whose reach error the optimiser minimises. It shows a .bo problem bound to a
// Go function, which the emitted optimiser calls directly.
package robot

import "math"

// target is where the arm's tip should end up.
var target = [2]float64{0.6, 0.9}

// ReachError returns the distance between the arm's tip and the target for
// joint angles q (radians), with unit-length links.
func ReachError(q [2]float64) float64 {
	x := math.Cos(q[0]) + math.Cos(q[0]+q[1])
	y := math.Sin(q[0]) + math.Sin(q[0]+q[1])
	return math.Hypot(x-target[0], y-target[1])
}
