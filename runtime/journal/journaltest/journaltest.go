// Package journaltest gives tests a PostgreSQL journal of their own: a
// fresh schema on the server BOC_TEST_POSTGRES names (by default the local
// one, postgres://postgres@127.0.0.1:5432/test), dropped when the test
// ends. Without a server, tests skip, unless BOC_REQUIRE_POSTGRES=1 (as in
// CI), when they fail.
package journaltest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// DefaultServer is the server tests use when BOC_TEST_POSTGRES is unset.
const DefaultServer = "postgres://postgres@127.0.0.1:5432/test"

// Server is the URL of the test server.
func Server() string {
	if s := os.Getenv("BOC_TEST_POSTGRES"); s != "" {
		return s
	}
	return DefaultServer
}

// Required reports whether the tests must fail, not skip, without a
// server.
func Required() bool { return os.Getenv("BOC_REQUIRE_POSTGRES") == "1" }

// Schema is a schema of its own on the test server.
type Schema struct {
	// URL is a journal target kept in the schema.
	URL string
	// Conn is a connection whose search path is the schema, to write rows
	// by hand.
	Conn *pgx.Conn
	name string
}

// ErrNoServer wraps the failure to reach the server: a test skips on it
// unless Required.
type ErrNoServer struct{ Err error }

func (e ErrNoServer) Error() string {
	return fmt.Sprintf("no PostgreSQL at %s (%v): start one or set BOC_TEST_POSTGRES", Server(), e.Err)
}

// NewSchema creates a fresh schema on the test server.
func NewSchema() (*Schema, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, Server())
	if err != nil {
		return nil, ErrNoServer{err}
	}
	s := &Schema{Conn: conn, name: fmt.Sprintf("boc_test_%016x", rand.Uint64())}
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+s.name+"; SET search_path TO "+s.name); err != nil {
		conn.Close(ctx)
		return nil, err
	}
	u, err := url.Parse(Server())
	if err != nil {
		s.Drop()
		return nil, err
	}
	q := u.Query()
	q.Set("search_path", s.name)
	u.RawQuery = q.Encode()
	s.URL = u.String()
	return s, nil
}

// Drop drops the schema and closes the connection.
func (s *Schema) Drop() error {
	ctx := context.Background()
	_, err := s.Conn.Exec(ctx, "DROP SCHEMA "+s.name+" CASCADE")
	s.Conn.Close(ctx)
	return err
}

// For gives tb a schema of its own, dropped when tb ends; without a server
// tb skips, or fails when Required.
func For(tb testing.TB) *Schema {
	tb.Helper()
	s, err := NewSchema()
	var noServer ErrNoServer
	switch {
	case errors.As(err, &noServer) && Required():
		tb.Fatal(err.Error() + " (BOC_REQUIRE_POSTGRES=1 requires one)")
	case errors.As(err, &noServer):
		tb.Skip(err.Error())
	case err != nil:
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := s.Drop(); err != nil {
			tb.Error(err)
		}
	})
	return s
}

// Available reports whether the test server answers; without one it is an
// error when Required.
func Available() (bool, error) {
	s, err := NewSchema()
	var noServer ErrNoServer
	switch {
	case errors.As(err, &noServer) && Required():
		return false, fmt.Errorf("%v (BOC_REQUIRE_POSTGRES=1 requires one)", err)
	case errors.As(err, &noServer):
		return false, nil
	case err != nil:
		return false, err
	}
	return true, s.Drop()
}
