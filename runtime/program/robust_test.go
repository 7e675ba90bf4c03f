package program

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// asymmetricPeak is the robust value of f(x) = x·exp(−x²) under uniform
// input noise ε ~ U(−δ, δ): the mean of f over [x − δ, x + δ], with the
// antiderivative −exp(−x²)/2.
func asymmetricPeak(delta float64) func(x []float64) float64 {
	return func(x []float64) float64 {
		return (math.Exp(-(x[0]-delta)*(x[0]-delta)) - math.Exp(-(x[0]+delta)*(x[0]+delta))) / (4 * delta)
	}
}

// asymmetricPeakArgmax solves the robust value's stationarity condition
// (x−δ)·exp(−(x−δ)²) = (x+δ)·exp(−(x+δ)²) by bisection on [0, 2], where the
// left side minus the right changes sign once.
func asymmetricPeakArgmax(delta float64) float64 {
	g := func(x float64) float64 {
		return (x-delta)*math.Exp(-(x-delta)*(x-delta)) - (x+delta)*math.Exp(-(x+delta)*(x+delta))
	}
	a, b := 0.0, 2.0
	for range 200 {
		m := (a + b) / 2
		if (g(m) < 0) == (g(a) < 0) {
			a = m
		} else {
			b = m
		}
	}
	return (a + b) / 2
}

// concaveQuadratic is 1 − (x−c)ᵀA(x−c) for the tridiagonal positive definite
// A with 2 on the diagonal and 0.5 beside it: maximum 1 at c, and coupled
// components, so that a search along the axes has to zigzag.
func concaveQuadratic(c []float64) func(x []float64) float64 {
	return func(x []float64) float64 {
		q := 0.0
		for i := range c {
			u := x[i] - c[i]
			q += 2 * u * u
			if i > 0 {
				q += u * (x[i-1] - c[i-1]) // twice 0.5·u_i·u_{i−1}
			}
		}
		return 1 - q
	}
}

// twoBumps is the robust value Σ g(x_i) of a separable function with two
// peaks per component, g(t) = exp(−((t−0.2)/0.12)²) + 0.7·exp(−((t−0.75)/0.12)²):
// 2^d local maxima, of which the one with every component near 0.2 is the
// best. twoBumpsArgmax is that component, by bisection on g′ over
// [0.1, 0.4], where g′ changes sign once.
func twoBumps(x []float64) float64 {
	sum := 0.0
	for _, t := range x {
		a, b := (t-0.2)/0.12, (t-0.75)/0.12
		sum += math.Exp(-a*a) + 0.7*math.Exp(-b*b)
	}
	return sum
}

func twoBumpsArgmax() float64 {
	slope := func(t float64) float64 {
		a, b := (t-0.2)/0.12, (t-0.75)/0.12
		return -2*a/0.12*math.Exp(-a*a) - 1.4*b/0.12*math.Exp(-b*b)
	}
	lo, hi := 0.1, 0.4
	for range 200 {
		m := (lo + hi) / 2
		if slope(m) > 0 {
			lo = m
		} else {
			hi = m
		}
	}
	return (lo + hi) / 2
}

