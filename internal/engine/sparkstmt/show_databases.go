package sparkstmt

import (
	"context"
	"path"
	"strings"

	"sluice/internal/sql"
)

// ShowDatabases runs SHOW DATABASES [LIKE 'pattern'] (Spark's pattern:
// * any characters, | between alternatives).
func (e *Runner) ShowDatabases(ctx context.Context, s *sql.ShowDatabases) (*Result, error) {
	dbs, err := e.catalog.Databases()
	if err != nil {
		return nil, err
	}
	var rows [][]string
	for _, d := range dbs {
		if s.Like != "" && !likeSpark(s.Like, d.Name) {
			continue
		}
		rows = append(rows, []string{d.Name})
	}
	return stringRows([]string{"namespace"}, rows), nil
}

// likeSpark matches Spark's SHOW ... LIKE patterns, case-insensitively.
func likeSpark(pattern, name string) bool {
	for _, alt := range strings.Split(pattern, "|") {
		if ok, _ := path.Match(strings.ToLower(strings.TrimSpace(alt)), strings.ToLower(name)); ok {
			return true
		}
	}
	return false
}
