package sparkstmt

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"sluice/internal/catalog"
	"sluice/internal/sql"
)

// ShowTables lists the tables and views of one database (the current
// one when In is ""), by their own names, then the session's temporary
// views; isTemporary is Spark's column.
func (e *Runner) ShowTables(ctx context.Context, s *sql.ShowTables) (*Result, error) {
	db, ts, err := e.tablesLike(ctx, s.In, s.Like)
	if err != nil {
		return nil, fmt.Errorf("SHOW TABLES: %w", err)
	}
	var rows [][]string
	for _, t := range ts {
		_, name := catalog.SplitStored(t.Spec.Name)
		rows = append(rows, []string{name, t.Spec.Using, sql.RedactText(t.Spec.Location), "false"})
	}
	views, err := e.viewRows(ctx, db, s.Like)
	if err != nil {
		return nil, fmt.Errorf("SHOW TABLES: %w", err)
	}
	var temps [][]string
	for _, v := range views {
		row := []string{v.name, "view", "", fmt.Sprint(v.temporary)}
		if v.temporary {
			temps = append(temps, row)
		} else {
			rows = append(rows, row)
		}
	}
	sort.SliceStable(rows, func(i, j int) bool { return strings.ToLower(rows[i][0]) < strings.ToLower(rows[j][0]) })
	return stringRows([]string{"name", "using", "location", "isTemporary"}, append(rows, temps...)), nil
}

// tablesLike are the tables of database in (the current one when "")
// whose own names match Spark's pattern like, and that database.
func (e *Runner) tablesLike(ctx context.Context, in, like string) (string, []*catalog.Table, error) {
	db, err := e.h.DatabaseOf(ctx, in)
	if err != nil {
		return "", nil, err
	}
	ts, err := e.catalog.Tables()
	if err != nil {
		return "", nil, err
	}
	var out []*catalog.Table
	for _, t := range ts {
		tdb, name := catalog.SplitStored(t.Spec.Name)
		if tdb == db && sparkPattern(like, name) {
			out = append(out, t)
		}
	}
	return db, out, nil
}
