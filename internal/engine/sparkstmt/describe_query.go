package sparkstmt

import (
	"context"
	"fmt"
	"strings"

	"sluice/internal/catalog"
	"sluice/internal/sql"
	"sluice/internal/types"
)

// nullCell in a stringRows row is SQL NULL: DESCRIBE's comment of a
// column without one, as Spark shows it. No text can hold it, since
// statement text and names have no NUL byte.
const nullCell = "\x00"

// orNull is s, or nullCell when s is empty.
func orNull(s string) string {
	if s == "" {
		return nullCell
	}
	return s
}

// DescribeQuery is Spark's DESCRIBE [QUERY] query: the columns the query
// would return, bound as it would run, without running it.
func (e *Runner) DescribeQuery(ctx context.Context, s *sql.DescribeQuery) (*Result, error) {
	n, err := e.bindQuery(e.h.QueryContext(ctx), s.Query)
	if err != nil {
		return nil, fmt.Errorf("DESCRIBE QUERY: %w", err)
	}
	var rows [][]string
	comments := e.sourceComments(n)
	for i, f := range n.Schema().Fields() {
		rows = append(rows, []string{f.Name, types.CatalogString(f.Type), comments[i]})
	}
	return stringRows([]string{"col_name", "data_type", "comment"}, rows), nil
}

// columnComment is the COMMENT the column was declared with, "" when
// none.
func columnComment(t *catalog.Table, col string) string {
	for k, v := range t.ColumnComments {
		if strings.EqualFold(k, col) {
			return v
		}
	}
	return ""
}

// SetColumnComment records c's COMMENT in t, if it has one.
func SetColumnComment(t *catalog.Table, c *sql.ColumnDef) {
	if c.Comment == "" {
		return
	}
	if t.ColumnComments == nil {
		t.ColumnComments = map[string]string{}
	}
	t.ColumnComments[c.Name] = c.Comment
}
