package flint

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"sluice/internal/catalog"
	"sluice/internal/job"
	"sluice/internal/physical"
	"sluice/internal/skipindex"
	"sluice/internal/sql"
	"sluice/internal/types"
)

// indexKind is the catalog object kind of OpenSearch Flint's
// skipping and covering indexes, keyed by their Flint name.
const indexKind = "flint_index"

const (
	kindSkipping = "skipping"
	kindCovering = "covering"
)

// indexSpec is a Flint index as kept in the catalog. A covering
// index is a materialized view (IndexTable names it) over the table's
// listed columns; a skipping index is a stream over the table whose rows
// a skipindex.Sink folds into one row per file of IndexTable.
type indexSpec struct {
	// Flint is the index's Flint name (flint_..._skipping_index).
	Flint      string             `json:"flint"`
	Kind       string             `json:"kind"`
	Table      string             `json:"table"`
	Name       string             `json:"name,omitempty"`
	IndexTable string             `json:"index_table"`
	Columns    []skipindex.Column `json:"columns,omitempty"`
	Covered    []string           `json:"covered,omitempty"`
	Where      string             `json:"where,omitempty"`
	// The skipping index's refresh (a covering index's is its view's).
	AutoRefresh bool              `json:"auto_refresh,omitempty"`
	Interval    string            `json:"refresh_interval,omitempty"`
	Checkpoint  string            `json:"checkpoint,omitempty"`
	Options     map[string]string `json:"options,omitempty"`
}

// flintName is Flint's index name: flint_<catalog>_<db>_<table>_<suffix>,
// lower case as OpenSearch index names are.
func flintName(stored, suffix string) string {
	db, t := catalog.SplitStored(stored)
	return strings.ToLower("flint_" + catalog.CatalogNames[0] + "_" + db + "_" + t + "_" + suffix)
}

// flintObj is the catalog object name of the index with Flint name
// fname: objects share one namespace with tables, and the index's data
// table (or view) already has the Flint name.
func flintObj(fname string) string { return "fi_" + fname }

// indexDef reads the definition of the index with Flint name name
// (catalog.ErrNotFound when there is none).
func (f *Flint) indexDef(name string) (*catalog.Object, indexSpec, error) {
	var spec indexSpec
	o, err := f.h.Catalog().Object(indexKind, flintObj(name))
	if err != nil {
		return nil, spec, err
	}
	if err := json.Unmarshal(o.Options, &spec); err != nil {
		return nil, spec, fmt.Errorf("index %s: corrupt definition: %w", name, err)
	}
	return o, spec, nil
}

// indexName is the Flint name of the skipping index (name "") or of the
// covering index name on table t.
func indexName(t *catalog.Table, name string) string {
	if name == "" {
		return flintName(t.Spec.Name, "skipping_index")
	}
	return flintName(t.Spec.Name, strings.ToLower(name)+"_index")
}

// stmtWhat is the index as a statement names it: SKIPPING INDEX, INDEX name.
func stmtWhat(name string) string {
	if name == "" {
		return "SKIPPING INDEX"
	}
	return "INDEX " + name
}

// describeWhat is the index as a message names it: skipping index,
// index name.
func describeWhat(name string) string {
	if name == "" {
		return "skipping index"
	}
	return "index " + name
}

