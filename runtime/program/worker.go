package program

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/bocdev/boc/runtime/command"
)

// A worker is one run's name in the leases of a journal: its host, its
// process id and a random part, host/pid/random, so that a run on the same
// host can tell a dead one's trials from a live one's without waiting for
// their leases to expire.

// newWorkerID names this run.
func newWorkerID() string {
	var nonce [4]byte
	rand.Read(nonce[:])
	return fmt.Sprintf("%s/%d/%s", hostname(), os.Getpid(), hex.EncodeToString(nonce[:]))
}

// hostname is this host's name, "localhost" when it has none.
func hostname() string {
	if h, err := os.Hostname(); err == nil && h != "" {
		return h
	}
	return "localhost"
}

// onThisHost reports whether worker ran on this host.
func onThisHost(worker string) bool {
	host, _, ok := strings.Cut(worker, "/")
	return ok && host == hostname()
}

// leaseLive reports whether trial t's worker still holds it at now: its
// lease has not expired and, when the worker ran on this host, its process
// is still there.
func leaseLive(t *trial, now time.Time) bool {
	if !now.Before(t.until) {
		return false
	}
	if !onThisHost(t.worker) {
		return true
	}
	_, rest, _ := strings.Cut(t.worker, "/")
	pidText, _, _ := strings.Cut(rest, "/")
	pid, err := strconv.Atoi(pidText)
	if err != nil || pid == os.Getpid() {
		return true
	}
	return command.ProcessAlive(pid)
}
