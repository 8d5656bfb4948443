package sparkstmt

import (
	"context"

	"sluice/internal/sql"
)

// refreshTable is REFRESH TABLE t. Sluice caches no listing or schema
// of a table between statements (each query lists its files afresh), so
// there is nothing to drop: it checks the name, as Spark does, and says
// so.
func (e *Runner) refreshTable(ctx context.Context, s *sql.TableCommand) (*Result, error) {
	if v, err := e.h.LookupView(ctx, s.Name); err == nil && v != nil {
		return message("view %s: nothing cached to refresh (a view is read afresh each time)", v.Name), nil
	}
	t, err := e.commandTable(ctx, s)
	if err != nil {
		return nil, err
	}
	return message("table %s: nothing cached to refresh (its files are listed at each query)", t.Spec.Name), nil
}
