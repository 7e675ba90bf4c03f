package program

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
)

// robustCache evaluates Problem.Robust at the recommendation, again only when
// the recommendation moved: one robust value costs thousands of evaluations
// of the objective, and the recommendation changes rarely.
type robustCache struct {
	robust func(x []float64) float64
	x      []float64 // the point of value; nil before the first call
	value  float64
}

func newRobustCache(robust func(x []float64) float64) *robustCache {
	return &robustCache{robust: robust}
}

// at returns the robust value at x, NaN when the problem has none.
func (c *robustCache) at(x []float64) float64 {
	if c.robust == nil || x == nil {
		return math.NaN()
	}
	if c.x == nil || !slices.Equal(c.x, x) {
		c.x = append(c.x[:0], x...)
		c.value = c.robust(c.x)
	}
	return c.value
}

// Default grid sizes of robust-optimum: a 1-D grid of 1001 points and a 2-D
// one of 101² cost about the same number of robust values.
const (
	defaultGrid1D = 1001
	defaultGrid2D = 101
)

// refineTolerance is how finely robust-optimum's local refinement locates the
// optimum, as a fraction of the box's width in each dimension.
const refineTolerance = 1e-7

// robustOptimum is the result of robust-optimum, also its JSON form.
type robustOptimum struct {
	X      []float64 `json:"x"`
	Robust float64   `json:"robust"`
}

func robustOptimumCommand(ctx context.Context, p Problem, args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet(p.Name+" robust-optimum", flag.ContinueOnError)
	flags.SetOutput(io.Discard)
	asJSON := flags.Bool("json", false, "")
	grid := flags.Int("grid", 0, "")
	if err := flags.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			usage(p, stdout)
			return ExitOK
		}
		fmt.Fprintf(stderr, "%s: %v\n", p.Name, err)
		return ExitUsage
	}
	if flags.NArg() > 0 {
		fmt.Fprintf(stderr, "%s: robust-optimum takes no arguments, got %q\n", p.Name, flags.Args())
		return ExitUsage
	}
	if p.Robust == nil {
		fmt.Fprintf(stderr, "%s: robust-optimum needs input noise and an expression objective; "+
			"this problem has no robust value\n", p.Name)
		return ExitUsage
	}
	n := 0
	for _, d := range p.Dims {
		n += d.Size
	}
	if n < 1 || n > 2 {
		fmt.Fprintf(stderr, "%s: robust-optimum searches domains of 1 or 2 components; this one has %d\n", p.Name, n)
		return ExitUsage
	}
	if *grid == 0 {
		*grid = defaultGrid1D
		if n == 2 {
			*grid = defaultGrid2D
		}
	}
	if *grid < 2 {
		fmt.Fprintf(stderr, "%s: --grid %d: want at least 2 points per dimension\n", p.Name, *grid)
		return ExitUsage
	}
	opt, err := findRobustOptimum(ctx, p, *grid)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", p.Name, err)
		return ExitFailure
	}
	if *asJSON {
		b, err := json.Marshal(opt)
		if err != nil { // a finite optimum always marshals
			fmt.Fprintf(stderr, "%s: %v\n", p.Name, err)
			return ExitFailure
		}
		fmt.Fprintf(stdout, "%s\n", b)
		return ExitOK
	}
	goal := "minimum"
	if p.Maximize {
		goal = "maximum"
	}
	fmt.Fprintf(stdout, "robust %s of %s: %s  robust value %s\n", goal, p.Name, formatPoint(p.Dims, opt.X), formatValue(opt.Robust))
	return ExitOK
}

// findRobustOptimum searches the box [Lower, Upper] of a 1- or 2-component
// problem for the best robust value: the best of a grid of n points per
// dimension, refined locally around it (golden-section search in 1-D, a
// shrinking compass search in 2-D) to refineTolerance of the box width. The
// refinement assumes the robust value is unimodal within a grid cell of the
// best grid point, which the smoothing by the input noise makes likely.
func findRobustOptimum(ctx context.Context, p Problem, n int) (robustOptimum, error) {
	dim := len(p.Lower)
	components := 0
	for _, d := range p.Dims {
		components += d.Size
	}
	if len(p.Upper) != dim || components != dim {
		return robustOptimum{}, fmt.Errorf("the domain has %d components but %d lower and %d upper bounds", components, dim, len(p.Upper))
	}
	for i := range dim {
		if !(p.Lower[i] <= p.Upper[i]) || math.IsInf(p.Lower[i], 0) || math.IsInf(p.Upper[i], 0) {
			return robustOptimum{}, fmt.Errorf("component %d has bounds [%v, %v], not a finite interval", i, p.Lower[i], p.Upper[i])
		}
	}
	s := &robustSearch{p: p, best: make([]float64, dim), x: make([]float64, dim), score: math.Inf(-1)}
	if err := s.grid(ctx, n); err != nil {
		return robustOptimum{}, err
	}
	if math.IsInf(s.score, -1) {
		return robustOptimum{}, errors.New("the robust value is not finite anywhere on the grid")
	}
	var err error
	if dim == 1 {
		err = s.goldenSection(ctx, n)
	} else {
		err = s.compass(ctx, n)
	}
	if err != nil {
		return robustOptimum{}, err
	}
	value := s.score
	if !p.Maximize {
		value = -value
	}
	return robustOptimum{X: s.best, Robust: value}, nil
}

