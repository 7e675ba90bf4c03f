package program

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
)

// result is the JSON form of a run's result. Its fields, and the keys of
// each point, appear in a fixed order.
type result struct {
	Problem            string    `json:"problem"`
	Seed               uint64    `json:"seed"`
	Evaluations        int       `json:"evaluations"`
	Recommendation     *point    `json:"recommendation"`
	RecommendationMean number    `json:"recommendation_mean"`
	BestObserved       *observed `json:"best_observed"`
	Stopped            string    `json:"stopped"`
}

type observed struct {
	X point  `json:"x"`
	Y number `json:"y"`
}

// writeJSON writes r as one JSON object on one line. Before the first
// evaluation, the recommendation and the best observation are null.
func writeJSON(w io.Writer, p Problem, seed uint64, r Result) error {
	out := result{Problem: p.Name, Seed: seed, Evaluations: r.Evaluations, Stopped: r.Stopped, RecommendationMean: number(math.NaN())}
	if r.Evaluations > 0 {
		out.Recommendation = &point{dims: p.Dims, x: r.Recommendation}
		out.RecommendationMean = number(r.RecommendationMean)
		out.BestObserved = &observed{X: point{dims: p.Dims, x: r.BestX}, Y: number(r.BestY)}
	}
	b, err := json.Marshal(out)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// number is a float64 whose NaN and infinities, which JSON cannot hold, are
// written as null.
type number float64

func (n number) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(n)) || math.IsInf(float64(n), 0) {
		return []byte("null"), nil
	}
	return json.Marshal(float64(n))
}

// point is a point as a JSON object from dimension names to values, in
// declaration order; a vector dimension's value is an array.
type point struct {
	dims []Dim
	x    []float64
}

func (p point) MarshalJSON() ([]byte, error) {
	size := 0
	for _, d := range p.dims {
		size += d.Size
	}
	if size != len(p.x) {
		return nil, fmt.Errorf("a point has %d components, its dimensions %d", len(p.x), size)
	}
	b := []byte{'{'}
	off := 0
	for i, d := range p.dims {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, d.Name)
		b = append(b, ':')
		values := p.x[off : off+d.Size]
		off += d.Size
		if !d.Vector {
			b = appendNumber(b, values[0])
			continue
		}
		b = append(b, '[')
		for j, v := range values {
			if j > 0 {
				b = append(b, ',')
			}
			b = appendNumber(b, v)
		}
		b = append(b, ']')
	}
	return append(b, '}'), nil
}

func appendNumber(b []byte, x float64) []byte {
	text, _ := number(x).MarshalJSON() // a float64 always marshals
	return append(b, text...)
}
