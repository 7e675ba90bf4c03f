package journal

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"net/url"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// IsPostgres reports whether target is a PostgreSQL URL rather than a
// file's path.
func IsPostgres(target string) bool {
	return strings.HasPrefix(target, "postgres://") || strings.HasPrefix(target, "postgresql://")
}

// schemaVersion is the newest layout of the tables this package reads and
// writes; migrations[v] brings a database from version v-1 to v.
const schemaVersion = 2

var migrations = [schemaVersion + 1]string{
	1: `CREATE TABLE boc_journal_events (
		id bigserial PRIMARY KEY,
		study text NOT NULL,
		line text NOT NULL,
		recorded timestamptz NOT NULL DEFAULT now()
	)`,
	// A store reads its own study's events.
	2: `CREATE INDEX boc_journal_events_study ON boc_journal_events (study, id)`,
}

// lockKey names the advisory lock every writer of a database takes; a hash
// of a fixed name keeps clear of the small integers other programs pick.
var lockKey = func() int64 {
	h := fnv.New64a()
	h.Write([]byte("boc journal"))
	return int64(h.Sum64())
}()

// defaultConnectTimeout bounds a connection attempt when the URL sets no
// connect_timeout, so that an unreachable host fails instead of hanging.
const defaultConnectTimeout = 10 * time.Second

// postgresStore is a journal kept in a PostgreSQL database: one row per
// event, whose line is exactly what the file journal would write.
type postgresStore struct {
	name   string // the target without its password, for messages
	study  string // the study whose events it reads
	config *pgx.ConnConfig
	conn   *pgx.Conn
	events []Event // every event read or written so far, ordered by id
	lastID int64   // the id of the last of them
}

// openPostgres connects to the database target names, brings its tables to
// the current schema and reads study's events.
func openPostgres(target, study string) (Store, error) {
	s := &postgresStore{name: redact(target), study: study}
	config, err := pgx.ParseConfig(target)
	if err != nil {
		return nil, fmt.Errorf("journal %s: %s", s.name, parseFailure(err))
	}
	if config.ConnectTimeout == 0 {
		config.ConnectTimeout = defaultConnectTimeout
	}
	s.config = config
	if err := s.connect(); err != nil {
		return nil, err
	}
	if err := s.locked(context.Background(), s.migrate); err != nil {
		s.conn.Close(context.Background())
		return nil, err
	}
	return s, nil
}

// connect opens the store's connection.
func (s *postgresStore) connect() error {
	conn, err := pgx.ConnectConfig(context.Background(), s.config)
	if err != nil {
		return fmt.Errorf("journal %s: cannot connect: %v", s.name, err)
	}
	s.conn = conn
	return nil
}

// redact returns target without its user, password and parameters (a
// password may be given as one).
func redact(target string) string {
	if u, err := url.Parse(target); err == nil {
		u.User, u.RawQuery, u.Fragment = nil, "", ""
		return u.String()
	}
	// What net/url rejects (a bad port or escape) is cut by hand.
	scheme, rest, _ := strings.Cut(target, "://")
	if i := strings.LastIndex(rest, "@"); i >= 0 {
		rest = rest[i+1:]
	}
	rest, _, _ = strings.Cut(rest, "?")
	return scheme + "://" + rest
}

// parseFailure says why pgx could not parse a URL, without the URL its
// message quotes: pgx masks a password there only in some forms.
func parseFailure(err error) string {
	var pe *pgconn.ParseConfigError
	if !errors.As(err, &pe) {
		return err.Error()
	}
	msg := pe.Error()
	if i := strings.LastIndex(msg, "`: "); i >= 0 {
		return "cannot parse the URL: " + msg[i+len("`: "):]
	}
	return "cannot parse the URL"
}

