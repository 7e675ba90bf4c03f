package journal

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func ptr(v float64) *float64 { return &v }

// appendEvents records events in one transaction.
func appendEvents(t testing.TB, j *Journal, events ...Event) {
	t.Helper()
	if err := j.Transact(func([]Event) ([]Event, error) { return events, nil }); err != nil {
		t.Fatal(err)
	}
}

func sample() []Event {
	return []Event{
		{Kind: KindStudy, Study: "s", Identity: "abc", Problem: "p", Budget: 10},
		{Kind: KindAsk, Study: "s", Trial: "1", X: []float64{0.5, 2}},
		{Kind: KindTell, Study: "s", Trial: "1", Y: ptr(1.5), Constraints: map[string]float64{"heat": 71}},
		{Kind: KindAsk, Study: "s", Trial: "2", X: []float64{0.25, 3}},
		{Kind: KindFail, Study: "s", Trial: "2", Reason: "exit status 1"},
	}
}

// TestRoundTrip: what one Journal appends, another reads back, versioned.
func TestRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.jsonl")
	j, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	appendEvents(t, j, sample()...)
	k, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	want := sample()
	for i := range want {
		want[i].V = Version
	}
	if diff := cmp.Diff(want, k.Events()); diff != "" {
		t.Errorf("read back (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, j.Events()); diff != "" {
		t.Errorf("the writer's events (-want +got):\n%s", diff)
	}
}

// TestTornLastLine: a last line without its newline is ignored with a
// warning naming its line, and cut off before the next append.
func TestTornLastLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.jsonl")
	j, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	appendEvents(t, j, sample()[:3]...)
	j.Close()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"v":1,"event":"ask","study":"s","tri`)
	f.Close()

	j, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(j.Events()) != 3 || len(j.Warnings()) != 1 || !strings.Contains(j.Warnings()[0], "j.jsonl:4: ignoring a torn last line") {
		t.Fatalf("%d events, warnings %q", len(j.Events()), j.Warnings())
	}
	// Read again, as a command's transaction does: warned about once.
	if err := j.Transact(func([]Event) ([]Event, error) { return nil, nil }); err != nil || len(j.Warnings()) != 1 {
		t.Fatalf("after reading again: %v, warnings %q", err, j.Warnings())
	}
	appendEvents(t, j, sample()[3])
	j.Close()
	j, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if len(j.Events()) != 4 || len(j.Warnings()) != 0 || j.Events()[3].Trial != "2" {
		t.Fatalf("after an append: %d events, warnings %q", len(j.Events()), j.Warnings())
	}
}

