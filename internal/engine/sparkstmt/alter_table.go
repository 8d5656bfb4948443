package sparkstmt

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/catalog"
	"sluice/internal/physical"
	"sluice/internal/sql"
	"sluice/internal/storage"
	"sluice/internal/usererr"
)

// AlterTable runs ALTER TABLE's forms, each one catalog update (all or
// nothing). TBLPROPERTIES are tags and apply to any table; the forms
// that change what a table is (its columns, name or location) are
// refused for a table a stream, materialized view or Flint index is
// built on, whose checkpoints and definitions name it as it was.
func (e *Runner) AlterTable(ctx context.Context, s *sql.AlterTable) (*Result, error) {
	t, err := e.catalog.Table(s.Name)
	if err != nil {
		if v, _ := e.h.StoredView(s.Name); v != nil {
			return nil, usererr.Errorf(usererr.Invalid, "ALTER TABLE %s: it is a view", s.Name)
		}
		return nil, fmt.Errorf("ALTER TABLE: %w", e.h.SuggestTable(ctx, s.Name, err))
	}
	name := t.Spec.Name
	if s.Action != sql.AlterSetProperties && s.Action != sql.AlterUnsetProps {
		users, err := e.tableUsers(ctx, name)
		if err != nil {
			return nil, fmt.Errorf("ALTER TABLE %s: %w", name, err)
		}
		if len(users) > 0 {
			return nil, usererr.Errorf(usererr.Invalid, "ALTER TABLE %s %s: %s; drop or recreate those first", name, s.Action, strings.Join(users, ", "))
		}
	}
	switch s.Action {
	case sql.AlterAddColumns:
		err = e.catalog.UpdateTable(name, func(t *catalog.Table) error { return addColumns(t, s.Columns) })
	case sql.AlterRename:
		var to string
		if to, err = e.h.Qualify(ctx, s.NewName); err != nil {
			return nil, fmt.Errorf("ALTER TABLE %s RENAME TO: %w", name, err)
		}
		if v, _ := e.h.StoredView(to); v != nil {
			return nil, fmt.Errorf("ALTER TABLE %s RENAME TO: view %q %w", name, to, catalog.ErrExists)
		}
		if err = e.catalog.RenameTable(name, to); err == nil {
			return message("table %s renamed to %s", name, to), nil
		}
	case sql.AlterSetProperties:
		err = e.catalog.UpdateTable(name, func(t *catalog.Table) error {
			if t.Properties == nil {
				t.Properties = map[string]string{}
			}
			for _, o := range s.Properties {
				t.Properties[o.Key] = o.Value.Value
			}
			return nil
		})
	case sql.AlterUnsetProps:
		err = e.catalog.UpdateTable(name, func(t *catalog.Table) error { return unsetProperties(t, s.Keys, s.IfExists) })
	case sql.AlterSetLocation:
		loc := storage.NormalizeLocation(s.Location)
		if err := e.h.CheckLocation(ctx, "LOCATION", loc); err != nil {
			return nil, fmt.Errorf("ALTER TABLE %s SET LOCATION: %w", name, err)
		}
		err = e.catalog.UpdateTable(name, func(t *catalog.Table) error { return setLocation(t, loc) })
	default:
		return nil, fmt.Errorf("ALTER TABLE %s: %w", s.Action, physical.ErrNotSupported)
	}
	if err != nil {
		return nil, fmt.Errorf("ALTER TABLE %s %s: %w", name, s.Action, err)
	}
	return message("table %s altered", name), nil
}

// addColumns appends columns as Spark does: after the data columns,
// before the partition columns; a name the table has is an error.
func addColumns(t *catalog.Table, cols []*sql.ColumnDef) error {
	parts := map[string]bool{}
	for _, p := range t.Spec.PartitionBy {
		parts[strings.ToLower(p)] = true
	}
	var data, part []arrow.Field
	seen := map[string]bool{}
	for _, f := range t.Spec.Schema.Fields() {
		seen[strings.ToLower(f.Name)] = true
		if parts[strings.ToLower(f.Name)] {
			part = append(part, f)
		} else {
			data = append(data, f)
		}
	}
	for _, c := range cols {
		if seen[strings.ToLower(c.Name)] {
			return usererr.Errorf(usererr.Exists, "column %s already exists", c.Name)
		}
		seen[strings.ToLower(c.Name)] = true
		// Rows written before have no value for it: it is nullable
		// whatever was declared.
		data = append(data, arrow.Field{Name: c.Name, Type: c.Type, Nullable: true})
		SetColumnComment(t, c)
	}
	t.Spec.Schema = arrow.NewSchema(append(data, part...), nil)
	return nil
}

// unsetProperties removes TBLPROPERTIES keys; one the table lacks is an
// error unless IF EXISTS, as in Spark.
func unsetProperties(t *catalog.Table, keys []string, ifExists bool) error {
	var missing []string
	for _, k := range keys {
		if _, ok := t.Properties[k]; !ok {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 && !ifExists {
		return usererr.Errorf(usererr.NotFound, "no properties %s (UNSET TBLPROPERTIES IF EXISTS tolerates them)", strings.Join(missing, ", "))
	}
	for _, k := range keys {
		delete(t.Properties, k)
	}
	return nil
}

// setLocation points a file table elsewhere. The table becomes external:
// the data at the new place is the user's, so DROP leaves it.
func setLocation(t *catalog.Table, loc string) error {
	if t.Spec.Location == "" {
		return usererr.Errorf(usererr.Invalid, "a %s table has no location", t.Spec.Using)
	}
	if loc == "" {
		return usererr.New(usererr.Invalid, "the location is empty")
	}
	t.Spec.Location = loc
	if _, ok := t.Spec.Options["path"]; ok {
		t.Spec.Options["path"] = loc
	}
	t.Managed = false
	return nil
}

// tableUsers says what is built on a table: the streams and materialized
// views that read or write it, the Flint indexes on it.
func (e *Runner) tableUsers(ctx context.Context, table string) ([]string, error) {
	var out []string
	if _, err := e.catalog.Object("mview", table); err == nil {
		out = append(out, "it is materialized view "+table)
	}
	idx, err := e.h.TableIndexes(table)
	if err != nil {
		return nil, err
	}
	for _, i := range idx {
		out = append(out, "index "+i+" is on it")
	}
	for _, kind := range []string{"stream", "mview"} {
		objs, err := e.catalog.Objects(kind)
		if err != nil {
			return nil, err
		}
		for _, o := range objs {
			sink, q := definitionQuery(o)
			if q == nil {
				continue
			}
			label := "stream " + o.Name
			if kind == "mview" {
				label = "materialized view " + o.Name
			}
			if strings.EqualFold(sink, table) {
				out = append(out, label+" writes it")
				continue
			}
			if slicesContainsFold(e.tablesRead(ctx, q), table) {
				out = append(out, label+" reads it")
			}
		}
	}
	return out, nil
}

// definitionQuery is a stored stream's sink and query, or a materialized
// view's query.
func definitionQuery(o *catalog.Object) (string, *sql.Query) {
	st, err := sql.ParseOne(o.SQL)
	if err != nil {
		return "", nil
	}
	switch s := st.(type) {
	case *sql.InsertStream:
		return s.Table, s.Query
	case *sql.CreateMaterializedView:
		return "", s.Query
	}
	return "", nil
}

// tablesRead names the catalog tables a query reads, through views too,
// by binding it; a query that no longer binds reads none.
func (e *Runner) tablesRead(ctx context.Context, q *sql.Query) []string {
	return e.h.TablesRead(ctx, q)
}

func slicesContainsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}