func TestFindRobustOptimum(t *testing.T) {
	const c1, c2 = 0.3123456789, -0.4321987
	scalar := []Dim{{Name: "x", Size: 1}}
	plane := []Dim{{Name: "x", Size: 1}, {Name: "y", Size: 1}}
	peak := asymmetricPeakArgmax(0.5)
	c3 := []float64{c1, c2, 0.1234567}
	c4 := []float64{c1, c2, 0.1234567, 0.8765432}
	bump := twoBumpsArgmax()
	tests := []struct {
		name         string
		p            Problem
		grid         int
		wantX        []float64
		wantRobust   float64
		tolX, tolVal float64
	}{
		{name: "1-D maximum: f = −(x−c)², ε ~ N(0, 0.1²)", p: Problem{Dims: scalar, Lower: []float64{0}, Upper: []float64{1}, Maximize: true,
			Robust: scaleFree(func(x []float64) float64 { return -(x[0]-c1)*(x[0]-c1) - 0.01 })},
			grid: defaultGrid1D, wantX: []float64{c1}, wantRobust: -0.01, tolX: 1e-6, tolVal: 1e-12},
		{name: "1-D asymmetric peak under uniform noise, coarse grid", p: Problem{Dims: scalar, Lower: []float64{-1}, Upper: []float64{2}, Maximize: true,
			Robust: scaleFree(asymmetricPeak(0.5))},
			grid: 7, wantX: []float64{peak}, wantRobust: asymmetricPeak(0.5)([]float64{peak}), tolX: 1e-6, tolVal: 1e-12},
		{name: "1-D minimum at the upper bound", p: Problem{Dims: scalar, Lower: []float64{-2}, Upper: []float64{3},
			Robust: scaleFree(func(x []float64) float64 { return math.Exp(-x[0]) })},
			grid: defaultGrid1D, wantX: []float64{3}, wantRobust: math.Exp(-3), tolX: 0, tolVal: 0},
		{name: "1-D with NaN where the robust value is unknown", p: Problem{Dims: scalar, Lower: []float64{0}, Upper: []float64{1},
			Robust: scaleFree(func(x []float64) float64 {
				if x[0] < 0.5 {
					return math.NaN()
				}
				return (x[0] - 0.7) * (x[0] - 0.7)
			})},
			grid: 11, wantX: []float64{0.7}, wantRobust: 0, tolX: 1e-6, tolVal: 1e-12},
		{name: "2-D maximum of a tilted quadratic", p: Problem{Dims: plane, Lower: []float64{-1, -1}, Upper: []float64{1, 2}, Maximize: true,
			Robust: scaleFree(func(x []float64) float64 {
				u, v := x[0]-c1, x[1]-c2
				return 1 - (u*u + 2*v*v + u*v)
			})},
			grid: defaultGrid2D, wantX: []float64{c1, c2}, wantRobust: 1, tolX: 1e-6, tolVal: 1e-11},
		{name: "2-D minimum on an edge", p: Problem{Dims: []Dim{{Name: "p", Size: 2, Vector: true}}, Lower: []float64{0, 0}, Upper: []float64{1, 1},
			Robust: scaleFree(func(x []float64) float64 { return (x[0]-c1)*(x[0]-c1) + x[1] })},
			grid: 13, wantX: []float64{c1, 0}, wantRobust: 0, tolX: 1e-6, tolVal: 1e-11},
		{name: "3-D maximum of a coupled concave quadratic", p: Problem{Dims: []Dim{{Name: "p", Size: 3, Vector: true}},
			Lower: []float64{-1, -1, -1}, Upper: []float64{1, 1, 1}, Maximize: true, Robust: scaleFree(concaveQuadratic(c3))},
			grid: startsPerComponent * 3, wantX: c3, wantRobust: 1, tolX: 1e-5, tolVal: 1e-10},
		{name: "4-D maximum of a coupled concave quadratic", p: Problem{Dims: []Dim{{Name: "p", Size: 2, Vector: true}, {Name: "q", Size: 2, Vector: true}},
			Lower: []float64{-1, -1, -1, 0}, Upper: []float64{1, 1, 1, 2}, Maximize: true, Robust: scaleFree(concaveQuadratic(c4))},
			grid: startsPerComponent * 4, wantX: c4, wantRobust: 1, tolX: 1e-5, tolVal: 1e-10},
		{name: "4-D minimum on a corner and an edge", p: Problem{Dims: []Dim{{Name: "p", Size: 4, Vector: true}},
			Lower: []float64{0, 0, 0, 0}, Upper: []float64{1, 2, 1, 1},
			Robust: scaleFree(func(x []float64) float64 { return -x[0] + 2*x[1] + (x[2]-c1)*(x[2]-c1) + x[3] })},
			grid: startsPerComponent * 4, wantX: []float64{1, 0, c1, 0}, wantRobust: -1, tolX: 1e-5, tolVal: 1e-10},
		{name: "4-D maximum among 16 local ones", p: Problem{Dims: []Dim{{Name: "p", Size: 4, Vector: true}},
			Lower: []float64{0, 0, 0, 0}, Upper: []float64{1, 1, 1, 1}, Maximize: true, Robust: scaleFree(twoBumps)},
			grid: startsPerComponent * 4, wantX: []float64{bump, bump, bump, bump}, wantRobust: twoBumps([]float64{bump, bump, bump, bump}), tolX: 1e-5, tolVal: 1e-10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := findRobustOptimum(context.Background(), tt.p, tt.p.robustWith(1), tt.grid)
			if err != nil {
				t.Fatal(err)
			}
			for i, w := range tt.wantX {
				if math.Abs(got.X[i]-w) > tt.tolX {
					t.Errorf("x = %v, want %v ± %g", got.X, tt.wantX, tt.tolX)
				}
			}
			if math.Abs(got.Robust-tt.wantRobust) > tt.tolVal {
				t.Errorf("robust value %.15g, want %.15g ± %g", got.Robust, tt.wantRobust, tt.tolVal)
			}
			if want := len(tt.wantX) <= 2; got.Exhaustive != want {
				t.Errorf("exhaustive %v, want %v", got.Exhaustive, want)
			}
		})
	}
	if math.Abs(peak-1/math.Sqrt2) < 0.05 {
		t.Errorf("the robust argmax %v is too close to the nominal one 1/√2 to test anything", peak)
	}
}

