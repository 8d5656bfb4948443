package sparkstmt

import (
	"context"
	"fmt"
	"strings"

	"sluice/internal/catalog"
	"sluice/internal/sql"
	"sluice/internal/usererr"
)

// ByName turns INSERT ... BY NAME into the INSERT with the column list
// it stands for: the query's column names, matched to the table's
// without regard to case, as Spark does. A name the table lacks (or
// fixes with a static PARTITION value) and a name given twice are
// errors; table columns the query leaves out get NULL, as with a list.
func (e *Runner) ByName(ctx context.Context, t *catalog.Table, s *sql.Insert) (*sql.Insert, error) {
	n, err := e.bindQuery(ctx, s.Query)
	if err != nil {
		return nil, err
	}
	static := map[string]bool{}
	for _, pv := range s.Partition {
		if pv.Value != nil {
			static[strings.ToLower(pv.Column)] = true
		}
	}
	cols := map[string]string{}
	for _, f := range t.Spec.Schema.Fields() {
		if !static[strings.ToLower(f.Name)] {
			cols[strings.ToLower(f.Name)] = f.Name
		}
	}
	var list, extra []string
	seen := map[string]bool{}
	for _, f := range n.Schema().Fields() {
		k := strings.ToLower(f.Name)
		if seen[k] {
			return nil, usererr.Errorf(usererr.Invalid, "INSERT INTO %s BY NAME: the query has two columns named %s", t.Spec.Name, f.Name)
		}
		seen[k] = true
		name, ok := cols[k]
		if !ok {
			extra = append(extra, sql.QuoteIdent(f.Name))
			continue
		}
		list = append(list, name)
	}
	if len(extra) > 0 {
		return nil, usererr.Errorf(usererr.Invalid, "INSERT INTO %s BY NAME: %s %s no column of the table to go to",
			t.Spec.Name, strings.Join(extra, ", "), map[bool]string{true: "has", false: "have"}[len(extra) == 1])
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("INSERT INTO %s BY NAME: the query has no columns", t.Spec.Name)
	}
	c := *s
	c.ByName, c.Columns = false, list
	return &c, nil
}
