package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sluice/internal/job"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/catalog"
	"sluice/internal/connector"
	"sluice/internal/connector/registry"
	"sluice/internal/safepath"
	"sluice/internal/skipindex"
	"sluice/internal/sql"
	"sluice/internal/stream"
	"sluice/internal/types"
)

// flintIndexKind is the catalog object kind of OpenSearch Flint's
// skipping and covering indexes, keyed by their Flint name.
const flintIndexKind = "flint_index"

const (
	kindSkipping = "skipping"
	kindCovering = "covering"
)

// flintIndexSpec is a Flint index as kept in the catalog. A covering
// index is a materialized view (IndexTable names it) over the table's
// listed columns; a skipping index is a stream over the table whose rows
// a skipindex.Sink folds into one row per file of IndexTable.
type flintIndexSpec struct {
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

func (e *Engine) flintIndexDef(name string) (*catalog.Object, flintIndexSpec, error) {
	var spec flintIndexSpec
	o, err := e.catalog.Object(flintIndexKind, flintObj(name))
	if err != nil {
		return nil, spec, err
	}
	if err := json.Unmarshal(o.Options, &spec); err != nil {
		return nil, spec, fmt.Errorf("index %s: corrupt definition: %w", name, err)
	}
	return o, spec, nil
}

// flintIndex runs the Flint index statements; ok is false for others.
func (e *Engine) flintIndex(ctx context.Context, st sql.Statement) (r *Result, ok bool, err error) {
	switch s := st.(type) {
	case *sql.CreateSkippingIndex:
		r, err = e.createSkippingIndex(ctx, s)
	case *sql.CreateCoveringIndex:
		r, err = e.createCoveringIndex(ctx, s)
	case *sql.FlintIndexCommand:
		r, err = e.flintIndexCommand(ctx, s)
	case *sql.ShowIndexes:
		r, err = e.showIndexes(ctx, s)
	case *sql.ShowFlintIndexes:
		r, err = e.showFlintIndexes(ctx, s)
	case *sql.RecoverIndexJob:
		r, err = e.recoverIndexJob(ctx, s)
	case *sql.AnalyzeSkippingIndex:
		r, err = e.analyzeSkippingIndex(ctx, s)
	default:
		return nil, false, nil
	}
	return r, true, err
}

// indexTable resolves the table an index statement is ON.
func (e *Engine) indexTable(ctx context.Context, name string) (*catalog.Table, error) {
	stored, err := e.qualify(ctx, name)
	if err != nil {
		return nil, err
	}
	t, err := e.catalog.Table(stored)
	if err != nil {
		return nil, e.suggestTable(ctx, name, err)
	}
	return t, nil
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

func describeWhat(name string) string {
	if name == "" {
		return "skipping index"
	}
	return "index " + name
}

func (e *Engine) flintIndexCommand(ctx context.Context, s *sql.FlintIndexCommand) (*Result, error) {
	t, err := e.indexTable(ctx, s.Table)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", s.Action, stmtWhat(s.Name), err)
	}
	fname := indexName(t, s.Name)
	o, spec, err := e.flintIndexDef(fname)
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
			if _, err := e.refreshMViewStmt(ctx, spec.IndexTable); err != nil {
				return nil, fmt.Errorf("REFRESH INDEX %s: %w", s.Name, err)
			}
			return message("index %s refreshed", fname), nil
		}
		spec.AutoRefresh = false // REFRESH is one catch-up
		r, err := e.refreshSkipping(ctx, spec.Flint, spec)
		if err != nil {
			return nil, fmt.Errorf("REFRESH SKIPPING INDEX ON %s: %w", t.Spec.Name, err)
		}
		return message("skipping index %s refreshed; %s", fname, r.Message), nil
	case sql.IndexDescribe:
		return e.describeFlintIndex(spec)
	case sql.IndexAlter:
		return e.alterFlintIndex(ctx, o, spec, s.With)
	case sql.IndexDrop, sql.IndexVacuum:
		if err := e.dropFlintIndex(ctx, spec.Flint, spec); err != nil {
			return nil, fmt.Errorf("%s %s on %s: %w", s.Action, stmtWhat(s.Name), t.Spec.Name, err)
		}
		verb := "dropped"
		if s.Action == sql.IndexVacuum {
			verb = "vacuumed"
		}
		return message("%s %s %s", describeWhat(s.Name), fname, verb), nil
	}
	return nil, fmt.Errorf("%s: %w", s.Action, ErrNotSupported)
}

