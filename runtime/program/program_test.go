package program

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fakeProblem has a scalar and a vector dimension; its Run records the
// options it got and reports two evaluations, with noise sds that only a
// problem whose noise is reported shows.
func fakeProblem(got *Options, runErr error) Problem {
	return Problem{
		Name: "demo", Source: "demo.bo", Budget: 10, Seed: 7,
		Dims: []Dim{{Name: "x", Size: 1}, {Name: "p", Size: 2, Vector: true}},
		Run: func(ctx context.Context, opt Options) (Result, error) {
			*got = opt
			opt.Progress(Progress{Evaluation: 1, Budget: opt.Budget, X: []float64{1, 2, 3}, Y: 5, SD: 0.5, Value: 4.5,
				BestY: 5, BestValue: 4.5, Recommendation: []float64{1, 2, 3}, RecommendationMean: 5, RecommendationValue: 4.5})
			opt.Progress(Progress{Evaluation: 2, Budget: opt.Budget, X: []float64{0.5, 0.25, 1e-7}, Y: 4, SD: 0, Value: 4,
				BestY: 4, BestValue: 4, Recommendation: []float64{1, 2, 3}, RecommendationMean: 4.8, RecommendationValue: 4.5})
			return Result{Evaluations: 2, Recommendation: []float64{1, 2, 3}, RecommendationMean: 4.8, RecommendationValue: 4.5,
				BestX: []float64{0.5, 0.25, 1e-7}, BestY: 4, BestValue: 4, Stopped: "budget"}, runErr
		},
	}
}

