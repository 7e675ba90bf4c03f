// Package command evaluates an objective by running an external command: the
// point goes to its standard input as {"x": {...}}, one JSON object comes back
// on its standard output. The command runs in a process group of its own,
// which is killed when it exits (what it left behind) or is cancelled, and on
// Linux it dies with the program that started it, kill -9 included, so that
// an evaluation never outlives its run. ProcessAlive and KillProcessGroup let
// a run that takes over a dead run's trial make sure that run's evaluation is
// gone first.
package command

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"
)

// maxQuotedStderr bounds how much of a failing command's standard error an
// error message quotes.
const maxQuotedStderr = 2000

// Exec evaluates an objective by running a command (argv[0] is looked up in
// PATH, and runs in the current directory). It writes {"x": {...}} to the
// command's standard input, the point x named by dims as in the --json
// output, and reads one JSON object with a numeric "y" from its standard
// output; other keys (such as constraint values) are ignored. A non-zero
// exit status, output that is not such an object, or a missing "y" is an
// error that quotes the command's standard error. Cancelling ctx kills the
// command and every process it started (its process group, on Unix).
func Exec(ctx context.Context, argv []string, dims []Dim, x []float64) (float64, error) {
	y, _, err := execCommand(ctx, argv, dims, x, true, false, nil, nil)
	return y, err
}

// ExecWithSD is Exec for an objective whose observation noise is reported:
// the command answers {"y": value, "sd": its noise standard deviation}, and a
// missing "sd" is an error too. Whether sd is finite and non-negative is
// for the optimiser to check.
func ExecWithSD(ctx context.Context, argv []string, dims []Dim, x []float64) (y, sd float64, err error) {
	return execCommand(ctx, argv, dims, x, true, true, nil, nil)
}

// ExecMeasuring is Exec, or ExecWithSD when withSD, for an objective whose
// command also measures unknown safety constraints: it answers each under
// its name ({"y": 1.2, "temperature": 71}), and values[k] receives the value
// of names[k]. A missing, non-numeric or non-finite constraint value is an
// error that names the constraint.
func ExecMeasuring(ctx context.Context, argv []string, dims []Dim, x []float64, withSD bool, names []string, values []float64) (y, sd float64, err error) {
	return execCommand(ctx, argv, dims, x, true, withSD, names, values)
}

// ExecValues evaluates several objectives, and the constraints measured with
// them, by running a command as Exec does: it answers each value under its
// name ({"throughput": 140, "latency": 80}), without a "y", and values[k]
// receives the value of names[k]. A missing, non-numeric or non-finite
// value is an error that names it.
func ExecValues(ctx context.Context, argv []string, dims []Dim, x []float64, names []string, values []float64) error {
	_, _, err := execCommand(ctx, argv, dims, x, false, false, names, values)
	return err
}

