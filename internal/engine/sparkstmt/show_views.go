package sparkstmt

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"sluice/internal/catalog"
	"sluice/internal/sql"
)

// ShowViews lists one database's stored views, then the session's
// temporary views, in Spark's layout (namespace, viewName,
// isTemporary; a temporary view's namespace is empty).
func (e *Runner) ShowViews(ctx context.Context, s *sql.ShowViews) (*Result, error) {
	db, err := e.h.DatabaseOf(ctx, s.In)
	if err != nil {
		return nil, fmt.Errorf("SHOW VIEWS: %w", err)
	}
	rows, err := e.viewRows(ctx, db, s.Like)
	if err != nil {
		return nil, fmt.Errorf("SHOW VIEWS: %w", err)
	}
	out := make([][]string, len(rows))
	for i, r := range rows {
		out[i] = []string{r.db, r.name, fmt.Sprint(r.temporary)}
	}
	return stringRows([]string{"namespace", "viewName", "isTemporary"}, out), nil
}

type viewRow struct {
	db, name  string
	temporary bool
}

// viewRows are the stored views of db matching like, sorted, then the
// temporary views matching it, sorted: Spark's order.
func (e *Runner) viewRows(ctx context.Context, db, like string) ([]viewRow, error) {
	objs, err := e.catalog.Objects(viewKind)
	if err != nil {
		return nil, err
	}
	var out []viewRow
	for _, o := range objs {
		vdb, name := catalog.SplitStored(o.Name)
		if vdb == db && sparkPattern(like, name) {
			out = append(out, viewRow{db: vdb, name: name})
		}
	}
	temps := e.h.TempViews(ctx)
	sort.Slice(temps, func(i, j int) bool { return strings.ToLower(temps[i].Name) < strings.ToLower(temps[j].Name) })
	for _, v := range temps {
		if sparkPattern(like, v.Name) {
			out = append(out, viewRow{name: v.Name, temporary: true})
		}
	}
	return out, nil
}