func TestRun(t *testing.T) {
	tests := []struct {
		name      string
		args      []string
		runErr    error
		external  bool
		reportsSD bool
		// interrupted cancels the run's context, as SIGINT does.
		interrupted bool
		wantCode    int
		wantStdout  string // exact, "" for none
		wantStderr  string // substring
		wantOpt     *Options
	}{
		{name: "json", args: []string{"run", "--json"}, wantCode: ExitOK,
			wantStdout: `{"problem":"demo","seed":7,"random_search":false,"evaluations":2,"recommendation":{"x":1,"p":[2,3]},` +
				`"recommendation_mean":4.8,"recommendation_value":4.5,"best_observed":{"x":{"x":0.5,"p":[0.25,1e-7]},"y":4,"value":4},` +
				`"stopped":"budget"}` + "\n",
			wantOpt: &Options{Seed: 7, Budget: 10}},
		{name: "trace", args: []string{"run", "--json", "--trace", "--random-search"}, wantCode: ExitOK,
			wantStdout: `{"problem":"demo","seed":7,"random_search":true,"evaluations":2,"recommendation":{"x":1,"p":[2,3]},` +
				`"recommendation_mean":4.8,"recommendation_value":4.5,"best_observed":{"x":{"x":0.5,"p":[0.25,1e-7]},"y":4,"value":4},` +
				`"stopped":"budget","trace":[` +
				`{"evaluation":1,"x":{"x":1,"p":[2,3]},"y":5,"value":4.5,"recommendation":{"x":1,"p":[2,3]},"recommendation_value":4.5,"best_observed_value":4.5},` +
				`{"evaluation":2,"x":{"x":0.5,"p":[0.25,1e-7]},"y":4,"value":4,"recommendation":{"x":1,"p":[2,3]},"recommendation_value":4.5,"best_observed_value":4}]}` + "\n",
			wantOpt: &Options{Seed: 7, Budget: 10, RandomSearch: true}},
		{name: "trace with reported sd", args: []string{"run", "--json", "--trace"}, reportsSD: true, wantCode: ExitOK,
			wantStdout: `{"problem":"demo","seed":7,"random_search":false,"evaluations":2,"recommendation":{"x":1,"p":[2,3]},` +
				`"recommendation_mean":4.8,"recommendation_value":4.5,"best_observed":{"x":{"x":0.5,"p":[0.25,1e-7]},"y":4,"value":4},` +
				`"stopped":"budget","trace":[` +
				`{"evaluation":1,"x":{"x":1,"p":[2,3]},"y":5,"sd":0.5,"value":4.5,"recommendation":{"x":1,"p":[2,3]},"recommendation_value":4.5,"best_observed_value":4.5},` +
				`{"evaluation":2,"x":{"x":0.5,"p":[0.25,1e-7]},"y":4,"sd":0,"value":4,"recommendation":{"x":1,"p":[2,3]},"recommendation_value":4.5,"best_observed_value":4}]}` + "\n"},
		{name: "trace without json", args: []string{"run", "--trace"}, wantCode: ExitUsage, wantStderr: "use it with --json"},
		{name: "flags", args: []string{"run", "--json", "--seed", "3", "--budget", "4"}, wantCode: ExitOK, wantOpt: &Options{Seed: 3, Budget: 4}},
		{name: "single dash flags", args: []string{"run", "-seed=5", "-budget=10"}, wantCode: ExitOK, wantOpt: &Options{Seed: 5, Budget: 10}},
		{name: "human", args: []string{"run"}, wantCode: ExitOK,
			wantStdout: "problem demo (minimise): 2 evaluations, stopped: budget\n" +
				"recommendation: x=1 p=[2 3]  (posterior mean 4.8, objective 4.5)\n" +
				"best observed:  x=0.5 p=[0.25 1e-07]  y=4\n",
			wantStderr: "[ 1/10] x=1 p=[2 3]  y=5 (noise-free 4.5)  best=5\n[ 2/10] x=0.5 p=[0.25 1e-07]  y=4  best=4\n"},
		{name: "budget above capacity", args: []string{"run", "--budget", "11"}, wantCode: ExitUsage, wantStderr: "--budget 11 is outside 1..10"},
		{name: "budget zero", args: []string{"run", "--budget", "0"}, wantCode: ExitUsage, wantStderr: "outside 1..10"},
		{name: "bad seed", args: []string{"run", "--seed", "-1"}, wantCode: ExitUsage, wantStderr: "invalid value"},
		{name: "unknown flag", args: []string{"run", "--fast"}, wantCode: ExitUsage, wantStderr: "flag provided but not defined: -fast"},
		{name: "stray argument", args: []string{"run", "extra"}, wantCode: ExitUsage, wantStderr: "run takes no arguments"},
		{name: "objective fails", args: []string{"run", "--json"}, runErr: errors.New("evaluation 3: boom"), wantCode: ExitFailure,
			wantStdout: `{"problem":"demo","seed":7,"random_search":false,"evaluations":2,"recommendation":{"x":1,"p":[2,3]},` +
				`"recommendation_mean":4.8,"recommendation_value":4.5,"best_observed":{"x":{"x":0.5,"p":[0.25,1e-7]},"y":4,"value":4},` +
				`"stopped":"error","error":"evaluation 3: boom"}` + "\n",
			wantStderr: "demo: evaluation 3: boom\n"},
		{name: "interrupted", args: []string{"run"}, runErr: context.Canceled, interrupted: true, wantCode: ExitFailure,
			wantStdout: "problem demo (minimise): 2 evaluations, stopped: interrupted\n" +
				"recommendation: x=1 p=[2 3]  (posterior mean 4.8, objective 4.5)\n" +
				"best observed:  x=0.5 p=[0.25 1e-07]  y=4\n",
			wantStderr: "demo: context canceled\n"},
		{name: "external", args: []string{"run"}, external: true, wantCode: ExitUsage, wantStderr: "the objective is external"},
		{name: "no command", args: nil, wantCode: ExitUsage, wantStderr: "usage: demo run"},
		{name: "unknown command", args: []string{"walk"}, wantCode: ExitUsage, wantStderr: `unknown command "walk"`},
		{name: "help", args: []string{"help"}, wantCode: ExitOK},
		{name: "run help", args: []string{"run", "-h"}, wantCode: ExitOK},
		{name: "version", args: []string{"version"}, wantCode: ExitOK},
		{name: "version with arguments", args: []string{"version", "x"}, wantCode: ExitUsage, wantStderr: "version takes no arguments"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got Options
			p := fakeProblem(&got, tt.runErr)
			if tt.external {
				p.Run = nil
			}
			p.ReportsSD = tt.reportsSD
			var stdout, stderr bytes.Buffer
			ctx, cancel := context.WithCancel(context.Background())
			if tt.interrupted {
				cancel()
			}
			code := Run(ctx, p, tt.args, &stdout, &stderr)
			cancel()
			if code != tt.wantCode {
				t.Fatalf("exit code %d, want %d; stderr:\n%s", code, tt.wantCode, stderr.String())
			}
			if tt.wantStdout != "" {
				if diff := cmp.Diff(tt.wantStdout, stdout.String()); diff != "" {
					t.Errorf("stdout (-want +got):\n%s", diff)
				}
			}
			if tt.wantCode != ExitOK && tt.runErr == nil && stdout.Len() > 0 && tt.args != nil && tt.args[0] == "run" {
				t.Errorf("a run refused wrote to stdout: %q", stdout.String())
			}
			if !strings.Contains(stderr.String(), tt.wantStderr) {
				t.Errorf("stderr %q does not contain %q", stderr.String(), tt.wantStderr)
			}
			if tt.wantOpt != nil && (got.Seed != tt.wantOpt.Seed || got.Budget != tt.wantOpt.Budget || got.RandomSearch != tt.wantOpt.RandomSearch) {
				t.Errorf("Run got seed %d budget %d random search %v, want %d %d %v", got.Seed, got.Budget, got.RandomSearch,
					tt.wantOpt.Seed, tt.wantOpt.Budget, tt.wantOpt.RandomSearch)
			}
		})
	}
}

