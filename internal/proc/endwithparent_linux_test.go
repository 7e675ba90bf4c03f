package proc

import (
	"bufio"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestEndWithParent: a program started with EndWithParent ends when the
// process that started it is killed by SIGKILL. The test runs itself as that
// process, which starts `sleep 60`, prints its pid and waits to be killed.
func TestEndWithParent(t *testing.T) {
	if os.Getenv("BOC_PROC_TEST_PARENT") == "1" {
		child := exec.Command("sleep", "60")
		EndWithParent(child)
		if err := child.Start(); err != nil {
			os.Exit(2)
		}
		os.Stdout.WriteString(strconv.Itoa(child.Process.Pid) + "\n")
		select {}
	}
	if _, err := exec.LookPath("sleep"); err != nil {
		t.Skip("needs sleep")
	}
	parent := exec.Command(os.Args[0], "-test.run=^TestEndWithParent$")
	parent.Env = append(os.Environ(), "BOC_PROC_TEST_PARENT=1")
	out, err := parent.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		parent.Process.Kill()
		t.Fatalf("reading the child's pid: %v", err)
	}
	pid := strings.TrimSpace(line)
	parent.Process.Kill()
	parent.Wait()
	// The orphan is reaped by init or a subreaper; until then it is a zombie.
	for range 500 {
		stat, err := os.ReadFile("/proc/" + pid + "/stat")
		if err != nil || strings.Contains(string(stat), ") Z ") {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	exec.Command("kill", pid).Run()
	t.Fatalf("sleep (pid %s) still runs 5 s after its parent was killed", pid)
}