// createCoveringIndex runs CREATE INDEX: a materialized view of the
// listed columns (and WHERE) of the table, named as Flint names the
// index, with the index's options.
func (e *Engine) createCoveringIndex(ctx context.Context, s *sql.CreateCoveringIndex) (*Result, error) {
	t, err := e.indexTable(ctx, s.Table)
	if err != nil {
		return nil, fmt.Errorf("CREATE INDEX %s: %w", s.Name, err)
	}
	if err := safepath.CheckName(s.Name); err != nil {
		return nil, fmt.Errorf("CREATE INDEX: index %w", err)
	}
	fname := indexName(t, s.Name)
	if _, err := e.catalog.Object(flintIndexKind, flintObj(fname)); err == nil {
		if s.IfNotExists {
			return message("index %s already exists", fname), nil
		}
		return nil, fmt.Errorf("CREATE INDEX %s: index %s already exists", s.Name, fname)
	}
	seen := map[string]bool{}
	for _, c := range s.Columns {
		if !hasFieldFold(t.Spec.Schema, c) {
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
	spec := flintIndexSpec{Flint: fname, Kind: kindCovering, Table: t.Spec.Name, Name: s.Name, IndexTable: view, Covered: s.Columns, Where: where}
	raw, _ := json.Marshal(spec)
	// The index is recorded first: a view created with auto_refresh runs
	// in the foreground until stopped.
	if err := e.catalog.PutObject(&catalog.Object{Kind: flintIndexKind, Name: flintObj(fname), SQL: s.String(), Options: raw, Created: e.now()}, false); err != nil {
		return nil, fmt.Errorf("CREATE INDEX %s: %w", s.Name, err)
	}
	with := s.With
	if coverSinkNeedsIndex(s.With) {
		// Flint's OpenSearch index name, unless one is given.
		with = append(append(sql.Options{}, s.With...), &sql.Option{Key: "index", Value: &sql.Literal{Kind: sql.LitString, Value: fname}})
	}
	r, err := e.createMView(ctx, &sql.CreateMaterializedView{Name: view, Query: q, With: with})
	if err != nil {
		if _, verr := e.catalog.Object("mview", view); verr != nil {
			_ = e.catalog.DropObject(flintIndexKind, flintObj(fname), true)
		}
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

// dropFlintIndex stops the index's refresh and removes its data, its
// checkpoint and its definition.
func (e *Engine) dropFlintIndex(ctx context.Context, name string, spec flintIndexSpec) error {
	if spec.Kind == kindCovering {
		if _, _, err := e.mviewDef(spec.IndexTable); err == nil {
			if _, err := e.dropMView(ctx, &sql.DropMaterializedView{Name: spec.IndexTable, IfExists: true}); err != nil {
				return err
			}
		}
		return e.catalog.DropObject(flintIndexKind, flintObj(name), true)
	}
	e.jobs.StopIfRunning("si_" + name)
	return e.removeSkipping(ctx, name, spec, true, true)
}

// removeSkipping deletes a skipping index's checkpoint (withCheckpoint),
// its data table and its catalog entries; strict as removeMView.
func (e *Engine) removeSkipping(ctx context.Context, name string, spec flintIndexSpec, strict, withCheckpoint bool) error {
	var errs []error
	fail := func(err error) bool {
		errs = append(errs, err)
		return strict
	}
	if withCheckpoint && spec.Checkpoint != "" {
		if store, prefix, err := e.resolveCheckpoint(ctx, spec.Checkpoint); err != nil {
			if fail(fmt.Errorf("checkpoint %s: %w", spec.Checkpoint, err)) {
				return errors.Join(errs...)
			}
		} else if err := stream.RemoveCheckpoint(ctx, &stream.Checkpoint{Store: store, Prefix: prefix}); err != nil {
			if fail(err) {
				return errors.Join(errs...)
			}
		}
	}
	if t, err := e.catalog.Table(spec.IndexTable); err == nil {
		if err := e.forgetTable(ctx, t); err != nil {
			if fail(err) {
				return errors.Join(errs...)
			}
			_ = e.catalog.DropTable(spec.IndexTable, true)
		}
	}
	_ = e.catalog.DropObject("stream", "si_"+name, true)
	if err := e.catalog.DropObject(flintIndexKind, flintObj(name), true); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// alterFlintIndex changes the refresh options. As in Flint, the
// statement must change auto_refresh.
func (e *Engine) alterFlintIndex(ctx context.Context, o *catalog.Object, spec flintIndexSpec, with sql.Options) (*Result, error) {
	auto := spec.AutoRefresh
	if spec.Kind == kindCovering {
		if _, mv, err := e.mviewDef(spec.IndexTable); err == nil {
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
		if _, err := e.alterView(ctx, spec.IndexTable, with); err != nil {
			return nil, fmt.Errorf("ALTER INDEX %s: %w", spec.Flint, err)
		}
		return message("index %s altered", spec.Flint), nil
	}
	return e.alterRefresh(ctx, refreshAlter{
		stmt: "ALTER SKIPPING INDEX " + spec.Flint, what: "skipping index " + spec.Flint, stream: "si_" + spec.Flint,
		keys: []string{"incremental_refresh", "scheduler_mode", "checkpoint_location", "watermark_delay"},
		auto: &spec.AutoRefresh, interval: &spec.Interval, checkpoint: &spec.Checkpoint, options: &spec.Options,
		obj: o, def: &spec,
		start: func(ctx context.Context) error {
			_, err := e.refreshSkipping(ctx, spec.Flint, spec)
			return err
		},
	}, with)
}

// describeFlintIndex returns Flint's DESCRIBE rows: the indexed columns,
// their types and skip type (covering: "indexed").
func (e *Engine) describeFlintIndex(spec flintIndexSpec) (*Result, error) {
	var rows [][]string
	if spec.Kind == kindSkipping {
		for _, c := range spec.Columns {
			rows = append(rows, []string{c.Name, sparkTypeName(c.Type), c.Kind})
		}
		return stringRows([]string{"indexed_col_name", "data_type", "skip_type"}, rows), nil
	}
	t, _ := e.catalog.Table(spec.Table)
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

func fieldFold(s *arrow.Schema, name string) int {
	for i, f := range s.Fields() {
		if strings.EqualFold(f.Name, name) {
			return i
		}
	}
	return -1
}

// sparkTypeName is Spark's typeName for a SQL type name (INT is
// integer, BIGINT long), as Flint prints column types.
func sparkTypeName(sqlName string) string {
	switch strings.ToUpper(sqlName) {
	case "INT":
		return "integer"
	case "BIGINT":
		return "long"
	case "SMALLINT":
		return "short"
	case "TINYINT":
		return "byte"
	}
	return strings.ToLower(sqlName)
}

// showIndexes is SHOW INDEXES ON t: its covering indexes' names.
func (e *Engine) showIndexes(ctx context.Context, s *sql.ShowIndexes) (*Result, error) {
	t, err := e.indexTable(ctx, s.Table)
	if err != nil {
		return nil, fmt.Errorf("SHOW INDEXES: %w", err)
	}
	objs, err := e.catalog.Objects(flintIndexKind)
	if err != nil {
		return nil, err
	}
	var rows [][]string
	for _, o := range objs {
		var spec flintIndexSpec
		if json.Unmarshal(o.Options, &spec) == nil && spec.Kind == kindCovering && strings.EqualFold(spec.Table, t.Spec.Name) {
			rows = append(rows, []string{spec.Name})
		}
	}
	return stringRows([]string{"index_name"}, rows), nil
}

// showFlintIndexes is SHOW FLINT INDEXES [EXTENDED] IN catalog[.db]:
// Flint's columns, views included (kind mv).
func (e *Engine) showFlintIndexes(ctx context.Context, s *sql.ShowFlintIndexes) (*Result, error) {
	db, err := e.databaseOf(ctx, s.In)
	if err != nil {
		return nil, fmt.Errorf("SHOW FLINT INDEXES: %w", err)
	}
	objs, err := e.catalog.Objects(flintIndexKind)
	if err != nil {
		return nil, err
	}
	status := func(stream string) (string, string) {
		rs := e.jobs.Current(stream)
		if rs == nil {
			return "active", ""
		}
		st := rs.Snapshot()
		switch {
		case st.State == job.StateRunning:
			return "refreshing", ""
		case st.LastError != "":
			return "failed", st.LastError
		}
		return "active", ""
	}
	views := map[string]bool{}
	var rows [][]string
	for _, o := range objs {
		var spec flintIndexSpec
		if json.Unmarshal(o.Options, &spec) != nil {
			continue
		}
		if tdb, _ := catalog.SplitStored(spec.Table); tdb != db {
			continue
		}
		_, table := catalog.SplitStored(spec.Table)
		auto, st, msg := spec.AutoRefresh, "", ""
		name := "NULL"
		if spec.Kind == kindCovering {
			views[strings.ToLower(spec.IndexTable)] = true
			name = spec.Name
			if _, mv, err := e.mviewDef(spec.IndexTable); err == nil {
				auto = mv.AutoRefresh
			}
			st, msg = status("mv_" + spec.IndexTable)
		} else {
			st, msg = status("si_" + spec.Flint)
		}
		rows = append(rows, []string{spec.Flint, spec.Kind, db, table, name, strconv.FormatBool(auto), st, msg})
	}
	mvs, err := e.catalog.Objects("mview")
	if err != nil {
		return nil, err
	}
	for _, o := range mvs {
		vdb, vname := catalog.SplitStored(o.Name)
		if vdb != db || views[strings.ToLower(o.Name)] {
			continue
		}
		var mv mviewSpec
		_ = json.Unmarshal(o.Options, &mv)
		st, msg := status("mv_" + o.Name)
		rows = append(rows, []string{strings.ToLower("flint_" + catalog.CatalogNames[0] + "_" + vdb + "_" + vname), "mv", db, "NULL", vname,
			strconv.FormatBool(mv.AutoRefresh), st, msg})
	}
	slices.SortFunc(rows, func(a, b []string) int { return strings.Compare(a[0], b[0]) })
	cols := []string{"flint_index_name", "kind", "database", "table", "index_name", "auto_refresh", "status"}
	if s.Extended {
		cols = append(cols, "error")
	} else {
		for i := range rows {
			rows[i] = rows[i][:7]
		}
	}
	return stringRows(cols, rows), nil
}

// recoverIndexJob restarts an auto-refreshed index's refresh (its job id
// is its Flint name) when it is not running.
func (e *Engine) recoverIndexJob(ctx context.Context, s *sql.RecoverIndexJob) (*Result, error) {
	name := strings.ToLower(s.Name)
	if _, spec, err := e.flintIndexDef(name); err == nil {
		if spec.Kind == kindCovering {
			return e.recoverView(ctx, name, spec.IndexTable)
		}
		if !spec.AutoRefresh {
			return message("index %s is not auto refreshed: nothing to recover", spec.Flint), nil
		}
		if e.jobs.IsRunning("si_" + spec.Flint) {
			return message("index %s is refreshing", spec.Flint), nil
		}
		if _, err := e.refreshSkipping(ctx, spec.Flint, spec); err != nil {
			return nil, fmt.Errorf("RECOVER INDEX JOB %s: %w", s.Name, err)
		}
		return message("index %s recovered", spec.Flint), nil
	}
	// A view's job id is flint_<catalog>_<db>_<view>.
	mvs, err := e.catalog.Objects("mview")
	if err != nil {
		return nil, err
	}
	for _, o := range mvs {
		db, v := catalog.SplitStored(o.Name)
		if strings.ToLower("flint_"+catalog.CatalogNames[0]+"_"+db+"_"+v) == name {
			return e.recoverView(ctx, name, o.Name)
		}
	}
	return nil, fmt.Errorf("RECOVER INDEX JOB %s: no index has that job id", s.Name)
}

func (e *Engine) recoverView(ctx context.Context, job, view string) (*Result, error) {
	o, spec, err := e.mviewDef(view)
	if err != nil {
		return nil, err
	}
	if !spec.AutoRefresh {
		return message("index %s is not auto refreshed: nothing to recover", job), nil
	}
	if e.jobs.IsRunning("mv_" + o.Name) {
		return message("index %s is refreshing", job), nil
	}
	if _, err := e.refreshMView(ctx, o.Name, spec); err != nil {
		return nil, fmt.Errorf("RECOVER INDEX JOB %s: %w", job, err)
	}
	return message("index %s recovered", job), nil
}

// sinkWrap puts a sink between a stream and its table's sink; schema is
// what the stream's query must produce.
type sinkWrap struct {
	schema *arrow.Schema
	wrap   func(connector.Sink) connector.Sink
}

// isIndexView reports whether a materialized view is a covering index's.
func (e *Engine) isIndexView(view string) bool {
	objs, err := e.catalog.Objects(flintIndexKind)
	if err != nil {
		return false
	}
	for _, o := range objs {
		var spec flintIndexSpec
		if json.Unmarshal(o.Options, &spec) == nil && spec.Kind == kindCovering && strings.EqualFold(spec.IndexTable, view) {
			return true
		}
	}
	return false
}

// dropTableIndexes drops the Flint indexes on a table about to be
// dropped, so none outlives it (or attaches to a new table of its name);
// the table that is a skipping index's data is refused, as a view's is.
func (e *Engine) dropTableIndexes(ctx context.Context, table string) error {
	objs, err := e.catalog.Objects(flintIndexKind)
	if err != nil {
		return err
	}
	for _, o := range objs {
		var spec flintIndexSpec
		if json.Unmarshal(o.Options, &spec) != nil {
			continue
		}
		if spec.Kind == kindSkipping && strings.EqualFold(spec.IndexTable, table) {
			return fmt.Errorf("it is the data of skipping index %s; use DROP SKIPPING INDEX ON %s", spec.Flint, spec.Table)
		}
		if !strings.EqualFold(spec.Table, table) {
			continue
		}
		if err := e.dropFlintIndex(ctx, spec.Flint, spec); err != nil {
			return fmt.Errorf("dropping index %s: %w", spec.Flint, err)
		}
	}
	return nil
}
