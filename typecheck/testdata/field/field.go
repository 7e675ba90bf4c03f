// Package field is a Go objective used by the type checker's tests: a survey
// field measured by a drone, and the battery it leaves.
package field

import (
	"context"
	"errors"
	"math"
)

// Measure is the survey value at a landing point.
func Measure(x [2]float64) float64 {
	return math.Exp(-((x[0]-0.3)*(x[0]-0.3) + (x[1]-0.7)*(x[1]-0.7)) / 0.1)
}

// Battery is the charge left after flying to a point.
func Battery(x [2]float64) float64 { return 1 - math.Hypot(x[0], x[1]) }

// MeasureErr reports an error outside the unit square.
func MeasureErr(x [2]float64) (float64, error) {
	if x[0] < 0 || x[0] > 1 || x[1] < 0 || x[1] > 1 {
		return 0, errors.New("outside the field")
	}
	return Measure(x), nil
}

// MeasureCtx honours cancellation.
func MeasureCtx(ctx context.Context, x [2]float64) float64 {
	if ctx.Err() != nil {
		return math.NaN()
	}
	return Measure(x)
}

// MeasureCtxErr honours cancellation and reports it.
func MeasureCtxErr(ctx context.Context, x [2]float64) (float64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	return Measure(x), nil
}

// Measure3 takes three components.
func Measure3(x [3]float64) float64 { return x[0] + x[1] + x[2] }

// MeasureSlice takes a slice instead of an array.
func MeasureSlice(x []float64) float64 { return x[0] }

// MeasureTwice returns two values.
func MeasureTwice(x [2]float64) (float64, float64) { return x[0], x[1] }

// Scale is a variable, not a function.
var Scale = 2.0

// unexported is not visible to generated code.
func unexported(x [2]float64) float64 { return x[0] }

// MeasureWithSD reports the noise sd of each measurement with it: the
// instrument is less precise away from the centre of the field.
func MeasureWithSD(ctx context.Context, x [2]float64) (float64, float64, error) {
	if err := ctx.Err(); err != nil {
		return 0, 0, err
	}
	return Measure(x), 0.01 + 0.1*math.Hypot(x[0]-0.5, x[1]-0.5), nil
}

// Reading is what a survey flight reports besides the survey value.
type Reading struct {
	Battery float64 // the charge left
	Wind    float64 `boc:"gust"` // the strongest gust met
	note    string
}

// Survey measures the field and reports the flight's reading.
func Survey(x [2]float64) (float64, Reading) {
	return Measure(x), Reading{Battery: Battery(x), Wind: 3 * x[1], note: "calm"}
}

// SurveyCtxErr is Survey, honouring cancellation.
func SurveyCtxErr(ctx context.Context, x [2]float64) (float64, Reading, error) {
	if err := ctx.Err(); err != nil {
		return 0, Reading{}, err
	}
	y, r := Survey(x)
	return y, r, nil
}

// Flight has what a constraint cannot read: an unexported field, a field
// that is not a number, and two fields whose names differ only in case.
type Flight struct {
	altitude float64
	Mode     string
	Speed    float64
	SPEED    float64
}

// Fly measures the field and reports the flight.
func Fly(x [2]float64) (float64, Flight) {
	return Measure(x), Flight{altitude: x[0], Mode: "survey", Speed: x[1], SPEED: x[1]}
}

// Outcome is what a rig reports of a setting: two objectives and a
// reading.
type Outcome struct {
	Throughput float64
	Latency    float64 `boc:"delay"`
	Purity     float64
}

// Rig measures a setting's throughput, delay and purity.
func Rig(x [2]float64) Outcome {
	return Outcome{Throughput: 100 * x[0], Latency: 50 + 200*x[0]*x[1], Purity: 1 - 0.1*x[1]}
}

// RigCtxErr is Rig, honouring cancellation.
func RigCtxErr(ctx context.Context, x [2]float64) (Outcome, error) {
	if err := ctx.Err(); err != nil {
		return Outcome{}, err
	}
	return Rig(x), nil
}

// Catalyst is a catalyst's name; its constants are the levels a .bo file
// declares.
type Catalyst string

// The catalysts.
const (
	Palladium Catalyst = "Pd"
	Nickel    Catalyst = "Ni"
)

// Batch is a point of a domain with a choice and a conditional component:
// temperature, catalyst in {"Pd", "Ni"} and dose when catalyst == "Ni".
type Batch struct {
	Temperature float64
	Catalyst    Catalyst
	Dose        *float64 `boc:"dose"`
	Note        string   `boc:"-"` // set by React itself
}

// React is a reactor taking its settings by name.
func React(b Batch) float64 {
	y := b.Temperature
	if b.Catalyst == Nickel && b.Dose != nil {
		y += *b.Dose
	}
	return y
}

// Flawed is a point type whose fields do not fit the same domain.
type Flawed struct {
	Temperature int
	Catalyst    string
	Dose        float64
	Extra       float64
}

// ReactFlawed takes a Flawed.
func ReactFlawed(f Flawed) float64 { return f.Extra }

// ReactAnonymous takes an unnamed struct.
func ReactAnonymous(s struct{ Temperature float64 }) float64 { return s.Temperature }

// grade is an unexported level type.
type grade string

// Graded has a field of an unexported type.
type Graded struct {
	Temperature float64
	Catalyst    grade
	Dose        *float64
}

// ReactGraded takes a Graded.
func ReactGraded(g Graded) float64 { return g.Temperature }

// hidden is an unexported point type.
type hidden struct {
	Temperature float64
	Catalyst    string
	Dose        *float64
}

// ReactHidden takes a hidden.
func ReactHidden(h hidden) float64 { return h.Temperature }