func TestFindRobustOptimumErrors(t *testing.T) {
	scalar := []Dim{{Name: "x", Size: 1}}
	nan := func([]float64) float64 { return math.NaN() }
	tests := []struct {
		name string
		p    Problem
		want string
	}{
		{"NaN everywhere", Problem{Dims: scalar, Lower: []float64{0}, Upper: []float64{1}, Robust: scaleFree(nan)}, "not finite anywhere"},
		{"reversed bounds", Problem{Dims: scalar, Lower: []float64{1}, Upper: []float64{0}, Robust: scaleFree(nan)}, "not a finite interval"},
		{"missing upper bound", Problem{Dims: scalar, Lower: []float64{0}, Robust: scaleFree(nan)}, "1 components but 1 lower and 0 upper"},
		{"bounds of the wrong size", Problem{Dims: []Dim{{Name: "p", Size: 2, Vector: true}}, Lower: []float64{0}, Upper: []float64{1}, Robust: scaleFree(nan)}, "2 components"},
	}
	for _, tt := range tests {
		if _, err := findRobustOptimum(context.Background(), tt.p, tt.p.robustWith(1), 5); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.want)
		}
	}
}

func TestRobustOptimumCommand(t *testing.T) {
	calls := 0
	oneD := Problem{Name: "demo", Source: "demo.bo", Budget: 5, Dims: []Dim{{Name: "x", Size: 1}}, Lower: []float64{0}, Upper: []float64{1},
		Maximize: true, Robust: scaleFree(func(x []float64) float64 { calls++; return 1 - (x[0]-0.25)*(x[0]-0.25) })}
	threeD := fakeProblem(new(Options), nil)
	threeD.Lower, threeD.Upper, threeD.Maximize = []float64{0, 0, 0}, []float64{1, 1, 1}, true
	threeD.Robust = scaleFree(func(x []float64) float64 {
		calls++
		return 1 - (x[0]-0.25)*(x[0]-0.25) - (x[1]-0.5)*(x[1]-0.5) - (x[2]-0.75)*(x[2]-0.75)
	})
	tests := []struct {
		name       string
		p          Problem
		args       []string
		wantCode   int
		wantStdout string // substring
		wantStderr string // substring
		wantCalls  int    // 0: not checked
	}{
		{name: "json", p: oneD, args: []string{"--json"}, wantCode: ExitOK, wantStdout: `{"x":[0.25],"robust":1,"exhaustive":true}`},
		{name: "human", p: oneD, args: nil, wantCode: ExitOK, wantStdout: "robust maximum of demo: x=0.25  robust value 1\n"},
		{name: "grid", p: oneD, args: []string{"--grid", "5"}, wantCode: ExitOK, wantStdout: "x=0.25 ", wantCalls: 5 + 2 + 33},
		{name: "grid too small", p: oneD, args: []string{"--grid", "1"}, wantCode: ExitUsage, wantStderr: "--grid 1: want at least 2"},
		{name: "stray argument", p: oneD, args: []string{"x"}, wantCode: ExitUsage, wantStderr: "takes no arguments"},
		{name: "unknown flag", p: oneD, args: []string{"--fast"}, wantCode: ExitUsage, wantStderr: "not defined: -fast"},
		{name: "no robust value", p: fakeProblem(new(Options), nil), args: []string{"--json"}, wantCode: ExitUsage, wantStderr: "has no robust value"},
		{name: "three components", p: threeD, args: []string{"--json"}, wantCode: ExitOK, wantStdout: `,"exhaustive":false}`},
		{name: "three components, human", p: threeD, args: nil, wantCode: ExitOK,
			wantStdout: "robust maximum of demo: x=0.25 p=[0.5 0.75]  robust value 1  (best found by a multi-start local search, not guaranteed)\n"},
		{name: "starts", p: threeD, args: []string{"--starts", "1"}, wantCode: ExitOK, wantStdout: "x=0.25 p=[0.5 0.75] "},
		{name: "too few starts", p: threeD, args: []string{"--starts", "-1"}, wantCode: ExitUsage, wantStderr: "--starts -1: want at least 1"},
		{name: "grid of three components", p: threeD, args: []string{"--grid", "5"}, wantCode: ExitUsage, wantStderr: "this one has 3 (use --starts)"},
		{name: "starts of one component", p: oneD, args: []string{"--starts", "5"}, wantCode: ExitUsage, wantStderr: "this one has 1 (use --grid)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls = 0
			var stdout, stderr bytes.Buffer
			code := Run(context.Background(), tt.p, append([]string{"robust-optimum"}, tt.args...), &stdout, &stderr)
			if code != tt.wantCode {
				t.Fatalf("exit code %d, want %d; stderr: %s", code, tt.wantCode, stderr.String())
			}
			if !strings.Contains(stdout.String(), tt.wantStdout) || !strings.Contains(stderr.String(), tt.wantStderr) {
				t.Errorf("stdout %q, stderr %q; want them to contain %q and %q", stdout.String(), stderr.String(), tt.wantStdout, tt.wantStderr)
			}
			if tt.wantCalls != 0 && calls != tt.wantCalls {
				t.Errorf("%d robust values computed, want %d", calls, tt.wantCalls)
			}
		})
	}
}