// indexCommand runs REFRESH, DESCRIBE, ALTER, DROP and VACUUM of the
// skipping index (no name) or covering index s names ON its table; a
// covering index's refresh and options are its view's.
func (f *Flint) indexCommand(ctx context.Context, s *sql.FlintIndexCommand) (*Result, error) {
	t, err := f.h.Table(ctx, s.Table)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", s.Action, stmtWhat(s.Name), err)
	}
	fname := indexName(t, s.Name)
	o, spec, err := f.indexDef(fname)
	if err != nil {
		if errors.Is(err, catalog.ErrNotFound) {
			if s.Action == sql.IndexVacuum {
				return message("%s on %s vacuumed", describeWhat(s.Name), t.Spec.Name), nil
			}
			return nil, fmt.Errorf("%s %s on %s: %s %w", s.Action, stmtWhat(s.Name), t.Spec.Name, fname, catalog.ErrNotFound)
		}
		return nil, err
	}
	switch s.Action {
	case sql.IndexRefresh:
		if spec.Kind == kindCovering {
			if _, err := f.refreshMViewStmt(ctx, spec.IndexTable); err != nil {
				return nil, fmt.Errorf("REFRESH INDEX %s: %w", s.Name, err)
			}
			return message("index %s refreshed", fname), nil
		}
		spec.AutoRefresh = false // REFRESH is one catch-up
		r, err := f.refreshSkipping(ctx, spec.Flint, spec)
		if err != nil {
			return nil, fmt.Errorf("REFRESH SKIPPING INDEX ON %s: %w", t.Spec.Name, err)
		}
		return message("skipping index %s refreshed; %s", fname, r.Message), nil
	case sql.IndexDescribe:
		return f.describeIndex(spec)
	case sql.IndexAlter:
		return f.alterIndex(ctx, o, spec, s.With)
	case sql.IndexDrop, sql.IndexVacuum:
		if err := f.dropIndex(ctx, spec.Flint, spec); err != nil {
			return nil, fmt.Errorf("%s %s on %s: %w", s.Action, stmtWhat(s.Name), t.Spec.Name, err)
		}
		verb := "dropped"
		if s.Action == sql.IndexVacuum {
			verb = "vacuumed"
		}
		return message("%s %s %s", describeWhat(s.Name), fname, verb), nil
	}
	return nil, fmt.Errorf("%s: %w", s.Action, physical.ErrNotSupported)
}

// dropIndex stops the index's refresh and removes its data, its
// checkpoint and its definition.
func (f *Flint) dropIndex(ctx context.Context, name string, spec indexSpec) error {
	if spec.Kind == kindCovering {
		if _, _, err := f.mviewDef(spec.IndexTable); err == nil {
			if _, err := f.DropMView(ctx, &sql.DropMaterializedView{Name: spec.IndexTable, IfExists: true}); err != nil {
				return err
			}
		}
		return f.h.Catalog().DropObject(indexKind, flintObj(name), true)
	}
	f.h.StopIfRunning("si_" + name)
	return f.removeSkipping(ctx, name, spec, true, true)
}

// alterIndex changes the refresh options. As in Flint, the
// statement must change auto_refresh.
func (f *Flint) alterIndex(ctx context.Context, o *catalog.Object, spec indexSpec, with sql.Options) (*Result, error) {
	auto := spec.AutoRefresh
	if spec.Kind == kindCovering {
		if _, mv, err := f.mviewDef(spec.IndexTable); err == nil {
			auto = mv.AutoRefresh
		}
	}
	changes := false
	for _, opt := range with {
		if strings.EqualFold(opt.Key, "auto_refresh") {
			v, err := job.ParseBool(opt.Value.Value, false)
			if err != nil {
				return nil, fmt.Errorf("ALTER INDEX %s: auto_refresh: %w", spec.Flint, err)
			}
			changes = v != auto
		}
	}
	if !changes {
		return nil, fmt.Errorf("ALTER INDEX %s: auto_refresh must be given and must change (it is %t)", spec.Flint, auto)
	}
	if spec.Kind == kindCovering {
		if _, err := f.alterView(ctx, spec.IndexTable, with); err != nil {
			return nil, fmt.Errorf("ALTER INDEX %s: %w", spec.Flint, err)
		}
		return message("index %s altered", spec.Flint), nil
	}
	return f.alterRefresh(ctx, refreshAlter{
		stmt: "ALTER SKIPPING INDEX " + spec.Flint, what: "skipping index " + spec.Flint, stream: "si_" + spec.Flint,
		keys: []string{"incremental_refresh", "scheduler_mode", "checkpoint_location", "watermark_delay"},
		auto: &spec.AutoRefresh, interval: &spec.Interval, checkpoint: &spec.Checkpoint, options: &spec.Options,
		obj: o, def: &spec,
		start: func(ctx context.Context) error {
			_, err := f.refreshSkipping(ctx, spec.Flint, spec)
			return err
		},
	}, with)
}