func TestRunJSONQuiet(t *testing.T) {
	var got Options
	var stdout, stderr bytes.Buffer
	if code := Run(context.Background(), fakeProblem(&got, nil), []string{"run", "--json"}, &stdout, &stderr); code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	if stderr.Len() != 0 {
		t.Errorf("--json wrote progress to stderr: %q", stderr.String())
	}
	var v map[string]any
	if err := json.Unmarshal(stdout.Bytes(), &v); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, stdout.String())
	}
}

func TestVersionAndHelp(t *testing.T) {
	var got Options
	p := fakeProblem(&got, nil)
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"version"}, []string{"demo: generated by boc from demo.bo", "runtime: github.com/bocdev/boc", "go: go"}},
		{[]string{"help"}, []string{"usage: demo run [--json [--trace]] [--seed N] [--budget N] [--random-search]", "--seed N         random seed (default 7", "1..10 (default 10)"}},
	} {
		var stdout, stderr bytes.Buffer
		Run(context.Background(), p, tt.args, &stdout, &stderr)
		for _, w := range tt.want {
			if !strings.Contains(stdout.String(), w) {
				t.Errorf("%v: output lacks %q:\n%s", tt.args, w, stdout.String())
			}
		}
	}
}

func TestJSONEmptyAndNonFinite(t *testing.T) {
	p := Problem{Name: "demo", Dims: []Dim{{Name: "x", Size: 1}}}
	tests := []struct {
		r    Result
		want string
	}{
		{Result{Stopped: "budget"},
			`{"problem":"demo","seed":3,"random_search":false,"evaluations":0,"recommendation":null,"recommendation_mean":null,` +
				`"recommendation_value":null,"best_observed":null,"stopped":"budget"}`},
		{Result{Evaluations: 1, Recommendation: []float64{1}, RecommendationMean: math.Inf(1), RecommendationValue: math.NaN(),
			BestX: []float64{1}, BestY: math.NaN(), BestValue: math.NaN(), Stopped: "budget"},
			`{"problem":"demo","seed":3,"random_search":false,"evaluations":1,"recommendation":{"x":1},"recommendation_mean":null,` +
				`"recommendation_value":null,"best_observed":{"x":{"x":1},"y":null,"value":null},"stopped":"budget"}`},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		if err := writeJSON(&b, newResult(p, 3, false, tt.r)); err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimSpace(b.String()); got != tt.want {
			t.Errorf("got  %s\nwant %s", got, tt.want)
		}
	}
	var b bytes.Buffer
	if err := writeJSON(&b, newResult(p, 3, false, Result{Evaluations: 1, Recommendation: []float64{1, 2}, BestX: []float64{1}})); err == nil {
		t.Errorf("a point with the wrong number of components was written: %s", b.String())
	}
}

func ExampleRun() {
	p := Problem{Name: "toy", Source: "toy.bo", Budget: 3, Seed: 1, Maximize: true, Dims: []Dim{{Name: "x", Size: 1}},
		Run: func(_ context.Context, opt Options) (Result, error) {
			x := []float64{0.5}
			for i := 1; i <= opt.Budget; i++ {
				opt.Progress(Progress{Evaluation: i, Budget: opt.Budget, X: x, Y: 1, BestY: 1})
			}
			return Result{Evaluations: opt.Budget, Recommendation: x, RecommendationMean: 1, RecommendationValue: 1,
				BestX: x, BestY: 1, BestValue: 1, Stopped: "budget"}, nil
		}}
	var stderr bytes.Buffer
	Run(context.Background(), p, []string{"run", "--json", "--budget", "2"}, stdout{}, &stderr)
	// Output:
	// {"problem":"toy","seed":1,"random_search":false,"evaluations":2,"recommendation":{"x":0.5},"recommendation_mean":1,"recommendation_value":1,"best_observed":{"x":{"x":0.5},"y":1,"value":1},"stopped":"budget"}
}

