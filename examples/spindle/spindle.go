// Package spindle is the machine of examples/spindle.bo: a milling spindle
// whose cycle time the optimiser minimises over the spindle speed and the
// feed, while the spindle's temperature must stay at or below 80 °C. Both
// are toy models standing for measurements on a real machine.
package spindle

import "math"

// Reading is what the machine reports after a part besides its cycle time.
type Reading struct {
	Temperature float64 // the spindle's temperature, °C
}

// Mill mills one part at spindle speed and feed x (both as fractions of the
// machine's maximum) and returns its cycle time in minutes with the
// spindle's temperature after it.
func Mill(x [2]float64) (float64, Reading) {
	return cycleTime(x), Reading{Temperature: temperature(x)}
}

// cycleTime is the time to mill one part: faster cutting takes less time,
// with diminishing returns, and tool wear at high speed costs some back.
func cycleTime(x [2]float64) float64 {
	speed, feed := x[0], x[1]
	return 1/(0.15+speed*feed+0.4*speed) + 0.8*speed*speed*speed
}

// temperature is the spindle's temperature after one part: the heat grows
// with the cutting power (speed × feed) and with the speed itself, from an
// ambient 25 °C.
func temperature(x [2]float64) float64 {
	speed, feed := x[0], x[1]
	return 25 + 55*math.Pow(speed, 1.5)*(0.4+feed) + 10*feed
}
