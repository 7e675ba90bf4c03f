package journal

import (
	"errors"
	"strings"
)

// isPostgres reports whether target is a PostgreSQL URL.
func isPostgres(target string) bool {
	return strings.HasPrefix(target, "postgres://") || strings.HasPrefix(target, "postgresql://")
}

// openPostgres opens a journal kept in a PostgreSQL database.
func openPostgres(target string) (Store, error) {
	return nil, errors.New("journal: PostgreSQL journals are not built yet")
}