// migrate creates or upgrades the tables, refusing a database a newer
// program wrote, and reads the events.
func (s *postgresStore) migrate(ctx context.Context, tx pgx.Tx) error {
	if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS boc_journal_schema (version int NOT NULL)`); err != nil {
		return err
	}
	var version int
	if err := tx.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM boc_journal_schema`).Scan(&version); err != nil {
		return err
	}
	if version > schemaVersion {
		return fmt.Errorf("the database's journal schema is version %d, written by a newer boc; this program reads schema versions up to %d", version, schemaVersion)
	}
	if version < schemaVersion {
		for v := version + 1; v <= schemaVersion; v++ {
			if _, err := tx.Exec(ctx, migrations[v]); err != nil {
				return fmt.Errorf("migrating to schema version %d: %w", v, err)
			}
		}
		if _, err := tx.Exec(ctx, `DELETE FROM boc_journal_schema`); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO boc_journal_schema (version) VALUES ($1)`, schemaVersion); err != nil {
			return err
		}
	}
	return s.catchUp(ctx, tx)
}

// Transact runs fn with every event recorded so far, under the advisory
// lock, and inserts the events it returns in the same transaction. The
// commit is durable when it returns (synchronous_commit, the default), the
// analogue of the file journal's fsync.
//
// A connection that was lost (the server restarted, a network cut) is
// opened again, and a transaction it broke is run again once: a failed
// transaction recorded nothing, and one whose commit went through before
// the connection broke is among the events fn sees the second time, which
// it decides on as on any other process's.
func (s *postgresStore) Transact(fn func(events []Event) ([]Event, error)) error {
	if s.conn.IsClosed() {
		if err := s.connect(); err != nil {
			return err
		}
	}
	refused, err := s.transact(fn)
	if err != nil && !refused && s.conn.IsClosed() {
		if s.connect() != nil {
			return err
		}
		_, err = s.transact(fn)
	}
	return err
}

// transact is one attempt of Transact; refused says the error is fn's.
func (s *postgresStore) transact(fn func(events []Event) ([]Event, error)) (refused bool, err error) {
	var fnErr error // fn's own, returned as it is, as the file journal does
	err = s.locked(context.Background(), func(ctx context.Context, tx pgx.Tx) error {
		if err := s.catchUp(ctx, tx); err != nil {
			return err
		}
		var add []Event
		if add, fnErr = fn(s.events); fnErr != nil {
			return fnErr
		}
		for _, e := range add {
			if e.Study != s.study {
				return fmt.Errorf("an event of study %q in the store of study %q", e.Study, s.study)
			}
			line, err := encode(&e)
			if err != nil {
				return err
			}
			if err := tx.QueryRow(ctx, `INSERT INTO boc_journal_events (study, line) VALUES ($1, $2) RETURNING id`, e.Study, line).Scan(&s.lastID); err != nil {
				return err
			}
			s.events = append(s.events, e)
		}
		return nil
	})
	if fnErr != nil {
		return true, fnErr
	}
	return false, err
}

// locked runs fn in a transaction holding the journal's advisory lock, and
// commits unless fn fails. The lock goes with the transaction, at commit,
// rollback or when the connection dies, so no crash leaves it held. What fn
// adds to the store's memory is undone unless the commit succeeds.
func (s *postgresStore) locked(ctx context.Context, fn func(context.Context, pgx.Tx) error) (err error) {
	kept, lastID := len(s.events), s.lastID
	defer func() {
		if err != nil {
			clear(s.events[kept:])
			s.events, s.lastID = s.events[:kept], lastID
			err = fmt.Errorf("journal %s: %w", s.name, err)
		}
	}()
	// Read committed: every statement sees what was committed before it
	// began, so the reads after the lock see every earlier writer's events.
	// A snapshot taken for the whole transaction could predate the lock.
	tx, err := s.conn.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.ReadCommitted})
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx) // does nothing after a commit
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, lockKey); err != nil {
		return err
	}
	if err := fn(ctx, tx); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// catchUp reads the study's events recorded after those already read.
func (s *postgresStore) catchUp(ctx context.Context, tx pgx.Tx) error {
	rows, err := tx.Query(ctx, `SELECT id, line FROM boc_journal_events WHERE study = $1 AND id > $2 ORDER BY id`, s.study, s.lastID)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var line []byte
		if err := rows.Scan(&id, &line); err != nil {
			return err
		}
		e, err := parse(line)
		if err == nil && e.Study != s.study {
			err = fmt.Errorf("its line names study %q", e.Study)
		}
		if err != nil {
			return fmt.Errorf("event %d of study %s: %w", id, s.study, err)
		}
		s.events = append(s.events, e)
		s.lastID = id
	}
	return rows.Err()
}

// Warnings returns nil: a database has no torn writes to forgive.
func (s *postgresStore) Warnings() []string { return nil }

// Close closes the connection.
func (s *postgresStore) Close() error {
	if err := s.conn.Close(context.Background()); err != nil {
		return fmt.Errorf("journal %s: %w", s.name, err)
	}
	return nil
}
