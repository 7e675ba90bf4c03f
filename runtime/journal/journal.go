// Package journal is the crash-safe record of a study that emitted programs
// keep on disk: an append-only file of JSON lines, one event per line, each
// written and fsync'd before the call that records it returns, so that a
// kill -9 or a power cut loses at most the event being written.
//
// Reading tolerates exactly that loss: a last line without its newline is
// a torn write, ignored with a warning and cut off before the next append.
// Anything else that does not parse is corruption, reported with its line.
//
// Several processes may share one file: every read-modify-append runs under
// an exclusive flock on the file (Transact), which the kernel releases when
// the process holding it dies, so a crash never leaves a stale lock behind.
//
// A journal may instead live in a PostgreSQL database (OpenStore with a
// postgres:// URL), so that processes on several hosts share it: the same
// lines, one row each, written under a transaction-scoped advisory lock.
package journal

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Version is the format of the events this package writes; it reads every
// version up to it.
const Version = 1

// Kinds of events.
const (
	// KindStudy opens a study: its problem's identity and budget.
	KindStudy = "study"
	// KindAsk reserves a trial at a point.
	KindAsk = "ask"
	// KindTell records a trial's measured values.
	KindTell = "tell"
	// KindFail records that a trial's evaluation failed.
	KindFail = "fail"
	// KindLease renews a worker's hold on a pending trial, or hands a
	// trial whose holder died to another worker.
	KindLease = "lease"
)

// Event is one line of a journal. Which fields are set depends on Kind.
type Event struct {
	V     int    `json:"v"`
	Kind  string `json:"event"`
	Study string `json:"study"`
	// Time is when the event was recorded (RFC 3339); it is for people and
	// plays no part in replaying a study.
	Time string `json:"time,omitempty"`

	// KindStudy: the problem's identity (a hash of its checked program,
	// budget excluded), its name, that program as text (to say what differs
	// when another problem opens the study), its budget and seed.
	Identity string `json:"identity,omitempty"`
	Problem  string `json:"problem,omitempty"`
	Program  string `json:"program,omitempty"`
	Budget   int    `json:"budget,omitempty"`
	Seed     uint64 `json:"seed,omitempty"`

	// KindAsk, KindTell, KindFail: the trial.
	Trial string `json:"trial,omitempty"`
	// KindAsk: the point, its components in the domain's order, user units.
	X []float64 `json:"x,omitempty"`
	// KindAsk, KindLease: the worker evaluating the trial and until when
	// (RFC 3339) its hold lasts unless renewed; absent for a trial asked
	// from a shell, which waits for its tell however long it takes.
	Worker string `json:"worker,omitempty"`
	Until  string `json:"until,omitempty"`
	// KindLease: the process group of the trial's evaluation on the
	// worker's host, once it started (an exec objective), so that a run
	// taking the trial over can kill what is left of it first.
	Process int `json:"process,omitempty"`
	// KindTell: the objective's value, its noise sd when reported, the
	// unknown constraints' values by name.
	Y           *float64           `json:"y,omitempty"`
	SD          *float64           `json:"sd,omitempty"`
	Constraints map[string]float64 `json:"constraints,omitempty"`
	// KindTell of a problem with several objectives: their values by name,
	// instead of Y.
	Objectives map[string]float64 `json:"objectives,omitempty"`
	// KindFail: why.
	Reason string `json:"reason,omitempty"`
}

// A Store keeps the events of a journal's studies: a file (Open) or a
// PostgreSQL database (OpenStore with a postgres:// URL). It is not safe for
// concurrent use; processes share a store through Transact.
type Store interface {
	// Transact runs fn with every event recorded so far, in order, locked
	// against every other writer, and records the events fn returns before
	// the lock is released; when fn fails nothing is recorded. The events
	// passed to fn are the store's: fn must not modify them.
	Transact(fn func(events []Event) ([]Event, error)) error
	// Warnings says what reading forgave so far (a torn last line).
	Warnings() []string
	Close() error
}

// OpenStore opens the journal target names for study (CheckStudy): a
// postgres:// or postgresql:// URL, whose store reads the study's events
// only, so that neither another study's size nor a row of it that cannot be
// read touches this one; or else a file path (Open), whose store reads every
// study's. Either way the events fn sees hold all of the study's, in order.
func OpenStore(target, study string) (Store, error) {
	if err := CheckStudy(study); err != nil {
		return nil, err
	}
	if IsPostgres(target) {
		return openPostgres(target, study)
	}
	return Open(target)
}

// maxStudyName bounds a study's name, in bytes.
const maxStudyName = 200

// CheckStudy says what is wrong with a study's name: it must be 1 to 200
// bytes of UTF-8 without control characters (a name is printed in messages
// and reports, and stored in a column of its own).
func CheckStudy(name string) error {
	switch {
	case name == "":
		return errors.New("a study needs a name: --study NAME")
	case len(name) > maxStudyName:
		return fmt.Errorf("study name of %d bytes; at most %d", len(name), maxStudyName)
	case !utf8.ValidString(name):
		return fmt.Errorf("study name %q is not UTF-8", name)
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return fmt.Errorf("study name %q has a control character", name)
	}
	return nil
}