// execCommand runs the command of Exec, ExecWithSD, ExecMeasuring and
// ExecValues; it reads "y" when withY, "sd" when withSD, and the values
// names into values.
func execCommand(ctx context.Context, argv []string, dims []Dim, x []float64, withY, withSD bool, names []string, values []float64) (y, sd float64, err error) {
	if len(argv) == 0 {
		return 0, 0, errors.New("exec: no command")
	}
	input, err := json.Marshal(struct {
		X Point `json:"x"`
	}{Point{Dims: dims, X: x}})
	if err != nil {
		return 0, 0, fmt.Errorf("exec %s: %w", argv[0], err)
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	ownProcessGroup(cmd)
	// The output goes to files, not pipes: a process the command left
	// behind (`sleep 1000 &`) would hold a pipe open after the command
	// exited, while a file lets Wait return when the command does. What it
	// left behind is then killed with its process group.
	stdout, stderr, err := outputFiles()
	if err != nil {
		return 0, 0, fmt.Errorf("exec %s: %w", argv[0], err)
	}
	defer stdout.close()
	defer stderr.close()
	cmd.Stdout, cmd.Stderr = stdout.f, stderr.f
	cmd.Stdin = bytes.NewReader(append(input, '\n'))
	// A command that exits without reading its input leaves the copy to its
	// standard input blocked: stop waiting for it soon.
	cmd.WaitDelay = time.Second
	// Where the command dies with its parent (dieWithParent), the kernel
	// means the thread that started it: keep this goroutine on that thread
	// until the command has ended, so that no thread's exit kills it early.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	err = cmd.Start()
	if err == nil {
		if started, ok := ctx.Value(startedKey{}).(func(pid int)); ok {
			started(cmd.Process.Pid)
		}
		err = cmd.Wait()
	}
	killGroup(cmd)
	if errors.Is(err, exec.ErrWaitDelay) {
		err = nil // the command itself succeeded
	}
	if err != nil {
		if ctx.Err() != nil {
			return 0, 0, fmt.Errorf("exec %s: killed: %w", argv[0], context.Cause(ctx))
		}
		return 0, 0, fmt.Errorf("exec %s: %w%s", argv[0], err, quote(stderr.String()))
	}
	var out struct {
		Y  *float64 `json:"y"`
		SD *float64 `json:"sd"`
	}
	want := `{"y": number}`
	switch {
	case withSD:
		want = `{"y": number, "sd": number}`
	case !withY:
		want = fmt.Sprintf(`{%q: number, ...}`, names[0])
	}
	var measured map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(stdout.bytes()))
	var raw json.RawMessage
	err = dec.Decode(&raw)
	if err == nil {
		err = json.Unmarshal(raw, &out)
	}
	if err == nil && len(names) > 0 {
		err = json.Unmarshal(raw, &measured)
	}
	if err != nil {
		return 0, 0, fmt.Errorf("exec %s: want one JSON object %s on standard output: %w%s", argv[0], want, err, quote(stderr.String()))
	}
	if dec.More() {
		return 0, 0, fmt.Errorf("exec %s: more than one JSON value on standard output", argv[0])
	}
	if withY && out.Y == nil {
		return 0, 0, fmt.Errorf(`exec %s: the output has no "y"%s`, argv[0], quote(stderr.String()))
	}
	for k, name := range names {
		v, ok := measured[name]
		if !ok {
			return 0, 0, fmt.Errorf(`exec %s: the output has no %q, a value the problem measures%s`, argv[0], name, quote(stderr.String()))
		}
		if err := json.Unmarshal(v, &values[k]); err != nil || math.IsNaN(values[k]) || math.IsInf(values[k], 0) {
			return 0, 0, fmt.Errorf(`exec %s: %s's value %s is not a finite number`, argv[0], name, v)
		}
	}
	switch {
	case !withY:
		return 0, 0, nil
	case !withSD:
		return *out.Y, 0, nil
	}
	if out.SD == nil {
		return 0, 0, fmt.Errorf(`exec %s: the output has no "sd", the noise standard deviation the problem's observation noise reported needs%s`,
			argv[0], quote(stderr.String()))
	}
	return *out.Y, *out.SD, nil
}

// quote formats a command's standard error for an error message.
func quote(stderr string) string {
	stderr = strings.TrimSpace(stderr)
	if stderr == "" {
		return ""
	}
	if len(stderr) > maxQuotedStderr {
		stderr = "..." + stderr[len(stderr)-maxQuotedStderr:]
	}
	return "; its standard error:\n" + stderr
}

// startedKey is the context key of WithStarted's callback.
type startedKey struct{}

// WithStarted returns ctx with a callback that an exec objective calls
// with its process id (its process group's, on Unix) once it has started.
func WithStarted(ctx context.Context, started func(pid int)) context.Context {
	return context.WithValue(ctx, startedKey{}, started)
}

// outputFile is a command's standard output or error, in a temporary file
// removed when it is closed.
type outputFile struct{ f *os.File }

// outputFiles creates a command's standard output and error.
func outputFiles() (stdout, stderr outputFile, err error) {
	out, err := os.CreateTemp("", "boc-exec-stdout-*")
	if err != nil {
		return outputFile{}, outputFile{}, err
	}
	errs, err := os.CreateTemp("", "boc-exec-stderr-*")
	if err != nil {
		outputFile{out}.close()
		return outputFile{}, outputFile{}, err
	}
	return outputFile{out}, outputFile{errs}, nil
}

// bytes is what the command wrote, "" when it cannot be read.
func (o outputFile) bytes() []byte {
	b, err := os.ReadFile(o.f.Name())
	if err != nil {
		return nil
	}
	return b
}

func (o outputFile) String() string { return string(o.bytes()) }

func (o outputFile) close() {
	o.f.Close()
	os.Remove(o.f.Name())
}
