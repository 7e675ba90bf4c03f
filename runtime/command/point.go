package command

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// Dim describes one dimension of the problem's domain, in declaration order;
// a vector dimension of Size n occupies n consecutive components of a point.
// A categorical dimension's component holds the index of its level in
// Levels, and reads as the level's name.
type Dim struct {
	Name   string
	Size   int
	Vector bool
	Levels []string // a categorical dimension's level names; nil otherwise
	// Active reports whether a conditional dimension exists at point x;
	// nil for a dimension that always exists. Where it does not, a point's
	// JSON and text leave it out.
	Active func(x []float64) bool
}

// Exists reports whether d exists at point x.
func (d Dim) Exists(x []float64) bool { return d.Active == nil || d.Active(x) }

// Level returns the name of the level a categorical dimension's component
// holds at index v, and whether v is one.
func (d Dim) Level(v float64) (string, bool) {
	i := int(v)
	if float64(i) != v || i < 0 || i >= len(d.Levels) {
		return "", false
	}
	return d.Levels[i], true
}

// Point is a point of the domain as a JSON object from dimension names to
// values, in declaration order; a vector dimension's value is an array, a
// categorical one's the name of its level, and a conditional dimension that
// does not exist at the point is left out. It is what a command reads under
// "x", and what a program prints of a point.
type Point struct {
	Dims []Dim
	X    []float64
}

func (p Point) MarshalJSON() ([]byte, error) {
	size := 0
	for _, d := range p.Dims {
		size += d.Size
	}
	if size != len(p.X) {
		return nil, fmt.Errorf("a point has %d components, its dimensions %d", len(p.X), size)
	}
	b := []byte{'{'}
	off, written := 0, 0
	for _, d := range p.Dims {
		values := p.X[off : off+d.Size]
		off += d.Size
		if !d.Exists(p.X) {
			continue
		}
		if written > 0 {
			b = append(b, ',')
		}
		written++
		b = strconv.AppendQuote(b, d.Name)
		b = append(b, ':')
		if d.Levels != nil {
			level, ok := d.Level(values[0])
			if !ok {
				return nil, fmt.Errorf("%s = %v is not one of its levels", d.Name, values[0])
			}
			b = strconv.AppendQuote(b, level)
			continue
		}
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

// appendNumber appends x as JSON: null when it is not finite, which JSON
// cannot say.
func appendNumber(b []byte, x float64) []byte {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return append(b, "null"...)
	}
	text, _ := json.Marshal(x) // a finite float64 always marshals
	return append(b, text...)
}
