package program

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/bocdev/boc/runtime/design"
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

// Larger domains are searched from Sobol starting points, startsPerComponent
// per component by default, of which the refinedStarts best are refined. In
// 4-D that is 256 starts plus 150–350 robust values per refinement: about
// 1,700 to 3,000 in all on a quadratic and on Michalewicz's function, a few
// seconds with a Monte-Carlo robust value of thousands of samples.
const (
	startsPerComponent = 64
	refinedStarts      = 8
)

// refineTolerance is how finely robust-optimum's local refinement locates the
// optimum, as a fraction of the box's width in each dimension.
const refineTolerance = 1e-7

// robustOptimum is the result of robust-optimum, also its JSON form.
// Exhaustive says the search covered the domain with a grid (1 or 2
// components); otherwise X is the best point a multi-start local search
// found, not guaranteed to be the optimum.
type robustOptimum struct {
	X          []float64 `json:"x"`
	Robust     float64   `json:"robust"`
	Exhaustive bool      `json:"exhaustive"`
}

func robustOptimumCommand(ctx context.Context, p Problem, args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet(p.Name+" robust-optimum", flag.ContinueOnError)
	flags.SetOutput(io.Discard)
	asJSON := flags.Bool("json", false, "")
	grid := flags.Int("grid", 0, "")
	starts := flags.Int("starts", 0, "")
	noiseScale := flags.Float64("input-noise-scale", 1, "")
	if code, ok := parseFlags(p, flags, "robust-optimum", args, stdout, stderr); !ok {
		return code
	}
	if p.Robust == nil {
		fmt.Fprintf(stderr, "%s: robust-optimum needs input noise and an expression objective; "+
			"this problem has no robust value\n", p.Name)
		return ExitUsage
	}
	if msg := checkNoiseScale(p, *noiseScale); msg != "" {
		fmt.Fprintf(stderr, "%s: %s\n", p.Name, msg)
		return ExitUsage
	}
	n := 0
	for _, d := range p.Dims {
		n += d.Size
	}
	size, msg := robustSearchSize(n, *grid, *starts)
	if msg != "" {
		fmt.Fprintf(stderr, "%s: %s\n", p.Name, msg)
		return ExitUsage
	}
	opt, err := findRobustOptimum(ctx, p, p.robustWith(*noiseScale), size)
	if err != nil {
		printError(stderr, p, err)
		return ExitFailure
	}
	if *asJSON {
		b, err := json.Marshal(opt)
		if err != nil { // a finite optimum always marshals
			printError(stderr, p, err)
			return ExitFailure
		}
		fmt.Fprintf(stdout, "%s\n", b)
		return ExitOK
	}
	goal := "minimum"
	if p.Maximize {
		goal = "maximum"
	}
	caveat := ""
	if !opt.Exhaustive {
		caveat = "  (best found by a multi-start local search, not guaranteed)"
	}
	fmt.Fprintf(stdout, "robust %s of %s: %s  robust value %s%s\n", goal, p.Name, formatPoint(p.Dims, opt.X), formatValue(opt.Robust), caveat)
	return ExitOK
}

// robustSearchSize checks robust-optimum's --grid and --starts (0: not
// given) for a domain of n components and returns findRobustOptimum's size
// argument, or a message saying what is wrong.
func robustSearchSize(n, grid, starts int) (int, string) {
	switch {
	case n < 1:
		return 0, "robust-optimum needs a domain with at least one component"
	case n <= 2 && starts != 0:
		return 0, fmt.Sprintf("--starts applies to domains of more than 2 components; this one has %d (use --grid)", n)
	case n > 2 && grid != 0:
		return 0, fmt.Sprintf("--grid applies to domains of 1 or 2 components; this one has %d (use --starts)", n)
	case n > 2 && starts == 0:
		return startsPerComponent * n, ""
	case n > 2 && starts < 1:
		return 0, fmt.Sprintf("--starts %d: want at least 1 starting point", starts)
	case n > 2:
		return starts, ""
	case grid == 0 && n == 1:
		return defaultGrid1D, ""
	case grid == 0:
		return defaultGrid2D, ""
	case grid < 2:
		return 0, fmt.Sprintf("--grid %d: want at least 2 points per dimension", grid)
	}
	return grid, ""
}