// describeIndex returns Flint's DESCRIBE rows: the indexed columns,
// their types and skip type (covering: "indexed").
func (f *Flint) describeIndex(spec indexSpec) (*Result, error) {
	var rows [][]string
	if spec.Kind == kindSkipping {
		for _, c := range spec.Columns {
			rows = append(rows, []string{c.Name, sparkTypeName(c.Type), c.Kind})
		}
		return stringRows([]string{"indexed_col_name", "data_type", "skip_type"}, rows), nil
	}
	t, _ := f.h.Catalog().Table(spec.Table)
	for _, c := range spec.Covered {
		typ := ""
		if t != nil {
			if i := fieldFold(t.Spec.Schema, c); i >= 0 {
				typ = sparkTypeName(types.SQLName(t.Spec.Schema.Field(i).Type))
			}
		}
		rows = append(rows, []string{c, typ, "indexed"})
	}
	return stringRows([]string{"indexed_col_name", "data_type", "index_type"}, rows), nil
}

// isIndexView reports whether a materialized view is a covering index's.
func (f *Flint) isIndexView(view string) bool {
	objs, err := f.h.Catalog().Objects(indexKind)
	if err != nil {
		return false
	}
	for _, o := range objs {
		var spec indexSpec
		if json.Unmarshal(o.Options, &spec) == nil && spec.Kind == kindCovering && strings.EqualFold(spec.IndexTable, view) {
			return true
		}
	}
	return false
}

// DropTableIndexes drops the Flint indexes on a table about to be
// dropped, so none outlives it (or attaches to a new table of its name);
// the table that is a skipping index's data is refused, as a view's is.
func (f *Flint) DropTableIndexes(ctx context.Context, table string) error {
	objs, err := f.h.Catalog().Objects(indexKind)
	if err != nil {
		return err
	}
	for _, o := range objs {
		var spec indexSpec
		if json.Unmarshal(o.Options, &spec) != nil {
			continue
		}
		if spec.Kind == kindSkipping && strings.EqualFold(spec.IndexTable, table) {
			return fmt.Errorf("it is the data of skipping index %s; use DROP SKIPPING INDEX ON %s", spec.Flint, spec.Table)
		}
		if !strings.EqualFold(spec.Table, table) {
			continue
		}
		if err := f.dropIndex(ctx, spec.Flint, spec); err != nil {
			return fmt.Errorf("dropping index %s: %w", spec.Flint, err)
		}
	}
	return nil
}

// Definition is the index's definition in the one shape of every job
// (job.Definition). A skipping index reads its table's files and indexed
// columns into its index table; a covering index is the materialized view
// named IndexTable, whose definition is the view's (ViewSpec.Definition),
// so view is that view's stored spec (ignored for a skipping index).
func (s indexSpec) Definition(view ViewSpec) job.Definition {
	if s.Kind == kindCovering {
		d := view.Definition(s.IndexTable)
		d.Name, d.Kind = s.Flint, job.Covering
		return d
	}
	return job.Definition{Name: s.Flint, Kind: job.Skipping, Query: skippingQuery(s.Table, s.Columns).String(),
		Sink: s.IndexTable, Options: s.Options}
}

// TableIndexes names the Flint indexes on table (skipping and covering),
// and the one whose data it is, if any: what renaming or moving the
// table would leave pointing at the old one.
func (f *Flint) TableIndexes(table string) ([]string, error) {
	objs, err := f.h.Catalog().Objects(indexKind)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, o := range objs {
		var spec indexSpec
		if json.Unmarshal(o.Options, &spec) != nil {
			continue
		}
		if strings.EqualFold(spec.Table, table) || strings.EqualFold(spec.IndexTable, table) {
			out = append(out, spec.Flint)
		}
	}
	return out, nil
}
