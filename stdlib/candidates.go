package stdlib

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/bocdev/boc/runtime/design"
	"github.com/bocdev/boc/stdlib/registry"
)

// Candidate generators: a finite decision set made at compile time from the
// domain and the problem's seed (registry.CandidateEmit). A point's real
// components are placed on the domain's scale (log-scaled ones
// geometrically); integer components are rounded to whole numbers.

// maxCandidateNumbers bounds points × components: the points become
// constants in the emitted code.
const maxCandidateNumbers = 1 << 20

// candidateStream is the PCG stream of the random generators.
const candidateStream = 0xca4d_1da7e

func init() {
	n := registry.Param{Name: "n", Type: registry.IntParam, Range: atLeastOne, Doc: "number of points"}
	registry.Register(&registry.Plugin{Kind: registry.Candidates, Name: "uniform_ball",
		Doc: "n points uniformly distributed in the ball of the given radius around the centre of the domain, within the domain (the SGP-UCB paper's decision set)",
		Params: []registry.Param{n, {Name: "radius", Type: registry.RealParam, Range: positive,
			Doc: "radius in the domain's units; points of a ball larger than the domain are drawn from the part inside it"}},
		Example: "uniform_ball(n = 20, radius = 0.4)", // a radius that fits in the unit cube
		Emit:    registry.CandidateEmit(uniformBall)})
	registry.Register(&registry.Plugin{Kind: registry.Candidates, Name: "grid",
		Doc:    "the full grid of n points per component, bounds included (an integer component takes at most n of its values)",
		Params: []registry.Param{withDoc(n, "points per component")}, Emit: registry.CandidateEmit(grid)})
	registry.Register(&registry.Plugin{Kind: registry.Candidates, Name: "sobol",
		Doc:    "the first n points of a Sobol sequence scrambled by the problem's seed",
		Params: []registry.Param{n}, Emit: registry.CandidateEmit(sobolCandidates)})
}

// checkCount refuses a set of count points too large to emit.
func checkCount(g *registry.CandidateGen, count float64) error {
	if numbers := count * float64(len(g.Components)); numbers > maxCandidateNumbers {
		return fmt.Errorf("%s gives %.0f points of %d components, more than the %d numbers boc writes into the optimiser; ask for fewer points",
			strings.TrimPrefix(g.Call.Plugin, string(registry.Candidates)+"."), count, len(g.Components), maxCandidateNumbers)
	}
	return nil
}

// fromUnit places unit coordinates u on the domain's scales, in place.
func fromUnit(g *registry.CandidateGen, u []float64) []float64 {
	for i, c := range g.Components {
		x := c.Lo + u[i]*(c.Hi-c.Lo)
		if c.Log {
			x = c.Lo * math.Pow(c.Hi/c.Lo, u[i])
		}
		if c.Integer {
			x = math.Round(x)
		}
		u[i] = min(max(x, c.Lo), c.Hi)
	}
	return u
}

// maxBallDraws bounds the draws per point of uniform_ball: a ball far
// larger than the domain would otherwise keep missing it.
const maxBallDraws = 1000

// uniformBall draws n points uniformly in the part of the ball of the given
// radius around the domain's centre that lies in the domain (all of it when
// the ball fits): a direction from d normals and a distance radius·U^(1/d),
// drawn again while the point falls outside.
func uniformBall(g *registry.CandidateGen) ([][]float64, error) {
	n, radius, d := g.Int("n"), g.Real("radius"), len(g.Components)
	if err := checkCount(g, float64(n)); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(g.Seed, candidateStream))
	points := make([][]float64, 0, n)
	p := make([]float64, d)
	for draws := 0; len(points) < n; draws++ {
		if draws == maxBallDraws*n {
			return nil, fmt.Errorf("fewer than 1 in %d points of a ball of radius %g around the centre lie in the domain; give a smaller radius", maxBallDraws, radius)
		}
		norm := 0.0
		for norm == 0 {
			for i := range p {
				p[i] = rng.NormFloat64()
				norm += p[i] * p[i]
			}
		}
		r := radius * math.Pow(rng.Float64(), 1/float64(d)) / math.Sqrt(norm)
		inside := true
		for i, c := range g.Components {
			x := (c.Lo+c.Hi)/2 + r*p[i]
			if c.Integer {
				x = math.Round(x)
			}
			p[i] = x
			inside = inside && c.Lo <= x && x <= c.Hi
		}
		if inside {
			points = append(points, slices.Clone(p))
		}
	}
	return points, nil
}

// grid is the tensor grid of n values per component: evenly spaced on the
// component's scale with both bounds, or every whole number of an integer
// component with at most n of them (evenly chosen, bounds included).
func grid(g *registry.CandidateGen) ([][]float64, error) {
	n := g.Int("n")
	axes := make([][]float64, len(g.Components))
	count := 1.0
	for i, c := range g.Components {
		axes[i] = axis(c, n)
		count *= float64(len(axes[i]))
	}
	if err := checkCount(g, count); err != nil {
		return nil, err
	}
	points := make([][]float64, 0, int(count))
	index := make([]int, len(axes))
	for {
		p := make([]float64, len(axes))
		for i, k := range index {
			p[i] = axes[i][k]
		}
		points = append(points, p)
		i := len(index) - 1
		for ; i >= 0; i-- { // the last component varies fastest
			if index[i]++; index[i] < len(axes[i]) {
				break
			}
			index[i] = 0
		}
		if i < 0 {
			return points, nil
		}
	}
}

// axis is a grid's values along component c.
func axis(c registry.Component, n int) []float64 {
	if n == 1 {
		x := (c.Lo + c.Hi) / 2
		if c.Log {
			x = math.Sqrt(c.Lo * c.Hi)
		}
		if c.Integer {
			x = math.Round(x)
		}
		return []float64{x}
	}
	var out []float64
	for k := range n {
		t := float64(k) / float64(n-1)
		x := c.Lo + t*(c.Hi-c.Lo)
		if c.Log {
			x = c.Lo * math.Pow(c.Hi/c.Lo, t)
		}
		if c.Integer {
			x = math.Round(x)
			if len(out) > 0 && x == out[len(out)-1] {
				continue // fewer whole numbers than n
			}
		}
		out = append(out, x)
	}
	return out
}

// sobolCandidates are the first n points of the Sobol sequence shifted by
// the problem's seed, on the domain's scales.
func sobolCandidates(g *registry.CandidateGen) ([][]float64, error) {
	n, d := g.Int("n"), len(g.Components)
	if err := checkCount(g, float64(n)); err != nil {
		return nil, err
	}
	flat := make([]float64, n*d)
	if err := design.SobolDesign(n, d, g.Seed, flat); err != nil {
		return nil, err
	}
	points := make([][]float64, n)
	for k := range points {
		points[k] = fromUnit(g, flat[k*d:(k+1)*d:(k+1)*d])
	}
	return points, nil
}
