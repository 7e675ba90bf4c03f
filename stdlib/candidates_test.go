package stdlib

import (
	"math"
	"slices"
	"testing"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
)

// candidateGen is a generator's input over components with named real
// arguments.
func candidateGen(plugin string, seed uint64, comps []registry.Component, args map[string]float64) *registry.CandidateGen {
	call := &ir.Call{Plugin: "candidates." + plugin}
	for name, v := range args {
		val := dsl.RealValue(v)
		if name == "n" {
			val = dsl.IntValue(int(v))
		}
		call.Args = append(call.Args, &ir.Arg{Name: name, Value: &ir.ConstExpr{Value: val}})
	}
	return &registry.CandidateGen{Args: registry.Args{Call: call}, Components: comps, Seed: seed}
}

func generate(t *testing.T, g *registry.CandidateGen) [][]float64 {
	t.Helper()
	p, _ := registry.ByID(g.Call.Plugin)
	pts, err := p.Emit.(registry.CandidateEmit)(g)
	if err == nil {
		err = g.Err()
	}
	if err != nil {
		t.Fatalf("%s: %v", g.Call.Plugin, err)
	}
	return pts
}

// inside reports whether p lies in the components' box, integers whole.
func inside(p []float64, comps []registry.Component) bool {
	for i, c := range comps {
		if !(p[i] >= c.Lo && p[i] <= c.Hi) || (c.Integer && p[i] != math.Trunc(p[i])) {
			return false
		}
	}
	return true
}

func TestCandidateGenerators(t *testing.T) {
	box := []registry.Component{{Lo: -1, Hi: 1}, {Lo: 0, Hi: 4}, {Lo: 0, Hi: 6, Integer: true}, {Lo: 1e-3, Hi: 1, Log: true}}
	t.Run("uniform_ball", func(t *testing.T) {
		box := box[:3]
		pts := generate(t, candidateGen("uniform_ball", 3, box, map[string]float64{"n": 500, "radius": 0.9}))
		if len(pts) != 500 {
			t.Fatalf("%d points", len(pts))
		}
		far := 0.0
		for _, p := range pts {
			if !inside(p, box) {
				t.Fatalf("%v outside the domain", p)
			}
			centre := []float64{0, 2}
			r := 0.0
			for i := range 2 {
				r += (p[i] - centre[i]) * (p[i] - centre[i])
			}
			far = max(far, math.Sqrt(r))
		}
		if far > 0.9+1e-12 || far < 0.6 {
			t.Errorf("the real components reach %g from the centre, want up to 0.9 and well spread", far)
		}
		// A ball larger than the domain: its part inside the domain.
		big := generate(t, candidateGen("uniform_ball", 3, box, map[string]float64{"n": 200, "radius": 3}))
		corner := false
		for _, p := range big {
			if !inside(p, box) {
				t.Fatalf("%v outside the domain", p)
			}
			corner = corner || math.Abs(p[0]) > 0.8 && math.Abs(p[1]-2) > 1.6
		}
		if !corner {
			t.Error("no point near a corner of the domain, which a ball of radius 3 covers")
		}
		again := generate(t, candidateGen("uniform_ball", 3, box, map[string]float64{"n": 500, "radius": 0.9}))
		other := generate(t, candidateGen("uniform_ball", 4, box, map[string]float64{"n": 500, "radius": 0.9}))
		if !slices.EqualFunc(pts, again, slices.Equal) || slices.EqualFunc(pts, other, slices.Equal) {
			t.Error("the same seed must give the same points, another seed others")
		}
	})
	t.Run("grid", func(t *testing.T) {
		pts := generate(t, candidateGen("grid", 0, box, map[string]float64{"n": 3}))
		// 3 × 3 × 3 (0, 3, 6 of the integers) × 3
		if len(pts) != 81 {
			t.Fatalf("%d points, want 81", len(pts))
		}
		want := [][]float64{{-1, 0, 0, 1e-3}, {-1, 0, 0, math.Sqrt(1e-3)}}
		for i, w := range want {
			for j := range w {
				if math.Abs(pts[i][j]-w[j]) > 1e-15 {
					t.Errorf("point %d = %v, want %v", i, pts[i], w)
				}
			}
		}
		if last := pts[80]; !slices.Equal(last, []float64{1, 4, 6, 1}) {
			t.Errorf("last point %v", last)
		}
		few := generate(t, candidateGen("grid", 0, []registry.Component{{Lo: 0, Hi: 2, Integer: true}}, map[string]float64{"n": 10}))
		if len(few) != 3 {
			t.Errorf("an integer component 0..2 gives %d values, want 3", len(few))
		}
	})
	t.Run("sobol", func(t *testing.T) {
		pts := generate(t, candidateGen("sobol", 5, box, map[string]float64{"n": 64}))
		for _, p := range pts {
			if !inside(p, box) {
				t.Fatalf("%v outside the domain", p)
			}
		}
		other := generate(t, candidateGen("sobol", 6, box, map[string]float64{"n": 64}))
		if slices.EqualFunc(pts, other, slices.Equal) {
			t.Error("another seed gave the same points")
		}
	})
}

func TestCandidateLimits(t *testing.T) {
	box := []registry.Component{{Lo: 0, Hi: 1}, {Lo: 0, Hi: 2}}
	for _, tt := range []struct {
		plugin string
		args   map[string]float64
		want   string
	}{
		{"uniform_ball", map[string]float64{"n": 5, "radius": 1e6}, "fewer than 1 in 1000 points of a ball of radius 1e+06 around the centre lie in the domain; give a smaller radius"},
		{"grid", map[string]float64{"n": 2000}, "grid gives 4000000 points of 2 components, more than the 1048576 numbers boc writes into the optimiser; ask for fewer points"},
		{"sobol", map[string]float64{"n": 1 << 20}, "sobol gives 1048576 points of 2 components, more than the 1048576 numbers boc writes into the optimiser; ask for fewer points"},
	} {
		g := candidateGen(tt.plugin, 0, box, tt.args)
		p, _ := registry.ByID(g.Call.Plugin)
		if _, err := p.Emit.(registry.CandidateEmit)(g); err == nil || err.Error() != tt.want {
			t.Errorf("%s: %v, want %q", tt.plugin, err, tt.want)
		}
	}
}