// robustSearch holds the best point found so far. Scores are robust values
// signed so that larger is better; a NaN or infinite robust value scores -Inf
// so that it is never chosen.
type robustSearch struct {
	p     Problem
	best  []float64
	score float64
	x     []float64 // scratch point
}

// eval scores x and keeps it if it is the best so far.
func (s *robustSearch) eval(x []float64) float64 {
	v := s.p.Robust(x)
	if !s.p.Maximize {
		v = -v
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return math.Inf(-1)
	}
	if v > s.score {
		s.score = v
		copy(s.best, x)
	}
	return v
}

// gridPoint is the i-th of n equally spaced values of component c.
func (s *robustSearch) gridPoint(c, i, n int) float64 {
	lo, hi := s.p.Lower[c], s.p.Upper[c]
	if i == n-1 {
		return hi
	}
	return lo + (hi-lo)*float64(i)/float64(n-1)
}

func (s *robustSearch) grid(ctx context.Context, n int) error {
	rows := 1
	if len(s.x) == 2 {
		rows = n
	}
	for j := range rows {
		if err := ctx.Err(); err != nil {
			return err
		}
		if len(s.x) == 2 {
			s.x[1] = s.gridPoint(1, j, n)
		}
		for i := range n {
			s.x[0] = s.gridPoint(0, i, n)
			s.eval(s.x)
		}
	}
	return nil
}

// goldenSection refines the 1-D optimum within the grid cells either side of
// the best grid point.
func (s *robustSearch) goldenSection(ctx context.Context, n int) error {
	lo, hi := s.p.Lower[0], s.p.Upper[0]
	cell := (hi - lo) / float64(n-1)
	a, b := max(lo, s.best[0]-cell), min(hi, s.best[0]+cell)
	invPhi := (math.Sqrt(5) - 1) / 2
	x1, x2 := b-invPhi*(b-a), a+invPhi*(b-a)
	s.x[0] = x1
	f1 := s.eval(s.x)
	s.x[0] = x2
	f2 := s.eval(s.x)
	for b-a > refineTolerance*(hi-lo) {
		if err := ctx.Err(); err != nil {
			return err
		}
		if f1 >= f2 {
			b, x2, f2 = x2, x1, f1
			x1 = b - invPhi*(b-a)
			s.x[0] = x1
			f1 = s.eval(s.x)
		} else {
			a, x1, f1 = x1, x2, f2
			x2 = a + invPhi*(b-a)
			s.x[0] = x2
			f2 = s.eval(s.x)
		}
	}
	return nil
}

// compass refines the 2-D optimum by compass search: from the best point, try
// a step of the current size along ±each axis (clipped to the box) and move
// to any improvement; when none improves, halve the steps, from one grid
// cell down to refineTolerance of the box width.
func (s *robustSearch) compass(ctx context.Context, n int) error {
	var step [2]float64
	for c := range step {
		step[c] = (s.p.Upper[c] - s.p.Lower[c]) / float64(n-1)
	}
	for step[0] > refineTolerance*(s.p.Upper[0]-s.p.Lower[0]) || step[1] > refineTolerance*(s.p.Upper[1]-s.p.Lower[1]) {
		if err := ctx.Err(); err != nil {
			return err
		}
		improved := false
		for c := range 2 {
			for _, sign := range []float64{1, -1} {
				before := s.score
				copy(s.x, s.best)
				s.x[c] = min(max(s.best[c]+sign*step[c], s.p.Lower[c]), s.p.Upper[c])
				if s.eval(s.x); s.score > before {
					improved = true
				}
			}
		}
		if !improved {
			step[0] /= 2
			step[1] /= 2
		}
	}
	return nil
}
