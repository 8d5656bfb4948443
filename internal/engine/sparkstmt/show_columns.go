package sparkstmt

import (
	"context"
	"fmt"

	"sluice/internal/plan"
	"sluice/internal/sql"
)

// ShowColumns is SHOW COLUMNS IN t: the column names of a table or a
// view (a view's as its query binds now), one a row, as Spark's
// col_name.
func (e *Runner) ShowColumns(ctx context.Context, s *sql.ShowColumns) (*Result, error) {
	var names []string
	v, err := e.h.LookupView(ctx, s.Table)
	if err != nil {
		return nil, fmt.Errorf("SHOW COLUMNS: %w", err)
	}
	if v != nil {
		n, err := plan.NewBinder(ctx, e.h.Tables()).BindQuery(viewQuery(s.Table))
		if err != nil {
			return nil, fmt.Errorf("SHOW COLUMNS: %w", err)
		}
		for _, f := range n.Schema().Fields() {
			names = append(names, f.Name)
		}
	} else {
		stored, err := e.h.Qualify(ctx, s.Table)
		if err != nil {
			return nil, fmt.Errorf("SHOW COLUMNS: %w", err)
		}
		t, err := e.catalog.Table(stored)
		if err != nil {
			return nil, fmt.Errorf("SHOW COLUMNS: %w", e.h.SuggestTable(ctx, s.Table, err))
		}
		for _, f := range t.Spec.Schema.Fields() {
			names = append(names, f.Name)
		}
	}
	rows := make([][]string, len(names))
	for i, n := range names {
		rows[i] = []string{n}
	}
	return stringRows([]string{"col_name"}, rows), nil
}
