//go:build unix

package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRunProgramForwardsSIGTERM: a SIGTERM sent to boc while the program
// runs reaches the program, and boc waits for it to end.
func TestRunProgramForwardsSIGTERM(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("needs a shell")
	}
	ready := filepath.Join(t.TempDir(), "ready")
	script := `trap 'echo got TERM; exit 5' TERM; touch ` + ready + `; sleep 10 & wait`
	go func() {
		for range 200 {
			if _, err := os.Stat(ready); err == nil {
				syscall.Kill(os.Getpid(), syscall.SIGTERM)
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	var out, errOut bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut}
	if code := runProgram(e, sh, []string{"-c", script}, func() {}); code != 5 || out.String() != "got TERM\n" {
		t.Errorf("exit %d, output %q %q; want 5 and the program's trap", code, out.String(), errOut.String())
	}
}

// TestStopContextEndsOnSIGTERM: a SIGTERM sent to boc cancels the context of
// the commands that build or run programs themselves (boc study kills its
// runs with it), as an interrupt does.
func TestStopContextEndsOnSIGTERM(t *testing.T) {
	ctx, stop := stopContext()
	defer stop()
	syscall.Kill(os.Getpid(), syscall.SIGTERM)
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("SIGTERM did not cancel the context")
	}
}
