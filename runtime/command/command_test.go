package command

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
)

// helperEnv selects what the test binary does when Exec runs it as the
// objective command.
const helperEnv = "COMMAND_TEST_HELPER"

// execParentEnv makes the test binary a program that evaluates the command
// it names (TestExecDiesWithRun).
const execParentEnv = "COMMAND_TEST_PARENT"

// TestMain lets the test binary act as an external objective.
func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode != "" {
		os.Exit(helper(mode))
	}
	if script := os.Getenv(execParentEnv); script != "" {
		// A program evaluating a command that outlives it unless killed.
		_, err := Exec(context.Background(), []string{"sh", "-c", script}, []Dim{{Name: "x", Size: 1}}, []float64{0})
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// helper reads the point from stdin and answers according to mode.
func helper(mode string) int {
	in, _ := io.ReadAll(os.Stdin)
	switch mode {
	case "echo-length":
		// y is the length of the input, so the test sees what was sent.
		fmt.Printf(`{"y": %d, "battery": 0.5}`+"\n", len(strings.TrimSpace(string(in))))
	case "fail":
		fmt.Fprintln(os.Stderr, "sensor offline")
		return 3
	case "garbage":
		fmt.Println("y = 1")
	case "no-y":
		fmt.Println(`{"value": 1}`)
	case "with-sd":
		fmt.Println(`{"y": 2, "sd": 0.25}`)
	case "two":
		fmt.Println(`{"y": 1} {"y": 2}`)
	case "measured":
		fmt.Println(`{"y": 1.5, "sd": 0.1, "temperature": 71, "torque": -0.25}`)
	case "bad-constraint":
		fmt.Println(`{"y": 1.5, "temperature": "hot", "torque": 1e999}`)
	case "objectives":
		fmt.Println(`{"throughput": 140, "latency": 80}`)
	}
	return 0
}

func TestExec(t *testing.T) {
	dims := []Dim{{Name: "x", Size: 1}, {Name: "p", Size: 2, Vector: true}}
	x := []float64{0.5, 1, -2}
	input := `{"x":{"x":0.5,"p":[1,-2]}}`
	tests := []struct {
		mode    string
		want    float64
		wantErr string
	}{
		{mode: "echo-length", want: float64(len(input))},
		{mode: "fail", wantErr: "exit status 3; its standard error:\nsensor offline"},
		{mode: "garbage", wantErr: `want one JSON object {"y": number}`},
		{mode: "no-y", wantErr: `the output has no "y"`},
		{mode: "two", wantErr: "more than one JSON value"},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			t.Setenv(helperEnv, tt.mode)
			y, err := Exec(context.Background(), []string{os.Args[0]}, dims, x)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if y != tt.want {
				t.Errorf("y = %v, want %v (the length of %s)", y, tt.want, input)
			}
		})
	}
}

// TestExecWithSD: the sd is required, and read with the value.
func TestExecWithSD(t *testing.T) {
	dims := []Dim{{Name: "x", Size: 1}}
	tests := []struct {
		mode          string
		wantY, wantSD float64
		wantErr       string
	}{
		{mode: "with-sd", wantY: 2, wantSD: 0.25},
		{mode: "echo-length", wantErr: `the output has no "sd"`},
		{mode: "no-y", wantErr: `the output has no "y"`},
		{mode: "garbage", wantErr: `want one JSON object {"y": number, "sd": number}`},
		{mode: "fail", wantErr: "exit status 3"},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			t.Setenv(helperEnv, tt.mode)
			y, sd, err := ExecWithSD(context.Background(), []string{os.Args[0]}, dims, []float64{0.5})
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || y != tt.wantY || sd != tt.wantSD {
				t.Errorf("got y %v sd %v error %v, want %v %v", y, sd, err, tt.wantY, tt.wantSD)
			}
		})
	}
}

func TestExecErrors(t *testing.T) {
	if _, err := Exec(context.Background(), nil, nil, nil); err == nil {
		t.Error("no command: no error")
	}
	if _, err := Exec(context.Background(), []string{"boc-no-such-command"}, []Dim{{Name: "x", Size: 1}}, []float64{1}); err == nil {
		t.Error("missing command: no error")
	}
	if _, err := Exec(context.Background(), []string{os.Args[0]}, []Dim{{Name: "x", Size: 1}}, []float64{1, 2}); err == nil {
		t.Error("point of the wrong size: no error")
	}
}

// TestExecMeasuring: constraint values are read by name, and a missing or
// unreadable one is an error naming the constraint.
func TestExecMeasuring(t *testing.T) {
	dims := []Dim{{Name: "x", Size: 1}}
	names := []string{"temperature", "torque"}
	tests := []struct {
		mode    string
		withSD  bool
		names   []string
		want    []float64
		wantErr string
	}{
		{mode: "measured", withSD: true, names: names, want: []float64{71, -0.25}},
		{mode: "measured", names: names[1:], want: []float64{-0.25}},
		{mode: "with-sd", withSD: true, names: names, wantErr: `the output has no "temperature", a value the problem measures`},
		{mode: "bad-constraint", names: names[:1], wantErr: `temperature's value "hot" is not a finite number`},
		{mode: "bad-constraint", names: names[1:], wantErr: "torque's value 1e999 is not a finite number"},
		{mode: "no-y", names: names, wantErr: `the output has no "y"`},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			t.Setenv(helperEnv, tt.mode)
			values := make([]float64, len(tt.names))
			y, sd, err := ExecMeasuring(context.Background(), []string{os.Args[0]}, dims, []float64{0.5}, tt.withSD, tt.names, values)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || y != 1.5 || (tt.withSD && sd != 0.1) || !slices.Equal(values, tt.want) {
				t.Errorf("got y %v sd %v values %v error %v, want 1.5, 0.1, %v", y, sd, values, err, tt.want)
			}
		})
	}
}

// TestExecValues: several objectives are read by name, without a "y", and
// a missing one is an error naming it.
func TestExecValues(t *testing.T) {
	dims := []Dim{{Name: "x", Size: 1}}
	for _, tt := range []struct {
		mode    string
		names   []string
		want    []float64
		wantErr string
	}{
		{mode: "objectives", names: []string{"throughput", "latency"}, want: []float64{140, 80}},
		{mode: "objectives", names: []string{"throughput", "cost"}, wantErr: `the output has no "cost"`},
		{mode: "garbage", names: []string{"throughput"}, wantErr: `want one JSON object {"throughput": number, ...}`},
	} {
		t.Run(tt.mode, func(t *testing.T) {
			t.Setenv(helperEnv, tt.mode)
			values := make([]float64, len(tt.names))
			err := ExecValues(context.Background(), []string{os.Args[0]}, dims, []float64{0.5}, tt.names, values)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || !slices.Equal(values, tt.want) {
				t.Errorf("got %v, error %v; want %v", values, err, tt.want)
			}
		})
	}
}
