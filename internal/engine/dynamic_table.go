package engine

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/catalog"
	"sluice/internal/expr"
	"sluice/internal/plan"
	"sluice/internal/types"
	"sluice/internal/usererr"
)

// evolveTable prepares a write into a dynamic table (a search table
// declared without columns): the query's columns are matched to the
// table's by name, columns the table does not have yet are added to it,
// as OpenSearch's dynamic mapping adds fields, and a column whose type
// cannot widen to the table's is an error naming it. It returns the
// table as it now is, the query (without the all-NULL columns the table
// does not know: dynamic mapping makes no field of a null either) and the
// column list to conform the query to. Tables with declared columns come
// back unchanged. A dry run (EXPLAIN) stores nothing.
//
// The new columns are stored before the write starts, because the sink is
// opened with the table's schema; a write that then fails keeps them, as
// an OpenSearch mapping keeps fields added by a failed bulk request.
func (e *Engine) evolveTable(t *catalog.Table, n plan.Node, cols []string, dryRun bool) (*catalog.Table, plan.Node, []string, error) {
	if !t.Dynamic {
		return t, n, cols, nil
	}
	src := n.Schema()
	if len(cols) > 0 && len(cols) != src.NumFields() {
		return nil, nil, nil, usererr.Errorf(usererr.Invalid, "INSERT INTO %s: %d columns listed but the query has %d", t.Spec.Name, len(cols), src.NumFields())
	}
	var keep []int
	var names []string
	var add []arrow.Field
	seen := map[string]bool{}
	for i, f := range src.Fields() {
		name := f.Name
		if len(cols) > 0 {
			name = cols[i]
		}
		k := strings.ToLower(name)
		if seen[k] {
			return nil, nil, nil, usererr.Errorf(usererr.Invalid, "INSERT INTO %s: column %s is written twice", t.Spec.Name, name)
		}
		seen[k] = true
		have, ok := tableField(t.Spec.Schema, name)
		switch {
		case ok:
			if w, ok := types.Common(have.Type, f.Type); !ok || !arrow.TypeEqual(w, types.Normalize(have.Type)) {
				return nil, nil, nil, usererr.Errorf(usererr.Invalid, "INSERT INTO %s: column %s is %s, the query gives %s (a column keeps the type of its first write; CAST it)",
					t.Spec.Name, have.Name, types.SQLName(have.Type), types.SQLName(f.Type))
			}
		case f.Type.ID() == arrow.NULL:
			continue
		default:
			if strings.TrimSpace(name) == "" {
				return nil, nil, nil, usererr.Errorf(usererr.Invalid, "INSERT INTO %s: column %d has no name; give it one with AS", t.Spec.Name, i+1)
			}
			add = append(add, arrow.Field{Name: name, Type: types.Normalize(f.Type), Nullable: true})
		}
		keep = append(keep, i)
		names = append(names, name)
	}
	if len(add) > 0 && dryRun {
		c := *t
		c.Spec.Schema = arrow.NewSchema(append(append([]arrow.Field(nil), t.Spec.Schema.Fields()...), add...), nil)
		t = &c
	} else if len(add) > 0 {
		if err := e.catalog.AddColumns(t.Spec.Name, add); err != nil {
			return nil, nil, nil, fmt.Errorf("INSERT INTO %s: adding columns: %w", t.Spec.Name, err)
		}
		var err error
		if t, err = e.catalog.Table(t.Spec.Name); err != nil {
			return nil, nil, nil, err
		}
	}
	if len(keep) < src.NumFields() {
		exprs := make([]expr.Expr, len(keep))
		out := make([]string, len(keep))
		for j, i := range keep {
			f := src.Field(i)
			exprs[j], out[j] = expr.Col(i, f.Name, f.Type), f.Name
		}
		n = &plan.Project{Input: n, Exprs: exprs, Names: out}
	}
	return t, n, names, nil
}

// tableField finds a column by name, case-insensitively.
func tableField(s *arrow.Schema, name string) (arrow.Field, bool) {
	if s == nil {
		return arrow.Field{}, false
	}
	for _, f := range s.Fields() {
		if strings.EqualFold(f.Name, name) {
			return f, true
		}
	}
	return arrow.Field{}, false
}