// findRobustOptimum searches the box [Lower, Upper] for the best robust
// value. With 1 or 2 components it takes the best of a grid of size points
// per dimension and refines it locally (golden-section search in 1-D, a
// shrinking compass search in 2-D) to refineTolerance of the box width; the
// refinement assumes the robust value is unimodal within a grid cell of the
// best grid point, which the smoothing by the input noise makes likely. With
// more components a grid is too dear, and it evaluates size Sobol points and
// refines the refinedStarts best by the same compass search: the result is
// the best found, not guaranteed to be the optimum.
func findRobustOptimum(ctx context.Context, p Problem, robust func([]float64) float64, size int) (robustOptimum, error) {
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
	s := &robustSearch{p: p, robust: robust, best: make([]float64, dim), x: make([]float64, dim), score: math.Inf(-1)}
	var err error
	switch dim {
	case 1, 2:
		err = s.gridSearch(ctx, size)
	default:
		err = s.multiStart(ctx, size)
	}
	if err != nil {
		return robustOptimum{}, err
	}
	value := s.score
	if !p.Maximize {
		value = -value
	}
	return robustOptimum{X: s.best, Robust: value, Exhaustive: dim <= 2}, nil
}

// robustSearch holds the best point found so far. Scores are robust values
// signed so that larger is better; a NaN or infinite robust value scores -Inf
// so that it is never chosen.
type robustSearch struct {
	p      Problem
	robust func([]float64) float64 // the robust value to optimise
	best   []float64
	score  float64
	x      []float64 // scratch point
}

// eval scores x and keeps it if it is the best so far.
func (s *robustSearch) eval(x []float64) float64 {
	v := s.robust(x)
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

// gridSearch searches a 1- or 2-component box: a grid of n points per
// dimension, then a local refinement of its best point.
func (s *robustSearch) gridSearch(ctx context.Context, n int) error {
	if err := s.grid(ctx, n); err != nil {
		return err
	}
	if math.IsInf(s.score, -1) {
		return errors.New("the robust value is not finite anywhere on the grid")
	}
	if len(s.x) == 1 {
		return s.goldenSection(ctx, n)
	}
	step := make([]float64, 2)
	for c := range step {
		step[c] = (s.p.Upper[c] - s.p.Lower[c]) / float64(n-1)
	}
	return s.compass(ctx, slices.Clone(s.best), step, s.score)
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

// multiStart searches a box of any number of components: it scores the
// first starts points of the Sobol sequence scaled to the box and refines
// the refinedStarts best by compass search, from steps of the sequence's
// typical spacing, width·starts^(−1/d).
func (s *robustSearch) multiStart(ctx context.Context, starts int) error {
	dim := len(s.x)
	sobol, err := design.NewSobol(dim, 0)
	if err != nil {
		return err
	}
	points := make([]float64, starts*dim)
	scores := make([]float64, starts)
	for i := range starts {
		if err := ctx.Err(); err != nil {
			return err
		}
		x := points[i*dim : (i+1)*dim]
		sobol.Next(x)
		for c, u := range x {
			x[c] = s.p.Lower[c] + (s.p.Upper[c]-s.p.Lower[c])*u
		}
		scores[i] = s.eval(x)
	}
	if math.IsInf(s.score, -1) {
		return fmt.Errorf("the robust value is not finite at any of the %d starting points", starts)
	}
	order := make([]int, starts)
	for i := range order {
		order[i] = i
	}
	// Best first; a stable sort keeps ties in sequence order, deterministically.
	slices.SortStableFunc(order, func(i, j int) int { return cmp.Compare(scores[j], scores[i]) })
	spacing := math.Pow(float64(starts), -1/float64(dim))
	step := make([]float64, dim)
	for _, i := range order[:min(refinedStarts, starts)] {
		if math.IsInf(scores[i], -1) {
			break // the rest have no finite robust value to refine from
		}
		for c := range step {
			step[c] = (s.p.Upper[c] - s.p.Lower[c]) * spacing
		}
		if err := s.compass(ctx, points[i*dim:(i+1)*dim], step, scores[i]); err != nil {
			return err
		}
	}
	return nil
}

// compass refines a local optimum by compass search from center, whose score
// is score: try a step of the current size along ±each axis (clipped to the
// box) and move to any improvement; when none improves, halve the steps,
// down to refineTolerance of the box width. It overwrites center and step;
// eval keeps the best point seen.
func (s *robustSearch) compass(ctx context.Context, center, step []float64, score float64) error {
	for s.coarse(step) {
		if err := ctx.Err(); err != nil {
			return err
		}
		improved := false
		for c := range center {
			for _, sign := range [2]float64{1, -1} {
				copy(s.x, center)
				s.x[c] = min(max(center[c]+sign*step[c], s.p.Lower[c]), s.p.Upper[c])
				if v := s.eval(s.x); v > score {
					score, improved = v, true
					copy(center, s.x)
				}
			}
		}
		if !improved {
			for c := range step {
				step[c] /= 2
			}
		}
	}
	return nil
}

// coarse says whether a compass step is still above refineTolerance of the
// box width in some component.
func (s *robustSearch) coarse(step []float64) bool {
	for c, h := range step {
		if h > refineTolerance*(s.p.Upper[c]-s.p.Lower[c]) {
			return true
		}
	}
	return false
}
