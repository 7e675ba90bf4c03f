package journal

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bocdev/boc/runtime/journal/journaltest"
	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"
)

// testDatabase gives tb a schema of its own on the test server
// (journaltest), dropped when tb ends: the URL of a journal kept there, and
// a connection whose search path is that schema, for writing rows by hand.
func testDatabase(tb testing.TB) (string, *pgx.Conn) {
	tb.Helper()
	schema := journaltest.For(tb)
	return schema.URL, schema.Conn
}

func openTestStore(tb testing.TB, target string) Store {
	tb.Helper()
	s, err := OpenStore(target, "s")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

// record records events in one transaction.
func record(tb testing.TB, s Store, events ...Event) {
	tb.Helper()
	if err := s.Transact(func([]Event) ([]Event, error) { return events, nil }); err != nil {
		tb.Fatal(err)
	}
}

// eventsOf reads s up to date and returns a copy of its events.
func eventsOf(tb testing.TB, s Store) []Event {
	tb.Helper()
	var seen []Event
	err := s.Transact(func(events []Event) ([]Event, error) {
		seen = append([]Event(nil), events...)
		return nil, nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return seen
}

// hardFloats are values a lossy float encoding would change.
func hardFloats() Event {
	return Event{Kind: KindTell, Study: "s", Trial: "3", Y: ptr(0.1 + 0.2), SD: ptr(5e-324),
		Constraints: map[string]float64{"third": 1.0 / 3, "big": math.MaxFloat64, "next": math.Nextafter(1, 2)}}
}

// TestPostgresRoundTrip: what one store records another reads back field by
// field, and each row holds exactly the line the file journal writes.
func TestPostgresRoundTrip(t *testing.T) {
	target, conn := testDatabase(t)
	want := append(sample(), hardFloats())
	record(t, openTestStore(t, target), want...)
	for i := range want {
		want[i].V = Version
	}
	if diff := cmp.Diff(want, eventsOf(t, openTestStore(t, target))); diff != "" {
		t.Errorf("read back (-want +got):\n%s", diff)
	}

	path := filepath.Join(t.TempDir(), "j.jsonl")
	j, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	appendEvents(t, j, want...)
	j.Close()
	file, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := conn.Query(context.Background(), "SELECT line FROM boc_journal_events ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(strings.Split(strings.TrimSuffix(string(file), "\n"), "\n"), lines); diff != "" {
		t.Errorf("rows against the file journal's lines (-file +rows):\n%s", diff)
	}
}

// TestPostgresInterleaved: two stores taking turns each see the other's
// events before deciding.
func TestPostgresInterleaved(t *testing.T) {
	target, _ := testDatabase(t)
	stores := []Store{openTestStore(t, target), openTestStore(t, target)}
	for i := range 6 {
		err := stores[i%2].Transact(func(events []Event) ([]Event, error) {
			if len(events) != i {
				return nil, fmt.Errorf("store %d sees %d events, want %d", i%2, len(events), i)
			}
			return []Event{{Kind: KindAsk, Study: "s", Trial: fmt.Sprint(i + 1), X: []float64{float64(i) / 7}}}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	a, b := eventsOf(t, stores[0]), eventsOf(t, stores[1])
	if len(a) != 6 {
		t.Fatalf("%d events, want 6", len(a))
	}
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("the stores disagree (-first +second):\n%s", diff)
	}
}

// TestPostgresTransactSerialises: stores on one database, used at once
// (opened at once too, so migrating concurrently), each number a trial
// after the asks they see; the lock makes every number distinct.
func TestPostgresTransactSerialises(t *testing.T) {
	target, _ := testDatabase(t)
	checkSerialised(t, 4, 25, func() (Store, error) { return OpenStore(target, "s") })
}

// TestPostgresTransactFailure: a transaction that fails, in fn or while
// inserting, records nothing, in the database or in the store's memory,
// and fn's own error comes back as it is.
func TestPostgresTransactFailure(t *testing.T) {
	target, conn := testDatabase(t)
	s := openTestStore(t, target)
	record(t, s, sample()[0])
	no := errors.New("no")
	if err := s.Transact(func([]Event) ([]Event, error) { return sample(), no }); err != no {
		t.Fatalf("fn failing: error %v, want fn's", err)
	}
	// The first event is inserted before the second fails to encode.
	unencodable := []Event{sample()[1], {Kind: KindAsk, Study: "s", Trial: "9", X: []float64{math.NaN()}}}
	err := s.Transact(func([]Event) ([]Event, error) { return unencodable, nil })
	if err == nil || !strings.Contains(err.Error(), "unsupported value: NaN") {
		t.Fatalf("an event JSON cannot hold: error %v", err)
	}
	if n := len(eventsOf(t, s)); n != 1 {
		t.Errorf("the store holds %d events, want 1", n)
	}
	var rows int
	if err := conn.QueryRow(context.Background(), "SELECT count(*) FROM boc_journal_events").Scan(&rows); err != nil {
		t.Fatal(err)
	}
	if rows != 1 {
		t.Errorf("the table holds %d rows, want 1", rows)
	}
}

// TestPostgresReconnects: a store whose connection the server ended (a
// restart, an administrator) connects again on its next transaction and
// loses nothing.
func TestPostgresReconnects(t *testing.T) {
	target, conn := testDatabase(t)
	s := openTestStore(t, target)
	record(t, s, sample()[0])
	terminate := func() {
		t.Helper()
		pid := s.(*postgresStore).conn.PgConn().PID()
		if _, err := conn.Exec(context.Background(), "SELECT pg_terminate_backend($1)", pid); err != nil {
			t.Fatal(err)
		}
	}
	terminate()
	if err := s.Transact(func(events []Event) ([]Event, error) { return sample()[1:2], nil }); err != nil {
		t.Fatalf("after the server ended the connection: %v", err)
	}
	terminate()
	if err := s.Transact(func(events []Event) ([]Event, error) { return nil, nil }); err != nil {
		t.Fatalf("a read after the connection ended: %v", err)
	}
	if got := eventsOf(t, openTestStore(t, target)); len(got) != 2 {
		t.Errorf("%d events, want 2", len(got))
	}
}

// TestPostgresCorruptRow: a row that is not an event is an error naming
// the database and the row's id, whether it is read on opening or later.
func TestPostgresCorruptRow(t *testing.T) {
	for name, tc := range map[string]struct{ line, want string }{
		"not JSON":      {"not json", "not an event"},
		"newer version": {`{"v":2,"event":"ask","study":"s","trial":"1"}`, "format version 2; this program reads versions 1 to 1"},
	} {
		t.Run(name, func(t *testing.T) {
			target, conn := testDatabase(t)
			s := openTestStore(t, target)
			record(t, s, sample()[:2]...)
			var id int64
			if err := conn.QueryRow(context.Background(), "INSERT INTO boc_journal_events (study, line) VALUES ('s', $1) RETURNING id", tc.line).Scan(&id); err != nil {
				t.Fatal(err)
			}
			want := fmt.Sprintf("journal %s: event %d of study s: %s", redact(target), id, tc.want)
			err := s.Transact(func([]Event) ([]Event, error) { return nil, nil })
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("reading on: error %v, want %q", err, want)
			}
			if _, err := OpenStore(target, "s"); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("opening: error %v, want %q", err, want)
			}
		})
	}
}

// TestPostgresStudiesApart: a store reads its own study's rows only, so
// that 50 studies of 1,000 events each cost a command on one of them what
// that study alone costs, and a row of another study that cannot be read,
// or whose line names another study, never stops it.
func TestPostgresStudiesApart(t *testing.T) {
	target, conn := testDatabase(t)
	ctx := context.Background()
	openTestStore(t, target) // creates the tables
	if _, err := conn.Exec(ctx, `INSERT INTO boc_journal_events (study, line)
		SELECT 'study' || k, '{"v":1,"event":"ask","study":"study' || k || '","trial":"' || n || '","x":[0.5]}'
		FROM generate_series(1, 50) k, generate_series(1, 1000) n`); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []struct{ study, line string }{{"study7", "not json"}, {"", `{"v":1,"event":"ask","study":"","trial":"1"}`},
		{"study8", `{"v":1,"event":"ask","study":"study9","trial":"1"}`}} {
		if _, err := conn.Exec(ctx, "INSERT INTO boc_journal_events (study, line) VALUES ($1, $2)", bad.study, bad.line); err != nil {
			t.Fatal(err)
		}
	}
	s, err := OpenStore(target, "study3")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := eventsOf(t, s); len(got) != 1000 || got[999].Trial != "1000" || got[0].Study != "study3" {
		t.Fatalf("%d events read for study3, want its 1000", len(got))
	}
	for study, want := range map[string]string{"study7": "of study study7: not an event", "study8": `of study study8: its line names study "study9"`} {
		if _, err := OpenStore(target, study); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error containing %q", study, err, want)
		}
	}
	if err := s.Transact(func([]Event) ([]Event, error) { return []Event{{Kind: KindAsk, Study: "study4", Trial: "1"}}, nil }); err == nil {
		t.Error("the store of study3 recorded an event of study4")
	}
}

// TestStudyNames: what CheckStudy refuses, at OpenStore before anything is
// opened, and in a journal's line.
func TestStudyNames(t *testing.T) {
	for _, name := range []string{"", "a\nb", "tab\there", strings.Repeat("x", 201), "bad\xff"} {
		if _, err := OpenStore(filepath.Join(t.TempDir(), "j.jsonl"), name); err == nil {
			t.Errorf("study %q accepted", name)
		}
	}
	for _, name := range []string{"s", "lab 2 — run B", strings.Repeat("x", 200)} {
		if err := CheckStudy(name); err != nil {
			t.Errorf("study %q: %v", name, err)
		}
	}
	if _, err := parse([]byte(`{"v":1,"event":"study","study":"a\u0007b"}`)); err == nil || !strings.Contains(err.Error(), "control character") {
		t.Errorf("a line with a control character in its study: %v", err)
	}
}

// TestPostgresSchemaVersion: opening again leaves one version row; a
// database a newer boc migrated is refused.
func TestPostgresSchemaVersion(t *testing.T) {
	target, conn := testDatabase(t)
	ctx := context.Background()
	openTestStore(t, target)
	openTestStore(t, target)
	rows, err := conn.Query(ctx, "SELECT version FROM boc_journal_schema")
	if err != nil {
		t.Fatal(err)
	}
	versions, err := pgx.CollectRows(rows, pgx.RowTo[int32])
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int32{schemaVersion}, versions); diff != "" {
		t.Errorf("versions recorded (-want +got):\n%s", diff)
	}
	if _, err := conn.Exec(ctx, "UPDATE boc_journal_schema SET version = $1", schemaVersion+1); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("journal %s: the database's journal schema is version %d, written by a newer boc; this program reads schema versions up to %d",
		redact(target), schemaVersion+1, schemaVersion)
	if _, err := OpenStore(target, "s"); err == nil || err.Error() != want {
		t.Fatalf("error %v, want %q", err, want)
	}
}

// TestPostgresUnusableURL: a server that does not answer, or a URL that
// does not parse, is a clear error naming the target without its password.
func TestPostgresUnusableURL(t *testing.T) {
	for _, tc := range []struct{ target, want string }{
		{"postgres://boc:s3cret@127.0.0.1:1/test?connect_timeout=5", "journal postgres://127.0.0.1:1/test: cannot connect: "},
		{"postgresql://boc:s3cret@127.0.0.1:x/test", "journal postgresql://127.0.0.1:x/test: cannot parse the URL: invalid port"},
		{"postgres://boc@127.0.0.1/test?password=s3cret&sslmode=bogus", "journal postgres://127.0.0.1/test: cannot parse the URL: "},
	} {
		_, err := OpenStore(tc.target, "s")
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || strings.Contains(err.Error(), "s3cret") {
			t.Errorf("%s: error %v, want one starting %q, without the password", tc.target, err, tc.want)
		}
	}
}

// BenchmarkPostgresTransact records one event per transaction.
func BenchmarkPostgresTransact(b *testing.B) {
	target, _ := testDatabase(b)
	s := openTestStore(b, target)
	for b.Loop() {
		record(b, s, Event{Kind: KindAsk, Study: "s", Trial: "1", X: []float64{0.5}})
	}
}