// stdout writes to the example's standard output.
type stdout struct{}

func (stdout) Write(b []byte) (int, error) { return fmt.Print(string(b)) }

// TestPrintErrorOnce: an error of the optimiser's package, which already
// names the problem, is not prefixed with the name a second time.
func TestPrintErrorOnce(t *testing.T) {
	p := Problem{Name: "demo"}
	for _, tt := range []struct{ err, want string }{
		{"demo: evaluation 3: boom", "demo: evaluation 3: boom\n"},
		{"evaluation 3: boom", "demo: evaluation 3: boom\n"},
		{"demolition: boom", "demo: demolition: boom\n"},
	} {
		var b bytes.Buffer
		printError(&b, p, errors.New(tt.err))
		if b.String() != tt.want {
			t.Errorf("printError(%q) wrote %q, want %q", tt.err, b.String(), tt.want)
		}
	}
}

// TestOptimumCommand: optimum prints a finite decision set's best candidate,
// and refuses a problem without one.
func TestOptimumCommand(t *testing.T) {
	p := Problem{Name: "demo", Dims: []Dim{{Name: "x", Size: 1}, {Name: "p", Size: 2, Vector: true}}}
	var stdout, stderr bytes.Buffer
	if code := Run(context.Background(), p, []string{"optimum"}, &stdout, &stderr); code != ExitUsage ||
		!strings.Contains(stderr.String(), "optimum needs a finite decision set") {
		t.Errorf("without candidates: exit %d, %q", code, stderr.String())
	}
	p.Optimum = func() ([]float64, float64) { return []float64{1, 2, 3}, -0.5 }
	stdout.Reset()
	if code := Run(context.Background(), p, []string{"optimum", "--json"}, &stdout, &stderr); code != ExitOK ||
		stdout.String() != `{"x":{"x":1,"p":[2,3]},"value":-0.5}`+"\n" {
		t.Errorf("--json: exit %d, %q", code, stdout.String())
	}
	p.Optimum = func() ([]float64, float64) { return make([]float64, 3), math.NaN() }
	stderr.Reset()
	if code := Run(context.Background(), p, []string{"optimum"}, &stdout, &stderr); code != ExitFailure ||
		!strings.Contains(stderr.String(), "no candidate satisfies the known constraints") {
		t.Errorf("no feasible candidate: exit %d, %q", code, stderr.String())
	}
}

// TestContradictions: --on-contradiction reaches the run, a contradiction is
// printed under its evaluation, in the trace and in the summary, and the
// flag is refused when it is not continue or stop, or nothing can be
// contradicted.
func TestContradictions(t *testing.T) {
	var stopOn bool
	p := Problem{Name: "rig", Source: "rig.bo", Budget: 2, Dims: []Dim{{Name: "x", Size: 1}},
		Lower: []float64{0}, Upper: []float64{1}, Constraints: []Constraint{{Name: "heat", Limit: 1}},
		Run: func(_ context.Context, opt Options) (Result, error) {
			stopOn = opt.StopOnContradiction
			opt.Progress(Progress{Evaluation: 1, Budget: 2, X: []float64{0.5}, Recommendation: []float64{0.5},
				Safety: Safety{Constraints: []float64{1.7}, Bounds: []float64{0.9}, Phase: 2, Violations: 1,
					Contradicted: []string{"constraint heat measured 1.7 (one reading) past its limit"}}})
			return Result{Evaluations: 1, Recommendation: []float64{0.5}, BestX: []float64{0.5}, Stopped: "contradiction",
				Violations: 1, SafeSize: 3, SeedPoints: 1, Contradictions: 1}, nil
		}}
	var stdout, stderr bytes.Buffer
	if code := Run(context.Background(), p, []string{"run", "--on-contradiction", "stop"}, &stdout, &stderr); code != ExitOK || !stopOn {
		t.Fatalf("exit %d, stop %v: %s", code, stopOn, stderr.String())
	}
	for _, want := range []string{"contradiction: constraint heat measured 1.7"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("progress lacks %q:\n%s", want, stderr.String())
		}
	}
	if !strings.Contains(stdout.String(), "1 measurements contradicted the constraints' model") {
		t.Errorf("summary lacks the contradictions:\n%s", stdout.String())
	}
	stdout.Reset()
	if code := Run(context.Background(), p, []string{"run", "--json", "--trace"}, &stdout, &stderr); code != ExitOK || stopOn {
		t.Fatalf("exit %d, stop %v: %s", code, stopOn, stderr.String())
	}
	for _, want := range []string{`"contradicted":["constraint heat measured 1.7`, `"contradictions":1`, `"stopped":"contradiction"`} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("JSON lacks %s:\n%s", want, stdout.String())
		}
	}
	plain := p
	plain.Constraints = nil
	for _, tt := range []struct {
		args []string
		p    Problem
		want string
	}{
		{[]string{"run", "--on-contradiction", "halt"}, p, "want continue or stop"},
		{[]string{"run", "--on-contradiction", "stop"}, plain, "needs unknown safety constraints"},
		{[]string{"run", "--journal", "j", "--on-contradiction", "halt"}, p, "want continue or stop"},
		{[]string{"run", "--journal", "j", "--on-contradiction", "stop"}, plain, "needs unknown safety constraints"},
	} {
		stderr.Reset()
		if code := Run(context.Background(), tt.p, tt.args, &stdout, &stderr); code != ExitUsage || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("%q: exit %d, stderr %q, want usage error containing %q", tt.args, code, stderr.String(), tt.want)
		}
	}
}

