package flint

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"sluice/internal/catalog"
	"sluice/internal/connector/registry"
	"sluice/internal/safepath"
	"sluice/internal/sql"
)

// createCoveringIndex runs CREATE INDEX: a materialized view of the
// listed columns (and WHERE) of the table, named as Flint names the
// index, with the index's options.
func (f *Flint) createCoveringIndex(ctx context.Context, s *sql.CreateCoveringIndex) (*Result, error) {
	t, err := f.h.Table(ctx, s.Table)
	if err != nil {
		return nil, fmt.Errorf("CREATE INDEX %s: %w", s.Name, err)
	}
	if err := safepath.CheckName(s.Name); err != nil {
		return nil, fmt.Errorf("CREATE INDEX: index %w", err)
	}
	fname := indexName(t, s.Name)
	if _, err := f.h.Catalog().Object(indexKind, flintObj(fname)); err == nil {
		if s.IfNotExists {
			return message("index %s already exists", fname), nil
		}
		return nil, fmt.Errorf("CREATE INDEX %s: index %s already exists", s.Name, fname)
	}
	seen := map[string]bool{}
	for _, c := range s.Columns {
		if !(fieldFold(t.Spec.Schema, c) >= 0) {
			return nil, fmt.Errorf("CREATE INDEX %s: table %s has no column %s", s.Name, t.Spec.Name, c)
		}
		if seen[strings.ToLower(c)] {
			return nil, fmt.Errorf("CREATE INDEX %s: column %s is listed twice", s.Name, c)
		}
		seen[strings.ToLower(c)] = true
	}
	db, _ := catalog.SplitStored(t.Spec.Name)
	view := catalog.StoredName(db, fname)
	items := make([]*sql.SelectItem, len(s.Columns))
	for i, c := range s.Columns {
		items[i] = sql.Item(sql.Col(c))
	}
	sel := sql.NewSelect(sql.TableRef(t.Spec.Name), items...)
	where := ""
	if s.Where != nil {
		sel.Where = s.Where
		where = s.Where.String()
	}
	q := sql.NewQuery(sel)
	spec := indexSpec{Flint: fname, Kind: kindCovering, Table: t.Spec.Name, Name: s.Name, IndexTable: view, Covered: s.Columns, Where: where}
	raw, _ := json.Marshal(spec)
	// The index is recorded first: a view created with auto_refresh runs
	// in the foreground until stopped.
	if err := f.h.Catalog().PutObject(&catalog.Object{Kind: indexKind, Name: flintObj(fname), SQL: s.String(), Options: raw, Created: f.h.Now(), Pending: catalog.Owner()}, false); err != nil {
		return nil, fmt.Errorf("CREATE INDEX %s: %w", s.Name, err)
	}
	with := s.With
	if coverSinkNeedsIndex(s.With) {
		// Flint's OpenSearch index name, unless one is given.
		with = append(append(sql.Options{}, s.With...), &sql.Option{Key: "index", Value: &sql.Literal{Kind: sql.LitString, Value: fname}})
	}
	r, err := f.CreateMView(ctx, &sql.CreateMaterializedView{Name: view, Query: q, With: with})
	if err != nil {
		if _, verr := f.h.Catalog().Object("mview", view); verr != nil {
			_ = f.h.Catalog().DropObject(indexKind, flintObj(fname), true)
		}
		return nil, fmt.Errorf("CREATE INDEX %s: %w", s.Name, err)
	}
	if err := f.completeObject(indexKind, flintObj(fname), ""); err != nil {
		return nil, fmt.Errorf("CREATE INDEX %s: %w", s.Name, err)
	}
	return message("index %s created; %s", fname, strings.TrimPrefix(r.Message, "materialized view "+view+" created; ")), nil
}

// coverSinkNeedsIndex reports whether options choose a sink with an
// index option (OpenSearch) without giving the index.
func coverSinkNeedsIndex(with sql.Options) bool {
	using := "index"
	for _, o := range with {
		switch strings.ToLower(o.Key) {
		case "index", "sink.index":
			return false
		case "sink":
			using = strings.ToLower(o.Value.Value)
		}
	}
	f, err := registry.Lookup(using)
	return err == nil && using != "index" && slices.Contains(f.OptionKeys, "index")
}
