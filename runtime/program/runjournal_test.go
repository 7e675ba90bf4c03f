package program

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bocdev/boc/runtime/journal"
	"github.com/bocdev/boc/runtime/journal/journaltest"
)

// runChildEnv makes the test binary a journalled run of killProblem on the
// journal it names (see TestMain).
const runChildEnv = "PROGRAM_TEST_RUN_CHILD"

// TestMain lets the test binary act as a journalled run (runChild).
func TestMain(m *testing.M) {
	if path := os.Getenv(runChildEnv); path != "" {
		os.Exit(runChild(path))
	}
	os.Exit(m.Run())
}

// killProblem is a problem whose objective logs every evaluation to log
// before it answers, slowly enough for a kill to land in the middle.
func killProblem(log string) Problem {
	return Problem{Name: "p", Identity: "p\n", Budget: 12, Seed: 1,
		Dims: []Dim{{Name: "x", Size: 1}}, Lower: []float64{0}, Upper: []float64{100},
		NewSession: func(uint64) Session { return &recorder{} },
		Evaluate: func(_ context.Context, _ int, x []float64) (Evaluation, error) {
			f, err := os.OpenFile(log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
			if err != nil {
				return Evaluation{}, err
			}
			fmt.Fprintln(f, x[0])
			f.Close()
			time.Sleep(3 * time.Millisecond)
			return Evaluation{Y: x[0] * x[0], SD: 0}, nil
		}}
}

// runChild runs killProblem on the journal path names, logging to path.log.
func runChild(path string) int {
	return Run(context.Background(), killProblem(path+".log"), []string{"run", "--journal", path}, os.Stdout, os.Stderr)
}

// TestRunKilled: a journalled run killed with SIGKILL after it made k
// journal writes, k = 1, 2, 3, 1, 2, 3, …, and started again each time
// (so that the kills land at every instant of the loop), loses nothing it
// recorded and evaluates nothing twice but the trial a kill cut off: the
// study ends with its budget told, each value the objective's at its
// point, every trial asked at the point an uninterrupted run asks it.
func TestRunKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("starts run processes")
	}
	path := filepath.Join(t.TempDir(), "j.journal")
	lines := func() int {
		b, _ := os.ReadFile(path)
		return bytes.Count(b, []byte("\n"))
	}
	kills := 0
	for k := 1; ; k = k%3 + 1 {
		before := lines()
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), runChildEnv+"="+path)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		killed := false
	watch:
		for {
			select {
			case err := <-exited:
				if err != nil {
					t.Fatalf("the run after %d kills failed: %v", kills, err)
				}
				break watch
			default:
			}
			if n := lines(); n >= before+k {
				cmd.Process.Signal(syscall.SIGKILL)
				<-exited
				killed = true
				break
			}
			time.Sleep(200 * time.Microsecond)
		}
		if !killed {
			break
		}
		if n := lines(); n < before {
			t.Fatalf("the journal shrank from %d to %d lines", before, n)
		}
		kills++
	}
	if kills < 12 {
		t.Fatalf("only %d kills landed", kills)
	}
	store, err := journal.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	points := map[string]string{}
	told := 0
	for _, e := range store.Events() {
		switch e.Kind {
		case journal.KindAsk:
			points[e.Trial] = strconv.FormatFloat(e.X[0], 'g', -1, 64)
			// The points an uninterrupted run asks: its session suggests
			// the number of values observed, k - 1 for trial k. A resumed
			// run that asked a new trial before taking over the one a kill
			// cut off would ask another.
			if k, _ := strconv.Atoi(e.Trial); e.X[0] != float64(k-1) {
				t.Errorf("trial %s asked at %v; an uninterrupted run asks it at %d", e.Trial, e.X[0], k-1)
			}
		case journal.KindTell:
			x, _ := strconv.ParseFloat(points[e.Trial], 64)
			if *e.Y != x*x {
				t.Errorf("trial %s at %v told %v", e.Trial, x, *e.Y)
			}
			told++
		case journal.KindFail:
			t.Errorf("trial %s failed: %s", e.Trial, e.Reason)
		}
	}
	if told != 12 {
		t.Fatalf("%d trials told after %d kills, want 12", told, kills)
	}
	log, _ := os.ReadFile(path + ".log")
	evaluations := map[string]int{}
	for _, x := range strings.Fields(string(log)) {
		evaluations[x]++
	}
	repeated := 0 // evaluations beyond a trial's first
	for trial, x := range points {
		if evaluations[x] == 0 {
			t.Errorf("trial %s at %s was told without being evaluated", trial, x)
		}
		repeated += max(evaluations[x]-1, 0)
	}
	// Each kill cuts off at most the one evaluation in flight.
	if repeated > kills {
		t.Errorf("%d evaluations repeated after %d kills", repeated, kills)
	}
	t.Logf("%d kills, %d evaluations cut off and repeated", kills, repeated)
}