// Journal is an open journal file. It is not safe for concurrent use;
// processes (or several Journals in one process) share a file through
// Transact.
type Journal struct {
	path     string
	f        *os.File
	events   []Event
	size     int64 // bytes of whole lines read so far
	lines    int   // whole lines read so far
	tornAt   int64 // 1 + the offset of the torn last line warned about, 0 before any
	warnings []string
}

// Open opens the journal at path, creating it when it does not exist, and
// reads its events.
func Open(path string) (*Journal, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	j := &Journal{path: path, f: f}
	if err := j.locked(func() error { _, err := j.catchUp(); return err }); err != nil {
		f.Close()
		return nil, err
	}
	return j, nil
}

// Close closes the file.
func (j *Journal) Close() error { return j.f.Close() }

// Warnings says what reading forgave: a torn last line.
func (j *Journal) Warnings() []string { return j.warnings }

// Events are the events read or written so far, in file order. The slice is
// the journal's: do not modify it.
func (j *Journal) Events() []Event { return j.events }

// Transact runs fn with the journal up to date and locked against every
// other writer, and appends the events fn returns, each fsync'd, before the
// lock is released: what fn decided from the events it saw is recorded
// before anyone else can act on the same state. When fn fails nothing is
// appended. Events get the current version.
func (j *Journal) Transact(fn func(events []Event) ([]Event, error)) error {
	return j.locked(func() error {
		torn, err := j.catchUp()
		if err != nil {
			return err
		}
		add, err := fn(j.events)
		if err != nil || len(add) == 0 {
			return err
		}
		if torn {
			// Cut the torn tail off so that the next line starts clean.
			if err := j.f.Truncate(j.size); err != nil {
				return fmt.Errorf("journal %s: removing a torn last line: %w", j.path, err)
			}
		}
		return j.append(add)
	})
}

// append writes events at the end of the file, one fsync'd line each.
func (j *Journal) append(events []Event) error {
	if _, err := j.f.Seek(j.size, io.SeekStart); err != nil {
		return fmt.Errorf("journal %s: %w", j.path, err)
	}
	for _, e := range events {
		line, err := encode(&e)
		if err != nil {
			return fmt.Errorf("journal %s: %w", j.path, err)
		}
		line = append(line, '\n')
		if _, err := j.f.Write(line); err != nil {
			return fmt.Errorf("journal %s: %w", j.path, err)
		}
		if err := j.f.Sync(); err != nil {
			return fmt.Errorf("journal %s: %w", j.path, err)
		}
		j.events = append(j.events, e)
		j.size += int64(len(line))
		j.lines++
	}
	return nil
}

// catchUp reads the whole lines after those already read and reports
// whether a torn last line follows them.
func (j *Journal) catchUp() (torn bool, err error) {
	if _, err := j.f.Seek(j.size, io.SeekStart); err != nil {
		return false, fmt.Errorf("journal %s: %w", j.path, err)
	}
	r := bufio.NewReader(j.f)
	for {
		line, err := r.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			if len(bytes.TrimSpace(line)) > 0 {
				if j.tornAt != j.size+1 { // said once, however often it is read
					j.tornAt = j.size + 1
					j.warnings = append(j.warnings, fmt.Sprintf("journal %s:%d: ignoring a torn last line (a write cut off by a crash)", j.path, j.lines+1))
				}
				return true, nil
			}
			return false, nil
		}
		if err != nil {
			return false, fmt.Errorf("journal %s: %w", j.path, err)
		}
		if len(bytes.TrimSpace(line)) == 0 { // a blank line, as an editor may leave
			j.size += int64(len(line))
			j.lines++
			continue
		}
		e, perr := parse(line)
		if perr != nil {
			return false, fmt.Errorf("journal %s:%d: %w", j.path, j.lines+1, perr)
		}
		j.events = append(j.events, e)
		j.size += int64(len(line))
		j.lines++
	}
}

// encode stamps e with the current version and returns its line, without
// the newline: the one format both back ends store.
func encode(e *Event) ([]byte, error) {
	e.V = Version
	return json.Marshal(e)
}

// parse reads one line's event.
func parse(line []byte) (Event, error) {
	var e Event
	d := json.NewDecoder(bytes.NewReader(line))
	if err := d.Decode(&e); err != nil {
		return e, fmt.Errorf("not an event: %v", err)
	}
	switch {
	case e.V < 1 || e.V > Version:
		return e, fmt.Errorf("format version %d; this program reads versions 1 to %d", e.V, Version)
	case e.Kind != KindStudy && e.Kind != KindAsk && e.Kind != KindTell && e.Kind != KindFail && e.Kind != KindLease:
		return e, fmt.Errorf("unknown event %q", e.Kind)
	case e.Study == "":
		return e, errors.New("an event without a study")
	case CheckStudy(e.Study) != nil:
		return e, fmt.Errorf("an event of study %q: %v", e.Study, CheckStudy(e.Study))
	case e.Kind != KindStudy && e.Trial == "":
		return e, fmt.Errorf("a %s event without a trial", e.Kind)
	}
	return e, nil
}