// TestBlankLines: blank lines, as a hand edit may leave anywhere, are no
// events and no error.
func TestBlankLines(t *testing.T) {
	good := `{"v":1,"event":"study","study":"s","identity":"abc","budget":3}`
	path := filepath.Join(t.TempDir(), "j.jsonl")
	if err := os.WriteFile(path, []byte("\n"+good+"\n  \n"+good+"\n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	j, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if len(j.Events()) != 2 || len(j.Warnings()) != 0 {
		t.Fatalf("%d events, warnings %q", len(j.Events()), j.Warnings())
	}
}

// TestCorruption: a bad line anywhere but last is an error naming it.
func TestCorruption(t *testing.T) {
	good := `{"v":1,"event":"study","study":"s","identity":"abc","budget":3}`
	for name, tc := range map[string]struct{ lines, want string }{
		"not JSON":        {good + "\nnot json\n" + good + "\n", "j.jsonl:2: not an event"},
		"newer version":   {good + "\n" + `{"v":2,"event":"ask","study":"s","trial":"1"}` + "\n", "j.jsonl:2: format version 2; this program reads versions 1 to 1"},
		"unknown event":   {`{"v":1,"event":"poke","study":"s"}` + "\n", `j.jsonl:1: unknown event "poke"`},
		"no study":        {`{"v":1,"event":"ask","trial":"1"}` + "\n", "j.jsonl:1: an event without a study"},
		"trial-less tell": {good + "\n" + `{"v":1,"event":"tell","study":"s","y":1}` + "\n", "j.jsonl:2: a tell event without a trial"},
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "j.jsonl")
			if err := os.WriteFile(path, []byte(tc.lines), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Open(path)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// TestTransactSerialises: Journals on one file, used at once, each number a
// trial after the asks they see; the lock makes every number distinct.
func TestTransactSerialises(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.jsonl")
	checkSerialised(t, 4, 50, func() (Store, error) { return Open(path) })
}

// checkSerialised has writers stores, opened at once by open, each run
// `each` transactions that number a trial after the events they see, and
// checks that the numbers make one sequence: no two writers saw the same
// journal.
func checkSerialised(t *testing.T, writers, each int, open func() (Store, error)) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for range writers {
		wg.Go(func() {
			s, err := open()
			if err != nil {
				errs <- err
				return
			}
			defer s.Close()
			for range each {
				err := s.Transact(func(events []Event) ([]Event, error) {
					return []Event{{Kind: KindAsk, Study: "s", Trial: fmt.Sprint(len(events) + 1)}}, nil
				})
				if err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	s, err := open()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	events := eventsOf(t, s)
	if len(events) != writers*each {
		t.Fatalf("%d events, want %d", len(events), writers*each)
	}
	for i, e := range events {
		if e.Trial != fmt.Sprint(i+1) {
			t.Fatalf("event %d is trial %s: two writers saw the same journal", i+1, e.Trial)
		}
	}
}

// TestTransactFailure: a failing transaction appends nothing.
func TestTransactFailure(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.jsonl")
	j, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	err = j.Transact(func([]Event) ([]Event, error) { return sample(), fmt.Errorf("no") })
	if err == nil || len(j.Events()) != 0 {
		t.Fatalf("error %v, %d events", err, len(j.Events()))
	}
	if info, _ := os.Stat(path); info.Size() != 0 {
		t.Errorf("the file holds %d bytes", info.Size())
	}
}

// BenchmarkReplay reads a journal of 10,000 events.
func BenchmarkReplay(b *testing.B) {
	path := filepath.Join(b.TempDir(), "j.jsonl")
	var lines strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&lines, `{"v":1,"event":"ask","study":"s","trial":"%d","x":[0.125,0.5,0.75,0.25]}`+"\n", i)
		fmt.Fprintf(&lines, `{"v":1,"event":"tell","study":"s","trial":"%d","y":1.25,"constraints":{"heat":71.5}}`+"\n", i)
	}
	if err := os.WriteFile(path, []byte(lines.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		j, err := Open(path)
		if err != nil || len(j.Events()) != 10000 {
			b.Fatal(err)
		}
		j.Close()
	}
}

// BenchmarkTransact appends one event per transaction, fsync included.
func BenchmarkTransact(b *testing.B) {
	j, err := Open(filepath.Join(b.TempDir(), "j.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	defer j.Close()
	for b.Loop() {
		appendEvents(b, j, Event{Kind: KindAsk, Study: "s", Trial: "1", X: []float64{0.5}})
	}
}

// childEnv makes the test binary a journal writer (TestKill9): it appends
// trials to the journal the variable names and prints each trial's number
// once its Transact returned, until it is killed.
const childEnv = "BOC_JOURNAL_WRITER"

func TestMain(m *testing.M) {
	if path := os.Getenv(childEnv); path != "" {
		j, err := Open(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		for {
			var trial string
			err := j.Transact(func(events []Event) ([]Event, error) {
				trial = fmt.Sprint(len(events) + 1)
				return []Event{{Kind: KindAsk, Study: "s", Trial: trial, X: []float64{float64(len(events))}}}, nil
			})
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(2)
			}
			fmt.Println(trial)
		}
	}
	os.Exit(m.Run())
}

// TestKill9: writers killed with SIGKILL at many instants, one after the
// other on one file, lose nothing they reported recorded, record nothing
// twice, and leave a journal the next writer continues (a torn last line,
// if the kill cut one, forgiven and cut off).
func TestKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("starts writer processes")
	}
	path := filepath.Join(t.TempDir(), "j.jsonl")
	acknowledged := 0
	for kill, after := range []int{1, 2, 3, 5, 8, 13, 21, 34} {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), childEnv+"="+path)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := bufio.NewScanner(out)
		for range after {
			if !lines.Scan() {
				t.Fatalf("kill %d: the writer stopped: %v", kill, cmd.Wait())
			}
			acknowledged++
			if lines.Text() != fmt.Sprint(acknowledged) {
				t.Fatalf("kill %d: the writer recorded trial %s, want %d", kill, lines.Text(), acknowledged)
			}
		}
		cmd.Process.Kill()
		for lines.Scan() { // what it reported before it died
			acknowledged++
		}
		cmd.Wait()
		j, err := Open(path)
		if err != nil {
			t.Fatalf("kill %d: %v", kill, err)
		}
		events := j.Events()
		j.Close()
		// The writer may have recorded one more trial than it could report.
		if len(events) < acknowledged || len(events) > acknowledged+1 {
			t.Fatalf("kill %d: %d events after %d acknowledged", kill, len(events), acknowledged)
		}
		for i, e := range events {
			if e.Trial != fmt.Sprint(i+1) {
				t.Fatalf("kill %d: event %d is trial %s", kill, i+1, e.Trial)
			}
		}
		acknowledged = len(events)
	}
}
