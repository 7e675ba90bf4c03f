//go:build unix

package command

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestExecLeavesNothingBehind: an objective that prints its result and exits
// but leaves a process running in the background, which keeps its output
// open, is taken at its word when it exits, and the process it left behind
// is killed.
func TestExecLeavesNothingBehind(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	script := `sleep 1000 & echo $! > ` + pidFile + `; echo '{"y": 0.5}'`
	y, err := Exec(context.Background(), []string{"sh", "-c", script}, []Dim{{Name: "x", Size: 1}}, []float64{0.5})
	if err != nil || y != 0.5 {
		t.Fatalf("y %v, error %v; want 0.5 and none", y, err)
	}
	text, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(text)))
	if err != nil {
		t.Fatal(err)
	}
	for start := time.Now(); ProcessAlive(pid); time.Sleep(10 * time.Millisecond) {
		if time.Since(start) > 10*time.Second {
			t.Fatalf("the background process %d is still running", pid)
		}
	}
}

// TestExecDiesWithRun: kill -9 of a program evaluating a command kills the
// command too, where the system can (Linux), so that an evaluation never
// outlives its run.
func TestExecDiesWithRun(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("only Linux kills a child with its parent")
	}
	pidFile := filepath.Join(t.TempDir(), "pid")
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), execParentEnv+"=echo $$ > "+pidFile+"; exec sleep 1000")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var pid int
	for start := time.Now(); pid == 0; time.Sleep(10 * time.Millisecond) {
		if text, err := os.ReadFile(pidFile); err == nil && strings.HasSuffix(string(text), "\n") {
			pid, _ = strconv.Atoi(strings.TrimSpace(string(text)))
		}
		if time.Since(start) > 10*time.Second {
			t.Fatal("the evaluation did not start")
		}
	}
	cmd.Process.Kill()
	cmd.Wait()
	for start := time.Now(); ProcessAlive(pid); time.Sleep(10 * time.Millisecond) {
		if time.Since(start) > 10*time.Second {
			t.Fatalf("the evaluation %d outlived its run", pid)
		}
	}
}

// TestZombieIsDead: a run killed but not yet reaped by its parent (a
// zombie) runs nothing, so its trials can be taken over at once: a resumed
// run must not ask new trials around them, which would change the points it
// asks (issue: replay after kill -9 must match an uninterrupted run).
func TestZombieIsDead(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("zombies are told apart with /proc")
	}
	cmd := exec.Command("sleep", "1000")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	if !ProcessAlive(pid) {
		t.Fatalf("a running process %d counts as dead", pid)
	}
	cmd.Process.Kill()
	// Not reaped yet: wait for the kernel to make it a zombie.
	for start := time.Now(); ProcessAlive(pid); time.Sleep(5 * time.Millisecond) {
		if time.Since(start) > 10*time.Second {
			t.Fatalf("killed but not reaped, process %d still counts as alive", pid)
		}
	}
	if !signalAlive(pid) {
		t.Fatal("the zombie was reaped already: the test shows nothing")
	}
	cmd.Wait()
	if ProcessAlive(pid) {
		t.Errorf("a reaped process %d counts as alive", pid)
	}
}
