package sparkstmt

import (
	"context"
	"fmt"
	"os"
	"strings"

	"sluice/internal/connector/registry"
	"sluice/internal/sql"
	"sluice/internal/usererr"
)

// truncateTable is TRUNCATE TABLE t for a managed file table (one
// declared without LOCATION, whose files Sluice wrote): its files are
// removed as DROP removes them, and the table stays, empty. Spark
// refuses an external table (its files are not the engine's), and so
// does Sluice; other managed tables (a search index, a view's sink) are
// refused too, as is a table a stream or materialized view is built on,
// whose checkpoint remembers what it wrote.
func (e *Runner) truncateTable(ctx context.Context, s *sql.TableCommand) (*Result, error) {
	t, err := e.commandTable(ctx, s)
	if err != nil {
		return nil, err
	}
	name := t.Spec.Name
	if !e.h.IsManaged(t) {
		return nil, usererr.Errorf(usererr.Invalid, "TRUNCATE TABLE %s: it is an external table; its files are not Sluice's to delete", name)
	}
	loc := t.Spec.Location
	if !registry.NeedsLocation(t.Spec.Using, loc) || strings.Contains(loc, "://") {
		return nil, usererr.Errorf(usererr.Invalid, "TRUNCATE TABLE %s: only a managed file table can be truncated, not a %s table", name, t.Spec.Using)
	}
	users, err := e.tableUsers(ctx, name)
	if err != nil {
		return nil, fmt.Errorf("TRUNCATE TABLE %s: %w", name, err)
	}
	if len(users) > 0 {
		return nil, usererr.Errorf(usererr.Invalid, "TRUNCATE TABLE %s: %s", name, strings.Join(users, ", "))
	}
	if err := registry.Drop(ctx, t.Spec); err != nil {
		return nil, fmt.Errorf("TRUNCATE TABLE %s: %w", name, err)
	}
	// Drop takes the folder too; the table is still there, so is its
	// (empty) folder, and reading it warns of nothing.
	if err := os.MkdirAll(loc, 0o755); err != nil {
		return nil, fmt.Errorf("TRUNCATE TABLE %s: %w", name, err)
	}
	e.ClearStats(name)
	return message("table %s truncated", name), nil
}