// TestTellEvent: what a tell accepts and refuses before anything is
// recorded: numbers in plain decimal only, and only values, noise sds and
// constraint values that a model can hold.
func TestTellEvent(t *testing.T) {
	p := Problem{Name: "demo", ReportsSD: true, Constraints: []Constraint{{Name: "heat"}}}
	for _, tc := range []struct {
		value, sd, heat string
		want            string // "" when accepted
	}{
		{"1000", "0.1", "2", ""},
		{"-2.5", "0", "-1e3", ""},
		{"3e-4", "1.", ".5", ""},
		{"+2", "1E2", "0", ""},
		{"1_000", "0.1", "2", "--value 1_000: not a finite number (write it in decimal"},
		{"0x1p4", "0.1", "2", "--value 0x1p4: not a finite number"},
		{"Inf", "0.1", "2", "--value Inf: not a finite number"},
		{"1e999", "0.1", "2", "--value 1e999: not a finite number"},
		{"1", "1e308", "2", "--sd 1e308: want a plain number from 0 to 1e+150"},
		{"1", "-1", "2", "--sd -1: want a plain number from 0 to 1e+150"},
		{"1", "0.1", "1e200", "the value 1e+200 is too large to model"},
		{"1", "0.1", "0b101", "--constraint heat 0b101: not a finite number"},
	} {
		_, msg := tellEvent(p, tellInput{id: "1", values: []string{tc.value}, sd: tc.sd, constraints: map[string]string{"heat": tc.heat}}, flagSyntax)
		if tc.want == "" && msg != "" || !strings.Contains(msg, tc.want) {
			t.Errorf("tell --value %s --sd %s --constraint heat=%s: %q, want %q", tc.value, tc.sd, tc.heat, msg, tc.want)
		}
	}
	a, _ := tellEvent(p, tellInput{id: "1", values: []string{"1"}, sd: "0.1", constraints: map[string]string{"heat": "2"}}, flagSyntax)
	b, _ := tellEvent(p, tellInput{id: "1", values: []string{"1"}, sd: "0.2", constraints: map[string]string{"heat": "2"}}, flagSyntax)
	if got, want := describeResult(a)+" / "+describeResult(b), "the value 1 with sd 0.1 and constraints heat=2 / the value 1 with sd 0.2 and constraints heat=2"; got != want {
		t.Errorf("described as %q, want %q", got, want)
	}
}

// TestRunErrorHint: run suggests a journal after a failed evaluation (the
// generated Run marks it, EvaluationFailed), not after any other error.
func TestRunErrorHint(t *testing.T) {
	for _, tc := range []struct {
		err  error
		hint bool
	}{
		{EvaluationFailed(errors.New("p: evaluation 3 at [0.5]: boom")), true},
		{errors.New("p: acquisition search: no point it tried keeps the known constraints"), false},
	} {
		var got Options
		var stdout, stderr bytes.Buffer
		p := fakeProblem(&got, tc.err)
		p.Evaluate = func(context.Context, int, []float64) (Evaluation, error) { return Evaluation{}, nil } // a journal could run it
		if code := Run(context.Background(), p, []string{"run"}, &stdout, &stderr); code != ExitFailure {
			t.Fatalf("%v: exit %d", tc.err, code)
		}
		if has := strings.Contains(stderr.String(), "hint: with --journal J"); has != tc.hint {
			t.Errorf("%v: hint printed %v, want %v:\n%s", tc.err, has, tc.hint, stderr.String())
		}
	}
}