// TestRunTakesOverLeases: a run leaves alone a trial that another host's
// live run evaluates until its lease expires, then takes it over; a trial
// whose run's process is gone from this host it takes over at once. In a
// journal file, and in PostgreSQL when a server answers (journaltest).
func TestRunTakesOverLeases(t *testing.T) {
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Skip("no true command:", err)
	}
	stores := []struct {
		kind   string
		target func(t *testing.T) string
	}{
		{"file", func(t *testing.T) string { return filepath.Join(t.TempDir(), "j.journal") }},
		{"postgres", func(t *testing.T) string {
			schema := journaltest.For(t)
			return schema.URL
		}},
	}
	for _, tc := range []struct {
		name     string
		worker   string
		lease    time.Duration
		min, max time.Duration
	}{
		{"another host's live run", "elsewhere/1/ab", 1500 * time.Millisecond, 1400 * time.Millisecond, 5 * time.Second},
		{"a dead run of this host", fmt.Sprintf("%s/%d/ab", hostname(), dead.Process.Pid), time.Hour, 0, time.Second},
	} {
		for _, store := range stores {
			t.Run(store.kind+"/"+tc.name, func(t *testing.T) {
				target := store.target(t)
				p := killProblem(filepath.Join(t.TempDir(), "log"))
				j, err := journal.OpenStore(target, "p")
				if err != nil {
					t.Fatal(err)
				}
				err = j.Transact(func([]journal.Event) ([]journal.Event, error) {
					return []journal.Event{
						{Kind: journal.KindStudy, Study: "p", Identity: identity(p.Identity), Program: p.Identity, Budget: 12},
						{Kind: journal.KindAsk, Study: "p", Trial: "1", X: []float64{7}, Worker: tc.worker,
							Until: time.Now().Add(tc.lease).UTC().Format(time.RFC3339Nano)},
					}, nil
				})
				j.Close()
				if err != nil {
					t.Fatal(err)
				}
				start := time.Now()
				var out, errs bytes.Buffer
				if code := Run(context.Background(), p, []string{"run", "--journal", target, "--budget", "2", "--lease", "1s"}, &out, &errs); code != ExitOK {
					t.Fatalf("exit %d: %s", code, errs.String())
				}
				took := time.Since(start)
				if took < tc.min || took > tc.max {
					t.Errorf("the run took %v, want %v to %v", took, tc.min, tc.max)
				}
				if !strings.Contains(errs.String(), "trial 1: x=7  y=49") {
					t.Errorf("trial 1 not evaluated:\n%s", errs.String())
				}
				j, err = journal.OpenStore(target, "p")
				if err != nil {
					t.Fatal(err)
				}
				defer j.Close()
				leased := false
				j.Transact(func(events []journal.Event) ([]journal.Event, error) {
					for _, e := range events {
						leased = leased || e.Kind == journal.KindLease && e.Trial == "1" && e.Worker != tc.worker
					}
					return nil, nil
				})
				if !leased {
					t.Error("no lease event hands trial 1 over")
				}
			})
		}
	}
}

// BenchmarkWorkers: a journalled run of 16 trials of an objective that
// takes 0.5 s, with 1, 2, 4 and 8 workers; speedup is the trials per
// second against one worker's ideal, 2 per second (goal: at least 0.8 N).
func BenchmarkWorkers(b *testing.B) {
	const trials, evaluation = 16, 500 * time.Millisecond
	for _, workers := range []int{1, 2, 4, 8} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			p := killProblem(filepath.Join(b.TempDir(), "log"))
			p.Budget = trials
			evaluate := p.Evaluate
			p.Evaluate = func(ctx context.Context, trial int, x []float64) (Evaluation, error) {
				time.Sleep(evaluation)
				return evaluate(ctx, trial, x)
			}
			start := time.Now()
			for i := range b.N {
				path := filepath.Join(b.TempDir(), fmt.Sprint(i))
				var out, errs bytes.Buffer
				if code := Run(context.Background(), p, []string{"run", "--journal", path, "--workers", fmt.Sprint(workers)}, &out, &errs); code != ExitOK {
					b.Fatalf("exit %d: %s", code, errs.String())
				}
			}
			perSecond := float64(trials*b.N) / time.Since(start).Seconds()
			b.ReportMetric(perSecond*evaluation.Seconds(), "speedup")
		})
	}
}

// BenchmarkAskTell: one ask and one tell, each replaying a study of 100
// told trials from its journal file under the lock, and appending an event
// with its fsync.
func BenchmarkAskTell(b *testing.B) {
	path := filepath.Join(b.TempDir(), "j.journal")
	p := killProblem(path + ".log")
	p.Budget = 100 + b.N
	var out, errs bytes.Buffer
	args := func(a ...string) []string { return append(a, "--journal", path) }
	if code := Run(context.Background(), p, args("run", "--budget", "100"), &out, &errs); code != ExitOK {
		b.Fatalf("exit %d: %s", code, errs.String())
	}
	b.ResetTimer()
	for i := range b.N {
		out.Reset()
		if code := Run(context.Background(), p, args("ask"), &out, &errs); code != ExitOK {
			b.Fatalf("ask: exit %d: %s", code, errs.String())
		}
		id := strconv.Itoa(101 + i)
		if code := Run(context.Background(), p, args("tell", id, "--value", "1"), &out, &errs); code != ExitOK {
			b.Fatalf("tell: exit %d: %s", code, errs.String())
		}
	}
}
