//go:build unix

package program

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/bocdev/boc/runtime/command"
	"github.com/bocdev/boc/runtime/journal"
)

// TestTakeoverKillsEvaluation: a run that takes over the trial of a dead
// run of this host kills what is left of its evaluation first, the process
// group its lease recorded, so that two evaluations of one trial never
// overlap; and a run records its own exec evaluation's process group.
func TestTakeoverKillsEvaluation(t *testing.T) {
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Skip("no true command:", err)
	}
	left := exec.Command("sleep", "1000") // the dead run's evaluation, still running
	left.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := left.Start(); err != nil {
		t.Fatal(err)
	}
	defer left.Process.Kill()
	exited := make(chan struct{})
	go func() { left.Wait(); close(exited) }()
	path := filepath.Join(t.TempDir(), "j.journal")
	p := killProblem(filepath.Join(t.TempDir(), "log"))
	evaluate := p.Evaluate
	p.Evaluate = func(ctx context.Context, trial int, x []float64) (Evaluation, error) {
		if _, err := command.Exec(ctx, []string{"sh", "-c", `sleep 0.3; echo '{"y": 1}'`}, p.Dims, x); err != nil {
			return Evaluation{}, err
		}
		return evaluate(ctx, trial, x)
	}
	j, err := journal.OpenStore(path, "p")
	if err != nil {
		t.Fatal(err)
	}
	worker := fmt.Sprintf("%s/%d/ab", hostname(), dead.Process.Pid)
	err = j.Transact(func([]journal.Event) ([]journal.Event, error) {
		return []journal.Event{
			{Kind: journal.KindStudy, Study: "p", Identity: identity(p.Identity), Program: p.Identity, Budget: 12},
			{Kind: journal.KindAsk, Study: "p", Trial: "1", X: []float64{7}, Worker: worker, Until: time.Now().Add(time.Hour).UTC().Format(time.RFC3339Nano)},
			{Kind: journal.KindLease, Study: "p", Trial: "1", Worker: worker, Until: time.Now().Add(time.Hour).UTC().Format(time.RFC3339Nano), Process: left.Process.Pid},
		}, nil
	})
	j.Close()
	if err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if code := Run(context.Background(), p, []string{"run", "--journal", path, "--budget", "2"}, &out, &errs); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		t.Fatal("the dead run's evaluation is still running after the takeover")
	}
	j, err = journal.OpenStore(path, "p")
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	recorded := 0
	j.Transact(func(events []journal.Event) ([]journal.Event, error) {
		for _, e := range events {
			if e.Kind == journal.KindLease && e.Worker != worker && e.Process > 0 {
				recorded++
			}
		}
		return nil, nil
	})
	if recorded == 0 {
		t.Error("no lease records the process group of this run's evaluations")
	}
}