// robustProblem reports three evaluations whose recommendation changes once,
// for a problem whose robust value is sum(x) (or NaN when nanRobust).
func robustProblem(calls *int, nanRobust bool) Problem {
	p := Problem{Name: "demo", Source: "demo.bo", Budget: 5, Seed: 7, Dims: []Dim{{Name: "x", Size: 1}},
		Lower: []float64{0}, Upper: []float64{4},
		Robust: scaleFree(func(x []float64) float64 {
			*calls++
			if nanRobust {
				return math.NaN()
			}
			return x[0] + 0.5
		}),
		Run: func(_ context.Context, opt Options) (Result, error) {
			for i, rec := range []float64{1, 1, 2} {
				opt.Progress(Progress{Evaluation: i + 1, Budget: opt.Budget, X: []float64{float64(i)}, Y: 1, Value: 1, BestY: 1, BestValue: 1,
					Recommendation: []float64{rec}, RecommendationMean: 1, RecommendationValue: 1})
			}
			return Result{Evaluations: 3, Recommendation: []float64{2}, RecommendationMean: 1, RecommendationValue: 1,
				BestX: []float64{0}, BestY: 1, BestValue: 1, Stopped: "budget"}, nil
		},
	}
	return p
}

// TestRunRecommendationRobust: the robust value of the recommendation is in
// the JSON result and trace, computed once per distinct recommendation, null
// when NaN; the human summary shows it. The trace has every evaluated
// point's robust value too.
func TestRunRecommendationRobust(t *testing.T) {
	tests := []struct {
		name      string
		args      []string
		nan       bool
		wantCalls int
		want      []string // substrings of stdout
	}{
		{name: "json", args: []string{"run", "--json"}, wantCalls: 1,
			want: []string{`"recommendation_value":1,"recommendation_robust":2.5,"best_observed"`}},
		// Two distinct recommendations and three evaluated points.
		{name: "trace", args: []string{"run", "--json", "--trace"}, wantCalls: 5,
			want: []string{`"recommendation_robust":2.5,"best_observed"`,
				`{"evaluation":1,"x":{"x":0},"y":1,"value":1,"robust":0.5,"recommendation":{"x":1},"recommendation_value":1,"recommendation_robust":1.5,"best_observed_value":1}`,
				`{"evaluation":2,"x":{"x":1},"y":1,"value":1,"robust":1.5,"recommendation":{"x":1},"recommendation_value":1,"recommendation_robust":1.5,"best_observed_value":1}`,
				`{"evaluation":3,"x":{"x":2},"y":1,"value":1,"robust":2.5,"recommendation":{"x":2},"recommendation_value":1,"recommendation_robust":2.5,"best_observed_value":1}`}},
		{name: "NaN is null", args: []string{"run", "--json", "--trace"}, nan: true, wantCalls: 5,
			want: []string{`"recommendation_robust":null,"best_observed"`, `"value":1,"robust":null,"recommendation"`,
				`"recommendation_value":1,"recommendation_robust":null,"best_observed_value":1}`}},
		{name: "human", args: []string{"run"}, wantCalls: 1,
			want: []string{"recommendation: x=2  (posterior mean 1, objective 1, robust value 2.5)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := 0
			var stdout, stderr bytes.Buffer
			if code := Run(context.Background(), robustProblem(&calls, tt.nan), tt.args, &stdout, &stderr); code != ExitOK {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			for _, w := range tt.want {
				if !strings.Contains(stdout.String(), w) {
					t.Errorf("stdout lacks %s:\n%s", w, stdout.String())
				}
			}
			if calls != tt.wantCalls {
				t.Errorf("%d robust values computed, want %d (one per distinct recommendation, and with --trace one per evaluated point)", calls, tt.wantCalls)
			}
			if strings.Contains(tt.args[len(tt.args)-1], "json") {
				var v map[string]any
				if err := json.Unmarshal(stdout.Bytes(), &v); err != nil {
					t.Errorf("stdout is not JSON: %v", err)
				}
			}
		})
	}
	// Before the first evaluation the robust value is null, not computed.
	calls := 0
	var b bytes.Buffer
	if err := writeJSON(&b, newResult(robustProblem(&calls, false), 1, false, Result{Stopped: "budget"})); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"recommendation_robust":null`) || calls != 0 {
		t.Errorf("no evaluations: %s (%d robust values computed)", b.String(), calls)
	}
}

// scaleFree adapts a robust value that ignores the noise scale to
// Problem.Robust.
func scaleFree(f func([]float64) float64) func([]float64, float64) float64 {
	return func(x []float64, _ float64) float64 { return f(x) }
}

// TestInputNoiseScale: --input-noise-scale reaches the run and the robust
// values, and is refused when it is not positive or nothing simulates noise.
func TestInputNoiseScale(t *testing.T) {
	var gotScale float64
	p := Problem{Name: "demo", Source: "demo.bo", Budget: 2, Dims: []Dim{{Name: "x", Size: 1}},
		Lower: []float64{0}, Upper: []float64{1}, Maximize: true,
		Robust: func(x []float64, scale float64) float64 { return -scale * (x[0] - 0.5) * (x[0] - 0.5) },
		Run: func(_ context.Context, opt Options) (Result, error) {
			gotScale = opt.InputNoiseScale
			return Result{Evaluations: 1, Recommendation: []float64{0.25}, BestX: []float64{0.25}, Stopped: "budget"}, nil
		}}
	var stdout, stderr bytes.Buffer
	if code := Run(context.Background(), p, []string{"run", "--json", "--input-noise-scale", "2"}, &stdout, &stderr); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if gotScale != 2 || !strings.Contains(stdout.String(), `"recommendation_robust":-0.125`) {
		t.Errorf("scale %v reached the run; output %s", gotScale, stdout.String())
	}
	for _, tt := range []struct {
		args []string
		p    Problem
		want string
	}{
		{[]string{"run", "--input-noise-scale", "0"}, p, "must be a positive number"},
		{[]string{"robust-optimum", "--input-noise-scale", "-1"}, p, "must be a positive number"},
		{[]string{"run", "--input-noise-scale", "2"}, Problem{Name: "demo", Budget: 2, Dims: p.Dims, Run: p.Run}, "needs input noise"},
	} {
		stderr.Reset()
		if code := Run(context.Background(), tt.p, tt.args, &stdout, &stderr); code != ExitUsage || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("%q: exit %d, stderr %q, want usage error containing %q", tt.args, code, stderr.String(), tt.want)
		}
	}
}

// TestConstraintNoiseScale: --constraint-noise-scale reaches the run, and is
// refused when it is not positive or no constraint's noise is simulated.
func TestConstraintNoiseScale(t *testing.T) {
	var gotScale float64
	p := Problem{Name: "demo", Source: "demo.bo", Budget: 2, Dims: []Dim{{Name: "x", Size: 1}},
		Lower: []float64{0}, Upper: []float64{1}, SimulatesConstraintNoise: true,
		Run: func(_ context.Context, opt Options) (Result, error) {
			gotScale = opt.ConstraintNoiseScale
			return Result{Evaluations: 1, Recommendation: []float64{0.25}, BestX: []float64{0.25}, Stopped: "budget"}, nil
		}}
	var stdout, stderr bytes.Buffer
	if code := Run(context.Background(), p, []string{"run", "--json", "--constraint-noise-scale", "10"}, &stdout, &stderr); code != ExitOK || gotScale != 10 {
		t.Fatalf("exit %d, scale %v reached the run: %s", code, gotScale, stderr.String())
	}
	quiet := p
	quiet.SimulatesConstraintNoise = false
	for _, tt := range []struct {
		args []string
		p    Problem
		want string
	}{
		{[]string{"run", "--constraint-noise-scale", "-2"}, p, "must be a positive number"},
		{[]string{"run", "--constraint-noise-scale", "2"}, quiet, "needs a simulated constraint"},
		{[]string{"run", "--journal", "j", "--constraint-noise-scale", "2"}, p, "run --journal takes"},
	} {
		stderr.Reset()
		if code := Run(context.Background(), tt.p, tt.args, &stdout, &stderr); code != ExitUsage || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("%q: exit %d, stderr %q, want usage error containing %q", tt.args, code, stderr.String(), tt.want)
		}
	}
}
